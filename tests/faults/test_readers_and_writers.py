"""Two readers and a writer at once on a directory store: readers open it read-only and run beside
each other and beside the writer; a second writer is told who holds the store; a read-only store
directory can be read; a store removed under a running command says so (issue 13, items 4, 11, 14)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ragprov.errors import StoreError
from ragprov.record import Recorder
from ragprov.store import EmbeddedStore
from tests.core.builders import graph_rag_trace
from tests.faults.faults import ragprov, run_ragprov

ROOT = Path(__file__).resolve().parents[2]
GRAPHRAG = ROOT / "plugin" / "data" / "graphrag" / "christmas-carol-v3"


def _store_with_traces(path: Path, n: int = 3) -> list[str]:
    store = EmbeddedStore(path)
    recorder = Recorder(store)
    questions = [graph_rag_trace(recorder, i, edges=2).question.value for i in range(n)]
    store.close()
    return questions


def _wait_until_held(path, timeout: float = 60.0) -> None:
    """Until a writer has claimed the store (its note names it: what a second writer is told)."""
    from ragprov.store.embedded import WRITER_FILE

    deadline = time.monotonic() + timeout
    while not (path / WRITER_FILE).exists():
        assert time.monotonic() < deadline, "the writer never claimed the store"
        time.sleep(0.02)


def test_two_readers_and_a_writer_at_once(tmp_path):
    path = tmp_path / "store"
    questions = _store_with_traces(path)
    writer = ragprov("load", "graphrag", str(GRAPHRAG), "--store", str(path))
    try:
        _wait_until_held(path)  # the writer holds the store
        readers = [ragprov("traces", "--store", str(path), "--format", "json") for _ in range(2)]
        outputs = [r.communicate(timeout=120) for r in readers]
        still_writing = writer.poll() is None
    finally:
        out, err = writer.communicate(timeout=300)
    assert writer.returncode == 0, err
    for reader, (out, err) in zip(readers, outputs, strict=False):
        assert reader.returncode == 0, err
        assert sorted(r["question"] for r in json.loads(out)) == sorted(questions)
    assert still_writing, "the load ended before the readers started: the test proves nothing"


def test_a_second_writer_is_told_who_holds_the_store(tmp_path):
    path = tmp_path / "store"
    _store_with_traces(path, 1)
    holder = ragprov("load", "graphrag", str(GRAPHRAG), "--store", str(path))
    try:
        _wait_until_held(path)
        second = run_ragprov("trace", "delete", "--before", "2000-01-01", "--store", str(path))
        holding = holder.poll() is None
    finally:
        holder.communicate(timeout=300)
    assert holding, "the first load ended too early: the test proves nothing"
    assert second.returncode == 1
    assert f"is being written by process {holder.pid} (ragprov" in second.stderr and "load graphrag" in second.stderr


def test_in_process_writer_and_staged_writer_refuse_each_other_with_the_holder(tmp_path):
    from ragprov.store.staging import staged

    path = tmp_path / "store"
    store = EmbeddedStore(path)
    with pytest.raises(StoreError, match=rf"being written by process {os.getpid()}"), staged(path):
        pass
    store.close()
    with staged(path), pytest.raises(StoreError, match=rf"being written by process {os.getpid()}"):
        EmbeddedStore(path)


def test_ask_is_refused_before_it_answers_while_a_program_holds_the_store_for_writing(tmp_path):
    """``ask`` reads through a read-only handle and writes its trace at the end: a program that
    holds the store open for writing (the Python API, no directory lock) refuses it before it
    answers — not after, with the trace lost — and keeps its own writer note."""
    from ragprov.store.embedded import WRITER_FILE

    path = tmp_path / "store"
    _store_with_traces(path, 1)
    code = ("import sys, time; from ragprov.store import EmbeddedStore; "
            "s = EmbeddedStore(sys.argv[1]); print('held', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        asked = run_ragprov("ask", "graph-rag", "Who was Scrooge's partner?", "--store", str(path))
        note = json.loads((path / WRITER_FILE).read_text(encoding="utf-8"))
    finally:
        holder.kill()
        holder.wait(timeout=30)
    assert asked.returncode == 1
    assert f"is being written by process {holder.pid}" in asked.stderr
    assert "trace:" not in asked.stdout and "The answer" not in asked.stdout
    assert note["pid"] == holder.pid  # the holder's note was neither overwritten nor removed
    reader = EmbeddedStore(path, read_only=True)
    try:
        assert len(reader.select("SELECT ?q WHERE { GRAPH ?g { ?q a <https://trustgraph.ai/ns/Question> } }")) == 1
    finally:
        reader.close()


def _as_read_only(path: Path, args: list[str]) -> subprocess.CompletedProcess:
    """Run ``ragprov args`` where the directory ``path`` cannot be written to: by its mode for a
    user, and for root (who may write anywhere) on a read-only bind mount of it, in a mount
    namespace of its own."""
    command = [sys.executable, "-m", "ragprov.cli", *args]
    if os.geteuid() != 0:
        return subprocess.run(command, capture_output=True, text=True, timeout=120)
    if not shutil.which("unshare"):
        pytest.skip("running as root without unshare(1): cannot make a directory read-only for root")
    script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"'
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", str(path), *command],
                          capture_output=True, text=True, timeout=120)


def test_a_read_only_store_directory_can_be_read(tmp_path):
    path = tmp_path / "store"
    questions = _store_with_traces(path, 2)
    modes = {p: p.stat().st_mode for p in [path, *path.iterdir()]}
    for p in modes:
        p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        done = _as_read_only(path, ["traces", "--store", str(path), "--format", "json"])
        assert done.returncode == 0, done.stderr
        assert sorted(r["question"] for r in json.loads(done.stdout)) == sorted(questions)
        written = _as_read_only(path, ["trace", "delete", "--before", "2000-01-01", "--store", str(path)])
        assert written.returncode == 1 and "internal error" not in written.stderr, written.stderr
        assert "cannot write to the store" in written.stderr.lower() or "read-only" in written.stderr.lower()
    finally:
        for p, mode in modes.items():
            p.chmod(mode)


def test_a_store_removed_under_a_running_command_says_so(tmp_path):
    from ragprov.store.staging import staged

    path = tmp_path / "store"
    _store_with_traces(path, 1)
    with pytest.raises(StoreError, match="was removed while this command ran"), staged(path) as store:
        store.update('INSERT DATA { <urn:a> <urn:b> "c" }')
        shutil.rmtree(path)
    assert not path.exists()


def test_a_store_removed_under_an_open_store_says_so(tmp_path):
    path = tmp_path / "store"
    store = EmbeddedStore(path)
    store.update('INSERT DATA { <urn:a> <urn:b> "c" }')
    shutil.rmtree(path)
    store.update('INSERT DATA { <urn:a> <urn:b> "d" }')  # RocksDB keeps it in memory until a flush
    with pytest.raises(StoreError, match=rf"the store directory {path} was removed while this command ran"):
        store.flush()
