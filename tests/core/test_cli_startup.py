"""CLI start-up: commands load their modules on first use, ``ragprov --help`` lists them without
importing any, and the precompiled template-header cache matches the templates."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys

from ragprov.cli import COMMANDS, cli


def _one_line(text: str) -> str:
    return " ".join((text or "").split("\n\n")[0].split())


def test_the_lazy_command_table_matches_the_modules():
    for name, (module, short) in COMMANDS.items():
        importlib.import_module(f"ragprov.cli.{module}")
        command = cli.commands[name]
        assert _one_line(command.short_help or command.help) == short, name
    assert set(cli.commands) == set(COMMANDS), "every command is in ragprov.cli.COMMANDS"


def test_help_imports_no_command_module_nor_heavy_library():
    code = (
        "import sys; from ragprov.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('requests', 'jinja2', 'yaml', 'pyarrow', 'ragprov.cli.ask', 'ragprov.cli.load',"
        " 'ragprov.sparql.templates') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out
    for name in COMMANDS:
        assert f"  {name} " in out


def test_traces_needs_no_http_stack(tmp_path):
    code = (
        "import sys; from ragprov.cli import main\n"
        "try:\n    main(['traces', '--store', 'memory:'])\nexcept SystemExit:\n    pass\n"
        "print('HEAVY', [m for m in ('requests', 'pyarrow', 'ragprov.llm', 'yaml') if m in sys.modules])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out


def test_the_template_header_cache_is_current():
    """Regenerate with ``python -m ragprov.sparql.templates`` after editing a template header."""
    from ragprov.resources import data_dir
    from ragprov.sparql.templates import HEADER_CACHE, header_cache

    shipped = json.loads((data_dir() / HEADER_CACHE).read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(header_cache())), "run: python -m ragprov.sparql.templates"


def test_a_stale_cache_entry_is_never_used(tmp_path):
    from ragprov.sparql.templates import _parse_header

    source = "# summary: now\n# kind: select\n# params: {}\n# returns: x\nSELECT * {}\n"
    stale = {
        "text": "summary: then\nkind: select\nparams: {}\nreturns: x",
        "header": {"summary": "then", "kind": "select", "params": {}, "returns": "x"},
    }
    assert _parse_header("t", tmp_path / "t.rq.j2", source, stale).summary == "now"


def test_an_offline_ask_loads_no_http_client():
    code = (
        "import sys; from ragprov.cli import main\n"
        "try:\n    main(['ask', 'graph-rag', 'Who is Scrooge?', '--store', 'memory:'])\nexcept SystemExit:\n    pass\n"
        "print('HEAVY', [m for m in ('requests', 'yaml', 'pyarrow') if m in sys.modules])\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("RAGPROV_LLM")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert "HEAVY []" in out


def test_an_offline_ask_in_every_mode_loads_only_what_it_uses():
    """What an offline ``ask`` pays at start-up: no logging (it logs only when an embeddings API
    fails), no thread pool (only several LLM requests start one), no Decimal (none is written), no
    ``-x`` printer, no YAML (the template headers are precompiled), and no importlib.resources (the
    data folders are found through their packages; a site's .pth may have loaded it: it is
    forgotten first)."""
    code = (
        "import importlib, sys\n"
        "for m in [m for m in sys.modules if m.startswith('importlib.resources') or m == 'importlib.readers']:\n"
        "    del sys.modules[m]\n"
        "if hasattr(importlib, 'resources'):\n    del importlib.resources\n"
        "from ragprov.cli import main\n"
        "try:\n    main(sys.argv[1:] or ['--help'])\nexcept SystemExit:\n    pass\n"
        "print('HEAVY', [m for m in ('logging', 'concurrent.futures', 'decimal', 'yaml', 'ragprov.cli.explain', 'importlib.resources')"
        " if m in sys.modules])\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("RAGPROV_LLM")}
    out = subprocess.run([sys.executable, "-c", code, "traces", "--store", "memory:"], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out, out
    for mode in ("graph-rag", "local", "drift"):
        out = subprocess.run([sys.executable, "-c", code, "ask", mode, "Who is Scrooge?", "--store", "memory:"],
                             capture_output=True, text=True, check=True, env=env).stdout
        assert "HEAVY []" in out, (mode, out)


def test_the_package_catalog_reads_a_template_only_when_it_is_used():
    from ragprov.sparql.templates import Catalog

    cat = Catalog()
    assert "trace/list" in cat.names() and cat._infos == {}
    assert cat.info("trace/list").kind == "select" and list(cat._infos) == ["trace/list"]


def test_asking_imports_numpy_only_for_vectors():
    """Every ``ragprov ask`` imports the pipelines; numpy loads only when basic search makes or searches vectors."""
    code = (
        "import sys; import ragprov.cli.ask; from ragprov.pipelines import pipeline, BasicSearch\n"
        "from ragprov.pipelines.microsoft_defaults import PARAMETERS\n"
        "print('NUMPY', 'numpy' in sys.modules)\n"
        "from ragprov.retrieve.vectors import HashedEmbedder; HashedEmbedder().embed(['Marley'])\n"
        "print('NUMPY', 'numpy' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["NUMPY", "False", "NUMPY", "True"]


def test_an_ask_process_runs_without_the_cycle_collector_and_other_commands_keep_it():
    """The console script switches the cyclic garbage collector off for ``ask`` (one question,
    then the process ends) and freezes the heap at exit; ``traces`` (and the long-lived
    commands) keep it. Checked in a process of its own, through the console entry point."""
    code = (
        "import atexit, gc, sys\n"
        "sys.argv = ['ragprov', *sys.argv[1:]]\n"
        "from ragprov.cli import main\n"
        "atexit.register(lambda: print('AT EXIT', gc.isenabled(), gc.get_freeze_count() > 0, flush=True))\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
    )
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("RAGPROV_LLM")}
    asked = subprocess.run([sys.executable, "-c", code, "ask", "graph-rag", "Who is Scrooge?", "--store", "memory:"],
                           capture_output=True, text=True, check=True, env=env).stdout
    # atexit runs its handlers last-registered first: the freeze registered by main() has run
    assert asked.splitlines()[-1] == "AT EXIT False True", asked
    listed = subprocess.run([sys.executable, "-c", code, "traces", "--store", "memory:"], capture_output=True, text=True, check=True).stdout
    assert listed.splitlines()[-1] == "AT EXIT True False", listed
