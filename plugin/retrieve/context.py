"""Microsoft GraphRAG's context for local, global and DRIFT search, read from the loaded index:
an entity's reports, relationships, claims and text units (ranked as GraphRAG ranks them and cut to
token budgets), item texts, and community reports with findings.

The reads are templates (``retrieve/graphrag-*``) run through a :class:`~.reader.FactsReader`.

>>> approx_tokens("Marley was dead: to begin with.")
8
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from pyoxigraph import NamedNode, Triple

from ..navigate._terms import float_value as _num
from ..navigate._terms import str_value
from ..record.events import Source
from ._batch import batches

__all__ = [
    "approx_tokens",
    "best_reports",
    "community_reports",
    "entity_context",
    "item_text",
    "item_texts",
    "local_candidates",
    "local_context",
    "report_ratings",
    "report_statements",
    "report_text",
    "report_tree",
    "report_units",
    "select_local",
    "unit_sources",
]


#: one candidate of local search: ``(entity, kind, item, rank, weight, source, target)``; kind is
#: report | relationship | claim | text_unit, rank and weight 0.0 where the index has none,
#: source and target a relationship's ends (``None`` for other kinds)
ContextRow = tuple[NamedNode, str, NamedNode, float, float, NamedNode | None, NamedNode | None]


def entity_context(reader, entities: Sequence[NamedNode]) -> list[ContextRow]:
    """Reports, relationships, claims and text units of ``entities`` (local search's candidates):
    from the persistent index where the store has one, else ``retrieve/graphrag-entity-context``."""
    if not entities:
        return []
    stored = reader.text_index()
    if stored is not None:
        raw = stored.entity_context([e.value for e in entities])
        known = {e.value: e for e in entities}
        # one NamedNode per IRI (sets and dicts of them hash each once)
        node = {iri: known.get(iri) or NamedNode(iri) for iri in {x for row in raw for x in (row[0], row[2], row[5], row[6]) if x}}
        return [(node[e], kind, node[item], rank or 0.0, weight or 0.0, node[s] if s else None, node[t] if t else None)
                for e, kind, item, rank, weight, s, t in raw]
    rows = reader._select("retrieve/graphrag-entity-context", facts_graph=reader.facts_graph, entities=list(entities))
    return [_context_row(row) for row in rows]


def all_entity_context(reader) -> list[ContextRow]:
    """Every entity's local-search candidates (``retrieve/graphrag-context-rows``): what the persistent index keeps."""
    return [_context_row(row) for row in reader._select("retrieve/graphrag-context-rows", facts_graph=reader.facts_graph)]


def _context_row(row: dict) -> ContextRow:
    return (row["entity"], row["kind"].value, row["item"], _num(row.get("rank")), _num(row.get("weight")),
            row.get("source"), row.get("target"))


def item_texts(reader, items: Sequence[NamedNode]) -> Mapping[NamedNode, tuple[str | None, str | None]]:
    """``item → (label, text)`` for index items (entities, reports, relationships, claims, text
    units), items without either absent. Where the store has a persistent index, the texts are
    read from it as they are asked for, a window of ``items`` at a time (local search's budgets
    stop after a few of the candidates; the items it does not hold come from the store); else
    all at once from the store."""
    stored = reader.text_index()
    if stored is None:
        return store_item_texts(reader, items)
    return ItemTexts(reader, stored, items)


class ItemTexts(Mapping):
    """:func:`item_texts` read from the persistent index as they are asked for: asking for an item
    reads it and the next :attr:`WINDOW` items of the list not read yet, in one look-up;
    :meth:`fetch` reads the texts of chosen items in one look-up (local search's kept items)."""

    WINDOW = 32

    def __init__(self, reader, stored, items: Sequence[NamedNode]):
        self.reader, self.stored = reader, stored
        self.order = list(dict.fromkeys(items))
        self.position = {item: n for n, item in enumerate(self.order)}
        self.texts: dict[NamedNode, tuple[str | None, str | None]] = {}
        self.read: set[NamedNode] = set()

    def fetch(self, items: Iterable[NamedNode]) -> None:
        """Read the texts of ``items`` not read yet, in one look-up."""
        wanted = [i for i in dict.fromkeys(items) if i not in self.read]
        if wanted:
            self._read_items(wanted)

    def _read(self, item: NamedNode) -> None:
        start = self.position.get(item)
        self._read_items([item] if start is None else [i for i in self.order[start : start + self.WINDOW] if i not in self.read])

    def _read_items(self, wanted: list[NamedNode]) -> None:
        self.read.update(wanted)
        found = self.stored.item_texts([i.value for i in wanted])
        missing = []
        for i in wanted:
            text = found.get(i.value)
            if text is None:
                missing.append(i)
            elif text != (None, None):
                self.texts[i] = text
        if missing:
            self.texts.update(store_item_texts(self.reader, missing))

    def __getitem__(self, item: NamedNode) -> tuple[str | None, str | None]:
        if item not in self.read:
            self._read(item)
        return self.texts[item]

    def __iter__(self) -> Iterator[NamedNode]:
        for start in range(0, len(self.order), self.WINDOW):
            unread = [i for i in self.order[start : start + self.WINDOW] if i not in self.read]
            if unread:
                self._read(unread[0])
        return iter([i for i in self.order if i in self.texts] + [i for i in self.texts if i not in self.position])

    def __len__(self) -> int:
        return sum(1 for _ in self)


def store_item_texts(reader, items: Sequence[NamedNode]) -> dict[NamedNode, tuple[str | None, str | None]]:
    """:func:`item_texts` read from the store (``retrieve/graphrag-texts``, per 200 items)."""
    out: dict[NamedNode, tuple[str | None, str | None]] = {}
    for batch in batches(list(dict.fromkeys(items))):
        for row in reader._select("retrieve/graphrag-texts", facts_graph=reader.facts_graph, items=list(batch)):
            label, text = out.get(row["item"], (None, None))
            label = label or str_value(row.get("label"))
            text = text or str_value(row.get("text"))
            out[row["item"]] = (label, text)
    return out


_TG = "https://trustgraph.ai/ns/"
_RATING = _TG + "rating"
#: a report's properties (``retrieve/graphrag-report-texts``) → its key in :func:`community_reports`
_REPORT_FIELDS = {"http://www.w3.org/2000/01/rdf-schema#label": "title", _TG + "summary": "summary", _RATING: "rank"}
#: a finding's properties → their place in its ``[index, summary, explanation]``
_FINDING_SLOTS = {_TG + "findingIndex": 0, _TG + "summary": 1, _TG + "explanation": 2}


def community_reports(reader, max_level: int | None) -> list[dict[str, Any]]:
    """Community reports up to ``max_level`` (report, title, summary, rank, level, and ``text``: the
    title, summary and findings in one line), ordered by IRI (``retrieve/graphrag-reports``, then
    ``retrieve/graphrag-report-texts`` per 200 reports)."""
    reports: dict[NamedNode, dict[str, Any]] = {}
    for row in reader._select("retrieve/graphrag-reports", facts_graph=reader.facts_graph, max_level=max_level):
        reports[row["report"]] = {"report": row["report"], "title": None, "summary": "", "rank": 0.0,
                                  "level": int(_num(row["level"])), "findings": {}}
    for batch in batches(sorted(reports, key=lambda r: r.value)):
        for row in reader._select("retrieve/graphrag-report-texts", facts_graph=reader.facts_graph, reports=list(batch)):
            rep, prop, value = reports[row["report"]], row["p"].value, row["o"]
            if "finding" in row:
                finding = rep["findings"].setdefault(row["finding"], [0, "", ""])
                slot = _FINDING_SLOTS.get(prop)
                if slot is not None:
                    finding[slot] = int(_num(value)) if slot == 0 else value.value
            elif prop in _REPORT_FIELDS:
                rep[_REPORT_FIELDS[prop]] = _num(value) if prop == _RATING else value.value
    out = []
    for rep in sorted(reports.values(), key=lambda r: r["report"].value):
        findings = [tuple(v) for _, v in sorted(rep.pop("findings").items(), key=lambda kv: (kv[1][0], kv[0].value))]
        rep["text"] = _report_text(rep["title"], rep["summary"], findings)
        rep["statements"] = " ".join(" ".join([rep["summary"], *(e for _, _, e in findings)]).split())
        out.append(rep)
    return out


def approx_tokens(text: str) -> int:
    """A model-independent token estimate: one token per four characters (at least one).

    >>> approx_tokens("Marley was dead: to begin with.")
    8
    """
    return max(1, math.ceil(len(text) / 4))



def local_candidates(entities: Sequence[NamedNode], rows: Iterable[ContextRow]) -> dict[str, list[dict]]:
    """Local search's candidates of ``entities`` from their :func:`entity_context` rows, by kind,
    ranked as GraphRAG ranks them: reports by how many of the entities their community holds,
    then rank; relationships in-network first, then by links, rank and weight; claims and text
    units by entity order (text units then by relationship count); IRI breaks ties."""
    return _candidates(
        entities, ((e.value, kind, item.value, rank, weight, s.value if s else None, t.value if t else None)
                   for e, kind, item, rank, weight, s, t in rows), None)


def local_context(reader, entities: Sequence[NamedNode], *, max_level: int | None = None) -> dict[str, list[dict]]:
    """:func:`local_candidates` of ``entities``, community reports only up to ``max_level``; from
    the persistent index where the store has one (the rows read as IRIs, one ``NamedNode`` made per
    IRI, and each candidate's token estimate kept as ``estimate``, so :func:`select_local` cuts the
    budgets without reading texts)."""
    stored = reader.text_index() if entities else None
    rows: Iterable[tuple]
    if stored is None:
        rows, estimates = entity_context(reader, entities), None
    else:
        rows, estimates = stored.local_rows([e.value for e in entities])
    if max_level is not None:
        rows = list(rows)
        reports = list(dict.fromkeys(row[2] for row in rows if row[1] == "report"))
        if reports:
            # the candidates' levels only: from the index where there is one (no report text decoded)
            levels = (stored.report_levels(reports) if stored is not None
                      else {report.value: level for report, level in reader.report_levels().items()})
            rows = [row for row in rows if row[1] != "report" or levels.get(getattr(row[2], "value", row[2]), 0) <= max_level]
    if stored is None:
        return local_candidates(entities, rows)
    return _candidates(entities, rows, estimates)


def _candidates(entities: Sequence[NamedNode], rows: Iterable[tuple], estimates: Mapping[str, int] | None) -> dict[str, list[dict]]:
    """:func:`local_candidates` over rows of IRIs (strings hash once; ``NamedNode`` made once per
    candidate, after ranking); with ``estimates`` (IRI → token estimate), each candidate keeps its ``estimate``."""
    iris = [e.value for e in entities]
    order = {e: i for i, e in enumerate(iris)}
    selected = set(iris)
    reports: dict[str, dict] = {}
    rels: dict[str, dict] = {}
    claims: dict[str, dict] = {}
    units: dict[str, dict] = {}
    for entity, kind, item, rank, weight, s, t in rows:
        if kind == "relationship":
            if item not in rels:
                assert s is not None and t is not None
                rels[item] = {"item": item, "kind": "relationship", "source": s, "target": t, "rank": rank or 0.0,
                              "weight": weight or 0.0, "in_network": s in selected and t in selected}
        elif kind == "text_unit":
            u = units.get(item)
            if u is None:
                units[item] = {"item": item, "kind": "text_unit", "order": order[entity], "entities": {entity}}
            else:
                u["order"] = min(u["order"], order[entity])
                u["entities"].add(entity)
        elif kind == "report":
            r = reports.get(item)
            if r is None:
                reports[item] = {"item": item, "kind": "report", "matches": {entity}, "rank": rank or 0.0}
            else:
                r["matches"].add(entity)
        elif kind == "claim" and item not in claims:
            claims[item] = {"item": item, "kind": "claim", "order": order[entity]}
    # out-network relationships rank by how many selected entities their outside end links to
    links: dict[str, int] = {}
    for r in rels.values():
        if not r["in_network"]:
            outside = r["target"] if r["source"] in selected else r["source"]
            links[outside] = links.get(outside, 0) + 1
    for r in rels.values():
        outside = None if r["in_network"] else (r["target"] if r["source"] in selected else r["source"])
        r["links"] = links.get(outside, 0) if outside is not None else len(entities)
    rel_count: dict[str, int] = {}
    for r in rels.values():
        for e in (r["source"], r["target"]):
            rel_count[e] = rel_count.get(e, 0) + 1
    for u in units.values():
        u["relationships"] = sum(rel_count.get(e, 0) for e in u["entities"])
    out = {
        "report": sorted(reports.values(), key=lambda r: (-len(r["matches"]), -r["rank"], r["item"])),
        "entity": [{"item": e.value, "kind": "entity"} for e in entities],
        "relationship": sorted(rels.values(), key=lambda r: (not r["in_network"], -r["links"], -r["rank"], -r["weight"], r["item"])),
        "claim": sorted(claims.values(), key=lambda c: (c["order"], c["item"])),
        "text_unit": sorted(units.values(), key=lambda u: (u["order"], -u["relationships"], u["item"])),
    }
    made = {e.value: e for e in entities}

    def node(iri: str) -> NamedNode:
        n = made.get(iri)
        if n is None:
            n = made[iri] = NamedNode(iri)
        return n

    for kind in out.values():
        for c in kind:
            iri = c["item"]
            c["item"] = node(iri)
            if estimates is not None:
                c["estimate"] = estimates.get(iri)
    for r in out["relationship"]:
        r["source"], r["target"] = node(r["source"]), node(r["target"])
        r["edge"] = Triple(r["source"], r["item"], r["target"])
    return out


def item_text(item: dict, label: str | None, text: str | None) -> str:
    kind = item["kind"]
    if kind == "relationship":
        return " ".join((text or label or "").split())
    if kind == "text_unit":
        return " ".join((text or "").split())
    head = label or item["item"].value
    return f"{head}: {' '.join((text or '').split())}" if text else head



def select_local(
    candidates: dict[str, list[dict]], texts: Mapping, *, entity_scores: dict, max_tokens: int, community_prop: float,
    text_unit_prop: float, top_k_relationships: int,
) -> list[dict]:
    """Keep candidates in rank order while they fit their budget (GraphRAG's proportions), each
    with the score it was ranked by: an entity's similarity, a report's matched entities, a
    relationship's links; a claim or text unit its own ``score`` if it has one."""
    budget = {
        "report": int(max_tokens * community_prop),
        "text_unit": int(max_tokens * text_unit_prop),
    }
    rest = max_tokens - budget["report"] - budget["text_unit"]
    kept: list[dict] = []

    def take(kind: str, limit: int | None, allowance: int) -> int:
        used = 0
        for count, c in enumerate(candidates[kind]):
            if limit is not None and count >= limit:
                break
            tokens = c.get("estimate")  # kept by the persistent index (:func:`local_context`), else counted from the text
            if tokens is None:
                label, text = texts.get(c["item"], (None, None))
                tokens = approx_tokens(item_text(c, label, text))
            if used + tokens > allowance:
                break
            used += tokens
            score = entity_scores.get(c["item"]) if kind == "entity" else (
                float(len(c["matches"])) if kind == "report" else (float(c["links"]) if kind == "relationship" else c.get("score")))
            kept.append({**c, "tokens": tokens, "score": score})
        return used

    take("report", None, budget["report"])
    used = take("entity", None, rest)
    used += take("relationship", top_k_relationships * max(1, len(candidates["entity"])), rest - used)
    take("claim", None, rest - used)
    take("text_unit", None, budget["text_unit"])
    fetch = getattr(texts, "fetch", None)
    if fetch is not None:  # the context is the kept items' texts: read them in one look-up
        fetch(k["item"] for k in kept)
    return kept



def unit_sources(reader, units: Sequence[NamedNode]) -> dict[NamedNode, Source]:
    """Where each text unit sits (document, title, page), from the chunk index."""
    if not units:
        return {}
    return reader.chunk_sources(units)


def report_text(report: dict) -> str:
    """A report's title, summary and findings in one line: what global and DRIFT search read and
    count (made once, when the report is read: :func:`community_reports`)."""
    return report["text"]


def report_statements(report: dict) -> str:
    """What a report states: its summary and its findings' explanations, without the title and
    the findings' headings (an offline map step cuts its points from these sentences). A report
    read from a text index written before statements were kept gives its whole text."""
    return report.get("statements") or report["text"]


def _report_text(title: str | None, summary: str, findings: Sequence[tuple[int, str, str]]) -> str:
    """A report in one line: its title, summary and findings, each finding's summary (a heading,
    usually without a full stop) ended as a sentence of its own before its explanation.

    >>> _report_text("Scrooge", "About Scrooge.", [(0, "Scrooge's Office: Isolation", "His office is cold.")])
    "Scrooge. About Scrooge. Scrooge's Office: Isolation. His office is cold."
    """
    joined = " ".join(f"{_ended(s)} {e}" for _, s, e in findings)
    return " ".join(f"{title or ''}. {summary} {joined}".split())


def _ended(heading: str) -> str:
    heading = heading.strip()
    return heading if not heading or heading[-1] in ".!?:;" else heading + "."


def best_reports(reader, query: Sequence[str], *, limit: int, max_level: int | None) -> list[dict[str, Any]]:
    """The ``limit`` community reports (up to ``max_level``) whose text matches the query tokens
    best by BM25 (DRIFT's primer): from the persistent text index when the store has one (scored
    over every level, those above ``max_level`` passed over), else from a BM25 over
    :func:`report_text` built once per reader."""
    from .lexical import BM25, content_tokens

    stored = reader.text_index()
    if stored is not None:  # the ranked reports alone are read (not every report, twice)
        deeper = 0 if max_level is None else stored.report_count(above=max_level)
        ranked = [iri for iri, _ in stored.reports(query, limit + deeper)]
        found = stored.report_records(ranked)
        return [found[iri] for iri in ranked if iri in found and (max_level is None or found[iri]["level"] <= max_level)][:limit]
    reports = reader.community_reports(max_level)
    bm = reader._memo.get(("report-bm25", max_level))
    if bm is None:
        bm = reader._memo[("report-bm25", max_level)] = BM25([content_tokens(report_text(r)) for r in reports])
    return [reports[i] for i, _ in bm.top(query, limit)]


def report_tree(reader) -> dict[NamedNode, tuple[int, list[NamedNode]]]:
    """``report → (level, child reports)``: every community report with the reports of its
    community's child communities, ordered by IRI (``retrieve/graphrag-report-children``)."""
    tree: dict[NamedNode, tuple[int, list[NamedNode]]] = {}
    for row in reader._select("retrieve/graphrag-report-children", facts_graph=reader.facts_graph):
        _, children = tree.setdefault(row["report"], (int(_num(row["level"])), []))
        child = row.get("child")
        if child is not None and child not in children:
            children.append(child)
    for _, children in tree.values():
        children.sort(key=lambda c: c.value)
    return tree


def report_units(reader, reports: Sequence[NamedNode]) -> dict[NamedNode, list[tuple[NamedNode, int]]]:
    """``report → [(text unit, members)]``: the text units each report's community members were
    extracted from, with how many members each holds, most first (``retrieve/graphrag-report-units``,
    per 200 reports)."""
    out: dict[NamedNode, list[tuple[NamedNode, int]]] = {}
    for batch in batches(list(dict.fromkeys(reports))):
        for row in reader._select("retrieve/graphrag-report-units", facts_graph=reader.facts_graph, reports=list(batch)):
            out.setdefault(row["report"], []).append((row["unit"], int(_num(row["members"]))))
    for units in out.values():
        units.sort(key=lambda u: (-u[1], u[0].value))
    return out


#: the top of Microsoft GraphRAG's relevance rating scale (its rating prompt asks for 0 to 5)
RATING_SCALE = 5


def report_ratings(reader, query: Sequence[str], reports: Sequence[dict[str, Any]]) -> dict[NamedNode, tuple[int, float]]:
    """The offline relevance rating of each of ``reports`` to the query tokens, on Microsoft's
    0–5 scale: ``report → (rating, coverage)``.

    ``coverage`` is the report's BM25 score against the distinct query tokens with each token's
    part capped at its IDF (a token the report holds about as often as an average report counts
    fully, a rarer mention in a long report less), divided by the sum of the tokens' IDFs: the
    IDF-weighted share of the question the report speaks to, in [0, 1]. The rating is
    ``round(5 × coverage)``. The BM25 runs over every report's text (title, summary, findings),
    so a report's rating does not depend on which other reports are rated with it."""
    from .lexical import BM25, content_tokens

    every = reader.community_reports(None)
    bm = reader._memo.get(("report-bm25", None))
    if bm is None:
        bm = reader._memo[("report-bm25", None)] = BM25([content_tokens(report_text(r)) for r in every])
    position = {r["report"]: i for i, r in enumerate(every)}
    terms = list(dict.fromkeys(query))
    idf = {t: bm.idf(t) for t in terms}
    total = sum(idf.values())
    parts: dict[int, float] = {}
    for t in terms:
        for i, tf in bm.postings.get(t, ()):
            parts[i] = parts.get(i, 0.0) + min(idf[t], bm._part(tf, bm.lengths[i], idf[t]))
    out: dict[NamedNode, tuple[int, float]] = {}
    for rep in reports:
        i = position.get(rep["report"])
        coverage = (parts.get(i, 0.0) / total) if (i is not None and total > 0) else 0.0
        out[rep["report"]] = (int(RATING_SCALE * coverage + 0.5), coverage)
    return out
