"""The answer bench's question files are well formed and their answers come from the texts: every
line a question about a known dataset, ``answers`` null (unanswerable) or a list of aliases, at least
one of which its dataset's documents say as whole words (a common noun perhaps in its plural), except a
yes-no answer and one marked ``"inferred": true`` (a count the reader makes, which the text never
writes); and no question asked twice within a file."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "bench").glob("answers*.jsonl"))


@pytest.fixture(scope="module")
def texts(request) -> dict[str, str]:
    mp = pytest.MonkeyPatch()
    request.addfinalizer(mp.undo)
    mp.syspath_prepend(str(ROOT))
    datasets = importlib.import_module("bench.answers").DATASETS
    return {name: " ".join(" ".join(pq.read_table(path / "documents.parquet", columns=["text"]).column("text")
                                     .to_pylist()).lower().split()) for name, path in datasets.items()}


def _says(text: str, alias: str, inflected) -> bool:
    """Whether ``text`` (lower-case, spaces folded) says ``alias`` as whole words ("Fan" is not in "fancy"),
    inflected as the bench allows a right first line to inflect it (``inflected``: a common noun's plural)."""
    pattern = r"(?<!\w)" + re.escape(" ".join(alias.lower().split())) + inflected(alias)
    return re.search(pattern, text) is not None


def test_an_alias_is_said_as_whole_words(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    inflected = importlib.import_module("bench.answers")._inflected
    assert _says("his sister fan came", "Fan", inflected) and not _says("a fancy hat", "Fan", inflected)
    assert _says("one of his debtors", "debtor", inflected) and not _says("the debtorship", "debtor", inflected)


def test_there_are_question_files():
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_question_is_well_formed_and_answered_from_its_text(path, texts, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    inflected = importlib.import_module("bench.answers")._inflected
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert questions, f"{path.name} has no question"
    for q in questions:
        assert q["dataset"] in texts, f"{path.name}: unknown dataset {q['dataset']!r}"
        assert q["question"].strip().rstrip("'\"’”").endswith("?"), f"{path.name}: not a question: {q['question']!r}"
        if q["answers"] is None or q.get("inferred"):
            continue
        assert q["answers"] and all(isinstance(a, str) and a.strip() for a in q["answers"]), q
        said = [a for a in q["answers"] if a.lower() in ("yes", "no") or _says(texts[q["dataset"]], a, inflected)]
        assert said, f"{path.name}: no alias of {q['question']!r} is in the text: {q['answers']}"
    asked = [" ".join(q["question"].lower().split()) for q in questions]
    assert len(asked) == len(set(asked)), f"{path.name} asks a question twice"
