"""Shared helpers for the loader tests: fixture paths, a hand-written PDF, a reification-dialect store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pyoxigraph as ox

from ragprov.resources import data_dir
from ragprov.sparql.dialect import Dialect
from ragprov.sparql.quads import insert_data
from ragprov.store import EmbeddedStore

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "graphrag"
GRAPHRAG = {
    "christmas-carol-v3": data_dir() / "graphrag" / "christmas-carol-v3",
    "christmas-carol-v0.9": FIXTURES / "christmas-carol-v0.9",
    "operation-dulce-v1": FIXTURES / "operation-dulce-v1",
    "operation-dulce-v3": FIXTURES / "operation-dulce-v3",
}


def copy_fixture(name: str, dest: Path) -> Path:
    """A writable copy of a GraphRAG fixture folder."""
    target = dest / name
    shutil.copytree(GRAPHRAG[name], target)
    for f in target.iterdir():
        f.chmod(0o644)
    return target


class ReificationStore(EmbeddedStore):
    """pyoxigraph speaking the ``reification`` dialect, as Virtuoso 7 or QLever would: loads go
    through INSERT DATA spelled with rdf:Statement IRIs, never as triple terms."""

    dialect = Dialect.REIFICATION

    def load(self, data, *, format="nquads", graph=None):
        quads = list(ox.parse(data, format=ox.RdfFormat.N_QUADS))
        self.update(insert_data(quads, self.dialect))


def make_pdf(pages: list[str]) -> bytes:
    """A minimal valid PDF with one text line per page (Helvetica), written by hand."""
    objects: list[bytes] = []
    n_pages = len(pages)
    font_id = 3 + 2 * n_pages
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n_pages))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    for i, text in enumerate(pages):
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        stream = f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode("latin-1")
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def quad_set(store) -> set[str]:
    """Every quad of a store as N-Quads lines (for before/after comparisons)."""
    return set(store.dump(format="nquads").decode("utf-8").splitlines())
