"""The spool never jams: a permanent rejection is set aside, an outage stops the replay, a full
disk says so, and `ragprov spool replay` sends even when $RAGPROV_SPOOL is set (issue 13, items 1,
2, 10)."""

from __future__ import annotations

import errno
import os

import pytest
from pyoxigraph import NamedNode

from ragprov.cli import cli, run
from ragprov.errors import StoreError
from ragprov.sparql.dialect import Dialect
from ragprov.store import open_store
from ragprov.store.spool import Spool, SpoolingStore
from tests.faults.sparql_server import SparqlServer

BAD_IRI = "urn:x:line\u2028separator"


def _ins(i: int, subject: str | None = None) -> str:
    return f'INSERT DATA {{ GRAPH <urn:g> {{ <{subject or f"urn:s{i}"}> <urn:p> "{i}" }} }}'


def _count(server: SparqlServer) -> int:
    return sum(1 for _ in server.store.quads_for_pattern(None, None, None, NamedNode("urn:g")))


def test_a_permanent_rejection_in_the_middle_of_a_replay_is_set_aside_and_the_rest_is_sent(tmp_path, capsys):
    spool = Spool(tmp_path / "spool")
    for i in range(6):
        spool.append(_ins(i, BAD_IRI if i == 3 else None), dialect=Dialect.RDF12, store="test")
    with SparqlServer(reject="\u2028") as server:
        store = open_store(server.url, dialect="rdf12", retries=1, backoff=0.01)
        report = spool.replay(store)
        assert (report.replayed, report.remaining, report.error) == (5, 0, None)
        assert report.rejected == ["0000000000000004.ru"]
        assert _count(server) == 5
    status = spool.status()
    assert status.rejected == 1 and status.pending == 0
    name, message = status.rejections[0]
    assert name == "0000000000000004.ru" and "U+2028" in message
    assert BAD_IRI in (spool.rejected_dir / name).read_text(encoding="utf-8")  # kept, not lost
    assert run(cli, ["spool", "status", "--spool", str(tmp_path / "spool")]) == 0
    out = capsys.readouterr().out
    assert "0000000000000004.ru" in out and "U+2028" in out


def test_an_outage_during_a_replay_keeps_the_entry_and_everything_after(tmp_path):
    spool = Spool(tmp_path / "spool")
    for i in range(3):
        spool.append(_ins(i), dialect=Dialect.RDF12, store="test")
    with SparqlServer() as server:
        store = open_store(server.url, dialect="rdf12", retries=1, backoff=0.01)
        server.down = True
        report = spool.replay(store)
        assert (report.replayed, report.remaining, report.rejected) == (0, 3, [])
        assert "503" in report.error
        server.down = False
        assert spool.replay(store).replayed == 3


def test_spool_replay_sends_even_when_the_spool_variable_is_set(tmp_path, monkeypatch):
    spool_dir = tmp_path / "spool"
    spool = Spool(spool_dir)
    for i in range(3):
        spool.append(_ins(i), dialect=Dialect.RDF12, store="test")
    with SparqlServer() as server:
        monkeypatch.setenv("RAGPROV_SPOOL", str(spool_dir))
        assert run(cli, ["spool", "replay", "--store", server.url, "--dialect", "rdf12"]) == 0
        assert _count(server) == 3
    assert len(Spool(spool_dir)) == 0


def test_replay_through_a_spooling_store_sends_instead_of_spooling_again(tmp_path):
    with SparqlServer() as server:
        endpoint = open_store(server.url, dialect="rdf12", retries=0)
        store = SpoolingStore(endpoint, tmp_path / "spool", replay_interval=None)
        server.down = True
        store.update(_ins(0))
        server.down = False
        report = store.spool.replay(store)  # handed the wrapper, not the endpoint
        assert report.replayed == 1 and _count(server) == 1


def test_a_full_disk_while_spooling_is_a_clear_error_and_leaves_no_partial_entry(tmp_path, monkeypatch):
    spool = Spool(tmp_path / "spool")
    real_write = os.write

    def full(fd, data):
        real_write(fd, bytes(data)[:10])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(StoreError, match=r"spool at .*No space left on device.*free space"):
        spool.append(_ins(0), dialect=Dialect.RDF12, store="http://127.0.0.1:1/ds")
    monkeypatch.undo()
    assert [p.name for p in (tmp_path / "spool").iterdir() if not p.name.startswith((".append", "sequence"))] == []
