"""Build ``plugin/data/wordnet/lexicon.sqlite``, the WordNet 3.0 tables :mod:`ragprov.llm.answer.lexicon` reads.

The source is Princeton WordNet 3.0 as Debian's ``wordnet-base`` installs it (``apt-get install -y
wordnet-base``: ``/usr/share/wordnet``), read in its documented database format (``wndb(5)``: the
``index.POS`` and ``data.POS`` files, and ``POS.exc`` for irregular forms), so the build needs no
library and the runtime neither WordNet nor this script. What it keeps:

- ``sense(lemma, pos, rank, synset)``: each lemma's synsets, most frequent sense first (the order
  of ``index.POS``), for nouns and verbs; lemmas lower case, spaces for underscores;
- ``parent(synset, parent)``: a noun synset's hypernyms and instance hypernyms (``@``, ``@i``),
  from which :func:`ragprov.llm.answer.lexicon.is_a` walks up;
- ``member(synset, lemmas)``: the lemmas of each synset that has more than one (a word's
  synonyms) or a compound one (a kind of its head noun: "day of rest"), tab-separated;
- ``form(form, pos, lemma)``: the irregular inflections (``men`` → ``man``).

Synsets are renumbered densely (nouns, then verbs) so the tables stay small.

Run: ``python scripts/build_wordnet_lexicon.py [--wordnet /usr/share/wordnet] [--out plugin/data/wordnet/lexicon.sqlite]``.
"""

from __future__ import annotations

import argparse
import sqlite3
from collections.abc import Iterator
from pathlib import Path

#: the parts of speech kept: WordNet's file suffix and its one-letter code
POS = (("noun", "n"), ("verb", "v"))

#: the pointers to a noun synset's more general one: hypernym and instance hypernym
UP = ("@", "@i")


def _lines(path: Path) -> Iterator[str]:
    """The lines of a WordNet database file, without the licence header (lines that begin with spaces)."""
    with path.open(encoding="latin-1") as fh:
        for line in fh:
            if not line.startswith(" "):
                yield line.rstrip("\n")


def _data(path: Path) -> Iterator[tuple[int, list[tuple[str, int]]]]:
    """Each synset of a ``data.POS`` file: its offset and its pointers (symbol, target offset)."""
    for line in _lines(path):
        fields = line.split(" | ", 1)[0].split()
        offset, w_cnt = int(fields[0]), int(fields[3], 16)
        at = 4 + 2 * w_cnt
        p_cnt = int(fields[at])
        pointers = [(fields[at + 1 + 4 * i], int(fields[at + 2 + 4 * i])) for i in range(p_cnt)]
        yield offset, pointers


def _index(path: Path) -> Iterator[tuple[str, list[int]]]:
    """Each lemma of an ``index.POS`` file with its synsets' offsets, most frequent sense first."""
    for line in _lines(path):
        fields = line.split()
        lemma, synset_cnt, p_cnt = fields[0], int(fields[2]), int(fields[3])
        offsets = [int(x) for x in fields[4 + p_cnt + 2 :]]
        assert len(offsets) == synset_cnt, line
        yield lemma.replace("_", " "), offsets


def build(wordnet: Path, out: Path) -> dict[str, int]:
    """Write the tables to ``out`` (replacing it); returns their row counts."""
    ids: dict[tuple[str, int], int] = {}
    senses: list[tuple[str, str, int, int]] = []
    parents: set[tuple[int, int]] = set()
    forms: set[tuple[str, str, str]] = set()
    for name, code in POS:
        for offset, pointers in _data(wordnet / f"data.{name}"):
            ids[code, offset] = len(ids)
            if code == "n":
                parents.update((ids[code, offset], target) for symbol, target in pointers if symbol in UP)
        for lemma, offsets in _index(wordnet / f"index.{name}"):
            senses.extend((lemma, code, rank, ids[code, o]) for rank, o in enumerate(offsets))
        for line in _lines(wordnet / f"{name}.exc"):
            form, *lemmas = line.split()
            forms.update((form.replace("_", " "), code, lemma.replace("_", " ")) for lemma in lemmas)
    # hypernyms were read before every noun synset had its number: map their offsets now
    edges = sorted({(child, ids["n", target]) for child, target in parents})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.unlink(missing_ok=True)
    db = sqlite3.connect(out)
    db.executescript("""
        CREATE TABLE sense (lemma TEXT NOT NULL, pos TEXT NOT NULL, rank INTEGER NOT NULL, synset INTEGER NOT NULL,
                            PRIMARY KEY (lemma, pos, rank)) WITHOUT ROWID;
        CREATE TABLE parent (synset INTEGER NOT NULL, parent INTEGER NOT NULL, PRIMARY KEY (synset, parent)) WITHOUT ROWID;
        CREATE TABLE member (synset INTEGER PRIMARY KEY, lemmas TEXT NOT NULL);
        CREATE TABLE form (form TEXT NOT NULL, pos TEXT NOT NULL, lemma TEXT NOT NULL, PRIMARY KEY (form, pos, lemma)) WITHOUT ROWID;
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    """)
    db.executemany("INSERT INTO sense VALUES (?, ?, ?, ?)", sorted(senses))
    db.executemany("INSERT INTO parent VALUES (?, ?)", edges)
    db.executemany("INSERT INTO form VALUES (?, ?, ?)", sorted(forms))
    members: dict[int, list[str]] = {}
    for lemma, _, _, synset in senses:
        members.setdefault(synset, []).append(lemma)
    members = {k: v for k, v in members.items() if len(v) > 1 or any(" " in x for x in v)}
    db.executemany("INSERT INTO member VALUES (?, ?)", sorted((k, "\t".join(v)) for k, v in members.items()))
    db.executemany("INSERT INTO meta VALUES (?, ?)", [("source", "Princeton WordNet 3.0 (Debian wordnet-base)"),
                                                       ("licence", "WordNet 3.0 licence: see NOTICE.md")])
    db.commit()
    db.execute("VACUUM")
    db.close()
    return {"sense": len(senses), "parent": len(edges), "form": len(forms), "member": len(members)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"))
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "plugin/data/wordnet/lexicon.sqlite")
    args = ap.parse_args()
    counts = build(args.wordnet, args.out)
    print(f"{args.out}: {args.out.stat().st_size} bytes; " + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main()
