"""bench/navigate.py --cache refuses a cached store built for another store version (its traces'
shape or its build differ from what the views read), and says which version it needs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.fixture(scope="module")
def navigate():
    sys.path.insert(0, str(BENCH))
    try:
        import navigate

        yield navigate
    finally:
        sys.path.remove(str(BENCH))


def _cache(folder: Path, meta: dict) -> Path:
    (folder / "disk").mkdir(parents=True)
    (folder / "meta.json").write_text(json.dumps({"traces": [], "facts": 0, "quads": 0, "built_s": 0.0, **meta}))
    return folder


@pytest.mark.parametrize("name, meta", [
    ("mine", {"store_version": -1}),  # meta.json says another version
    ("navigate1-10-x1", {}),  # a cache from before meta.json said: its folder's name does
    ("mine", {}),  # nothing says: not used either
])
def test_a_cache_of_another_store_version_is_refused(navigate, tmp_path, capsys, name, meta):
    folder = _cache(tmp_path / name, meta)
    assert navigate.main(["--cache", str(folder), "--stores", "disk", "--samples", "1"]) == 2
    err = capsys.readouterr().err
    assert str(folder) in err and f"needs version {navigate.STORE_VERSION}" in err


@pytest.mark.parametrize("name, meta", [("mine", None), (None, {})])
def test_a_cache_of_this_store_version_is_used(navigate, tmp_path, name, meta):
    folder = tmp_path / (name or f"navigate{navigate.STORE_VERSION}-10-x1-copy")
    meta = {"store_version": navigate.STORE_VERSION} if meta is None else meta
    assert navigate.check_cache(_cache(folder, meta), meta) is None
    assert navigate.main(["--cache", str(folder), "--build-only"]) == 0  # found, not rebuilt: no index to build from here
