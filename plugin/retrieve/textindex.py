"""The persistent text index: BM25 postings of entity labels and descriptions, chunk and text-unit
texts and community reports, kept in SQLite beside the store and maintained at load time; and,
for a loaded Microsoft GraphRAG index, what its searches read per question (the community reports,
local search's candidate rows and item texts: :class:`LocalContext`).

Why SQLite postings (``bench/textindex.py`` measures its share of a load and its size): the
standard library's ``sqlite3`` needs no new dependency, writes incrementally in one transaction,
and survives reopen; storing the postings (term, document, term frequency, field length) rather than FTS5's own
``bm25()`` keeps the ranking *identical* to the in-process :class:`~.indexes.EntityIndex` and
:class:`~.indexes.ChunkIndex` (FTS5's idf is ``log((N-n+.5)/(n+.5))`` and its length is summed over
columns, so it orders documents differently; bm25s has no incremental insert).

Where it lives (:func:`index_location`): ``$RAGPROV_INDEX`` when set; else, for an on-disk
pyoxigraph store at ``DIR``, the sibling file ``DIR.ragprov-index.sqlite`` (pyoxigraph owns
``DIR`` itself); memory stores and endpoints without ``$RAGPROV_INDEX`` keep the in-process index
of each reader (built on first use, as before).

A store changed behind the index's back is detected by its *load stamp*: every load writes a
``prov:Activity`` into ``urn:graph:source`` (``retrieve/load-stamp`` counts them and reads the
latest start time); the index keeps the stamp it was last synchronised at. When they differ the
index is brought up to date (only documents whose text changed are rewritten) with a message on
stderr; ``ragprov load`` does this as its last step, so ``ragprov ask`` never builds anything.

>>> from pyoxigraph import NamedNode
>>> index = TextIndex.open(None)
>>> scrooge = Document("entity", "urn:e:scrooge", {"label": "Ebenezer Scrooge", "description": "a miser"}, {"label": "Ebenezer Scrooge"})
>>> _ = index.apply([scrooge], stamp="1")
>>> [(m.label, m.concept) for m in index.entities().search(["miser"], limit=3)]
[('Ebenezer Scrooge', 'miser')]
>>> index.stamp
'1'
"""

from __future__ import annotations

import dataclasses
import hashlib
import heapq
import json
import math
import os
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from pyoxigraph import NamedNode

from ..errors import StoreError
from .indexes import ChunkRecord, EntityIndex, EntityMatch
from .lexical import content_tokens

__all__ = ["INDEX_ENV", "K1", "B", "Document", "LocalContext", "SyncReport", "TextIndex", "index_location"]

INDEX_ENV = "RAGPROV_INDEX"
K1, B = 1.2, 0.75
_VERSION = "6"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS doc (
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, iri TEXT NOT NULL, hash TEXT NOT NULL, data TEXT NOT NULL,
  UNIQUE (kind, iri));
