"""The installed wheel carries its data: the ontology and templates are found outside the checkout."""

from __future__ import annotations

import site
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        check=True, capture_output=True, text=True, timeout=600,
    )
    wheel = next(out.glob("ragprov-*.whl"))
    venv = out / "venv"
    # Dependencies come from the running interpreter's site-packages (a venv's own, not only the
    # system's: `venv --system-site-packages` would see the base interpreter's alone); ragprov
    # itself only from the wheel, installed in the new venv's site-packages, which comes first.
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    py = venv / "bin" / "python"
    own = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         check=True, capture_output=True, text=True).stdout.strip()
    deps = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (Path(own) / "_running_interpreter_deps.pth").write_text("\n".join(deps) + "\n")
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--no-index", "--force-reinstall", str(wheel)],
                   check=True, capture_output=True, text=True, timeout=600)
    return wheel, venv


def test_wheel_ships_data_files(wheel_venv):
    import zipfile

    wheel, _ = wheel_venv
    names = set(zipfile.ZipFile(wheel).namelist())
    for required in ("ragprov/ontology/ragprov.ttl", "ragprov/ontology/catalog-v001.xml", "ragprov/queries/trace/show.rq.j2",
                     "ragprov/queries/record/focus.ru.j2", "ragprov/queries/trace/_stages.j2", "ragprov/loaders/__init__.py",
                     "ragprov/data/graphrag/christmas-carol-v3/entities.parquet",
                     "ragprov/data/graphrag/christmas-carol-v3/NOTICE.md", "ragprov/ontology/imports/prov-o.ttl",
                     "ragprov/serve/static/index.html", "ragprov/serve/static/explorer.js", "ragprov/serve/static/explorer.css"):
        assert required in names, required
    assert not any(n.startswith(("tests/", "plugin/", "bench/")) for n in names)
    assert any(n.startswith("ragprov/llm/prompts/") and n.endswith(".md") for n in names), "prompts ship as package data"


def test_installed_wheel_works_from_another_directory(wheel_venv, tmp_path):
    _, venv = wheel_venv
    code = (
        "import ragprov, ragprov.resources as r, pathlib;"
        "assert 'site-packages' in ragprov.__file__, ragprov.__file__;"
        "assert (r.ontology_dir() / 'ragprov.ttl').is_file();"
        "store = ragprov.open_store('memory:');"
        "t = ragprov.Recorder(store).graph_rag('q'); t.grounding(['c']);"
        "print(len(ragprov.Navigator(store).trace(t.question).stages))"
    )
    out = subprocess.run([str(venv / "bin" / "python"), "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "1"
    cli = subprocess.run([str(venv / "bin" / "ragprov"), "query", "list"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0 and "trace/show" in cli.stdout


def test_demo_runs_from_the_installed_wheel(wheel_venv, tmp_path):
    """The README's first command: the demo needs nothing but the installed package."""
    _, venv = wheel_venv
    out = subprocess.run([str(venv / "bin" / "ragprov"), "demo", "--store", str(tmp_path / "demo")],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "[focus]" in out.stderr and "trace:" in out.stderr
    listed = subprocess.run([str(venv / "bin" / "ragprov"), "traces", "--store", str(tmp_path / "demo"), "--format", "json"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0 and len(__import__("json").loads(listed.stdout)) >= 3
