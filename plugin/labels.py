"""The one label renderer: how an IRI or a term is named to a reader when no label is known, and
how long text is shortened. Views differ in how they quote literals; the names come from here.

>>> local_name("https://trustgraph.ai/ns/Grounding"), local_name(NamedNode("urn:graph:facts"))
('Grounding', 'facts')
>>> readable_name("https://example.org/ns#hasBusinessPartner")
'has business partner'
>>> readable_name("urn:graphrag:entity:EBENEZER%20SCROOGE")
'EBENEZER SCROOGE'
>>> shorten("Marley  was\\n dead", 10)
'Marley wa…'
>>> iri_label(NamedNode("urn:e:1"), {"urn:e:1": "Scrooge"}), iri_label(NamedNode("urn:e:2"), {})
('Scrooge', '2')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import unquote

from pyoxigraph import NamedNode

__all__ = ["iri_label", "local_name", "readable_name", "shorten"]


def local_name(iri: NamedNode | str) -> str:
    """The part of an IRI after its last ``#``, ``/`` or ``:`` (as written)."""
    value = iri.value if isinstance(iri, NamedNode) else iri
    for sep in ("#", "/", ":"):
        if sep in value:
            value = value.rsplit(sep, 1)[1]
    return value


def readable_name(iri: str) -> str:
    """A readable name from an IRI's last segment: decoded, camelCase and ``_``/``-`` split into
    lower-case words (``relatedTo`` → ``related to``); all-capital or spaced names kept."""
    tail = re.split(r"[#/:]", iri.rstrip("/#"))[-1] or iri
    tail = unquote(tail)
    if tail.isupper() or " " in tail:
        return tail
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", tail).replace("_", " ").replace("-", " ")
    return words.lower() if words != tail or tail.islower() else tail


def shorten(text: str | None, n: int = 160) -> str:
    """``text`` on one line, cut to ``n`` characters with an ellipsis (``None``: empty)."""
    if text is None:
        return ""
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def iri_label(iri: NamedNode, labels: Mapping[str, str], *, width: int | None = None) -> str:
    """An IRI by its label in ``labels`` (keyed by IRI text; shortened to ``width``), else its local name."""
    label = labels.get(iri.value)
    if not label:
        return local_name(iri)
    return shorten(label, width) if width is not None else label
