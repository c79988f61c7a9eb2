"""Token counts as the configured model counts them: OpenAI's ``tiktoken``, as Microsoft GraphRAG uses it.

:func:`tokenizer_for` picks the encoding of a model name (``gpt-4o`` → ``o200k_base``, ``gpt-4`` →
``cl100k_base``); a model tiktoken does not know (a local Llama, Qwen…) gets ``o200k_base``,
Microsoft GraphRAG 3's default encoding, and :attr:`Tokenizer.exact` says the count is then an
estimate of that model's own count. The rank files of ``cl100k_base`` and ``o200k_base`` ship
with ragprov (``data/tiktoken``, see its NOTICE), so counting never needs the network.

>>> t = tokenizer_for("gpt-4o")
>>> t.encoding, t.exact
('o200k_base', True)
>>> t.count("Marley was dead: to begin with.")
9
>>> tokenizer_for("llama3.1:8b").encoding, tokenizer_for("llama3.1:8b").exact
('o200k_base', False)
"""

from __future__ import annotations

import dataclasses
import functools
import os
import threading
from typing import TYPE_CHECKING

from ..errors import ConfigurationError

if TYPE_CHECKING:
    import tiktoken

__all__ = ["DEFAULT_ENCODING", "VENDORED_ENCODINGS", "Tokenizer", "encoding", "tokenizer_for"]

#: Microsoft GraphRAG 3's ``encoding_model`` default (graphrag.config.defaults.ENCODING_MODEL)
DEFAULT_ENCODING = "o200k_base"
#: the encodings whose rank files ship with ragprov
VENDORED_ENCODINGS = ("cl100k_base", "o200k_base")

_LOCK = threading.Lock()


def _vendored_dir() -> str:
    from ..resources import data_dir

    return str(data_dir() / "tiktoken")


@functools.cache
def encoding(name: str) -> tiktoken.Encoding:
    """The tiktoken encoding ``name``; the vendored ones are read from ragprov's own copy of
    tiktoken's download cache (tiktoken checks their SHA-256), never from the network."""
    try:
        import tiktoken
    except ImportError:  # pragma: no cover - tiktoken is a core dependency
        raise ConfigurationError("counting tokens needs tiktoken: pip install tiktoken") from None
    if name not in VENDORED_ENCODINGS:
        try:
            return tiktoken.get_encoding(name)
        except Exception as e:
            raise ConfigurationError(
                f"the tiktoken encoding {name!r} is not shipped with ragprov ({', '.join(VENDORED_ENCODINGS)} are) "
                f"and could not be loaded: {e}"
            ) from None
    with _LOCK:  # tiktoken reads TIKTOKEN_CACHE_DIR while it loads; point it at the vendored files
        before = os.environ.get("TIKTOKEN_CACHE_DIR")
        os.environ["TIKTOKEN_CACHE_DIR"] = _vendored_dir()
        try:
            return tiktoken.get_encoding(name)
        finally:
            if before is None:
                del os.environ["TIKTOKEN_CACHE_DIR"]
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = before


@dataclasses.dataclass(frozen=True)
class Tokenizer:
    """Counts tokens with one tiktoken encoding. ``exact`` is false when the model is not one
    tiktoken knows (the count is then ``o200k_base``'s, as Microsoft GraphRAG counts)."""

    model: str
    encoding: str
    exact: bool

    def count(self, text: str) -> int:
        """The number of tokens of ``text`` (special-token text counted as ordinary text)."""
        return len(encoding(self.encoding).encode(text, disallowed_special=()))

    def encode(self, text: str) -> list[int]:
        return encoding(self.encoding).encode(text, disallowed_special=())


@functools.cache
def tokenizer_for(model: str | None) -> Tokenizer:
    """The tokenizer of ``model`` (``None`` or unknown → :data:`DEFAULT_ENCODING`)."""
    import tiktoken

    name = (model or "").rsplit("/", 1)[-1]
    try:
        found = tiktoken.encoding_name_for_model(name)
    except KeyError:
        return Tokenizer(model or "", DEFAULT_ENCODING, False)
    return Tokenizer(model or "", found, True)
