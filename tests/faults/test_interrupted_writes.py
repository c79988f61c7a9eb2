"""SIGINT and SIGKILL at seeded random points of a load and of a recording: the store is as it was
before, or holds the whole write, never part of it; a load into a new path that did not finish leaves
no directory (issue 13, item 3). ``RAGPROV_FAULT_SEED`` replays one set of stopping points."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from tests.faults.faults import leftovers, quad_count, run_ragprov, stopped_run, stopping_points, timed_run

ROOT = Path(__file__).resolve().parents[2]
GRAPHRAG = ROOT / "plugin" / "data" / "graphrag" / "christmas-carol-v3"
POINTS = 3  # per signal and scenario


def _documents(folder: Path, n: int, *, tag: str) -> Path:
    folder.mkdir(parents=True)
    for i in range(n):
        text = "\n\n".join(f"{tag} document {i}, paragraph {k}: " + "words of the story " * 40 for k in range(6))
        (folder / f"{tag}-{i:03d}.txt").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_a_stopped_load_into_a_new_path_leaves_no_store_or_a_complete_one(tmp_path, sig):
    reference = tmp_path / "reference"
    duration = timed_run("load", "graphrag", str(GRAPHRAG), "--store", str(reference))
    complete = quad_count(reference)
    for i, after in enumerate(stopping_points(POINTS, duration, salt=f"new-{sig.name}")):
        path = tmp_path / f"store-{i}"
        done = stopped_run(["load", "graphrag", str(GRAPHRAG), "--store", str(path)], after=after, sig=sig)
        count = quad_count(path)
        assert count in (None, complete), f"stopped after {after:.2f}s: {count} of {complete} quads ({done.stderr})"
        if count is None:
            assert not path.exists()
        if sig is signal.SIGINT:
            assert leftovers(path) == [], done.stderr


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_a_stopped_load_into_an_existing_store_leaves_it_as_it_was_or_complete(tmp_path, sig):
    first = _documents(tmp_path / "first", 5, tag="first")
    second = _documents(tmp_path / "second", 60, tag="second")
    path = tmp_path / "store"
    assert run_ragprov("load", "documents", str(first), "--store", str(path)).returncode == 0
    before = quad_count(path)
    reference = tmp_path / "reference"
    assert run_ragprov("load", "documents", str(first), "--store", str(reference)).returncode == 0
    duration = timed_run("load", "documents", str(second), "--store", str(reference))
    complete = quad_count(reference)
    assert complete > before
    for after in stopping_points(POINTS, duration, salt=f"existing-{sig.name}"):
        done = stopped_run(["load", "documents", str(second), "--store", str(path)], after=after, sig=sig)
        count = quad_count(path)
        assert count in (before, complete), f"stopped after {after:.2f}s: {count} quads, not {before} or {complete} ({done.stderr})"
        if count == complete:
            break  # the whole load went in: later stops would only find it already loaded
        if sig is signal.SIGINT:
            assert leftovers(path) == [], done.stderr
    # a staging directory a killed load left behind goes with the next write
    assert run_ragprov("load", "documents", str(first), "--store", str(path)).returncode == 0
    assert leftovers(path) == []


def _traces(path: Path) -> list[dict]:
    listed = run_ragprov("traces", "--store", str(path), "--format", "json", "--limit", "1000")
    assert listed.returncode == 0, listed.stderr
    return json.loads(listed.stdout)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_a_stopped_recording_leaves_no_part_of_its_trace(tmp_path, sig):
    path = tmp_path / "store"
    assert run_ragprov("load", "graphrag", str(GRAPHRAG), "--store", str(path)).returncode == 0
    ask = ["ask", "agent", "Who was Marley and what did he tell Scrooge?", "--store", str(path)]
    duration = timed_run(*ask)
    for after in stopping_points(POINTS, duration, salt=f"ask-{sig.name}"):
        before, traces_before = quad_count(path), _traces(path)
        stopped_run(ask, after=after, sig=sig)
        traces = _traces(path)
        if quad_count(path) == before:
            assert traces == traces_before
        else:  # the whole trace went in: one more top-level trace, complete
            assert len(traces) == len(traces_before) + 1, f"stopped after {after:.2f}s"
        assert [t["status"] for t in traces] == ["complete"] * len(traces), f"stopped after {after:.2f}s"
    incomplete = run_ragprov("trace", "incomplete", "--store", str(path), "--format", "json")
    assert incomplete.returncode == 0 and json.loads(incomplete.stdout) == []
