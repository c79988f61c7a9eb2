"""Offline answer extraction: from the evidence a retrieval mode kept to one stated answer.

The algorithm is described, with an example, in :mod:`ragprov.llm.answer.extract`. Its steps, one module each,
each importing only the ones above it:

- :mod:`~ragprov.llm.answer.words`: word roots, sentences, name patterns and spans
- :mod:`~ragprov.llm.answer.question`: the question typed (:func:`classify`) and its terms
- :mod:`~ragprov.llm.answer.lexicon`: word meaning from WordNet 3.0 (a noun a kind of another), what a
  "what/which NOUN" question asks a kind of
- :mod:`~ragprov.llm.answer.antecedents`: whom a person pronoun stands for (the sentence before that names someone)
- :mod:`~ragprov.llm.answer.records`: :class:`Candidate`, :class:`Extraction` and the candidate being collected
- :mod:`~ragprov.llm.answer.relations`: relational questions ("Who is X's R?") and the sentences stating them
- :mod:`~ragprov.llm.answer.sentence`: answers that are a sentence (why / what / how, yes-no)
- :mod:`~ragprov.llm.answer.reasons`: why-questions: the span stating what is asked with the reason given for it
- :mod:`~ragprov.llm.answer.yesno`: yes-no questions: the sentence stating the asked predication, affirmed or denied
- :mod:`~ragprov.llm.answer.speech`: quotations and their speakers
- :mod:`~ragprov.llm.answer.things`, :mod:`~ragprov.llm.answer.places`: noun phrases and place phrases
- :mod:`~ragprov.llm.answer.asked`: what the question asks (its key terms, verb, the noun it asks the name of)
- :mod:`~ragprov.llm.answer.evidence`: how a sentence speaks of a candidate (words near it, its role)
- :mod:`~ragprov.llm.answer.times`: numbers, counts and time expressions
- :mod:`~ragprov.llm.answer.candidates`: candidates collected, resolved and merged
- :mod:`~ragprov.llm.answer.typed`: the noun a which/what question asks its answer to be ("which of the spirits"), and
  whether a candidate's name or the evidence calls it one ("Tom, an old baker")
- :mod:`~ragprov.llm.answer.rank`: features, weights, support and answerability
- :mod:`~ragprov.llm.answer.extract`: :func:`extract_answer` and its first line
"""

from __future__ import annotations

from .extract import extract_answer
from .limits import MIN_COVERAGE, MIN_SUPPORT
from .question import QuestionType, classify
from .rank import FEATURES, candidate_features
from .rank import WEIGHTS as WEIGHTS
from .records import Candidate, Extraction
from .words import root_tokens

__all__ = [
    "FEATURES", "MIN_COVERAGE", "MIN_SUPPORT", "Candidate", "Extraction", "QuestionType", "candidate_features", "classify",
    "extract_answer", "root_tokens",
]
