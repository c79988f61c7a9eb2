"""The readers-writer lock the server shares its store behind: readers together, a writer alone,
and a waiting writer is not starved by a stream of readers."""

from __future__ import annotations

import threading
import time

from ragprov.serve.locking import ReadWriteLock, SharedStore
from ragprov.store import open_store


def test_readers_share_the_lock():
    lock = ReadWriteLock()
    inside = threading.Barrier(3, timeout=10)

    def read():
        with lock.reading():
            inside.wait()  # all three readers are inside at once, or this times out

    threads = [threading.Thread(target=read) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    assert not inside.broken


def test_a_writer_is_alone_and_is_not_starved():
    lock = ReadWriteLock()
    log: list[str] = []
    first_reader_in = threading.Event()
    release_reader = threading.Event()

    def long_reader():
        with lock.reading():
            log.append("reader-1 in")
            first_reader_in.set()
            release_reader.wait(10)
            log.append("reader-1 out")

    def writer():
        with lock.writing():
            log.append("writer in")
            time.sleep(0.05)
            log.append("writer out")

    def late_reader():
        with lock.reading():
            log.append("reader-2 in")

    r1 = threading.Thread(target=long_reader)
    r1.start()
    first_reader_in.wait(10)
    w = threading.Thread(target=writer)
    w.start()
    time.sleep(0.1)  # the writer is now waiting for reader-1
    r2 = threading.Thread(target=late_reader)
    r2.start()
    time.sleep(0.1)
    assert log == ["reader-1 in"], "neither the writer nor a later reader got in beside reader-1's read"
    release_reader.set()
    for t in (r1, w, r2):
        t.join(timeout=20)
    assert log == ["reader-1 in", "reader-1 out", "writer in", "writer out", "reader-2 in"]


def test_shared_store_reads_and_writes_through_the_lock():
    store = SharedStore(open_store("memory:"))
    writes = []

    def write(i):
        store.update(f'INSERT DATA {{ GRAPH <urn:g> {{ <urn:s{i}> <urn:p> "{i}" }} }}')
        writes.append(i)

    threads = [threading.Thread(target=write, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=20)
    rows = store.select("SELECT ?o WHERE { GRAPH <urn:g> { ?s ?p ?o } }")
    assert sorted(int(r["o"].value) for r in rows) == list(range(20))
    assert store.ask("ASK { GRAPH <urn:g> { <urn:s3> ?p ?o } }") and store.dialect.value == "rdf12"
