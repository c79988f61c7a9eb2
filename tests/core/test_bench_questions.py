"""The answer bench's question files are well formed and their answers come from the texts: every
line a question about a known dataset, ``answers`` null (unanswerable) or a list of aliases, at least
one of which the dataset's documents say verbatim (a yes-no answer, or one marked ``"inferred": true``
— a count the reader makes, which the text never writes — excepted), and no question asked twice within
a file."""

from __future__ import annotations

import importlib
import json
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


def test_there_are_question_files():
    assert len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_question_is_well_formed_and_answered_from_its_text(path, texts):
    questions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert questions, f"{path.name} has no question"
    for q in questions:
        assert q["dataset"] in texts, f"{path.name}: unknown dataset {q['dataset']!r}"
        assert q["question"].strip().rstrip("'\"’”").endswith("?"), f"{path.name}: not a question: {q['question']!r}"
        if q["answers"] is None or q.get("inferred"):
            continue
        assert q["answers"] and all(isinstance(a, str) and a.strip() for a in q["answers"]), q
        said = [a for a in q["answers"] if a.lower() in ("yes", "no") or " ".join(a.lower().split()) in texts[q["dataset"]]]
        assert said, f"{path.name}: no alias of {q['question']!r} is in the text: {q['answers']}"
    asked = [" ".join(q["question"].lower().split()) for q in questions]
    assert len(asked) == len(set(asked)), f"{path.name} asks a question twice"
