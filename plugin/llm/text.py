"""The lexical tools the offline engine uses, owned by :mod:`ragprov.retrieve.lexical` (retrieval
tokenises without the language-model package; the engine reads the same tokens from there)."""

from __future__ import annotations

from ..retrieve.lexical import BM25, STOPWORDS, content_tokens, extract_concepts, passage_terms, split_sentences, stem, tokenize

__all__ = ["BM25", "STOPWORDS", "content_tokens", "extract_concepts", "passage_terms", "split_sentences", "stem", "tokenize"]
