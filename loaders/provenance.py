"""Extraction-time provenance quads, in exactly the shape of the ``queries/extract/*`` templates.

Each function writes, through a :class:`~ragprov.loaders._rdf.QuadWriter`, the same quads as its
template (``extract/document``, ``extract/activity``, ``extract/page``, ``extract/chunk``,
``extract/statement``) renders; a test loads both into fresh stores and compares them quad for quad.
The templates are the definition (readable at an endpoint, usable from other tools); these
functions are the loaders' bulk path.

Arguments are already-spelled terms (``<iri>``, ``"literal"``): the loaders spell each IRI once.

Shapes (``urn:graph:source`` unless noted)::

    <doc>   a prov:Entity, tg:Document ; rdfs:label, dc:title ; dc:source ; tg:mimeType ; tg:pageCount
    <act>   a prov:Activity ; rdfs:label ; prov:used <parent>* ; prov:wasAssociatedWith <agent> ;
            tg:componentVersion ; prov:startedAtTime ; [tg:chunkSize ; tg:chunkOverlap ; tg:llmModel ; tg:ontology]
    <agent> a prov:Agent, prov:SoftwareAgent ; rdfs:label
    <page>  a prov:Entity, tg:Page ; rdfs:label "Page n" ; tg:pageNumber n ; prov:wasDerivedFrom <doc> ; prov:wasGeneratedBy <act>
    <chunk> a prov:Entity, tg:Chunk ; rdfs:label "Chunk i" ; tg:chunkIndex ; tg:charOffset ; tg:charLength ;
            prov:wasDerivedFrom <page-or-doc> ; prov:wasGeneratedBy <act>
            (urn:graph:library) <chunk> tg:mimeType "text/plain" ; tg:content "text"
    <stmt>  a prov:Entity, tg:Statement ; prov:wasDerivedFrom <chunk-or-doc>+ ; prov:wasGeneratedBy <act> ;
            tg:reifies <<( s p o )>> ; tg:contains <<( s p o )>>
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable

from ._rdf import LIBRARY, SOURCE, QuadWriter, V, datetime, integer, quoted, string

__all__ = ["activity_quads", "chunk_quads", "document_quads", "page_quads", "statement_quads"]

_ENTITY = V.prov("Entity")
_DERIVED = V.prov("wasDerivedFrom")
_GENERATED = V.prov("wasGeneratedBy")
_TEXT_PLAIN = string("text/plain")
_CHUNK = V.tg("Chunk")
_STATEMENT = V.tg("Statement")
_REIFIES = V.tg("reifies")
_CONTAINS = V.tg("contains")
_CHUNK_INDEX = V.tg("chunkIndex")
_CHAR_OFFSET = V.tg("charOffset")
_CHAR_LENGTH = V.tg("charLength")
_MIME = V.tg("mimeType")
_CONTENT = V.tg("content")
_PAGE_COUNT = V.tg("pageCount")


def document_quads(
    w: QuadWriter, document: str, *, title: str, mime_type: str, source: str | None = None, page_count: int | None = None
) -> None:
    """``extract/document``: the Document root of an extraction."""
    t = string(title)
    pairs = [(V.type, _ENTITY), (V.type, V.tg("Document")), (V.label, t), (V.dc("title"), t)]
    if source is not None:
        pairs.append((V.dc("source"), string(source)))
    if page_count is not None:
        pairs.append((_PAGE_COUNT, integer(page_count)))
    pairs.append((_MIME, string(mime_type)))
    w.node(document, SOURCE, pairs)


def activity_quads(
    w: QuadWriter,
    activity: str,
    *,
    label: str,
    used: Iterable[str],
    agent: str,
    agent_label: str,
    version: str,
    started: _dt.datetime,
    chunk_size: int | None = None,
    chunk_overlap: int | None = None,
    llm_model: str | None = None,
    ontology: str | None = None,
) -> None:
    """``extract/activity``: one extraction activity and its software agent."""
    pairs = [(V.type, V.prov("Activity")), (V.label, string(label))]
    pairs.extend((V.prov("used"), entity) for entity in used)
    if chunk_size is not None:
        pairs.append((V.tg("chunkSize"), integer(chunk_size)))
    if chunk_overlap is not None:
        pairs.append((V.tg("chunkOverlap"), integer(chunk_overlap)))
    if llm_model is not None:
        pairs.append((V.tg("llmModel"), string(llm_model)))
    if ontology is not None:
        pairs.append((V.tg("ontology"), ontology))
    pairs.append((V.tg("componentVersion"), string(version)))
    pairs.append((V.prov("startedAtTime"), datetime(started)))
    pairs.append((V.prov("wasAssociatedWith"), agent))
    w.node(activity, SOURCE, pairs)
    w.node(agent, SOURCE, [(V.type, V.prov("Agent")), (V.type, V.prov("SoftwareAgent")), (V.label, string(agent_label))])


def page_quads(w: QuadWriter, page: str, *, document: str, number: int, activity: str) -> None:
    """``extract/page``: one page of a document."""
    w.node(
        page,
        SOURCE,
        [
            (V.type, _ENTITY),
            (V.type, V.tg("Page")),
            (V.label, string(f"Page {number}")),
            (V.tg("pageNumber"), integer(number)),
            (_DERIVED, document),
            (_GENERATED, activity),
        ],
    )


def chunk_quads(
    w: QuadWriter,
    chunk: str,
    *,
    parent: str,
    index: int,
    length: int,
    activity: str,
    text: str | None,
    offset: int | None = None,
    extra: Iterable[tuple[str, str]] = (),
) -> None:
    """``extract/chunk``: one chunk, and its text in the library graph. ``extra`` adds more
    ``(predicate, object)`` pairs of the chunk in ``urn:graph:source`` (GraphRAG text units).
    ``text=None`` leaves out the library quads (a caller writing them a column at a time)."""
    pairs = [(V.type, _ENTITY), (V.type, _CHUNK), (V.label, string(f"Chunk {index}")), (_CHUNK_INDEX, integer(index))]
    if offset is not None:
        pairs.append((_CHAR_OFFSET, integer(offset)))
    pairs.append((_CHAR_LENGTH, integer(length)))
    pairs.append((_DERIVED, parent))
    pairs.append((_GENERATED, activity))
    pairs.extend(extra)
    w.node(chunk, SOURCE, pairs)
    if text is not None:
        w.node(chunk, LIBRARY, [(_MIME, _TEXT_PLAIN), (_CONTENT, string(text))])


def statement_quads(
    w: QuadWriter, statement: str, *, fact: tuple[str, str, str], derived_from: Iterable[str], activity: str
) -> None:
    """``extract/statement``: the Statement that reifies one fact, derived from its sources."""
    pairs = [(V.type, _ENTITY), (V.type, _STATEMENT)]
    pairs.extend((_DERIVED, source) for source in derived_from)
    pairs.append((_GENERATED, activity))
    fact_term = quoted(*fact)
    pairs.append((_REIFIES, fact_term))
    pairs.append((_CONTAINS, fact_term))  # the subgraph of this one fact: TrustGraph's edge -> source link
    w.node(statement, SOURCE, pairs)