CREATE TABLE IF NOT EXISTS length (doc INTEGER NOT NULL, field TEXT NOT NULL, length INTEGER NOT NULL, terms TEXT NOT NULL,
  PRIMARY KEY (doc, field)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS posting (field INTEGER NOT NULL, term TEXT NOT NULL, doc INTEGER NOT NULL,
  tf INTEGER NOT NULL, length INTEGER NOT NULL, PRIMARY KEY (field, term, doc)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS stats (kind TEXT NOT NULL, field TEXT NOT NULL, n INTEGER NOT NULL, total INTEGER NOT NULL,
  PRIMARY KEY (kind, field)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS anchor (doc INTEGER PRIMARY KEY, term TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS anchor_term ON anchor (term, doc);
CREATE TABLE IF NOT EXISTS context (entity TEXT PRIMARY KEY, tokens INTEGER, rows TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS item (iri TEXT PRIMARY KEY, label TEXT, text TEXT) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vector (embedder TEXT NOT NULL, kind TEXT NOT NULL, iri TEXT NOT NULL, hash TEXT NOT NULL,
  dim INTEGER NOT NULL, vec BLOB NOT NULL, PRIMARY KEY (embedder, kind, iri)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bound (field INTEGER NOT NULL, term TEXT NOT NULL, df INTEGER NOT NULL, tf INTEGER NOT NULL,
  length INTEGER NOT NULL, PRIMARY KEY (field, term)) WITHOUT ROWID;
"""
#: the tables of one format; an older format is dropped and rebuilt by the next synchronisation
_TABLES = ("meta", "doc", "length", "posting", "stats", "anchor", "context", "item", "vector", "bound")

#: a (field, word) in more documents than this keeps, in table ``bound``, its document count,
#: highest term frequency and shortest field: what :meth:`TextIndex.frequency` and
#: :meth:`TextIndex.ceiling` would otherwise aggregate over its every posting, in every process
#: (a common word's tens of thousands). Rarer words are aggregated when asked (a few postings).
#: The table is rewritten with the postings by :meth:`TextIndex.apply` and trusted only while the
#: index is as that write left it (:meth:`TextIndex._bounds_mark`): a file another ragprov wrote
#: since, or one older than the table, is aggregated as before.
BOUND_MIN = 64
#: a write touching more (field, word) pairs than this recomputes ``bound`` in one pass
_BOUND_REWRITE = 2000
_BOUNDS_ALL = f"""
INSERT INTO bound SELECT field, term, count(*), max(tf), min(length) FROM posting GROUP BY field, term HAVING count(*) > {BOUND_MIN}
"""

#: each entity's *anchor*: the rarest word of its label when it was written. An entity whose every
#: label word occurs in a text has its anchor there, so :meth:`StoredEntityIndex.named_in` looks at
#: the entities anchored on a text's words only (a handful), not at every entity sharing a word.
#: ``?`` is the first new document id of the write (ids only grow).
_ANCHORS = """
INSERT OR REPLACE INTO anchor (doc, term)
SELECT doc, term FROM (
  SELECT p.doc AS doc, p.term AS term, min(d.n) FROM posting p
  JOIN (SELECT term, count(*) AS n FROM posting WHERE field = :field GROUP BY term) d ON d.term = p.term
  WHERE p.field = :field AND p.doc >= :first GROUP BY p.doc)
"""

#: the fields each kind of document is scored on
FIELDS = {"entity": ("label", "description"), "chunk": ("text",), "report": ("text",)}
#: a field's number in the posting table
FIELD_IDS = {(kind, field): n for n, (kind, field) in enumerate((k, f) for k, fs in FIELDS.items() for f in fs)}


def index_location(store) -> Path | None:
    """Where ``store``'s persistent index lives, or ``None`` for an in-process index per reader.

    >>> from ragprov.store import EmbeddedStore
    >>> index_location(EmbeddedStore()) is None
    True
    """
    if os.environ.get(INDEX_ENV):
        return Path(os.environ[INDEX_ENV])
    path = getattr(store, "path", None)
    if path is None:
        return None
    from ..store.staging import SIDECAR_SUFFIXES, sidecar

    return sidecar(Path(path), SIDECAR_SUFFIXES[0])


@dataclasses.dataclass(frozen=True)
class Document:
    """One indexed thing: its ``kind`` (entity, chunk, report), IRI, the text of each field, and
    what a search returns about it (``data``: label, or the chunk's record)."""

    kind: str
    iri: str
    fields: dict[str, str]
    data: dict[str, Any]

    def digest(self) -> str:
        return hashlib.sha1(json.dumps([self.fields, self.data], sort_keys=True).encode()).hexdigest()


@dataclasses.dataclass
class SyncReport:
    """What a synchronisation changed: documents added or rewritten, removed, and kept."""

    written: int = 0
    removed: int = 0
    kept: int = 0


class TextIndex:
    """BM25 postings in SQLite (see the module docstring)."""

    #: bytes of the file the row reader maps (:attr:`rows_db`)
    MAPPED = 1 << 30

    def __init__(self, connection: sqlite3.Connection, location: Path | None, rows: sqlite3.Connection | None = None):
        self.db = connection
        self.location = location
        #: where whole rows are read (local search's candidate rows and item texts, chunk places,
        #: community reports): a second connection to the file, memory-mapped, so a question's
        #: few rows cost no read calls; the postings, scanned in bulk, stay on :attr:`db` (mapped,
        #: every page they touch would count in the process's memory)
        self.rows_db = rows or connection
        #: the postings read so far, by (field, term): DRIFT's follow-ups search the same words again
        self._postings: dict[tuple[int, str], list[tuple[int, int, int]]] = {}
        #: per (field, term): each document's BM25 for one occurrence of the term in the query, and
        #: its field length (what a common word's thousands of postings cost once per process)
        self._contributions: dict[tuple[int, str], tuple[dict[int, float], dict[int, int]]] = {}
        self._field_stats: dict[tuple[str, str], tuple[int, float]] = {}
        self._frequencies: dict[tuple[int, str], int] = {}
        self._ceilings: dict[tuple[int, str], float] = {}
        #: per common (field, term): the documents :meth:`_among` read its postings for so far, and those found
        self._among_read: dict[tuple[int, str], tuple[set[int], dict[int, tuple[int, int, int]]]] = {}
        #: the vectors read so far, by (embedder, kind)
        self._vectors: dict[tuple[str, str], Any] = {}
        #: text → the (IRI, label) of the entities named in it (:meth:`StoredEntityIndex.named_in`)
        self._named: dict[str, tuple[tuple[str, str], ...]] = {}
        #: the ``bound`` table, read once (``None``: not read yet; ``{}`` also when it cannot be trusted)
        self._bounds: dict[tuple[int, str], tuple[int, int, int]] | None = None

    @classmethod
    def open(cls, location: Path | None) -> TextIndex:
        """The index at ``location`` (created when absent); ``None`` keeps it in memory."""
        try:
            db = sqlite3.connect(":memory:" if location is None else str(location), timeout=60, isolation_level=None)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            db.executescript(_SCHEMA)
            version = db.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the text index at {location}: {e}; "
                             f"delete the file and run `ragprov load` again, or set ${INDEX_ENV}") from None
        if version is None:
            db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (_VERSION,))
        elif version[0] in ("2", "3", "4", "5"):  # older formats: emptied; the next reader or load fills it (it has no stamp)
            try:
                db.execute("BEGIN IMMEDIATE")
                for table in _TABLES:
                    db.execute(f"DROP TABLE IF EXISTS {table}")
                db.executescript(_SCHEMA)  # commits
                db.execute("INSERT OR REPLACE INTO meta VALUES ('version', ?)", (_VERSION,))
            except sqlite3.Error as e:
                raise StoreError(f"cannot bring the text index at {location} to format {_VERSION}: {e}; "
                                 "delete it and run `ragprov load` again") from None
        elif version[0] != _VERSION:
            raise StoreError(f"the text index at {location} has format {version[0]}, this ragprov reads {_VERSION}: "
                             "delete it; the next load or query rebuilds it")
        rows = None
        if location is not None:
            try:
                rows = sqlite3.connect(str(location), timeout=60, isolation_level=None)
                rows.execute(f"PRAGMA mmap_size = {cls.MAPPED}")
                rows.execute("PRAGMA query_only = 1")
                rows.execute("SELECT 1 FROM item LIMIT 0").fetchall()  # the schema read now, once
            except sqlite3.Error:
                rows = None  # read through the one connection
        return cls(db, location, rows)

    def close(self) -> None:
        if self.rows_db is not self.db:
            self.rows_db.close()
        self.db.close()

    @property
    def stamp(self) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
        return row[0] if row else None

    def __len__(self) -> int:
        return self.db.execute("SELECT count(*) FROM doc").fetchone()[0]

    def size(self) -> int:
        """Bytes on disk (0 in memory)."""
        return self.location.stat().st_size if self.location is not None and self.location.exists() else 0

    # -- writing -------------------------------------------------------------------------------
    def apply(self, documents: Iterable[Document], *, stamp: str, kinds: Sequence[str] | None = None, progress=None,
              context: LocalContext | None = None) -> SyncReport:
        """Make the index hold exactly ``documents`` for the ``kinds`` they cover (default: every
        kind): rewrite those whose text changed, add new ones, drop vanished ones; and, when given,
        replace the local-search ``context`` tables; one transaction."""
        kinds = tuple(kinds or FIELDS)
        report = SyncReport()
        db = self.db
        self._forget()
        db.execute("BEGIN IMMEDIATE")
        try:
            bounds_kept = self._bounds_current()  # the bound table matches the postings before this write
            known = {(k, i): (d, h) for d, k, i, h in db.execute(
                f"SELECT id, kind, iri, hash FROM doc WHERE kind IN ({','.join('?' * len(kinds))})", kinds)}
            seen: set[tuple[str, str]] = set()
            self._pending = _Pending()
            first = (db.execute("SELECT max(id) FROM doc").fetchone()[0] or 0) + 1
            for doc in documents:
                key = (doc.kind, doc.iri)
                seen.add(key)
                digest = doc.digest()
                old = known.get(key)
                if old is not None and old[1] == digest:
                    report.kept += 1
                    continue
                if old is not None:
                    self._remove(old[0], doc.kind)
                self._insert(doc, digest)
                report.written += 1
                if progress is not None:
                    progress(1)
            for key, (doc_id, _) in known.items():
                if key not in seen:
                    self._remove(doc_id, key[0])
                    report.removed += 1
            self._pending.write(db)
            if context is not None:
                context.write(db)
            if report.written:
                db.execute(_ANCHORS, {"field": FIELD_IDS["entity", "label"], "first": first})
            self._write_bounds(None if not bounds_kept or len(self._pending.touched) > _BOUND_REWRITE else self._pending.touched)
            db.execute("INSERT OR REPLACE INTO meta VALUES ('stamp', ?)", (stamp,))
            db.execute("INSERT OR REPLACE INTO meta VALUES ('bound', ?)", (self._bounds_mark(),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return report

    def _insert(self, doc: Document, digest: str) -> None:
        """Write ``doc``; its lengths, postings and counts wait in :class:`_Pending` (one batch)."""
        doc_id = self.db.execute("INSERT INTO doc (kind, iri, hash, data) VALUES (?, ?, ?, ?)",
                                 (doc.kind, doc.iri, digest, json.dumps(doc.data))).lastrowid
        pending = self._pending
        for field in FIELDS[doc.kind]:
            tokens = content_tokens(doc.fields.get(field, ""))
            field_id = FIELD_IDS[doc.kind, field]
            counts = Counter(tokens)
            pending.lengths.append((doc_id, field, len(tokens), " ".join(counts)))
            pending.postings.extend((field_id, term, doc_id, tf, len(tokens)) for term, tf in counts.items())
            pending.touched.update((field_id, term) for term in counts)
            pending.count(doc.kind, field, 1, len(tokens))

    def _remove(self, doc_id: int, kind: str) -> None:
        db = self.db
        for field, length, terms in db.execute("SELECT field, length, terms FROM length WHERE doc = ?", (doc_id,)).fetchall():
            self._pending.count(kind, field, -1, -length)
            removed = [(FIELD_IDS[kind, field], term, doc_id) for term in terms.split(" ") if term]
            db.executemany("DELETE FROM posting WHERE field = ? AND term = ? AND doc = ?", removed)
            self._pending.touched.update((f, t) for f, t, _ in removed)
        db.execute("DELETE FROM length WHERE doc = ?", (doc_id,))
        db.execute("DELETE FROM anchor WHERE doc = ?", (doc_id,))
        db.execute("DELETE FROM doc WHERE id = ?", (doc_id,))

    # -- reading -------------------------------------------------------------------------------
    def _forget(self) -> None:
        """Drop what was read (postings, contributions, statistics): the index is being rewritten."""
        self._postings.clear()
        self._contributions.clear()
        self._field_stats.clear()
        self._frequencies.clear()
        self._ceilings.clear()
        self._among_read.clear()
        self._vectors.clear()
        self._named.clear()
        self._bounds = None

    # -- the bound table (see BOUND_MIN) -----------------------------------------------------------
    def _bounds_mark(self) -> str:
        """What the postings look like now, cheaply: the stamp, the highest document id and the
        document counts. :meth:`apply`, the one writer of the postings in this format, keeps it
        beside the ``bound`` table it wrote; the mark is a second guard (an index written by an older
        ragprov, which did not keep ``bound``, has an older format and is rebuilt, see :meth:`open`)."""
        stamp = self.db.execute("SELECT value FROM meta WHERE key = 'stamp'").fetchone()
        top = self.db.execute("SELECT max(id) FROM doc").fetchone()[0]
        counts = self.db.execute("SELECT kind, field, n FROM stats ORDER BY kind, field").fetchall()
        return json.dumps([BOUND_MIN, stamp[0] if stamp else None, top, counts])

    def _bounds_current(self) -> bool:
        """Whether the ``bound`` table was written with the postings as they are."""
        kept = self.db.execute("SELECT value FROM meta WHERE key = 'bound'").fetchone()
        return kept is not None and kept[0] == self._bounds_mark()

    def _write_bounds(self, touched: set[tuple[int, str]] | None) -> None:
        """Bring ``bound`` up to date: the ``touched`` (field, word) pairs counted again, or
        (``None``) the whole table in one pass over the postings."""
        db = self.db
        if touched is None:
            db.execute("DELETE FROM bound")
            db.execute(_BOUNDS_ALL)
            return
        for key in sorted(touched):
            df, tf, length = db.execute("SELECT count(*), max(tf), min(length) FROM posting WHERE field = ? AND term = ?", key).fetchone()
            if df > BOUND_MIN:
                db.execute("INSERT OR REPLACE INTO bound VALUES (?, ?, ?, ?, ?)", (*key, df, tf, length))
            else:
                db.execute("DELETE FROM bound WHERE field = ? AND term = ?", key)

    def _bound(self, key: tuple[int, str]) -> tuple[int, int, int] | None:
        """``(documents, highest tf, shortest field)`` of a common (field id, word) from the
        ``bound`` table (read whole, once); ``None`` for a rarer one or an untrusted table."""
        if self._bounds is None:
            trusted = self._bounds_current()
            self._bounds = {(f, t): (df, tf, n) for f, t, df, tf, n in self.db.execute("SELECT * FROM bound")} if trusted else {}
        return self._bounds.get(key)

    def _stats(self, kind: str, field: str) -> tuple[int, float]:
        cached = self._field_stats.get((kind, field))
        if cached is None:
            row = self.db.execute("SELECT n, total FROM stats WHERE kind = ? AND field = ?", (kind, field)).fetchone()
            n, total = row if row else (0, 0)
            cached = self._field_stats[kind, field] = (n, (total / n if n else 0.0))
        return cached

    def sparse_scores(self, kind: str, field: str, query: Iterable[str], *, only: set[int] | None = None) -> dict[int, float]:
        """``{document id: BM25}`` for the documents of ``kind`` whose ``field`` holds a query term
        (the formula of :class:`~.lexical.BM25`, from the stored postings); with ``only``, for
        those documents alone (a common word's postings are then read for them only)."""
        n, avgdl = self._stats(kind, field)
        out: dict[int, float] = {}
        for term, qtf in Counter(query).items():
            if only is not None and qtf == 1 and (FIELD_IDS[kind, field], term) in self._postings:
                # read whole already: each document's share as computed once per process (the same
                # arithmetic), looked up for these documents
                share = self._contribution(kind, field, term)[0]
                get = out.get
                if len(only) < len(share):
                    for doc in only:
                        if (s := share.get(doc)) is not None:
                            out[doc] = get(doc, 0.0) + s
                else:
                    for doc, s in share.items():
                        if doc in only:
                            out[doc] = get(doc, 0.0) + s
                continue
            posting = self._posting(kind, field, term) if only is None else self._among(kind, field, term, only)
            if not posting:
                continue
            if only is not None:  # the arithmetic below, for these documents
                idf = self.idf(kind, field, term)
                for doc, tf, length in posting:
                    norm = 1.0 - B + B * (length / avgdl if avgdl else 0.0)
                    out[doc] = out.get(doc, 0.0) + qtf * idf * tf * (K1 + 1.0) / (tf + K1 * norm)
                continue
            if qtf == 1:  # the common case: each document's share computed once per process
                share = self._contribution(kind, field, term)[0]
                if not out:
                    out = dict(share)  # 0.0 + s == s
                    continue
                get = out.get
                for doc, s in share.items():
                    out[doc] = get(doc, 0.0) + s
                continue
            idf = math.log(1.0 + (n - len(posting) + 0.5) / (len(posting) + 0.5))
            for doc, tf, length in posting:
                norm = 1.0 - B + B * (length / avgdl if avgdl else 0.0)
                out[doc] = out.get(doc, 0.0) + qtf * idf * tf * (K1 + 1.0) / (tf + K1 * norm)
        return out

    def _contribution(self, kind: str, field: str, term: str) -> tuple[dict[int, float], dict[int, int]]:
        """Each document's BM25 for ``term`` occurring once in the query (the same arithmetic as
        :meth:`sparse_scores`), and each one's ``field`` length; read once per process."""
        key = (FIELD_IDS[kind, field], term)
        cached = self._contributions.get(key)
        if cached is None:
            posting = self._posting(kind, field, term)
            n, avgdl = self._stats(kind, field)
            idf = math.log(1.0 + (n - len(posting) + 0.5) / (len(posting) + 0.5)) if posting else 0.0
            qtf = 1
            share = {doc: qtf * idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * (length / avgdl if avgdl else 0.0)))
                     for doc, tf, length in posting}
            cached = self._contributions[key] = (share, {doc: length for doc, _, length in posting})
        return cached

    def frequency(self, kind: str, field: str, term: str) -> int:
        """How many documents of ``kind`` hold ``term`` in ``field`` (counted once per process)."""
        key = (FIELD_IDS[kind, field], term)
        if key in self._postings:
            return len(self._postings[key])
        if key not in self._frequencies:
            bound = self._bound(key)
            self._frequencies[key] = bound[0] if bound is not None else self.db.execute(
                "SELECT count(*) FROM posting WHERE field = ? AND term = ?", key).fetchone()[0]
        return self._frequencies[key]

    def ceiling(self, kind: str, field: str, term: str) -> float:
        """An upper bound of ``term``'s BM25 share in any document: at its highest term frequency
        and its shortest ``field`` (the share grows with the one and shrinks with the other);
        one aggregate, the postings stay unread."""
        key = (FIELD_IDS[kind, field], term)
        if key not in self._ceilings:
            bound = self._bound(key)
            tf, length = bound[1:] if bound is not None else self.db.execute(
                "SELECT max(tf), min(length) FROM posting WHERE field = ? AND term = ?", key).fetchone()
            avgdl = self._stats(kind, field)[1]
            self._ceilings[key] = 0.0 if tf is None else (
                self.idf(kind, field, term) * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * (length / avgdl if avgdl else 0.0))))
        return self._ceilings[key]

    def of_length(self, kind: str, field: str, term: str, length: int) -> list[int]:
        """The documents whose ``field`` holds ``term`` and is ``length`` tokens long (the postings stay unread)."""
        return [doc for doc, in self.db.execute("SELECT doc FROM posting WHERE field = ? AND term = ? AND length = ?",
                                                (FIELD_IDS[kind, field], term, length))]

    def idf(self, kind: str, field: str, term: str) -> float:
        """BM25's idf of ``term`` in ``field`` (0.0 when no document holds it)."""
        df = self.frequency(kind, field, term)
        return math.log(1.0 + (self._stats(kind, field)[0] - df + 0.5) / (df + 0.5)) if df else 0.0

    def _among(self, kind: str, field: str, term: str, docs: set[int]) -> list[tuple[int, int, int]]:
        """``term``'s postings (document, tf, length) among ``docs``, in document order: filtered
        from every posting when it is read already or the word is not common, else read for those
        documents only — and kept: a later call (DRIFT's next local search, the next concept)
        reads only the documents no call asked for yet."""
        key = (FIELD_IDS[kind, field], term)
        if key in self._postings or self.frequency(kind, field, term) <= StoredEntityIndex.COMMON:
            return [row for row in self._posting(kind, field, term) if row[0] in docs]
        asked, found = self._among_read.setdefault(key, (set(), {}))
        fresh = sorted(docs - asked) if asked else sorted(docs)
        for start in range(0, len(fresh), 500):
            part = fresh[start : start + 500]
            found.update((row[0], row) for row in self.db.execute(
                f"SELECT doc, tf, length FROM posting WHERE field = ? AND term = ? AND doc IN ({','.join('?' * len(part))})",
                (*key, *part)))
        asked.update(fresh)
        if len(found) < len(docs):
            return [found[d] for d in sorted(found) if d in docs]
        return [row for d in sorted(docs) if (row := found.get(d)) is not None]

    def holding_all(self, kind: str, field: str, terms: Sequence[str], *, length: int, only: set[int] | None = None) -> list[int]:
        """The documents of ``kind`` (among ``only`` when given) whose ``field`` is ``length``
        tokens long and holds every one of ``terms`` (the only ones whose field can equal a query of those words)."""
        lengths = [
            self._contribution(kind, field, t)[1] if only is None or (FIELD_IDS[kind, field], t) in self._postings  # read whole
            else {doc: n for doc, _, n in self._among(kind, field, t, only)}
            for t in dict.fromkeys(terms)]
        if not lengths or not all(lengths):
            return []
        lengths.sort(key=len)
        return [d for d, n in lengths[0].items()
                if n == length and (only is None or d in only) and all(d in other for other in lengths[1:])]

    def _posting(self, kind: str, field: str, term: str) -> list[tuple[int, int, int]]:
        """``(document, term frequency, field length)`` of the documents whose ``field`` holds ``term``."""
        key = (FIELD_IDS[kind, field], term)
        rows = self._postings.get(key)
        if rows is None:
            rows = self._postings[key] = self.db.execute(
                "SELECT doc, tf, length FROM posting WHERE field = ? AND term = ?", key).fetchall()
        return rows

    def _docs(self, ids: Iterable[int]) -> dict[int, tuple[str, dict]]:
        ids = list(ids)
        out: dict[int, tuple[str, dict]] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            for doc_id, iri, data in self.db.execute(f"SELECT id, iri, data FROM doc WHERE id IN ({','.join('?' * len(part))})", part):
                out[doc_id] = (iri, json.loads(data))
        return out

    def _labels(self, ids: Iterable[int]) -> dict[int, tuple[str, str]]:
        """``id → (iri, label)`` of entity documents (the label read inside SQLite: no document decoded)."""
        ids = list(ids)
        out: dict[int, tuple[str, str]] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            out.update((doc_id, (iri, label)) for doc_id, iri, label in self.db.execute(
                f"SELECT id, iri, json_extract(data, '$.label') FROM doc WHERE id IN ({','.join('?' * len(part))})", part))
        return out

    def top(self, totals: dict[int, float], limit: int) -> list[tuple[int, str, dict, float]]:
        """The best ``limit`` of ``totals`` (ties broken by IRI): ``(id, iri, data, score)``."""
        if not totals or limit < 1:
            return []
        cut = heapq.nlargest(limit, totals.values())[-1]
        iris = self._iris([i for i, s in totals.items() if s > cut])
        tied = [i for i, s in totals.items() if s == cut]
        need = limit - len(iris)
        if len(tied) > need:  # more ties at the cut than places left (thousands, on a large index): the first by IRI, sorted by SQLite
            iris.update(self.db.execute("SELECT id, iri FROM doc WHERE id IN (SELECT value FROM json_each(?)) ORDER BY iri LIMIT ?",
                                        (json.dumps(tied), need)))
        else:
            iris.update(self._iris(tied))
        ranked = sorted(iris, key=lambda i: (-totals[i], iris[i]))[:limit]
        docs = self._docs(ranked)
        return [(i, docs[i][0], docs[i][1], totals[i]) for i in ranked]

    def _iris(self, ids: list[int]) -> dict[int, str]:
        out: dict[int, str] = {}
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            out.update(self.db.execute(f"SELECT id, iri FROM doc WHERE id IN ({','.join('?' * len(part))})", part))
        return out

    def entities(self) -> StoredEntityIndex:
        return StoredEntityIndex(self)

    def chunks(self, *, seen: dict | None = None) -> StoredChunkIndex:
        """Chunk search; ``seen`` (chunk → record) collects every record a search returns."""
        return StoredChunkIndex(self, seen)

    def chunk_records(self, iris: Iterable[str]) -> dict[str, ChunkRecord]:
        """The stored chunk records of ``iris`` (those indexed)."""
        iris = list(dict.fromkeys(iris))
        out: dict[str, ChunkRecord] = {}
        for start in range(0, len(iris), 500):
            part = iris[start : start + 500]
            marks = ",".join("?" * len(part))
            for iri, data in self.db.execute(f"SELECT iri, data FROM doc WHERE kind = 'chunk' AND iri IN ({marks})", part):
                out[iri] = chunk_record(iri, json.loads(data))
        return out

    def chunk_places(self, iris: Sequence[str]) -> list[tuple[str, str | None, str | None, int | None, int | None]]:
        """``(iri, document, title, page, index)`` of the indexed chunks among ``iris`` (their text left unread)."""
        iris = list(dict.fromkeys(iris))
        out: list[tuple] = []
        for start in range(0, len(iris), 500):
            part = iris[start : start + 500]
            out.extend(self.rows_db.execute(
                "SELECT iri, json_extract(data, '$.document'), json_extract(data, '$.title'), json_extract(data, '$.page'), "
                f"json_extract(data, '$.index') FROM doc WHERE kind = 'chunk' AND iri IN ({','.join('?' * len(part))})", part))
        return out

    def community_reports(self, max_level: int | None) -> list[dict[str, Any]]:
        """Every community report up to ``max_level`` as :func:`.context.community_reports` reads
        it from the store (title, summary, rank, level, text), ordered by IRI."""
        out = []
        for iri, data in self.rows_db.execute("SELECT iri, data FROM doc WHERE kind = 'report' ORDER BY iri"):
            rep = json.loads(data)
            if max_level is None or rep["level"] <= max_level:
                rep["report"] = NamedNode(iri)
                out.append(rep)
        return out

    def report_records(self, iris: Sequence[str]) -> dict[str, dict[str, Any]]:
        """``iri → report`` (as :meth:`community_reports` reads each) for the indexed reports among ``iris``."""
        out: dict[str, dict[str, Any]] = {}
        for start in range(0, len(iris), 500):
            part = list(iris[start : start + 500])
            for iri, data in self.rows_db.execute(
                    f"SELECT iri, data FROM doc WHERE kind = 'report' AND iri IN ({','.join('?' * len(part))})", part):
                rep = json.loads(data)
                rep["report"] = NamedNode(iri)
                out[iri] = rep
        return out

    def report_count(self, *, above: int) -> int:
        """How many community reports are of a level deeper than ``above``."""
        return self.rows_db.execute("SELECT count(*) FROM doc WHERE kind = 'report' AND json_extract(data, '$.level') > ?",
                                    (above,)).fetchone()[0]

    def report_levels(self, reports: Sequence[str]) -> dict[str, int]:
        """``report IRI → community level`` for ``reports`` (the level read inside SQLite: no
        report's text is decoded)."""
        out: dict[str, int] = {}
        for start in range(0, len(reports), 500):
            part = list(reports[start : start + 500])
            out.update(self.rows_db.execute(
                f"SELECT iri, json_extract(data, '$.level') FROM doc WHERE kind = 'report' AND iri IN ({','.join('?' * len(part))})",
                part))
        return out

    def entity_context(self, entities: Sequence[str]) -> list[tuple[str, str, str, float | None, float | None, str | None, str | None]]:
        """Local search's candidate rows of ``entities``: ``(entity, kind, item, rank, weight, source, target)``."""
        return self.local_rows(entities)[0]

    def local_rows(self, entities: Sequence[str]) -> tuple[list[tuple], dict[str, int]]:
        """Local search's candidate rows of ``entities`` (as :meth:`entity_context`), and the token
        estimate of each entity and item they name as local search shows it (:func:`.context.item_text`
        counted by :func:`.context.approx_tokens`): one stored row per entity."""
        rows: list[tuple] = []
        tokens: dict[str, int] = {}
        for start in range(0, len(entities), 500):
            part = list(entities[start : start + 500])
            for entity, n, packed in self.rows_db.execute(
                    f"SELECT entity, tokens, rows FROM context WHERE entity IN ({','.join('?' * len(part))})", part):
                if n is not None:
                    tokens[entity] = n
                for kind, item, rank, weight, source, target, m in json.loads(packed):
                    rows.append((entity, kind, item, rank, weight, source, target))
                    if m is not None:
                        tokens[item] = m
        return rows, tokens

    def item_texts(self, iris: Sequence[str]) -> dict[str, tuple[str | None, str | None]]:
        """``iri → (label, text)`` of the index items among ``iris`` (absent: not an item of the loaded index)."""
        out: dict[str, tuple[str | None, str | None]] = {}
        for start in range(0, len(iris), 500):
            part = list(iris[start : start + 500])
            marks = ",".join("?" * len(part))
            for iri, label, text in self.rows_db.execute(f"SELECT iri, label, text FROM item WHERE iri IN ({marks})", part):
                out[iri] = (label, text)
        return out

    def vectors(self, embedder, kind: str = "chunk"):
        """The :class:`~.vectors.VectorIndex` of every document of ``kind`` (text units: ``chunk``)
        by ``embedder``: the stored vectors of documents whose text is unchanged since (the
        document's hash is kept beside each vector), the others embedded now, in batches, and
        stored, and the vectors of vanished documents dropped; read once per index object."""
        import numpy as np

        from .vectors import VectorIndex

        key = (embedder.ref, kind)
        if key in self._vectors:
            return self._vectors[key]
        rows = self.db.execute(
            "SELECT d.iri, d.hash, v.hash, v.dim, v.vec FROM doc d LEFT JOIN vector v "
            "ON v.embedder = ? AND v.kind = d.kind AND v.iri = d.iri WHERE d.kind = ? ORDER BY d.iri", (embedder.ref, kind)).fetchall()
        stale = [(iri, digest) for iri, digest, stored, _, _ in rows if stored != digest]
        fresh: dict[str, Any] = {}
        if stale:
            texts = {iri: json.loads(data).get("text") or "" for iri, data in self._doc_data(kind, [iri for iri, _ in stale])}
            matrix = embedder.embed([texts.get(iri, "") for iri, _ in stale])
            fresh = {iri: matrix[n] for n, (iri, _) in enumerate(stale)}
            try:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.executemany("INSERT OR REPLACE INTO vector VALUES (?, ?, ?, ?, ?, ?)", [
                    (embedder.ref, kind, iri, digest, int(fresh[iri].shape[0]), fresh[iri].astype(np.float32).tobytes())
                    for iri, digest in stale])
                self.db.execute("DELETE FROM vector WHERE embedder = ? AND kind = ? AND iri NOT IN (SELECT iri FROM doc WHERE kind = ?)",
                                (embedder.ref, kind, kind))
                self.db.execute("COMMIT")
            except sqlite3.Error:  # a read-only index: the vectors serve this process only
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
        iris = [iri for iri, *_ in rows]
        vectors = [fresh[iri] if iri in fresh else np.frombuffer(vec, dtype=np.float32, count=dim) for iri, _, _, dim, vec in rows]
        dims = {len(v) for v in vectors}
        matrix = np.vstack(vectors).astype(np.float32) if vectors and len(dims) == 1 else np.zeros((0, 1), dtype=np.float32)
        found = self._vectors[key] = VectorIndex(iris if len(matrix) else [], matrix, embedder.ref)
        return found

    def import_vectors(self, ref: str, vectors: Mapping[str, Sequence[float]], kind: str = "chunk") -> int:
        """Keep vectors computed elsewhere (a GraphRAG output's own text-unit embeddings) as the
        set ``ref``, for the documents of ``kind`` the index holds (each with the document's
        current hash: a text changed later leaves its vector out of :meth:`imported`); replaces
        the set; returns how many were kept."""
        import numpy as np

        known = dict(self.db.execute("SELECT iri, hash FROM doc WHERE kind = ?", (kind,)).fetchall())
        rows = [(ref, kind, iri, known[iri], len(v), np.asarray(v, dtype=np.float32).tobytes())
                for iri, v in vectors.items() if iri in known]
        self.db.execute("BEGIN IMMEDIATE")
        try:
            self.db.execute("DELETE FROM vector WHERE embedder = ? AND kind = ?", (ref, kind))
            self.db.executemany("INSERT INTO vector VALUES (?, ?, ?, ?, ?, ?)", rows)
            self.db.execute("COMMIT")
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self._vectors.clear()
        return len(rows)

    def imported(self, prefix: str, dim: int, kind: str = "chunk"):
        """The :class:`~.vectors.VectorIndex` of an imported set (its ref starting with ``prefix``)
        of ``dim``-dimensional vectors, those whose document is unchanged since; ``None`` when
        there is none (the newest-named set when several)."""
        import numpy as np

        from .vectors import VectorIndex

        refs = [r for r, in self.db.execute(
            "SELECT DISTINCT embedder FROM vector WHERE kind = ? AND dim = ? AND substr(embedder, 1, ?) = ? ORDER BY embedder DESC",
            (kind, dim, len(prefix), prefix))]
        if not refs:
            return None
        key = (refs[0], kind)
        if key not in self._vectors:
            rows = self.db.execute(
                "SELECT v.iri, v.vec FROM vector v JOIN doc d ON d.kind = v.kind AND d.iri = v.iri AND d.hash = v.hash "
                "WHERE v.embedder = ? AND v.kind = ? ORDER BY v.iri", (refs[0], kind)).fetchall()
            matrix = np.vstack([np.frombuffer(vec, dtype=np.float32, count=dim) for _, vec in rows]) if rows else np.zeros((0, dim))
            norms = np.linalg.norm(matrix, axis=1, keepdims=True)
            norms[norms == 0] = 1.0
            self._vectors[key] = VectorIndex([iri for iri, _ in rows], (matrix / norms).astype(np.float32), refs[0])
        return self._vectors[key]

    def _doc_data(self, kind: str, iris: Sequence[str]) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for start in range(0, len(iris), 500):
            part = list(iris[start : start + 500])
            out.extend(self.db.execute(f"SELECT iri, data FROM doc WHERE kind = ? AND iri IN ({','.join('?' * len(part))})", (kind, *part)))
        return out

    def reports(self, query: Sequence[str], limit: int) -> list[tuple[str, float]]:
        """The best ``limit`` community reports for the query tokens: ``(iri, score)``."""
        scores = {i: s for i, s in self.sparse_scores("report", "text", query).items() if s > 0}
        return [(iri, score) for _, iri, _, score in self.top(scores, limit)]

    # -- entity vectors (local search's entity mapping) ------------------------------------------
    def _entity_rows(self) -> list[tuple[str, str | None, str | None]]:
        """``(entity, label, description)`` of every entity local search can put in context (the
        entities of the entity index with candidate rows: the loaded index's entities), ordered by IRI."""
        return self.rows_db.execute(
            f"SELECT c.entity, i.label, i.text FROM {_LOCAL_ENTITIES} LEFT JOIN item i ON i.iri = c.entity ORDER BY c.entity").fetchall()

    def entity_vectors(self, embedder):
        """The :class:`~.vectors.VectorIndex` of local search's entities (those of the ``context``
        table) by ``embedder``: their stored vectors (kind ``entity`` in the ``vector`` table, kept
        current by :meth:`refresh_entity_vectors` at load time), those missing embedded now from
        :func:`~.vectors.entity_text` (``title:description``) and stored; read once per index
        object, packed (a sparse query searches them without numpy)."""
        from .vectors import VectorIndex, entity_text, text_digest

        key = (embedder.ref, "entity")
        if key in self._vectors:
            return self._vectors[key]
        rows = self.rows_db.execute(
            f"SELECT c.entity, v.dim, v.vec FROM {_LOCAL_ENTITIES} LEFT JOIN vector v "
            "ON v.embedder = ? AND v.kind = 'entity' AND v.iri = c.entity ORDER BY c.entity", (embedder.ref,)).fetchall()
        missing = [iri for iri, _, vec in rows if vec is None]
        fresh: dict[str, bytes] = {}
        if missing:
            import numpy as np

            found = self.item_texts(missing)
            texts = [entity_text(*found.get(iri, (None, None))) for iri in missing]
            matrix = embedder.embed(texts)
            fresh = {iri: matrix[n].astype(np.float32).tobytes() for n, iri in enumerate(missing)}
            self._write_vectors([(embedder.ref, "entity", iri, text_digest(text), len(fresh[iri]) // 4, fresh[iri])
                                 for iri, text in zip(missing, texts, strict=True)])
        dims = {len(fresh[iri]) // 4 if iri in fresh else dim for iri, dim, _ in rows}
        if not rows or len(dims) != 1:
            found_index = VectorIndex.packed([], b"", 1, embedder.ref)
        else:
            blob = b"".join(fresh.get(iri, vec) for iri, _, vec in rows)
            found_index = VectorIndex.packed([iri for iri, *_ in rows], blob, dims.pop(), embedder.ref)
        self._vectors[key] = found_index
        return found_index

    def entity_vectors_of(self, embedder, iris: Sequence[str]):
        """The :class:`~.vectors.VectorIndex` of those of ``iris`` that are local-search entities,
        by ``embedder``: their stored vectors read by key (a few rows, not the whole table: what the
        offline ranking of a lexical candidate pool needs), those missing embedded now (not
        stored: the next load's :meth:`refresh_entity_vectors` stores them)."""
        from .vectors import VectorIndex, entity_text

        found: dict[str, bytes] = {}
        dims: set[int] = set()
        for start in range(0, len(iris), 500):
            part = list(iris[start : start + 500])
            marks = ",".join("?" * len(part))
            for iri, dim, vec in self.rows_db.execute(
                    f"SELECT iri, dim, vec FROM vector WHERE embedder = ? AND kind = 'entity' AND iri IN ({marks})",
                    (embedder.ref, *part)):
                found[iri] = vec
                dims.add(dim)
        texts = self.item_texts([iri for iri in iris if iri not in found])
        missing = [iri for iri in iris if iri in texts]  # entities of the loaded index only (an item); others have no vector
        if missing:
            import numpy as np

            matrix = embedder.embed([entity_text(*texts[iri]) for iri in missing])
            for n, iri in enumerate(missing):
                found[iri] = matrix[n].astype(np.float32).tobytes()
            dims.add(int(matrix.shape[1]))
        order = [iri for iri in dict.fromkeys(iris) if iri in found]
        if not order or len(dims) != 1:
            return VectorIndex.packed([], b"", 1, embedder.ref)
        return VectorIndex.packed(order, b"".join(found[iri] for iri in order), dims.pop(), embedder.ref)

    def refresh_entity_vectors(self, embedder) -> int:
        """Bring the entity vectors up to date after a synchronisation: ``embedder``'s (the offline
        one, at load time) are computed for the entities whose ``title:description`` changed (its
        hash is kept beside each vector) or are new; other embedders' stale vectors are dropped (an
        API's are embedded again when a search needs them; the sets an index output shipped,
        checked against their entity's document, are left alone), and so are the vectors of
        entities local search no longer has. Returns how many vectors were computed."""
        import numpy as np

        from .vectors import SHIPPED, entity_text, text_digest

        texts = {iri: entity_text(label, text) for iri, label, text in self._entity_rows()}
        current = {iri: text_digest(text) for iri, text in texts.items()}
        stored = self.db.execute("SELECT embedder, iri, hash FROM vector WHERE kind = 'entity' AND substr(embedder, 1, ?) != ?",
                                 (len(SHIPPED), SHIPPED)).fetchall()
        mine = {iri: digest for ref, iri, digest in stored if ref == embedder.ref}
        stale = [iri for iri, digest in current.items() if mine.get(iri) != digest]
        dropped = [(ref, iri) for ref, iri, digest in stored if ref != embedder.ref and current.get(iri) != digest]
        dropped += [(embedder.ref, iri) for iri in mine if iri not in current]
        rows = []
        if stale:
            matrix = embedder.embed([texts[iri] for iri in stale])
            rows = [(embedder.ref, "entity", iri, current[iri], int(matrix.shape[1]), matrix[n].astype(np.float32).tobytes())
                    for n, iri in enumerate(stale)]
        if rows or dropped:
            self._write_vectors(rows, dropped)
        return len(rows)

    def _write_vectors(self, rows: Sequence[tuple], dropped: Sequence[tuple[str, str]] = (), kind: str = "entity") -> None:
        """Store vectors (``INSERT OR REPLACE``) and drop ``(embedder, iri)`` ones of ``kind``, in one
        transaction; a read-only index keeps them for this process only."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.executemany("INSERT OR REPLACE INTO vector VALUES (?, ?, ?, ?, ?, ?)", rows)
            self.db.executemany("DELETE FROM vector WHERE embedder = ? AND kind = ? AND iri = ?",
                                [(ref, kind, iri) for ref, iri in dropped])
            self.db.execute("COMMIT")
        except sqlite3.Error:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
        self._vectors.clear()


#: local search's entities: those of the entity index with candidate rows (the ``context`` table's
#: first column also holds claims and relationships, derived from text units as entities are);
#: ``CROSS JOIN`` keeps SQLite scanning the few context rows, in IRI order, not every entity
_LOCAL_ENTITIES = "context c CROSS JOIN doc d ON d.kind = 'entity' AND d.iri = c.entity"


class _Pending:
    """What one :meth:`TextIndex.apply` writes in batches at its end: lengths, postings, counts."""

    def __init__(self) -> None:
        self.lengths: list[tuple] = []
        self.postings: list[tuple] = []
        self.counts: dict[tuple[str, str], list[int]] = {}
        #: the (field id, word) pairs whose postings this write changes
        self.touched: set[tuple[int, str]] = set()

    def count(self, kind: str, field: str, n: int, total: int) -> None:
        c = self.counts.setdefault((kind, field), [0, 0])
        c[0] += n
        c[1] += total

    def write(self, db: sqlite3.Connection) -> None:
        db.executemany("INSERT INTO length VALUES (?, ?, ?, ?)", self.lengths)
        self.postings.sort()
        db.executemany("INSERT INTO posting VALUES (?, ?, ?, ?, ?)", self.postings)
        db.executemany(
            "INSERT INTO stats VALUES (?, ?, ?, ?) "
            "ON CONFLICT (kind, field) DO UPDATE SET n = n + excluded.n, total = total + excluded.total",
            [(k, f, n, t) for (k, f), (n, t) in self.counts.items()])


def chunk_record(iri: str, data: dict) -> ChunkRecord:
    return ChunkRecord(
        chunk=NamedNode(iri), text=data["text"], document=NamedNode(data["document"]) if data.get("document") else None,
        title=data.get("title"), page=data.get("page"), index=data.get("index"))


class StoredEntityIndex:
    """:class:`~.indexes.EntityIndex`'s search over the stored postings (same scores, same order)."""

    def __init__(self, index: TextIndex):
        self.index = index

    def __len__(self) -> int:
        return self.index._stats("entity", "label")[0]

    def named_in(self, texts: Sequence[str]) -> list[list[tuple[NamedNode, str]]]:
        """:meth:`.indexes.EntityIndex.named_in` over the stored label postings: the entities
        anchored on a word of the texts (see :data:`_ANCHORS`), kept when every word of their label
        occurs in a text. Each text is looked up once per process (DRIFT's local searches keep
        many of the same reports and text units)."""
        known = self.index._named
        fresh = [t for t in dict.fromkeys(texts) if t not in known]
        if len(known) + len(fresh) > self.NAMED_KEPT:  # a long-lived process keeps the last ones only
            known.clear()
            fresh = list(dict.fromkeys(texts))
        present = [set(content_tokens(t)) for t in fresh]
        terms = sorted(set().union(*present)) if present else []
        db = self.index.db
        labels: dict[int, frozenset[str]] = {}
        for start in range(0, len(terms), 500):
            part = terms[start : start + 500]
            labels.update((doc, frozenset(words.split(" "))) for doc, words in db.execute(
                "SELECT a.doc, l.terms FROM anchor a JOIN length l ON l.doc = a.doc AND l.field = 'label' "
                f"WHERE a.term IN ({','.join('?' * len(part))})", part))
        found = [[doc for doc, words in labels.items() if words <= text] for text in present]
        names = self.index._labels({doc for docs in found for doc in docs})
        for text, ds in zip(fresh, found, strict=True):
            known[text] = tuple(sorted((names[d] for d in ds), key=lambda f: f[0]))
        return [[(NamedNode(iri), label) for iri, label in known[t]] for t in texts]

    #: texts whose names :meth:`named_in` keeps per process
    NAMED_KEPT = 4096

    #: a (field, word) in more entities than this is *common*: :meth:`search` reads its postings
    #: only for the entities a rarer query word found, while that cannot change the top ``limit``
    COMMON = 2000

    def search(self, concepts: Sequence[str], *, limit: int) -> list[EntityMatch]:
        """:meth:`.indexes.EntityIndex.search` over the stored postings (the same sums in the same
        order, so the same scores); the best concept is worked out for the winners only.

        Common words (see :attr:`COMMON`) are scored for the *candidates* only — the entities a
        rarer word of the query found — when the ``limit``-th best candidate outscores the most
        an entity could get from common words alone (:meth:`TextIndex.ceiling` of each word);
        if not, again with the common words' label postings read whole (the entities naming
        them become candidates too); otherwise every posting is read. Either way the winners and
        their scores are the same."""
        queries = [(c, q) for c in concepts if (q := content_tokens(c))]
        index = self.index
        common = {(f, t) for _, q in queries for t in q for f in ("label", "description") if index.frequency("entity", f, t) > self.COMMON}
        # first the common words' postings all unread, then their label postings read (labels weigh 3×)
        for unread in (common, {(f, t) for f, t in common if f == "description"}):
            if not unread:
                break
            candidates = {d for _, q in queries for t in q for f in ("label", "description") if (f, t) not in unread
                          for d in index._contribution("entity", f, t)[1]}
            for _, q in queries:  # and the entities whose label may equal a concept of common words only
                if all(("label", t) in unread for t in q):
                    candidates.update(index.of_length("entity", "label", q[0], len(q)))
            if len(candidates) >= limit:
                if unread is not common:  # every label posting read: bound first, score the few that can win
                    found = self._bounded(queries, candidates, unread, limit)
                    if found is not None:
                        return found
                    continue
                totals, per_concept = self._totals(queries, candidates)
                cut = heapq.nlargest(limit, totals.values())[-1] if limit > 0 else math.inf
                if cut > self._common_bound(queries, unread):
                    return self._matches(totals, per_concept, limit)
        totals, per_concept = self._totals(queries, None)
        return self._matches(totals, per_concept, limit)

    def _bounded(self, queries: Sequence[tuple[str, list[str]]], candidates: set[int], unread: set[tuple[str, str]],
                 limit: int) -> list[EntityMatch] | None:
        """:meth:`search` when every label posting of the query is read and only common words'
        description postings (``unread``) are not: each candidate's score is bounded from what is
        read — below by its label and rarer description shares, above by adding each concept's
        common description words at their :meth:`TextIndex.ceiling` (an exact label match
        doubling both) — and only the candidates whose upper bound reaches the ``limit``-th best
        lower bound are scored exactly (:meth:`_totals`: the common words' postings read for those
        few). ``None`` when the bounds cannot settle the top ``limit`` (the caller reads more).

        Of those, a candidate whose description holds none of the ``unread`` words and whose
        label cannot equal a concept (no doubling) scores exactly its lower bound: the same shares
        summed in the same order as :meth:`_totals` would sum them, which would add nothing else.
        So the common words' description postings are read for the scored candidates (to learn
        which hold them) and :meth:`_totals` runs for those holders and the would-be exact
        matches only — on a large index, a few hundred of the thousands of entities whose label
        holds a common word."""
        index, weight = self.index, EntityIndex.LABEL_WEIGHT
        lower: dict[int, float] = {}  # what is read: label and rarer description shares
        parts: list[dict[int, float]] = []  # the same, per concept
        bonus: dict[int, float] = {}  # the exact-match candidates' doubling, at the ceiling
        base = 0.0  # what any candidate may add from common description words
        for _, query in queries:
            rare = [t for t in query if ("description", t) not in unread]
            by_label = index.sparse_scores("entity", "label", query)
            by_desc = index.sparse_scores("entity", "description", rare) if rare else {}
            ceiling = sum(qtf * index.ceiling("entity", "description", t) for t, qtf in Counter(query).items()
                          if ("description", t) in unread)
            base += ceiling
            part = dict(by_desc)
            get = by_desc.get
            for i, s in by_label.items():
                part[i] = weight * s + get(i, 0.0)
            parts.append(part)
            if not lower:
                lower = dict(part)
            else:
                low = lower.get
                for i, s in part.items():
                    lower[i] = low(i, 0.0) + s
            for i in index.holding_all("entity", "label", query, length=len(query)):  # may equal the concept: doubled
                bonus[i] = bonus.get(i, 0.0) + part.get(i, 0.0) + ceiling
        if len(lower) < limit:
            return None
        margin = 1.0 + 1e-9  # above any rounding of the sums
        floor = heapq.nlargest(limit, lower.values())[-1] / margin
        # the candidates whose upper bound (read + bonus + base) reaches the limit-th best lower bound
        if base >= floor:
            scored = set(candidates)
        else:
            reach = floor - base
            scored = {i for i, s in lower.items() if s >= reach}
            scored.update(i for i, b in bonus.items() if lower.get(i, 0.0) + b >= reach)
        holders: set[int] = set()
        for field, term in unread:
            holders.update(doc for doc, _, _ in index._among("entity", field, term, scored))
        exact = {i for i in scored if i in holders or i in bonus}
        totals, exact_concepts = self._totals(queries, exact)
        for i in scored:
            if i not in exact and (read := lower.get(i)) is not None:
                totals[i] = read
        per_concept = [(concept, _Scores(scores, part, exact)) for (concept, scores), part in zip(exact_concepts, parts, strict=True)]
        if len(totals) < limit:
            return None
        cut = heapq.nlargest(limit, totals.values())[-1]
        # every candidate left out is below `floor`; every other entity scores common description words only
        if cut > max(floor, self._common_bound(queries, unread)):
            return self._matches(totals, per_concept, limit)
        return None

    def _common_bound(self, queries: Sequence[tuple[str, list[str]]], common: set[tuple[str, str]]) -> float:
        """The most an entity that is not a candidate can score: common words only, at their
        BM25 ceiling (:meth:`search` makes every entity whose label may equal a concept a candidate)."""
        bound = 0.0
        for _, query in queries:
            part = 0.0
            for term, qtf in Counter(query).items():
                for field, weight in (("label", EntityIndex.LABEL_WEIGHT), ("description", 1.0)):
                    if (field, term) in common:
                        part += weight * qtf * self.index.ceiling("entity", field, term)
            bound += part  # never doubled: an entity whose label could equal a concept is a candidate
        return bound * (1.0 + 1e-9)  # above any rounding of the sums

    def _totals(self, queries: Sequence[tuple[str, list[str]]], only: set[int] | None):
        """Each entity's total and each concept's scores (:meth:`search`'s sums), over every
        entity or the entities of ``only``."""
        totals: dict[int, float] = {}
        per_concept: list[tuple[str, dict[int, float]]] = []
        label_tokens: dict[int, list[str]] = {}
        weight = EntityIndex.LABEL_WEIGHT
        index = self.index
        for concept, query in queries:
            by_label = index.sparse_scores("entity", "label", query, only=only)
            by_desc = index.sparse_scores("entity", "description", query, only=only)
            # only a label as long as the query, holding all its words, can equal it: read those labels' tokens, no others
            same_length = index.holding_all("entity", "label", query, length=len(query), only=only)
            unread = [i for i in same_length if i not in label_tokens]
            if unread:
                for doc_id, (_, data) in index._docs(unread).items():
                    label_tokens[doc_id] = data["tokens"]
            scores = dict(by_desc)  # 3 × 0.0 + d == d: a description-only score as EntityIndex sums it
            get = by_desc.get
            for i, s in by_label.items():
                scores[i] = weight * s + get(i, 0.0)
            for i in same_length:
                if label_tokens.get(i) == query:
                    scores[i] *= 2.0
            # every share is positive (idf > 0, tf ≥ 1): no zero score to drop
            per_concept.append((concept, scores))
            if not totals:
                totals = dict(scores)  # 0.0 + s == s
            else:
                get = totals.get
                for i, s in scores.items():
                    totals[i] = get(i, 0.0) + s
        return totals, per_concept

    def _matches(self, totals: dict[int, float], per_concept: Sequence[tuple[str, Mapping[int, float] | _Scores]],
                 limit: int) -> list[EntityMatch]:
        found = []
        for i, iri, data, score in self.index.top(totals, limit):
            best, concept = 0.0, ""
            for c, scores in per_concept:  # the first concept with the highest score
                if scores.get(i, 0.0) > best:
                    best, concept = scores[i], c
            found.append(EntityMatch(NamedNode(iri), data["label"], round(score, 6), concept))
        return found


class _Scores:
    """One concept's scores in :meth:`StoredEntityIndex._bounded`: those :meth:`~StoredEntityIndex._totals`
    computed for the ``exact`` entities, what was read for the others."""

    __slots__ = ("exact", "read", "which")

    def __init__(self, exact: dict[int, float], read: dict[int, float], which: set[int]):
        self.exact, self.read, self.which = exact, read, which

    def get(self, i: int, default: float = 0.0) -> float:
        return (self.exact if i in self.which else self.read).get(i, default)

    def __getitem__(self, i: int) -> float:
        return (self.exact if i in self.which else self.read)[i]


class StoredChunkIndex:
    """:class:`~.indexes.ChunkIndex`'s search over the stored postings."""

    def __init__(self, index: TextIndex, seen: dict | None = None):
        self.index = index
        self.seen = seen if seen is not None else {}

    def __len__(self) -> int:
        return self.index._stats("chunk", "text")[0]

    def search(self, concepts: Sequence[str], *, limit: int) -> list[tuple[ChunkRecord, float]]:
        query = [t for c in concepts for t in content_tokens(c)]
        scores = {i: s for i, s in self.index.sparse_scores("chunk", "text", query).items() if s > 0}
        found = [(chunk_record(iri, data), round(score, 6)) for _, iri, data, score in self.index.top(scores, limit)]
        for rec, _ in found:
            self.seen[rec.chunk] = rec
        return found


def entity_documents(labels: dict[NamedNode, list[str]], descriptions: dict[NamedNode, list[str]]) -> Iterator[Document]:
    """The entity documents of :meth:`FactsReader.read_entities` (the text :class:`EntityIndex` scores)."""
    from .terms import local_name

    for entity in sorted(set(labels) | set(descriptions), key=lambda n: n.value):
        names = labels.get(entity) or [local_name(entity.value)]
        label_text = " ".join(names)
        yield Document("entity", entity.value, {"label": label_text, "description": " ".join(descriptions.get(entity, []))},
                       {"label": names[0], "tokens": content_tokens(label_text)})


def chunk_documents(records: Iterable[ChunkRecord]) -> Iterator[Document]:
    for r in records:
        yield Document("chunk", r.chunk.value, {"text": r.text}, {
            "text": r.text, "document": r.document.value if r.document is not None else None,
            "title": r.title, "page": r.page, "index": r.index})


def report_documents(reports: Iterable[dict], text) -> Iterator[Document]:
    """Report documents: scored on ``text(report)``; they keep the whole report (global search reads it here)."""
    for rep in reports:
        data = {k: v for k, v in rep.items() if k != "report"}
        yield Document("report", rep["report"].value, {"text": text(rep)}, data)


@dataclasses.dataclass
class LocalContext:
    """What local search puts in context, for the whole loaded index: the candidate rows of
    every entity (``retrieve/graphrag-context-rows``) and the label and text of every item they
    name (``retrieve/graphrag-texts``), with the token estimate of each item as local search
    shows it (``tokens``). Rewritten whole by each synchronisation."""

    rows: list[tuple[str, str, str, float | None, float | None, str | None, str | None]]
    items: dict[str, tuple[str | None, str | None]]
    tokens: dict[str, int] = dataclasses.field(default_factory=dict)

    def write(self, db: sqlite3.Connection) -> None:
        """One row per entity: its token estimate and its candidate rows packed as JSON (one
        look-up and one parse per entity when local search reads them)."""
        db.execute("DELETE FROM context")
        db.execute("DELETE FROM item")
        by_entity: dict[str, dict[tuple[str, str], list]] = {}
        for entity, kind, item, rank, weight, source, target in self.rows:  # a self-loop's two rows are one
            by_entity.setdefault(entity, {}).setdefault((kind, item), [kind, item, rank, weight, source, target, self.tokens.get(item)])
        db.executemany("INSERT INTO context VALUES (?, ?, ?)",
                       [(entity, self.tokens.get(entity), json.dumps(list(rows.values()))) for entity, rows in by_entity.items()])
        db.executemany("INSERT INTO item VALUES (?, ?, ?)", [(iri, label, text) for iri, (label, text) in self.items.items()])
