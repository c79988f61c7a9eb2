"""The engine scripts: start on loopback, stop by PID, say how to install what is missing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import tests.engines as engines
from tests.engines import SERVERS_PY, missing_engine, servers


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped) counts as gone
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except OSError:
        return False


def test_missing_engine_names_the_install_command(monkeypatch, tmp_path):
    monkeypatch.setattr(servers, "JAVA_DIR", tmp_path)
    with pytest.raises(servers.EngineMissing, match=r"install-engines\.sh") as info:
        servers.JenaServer.check()
    assert "libapache-jena-java" in info.value.install


def test_missing_engine_skips_locally_and_fails_in_ci(monkeypatch):
    monkeypatch.setattr(engines, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="pip install"):
        missing_engine("oxigraph-http", "pip install oxigraph")
    monkeypatch.setattr(engines, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="pip install"):
        missing_engine("oxigraph-http", "pip install oxigraph")


def test_server_binds_loopback_and_stops_by_pid(tmp_path):
    try:
        servers.OxigraphServer.check()
    except servers.EngineMissing as e:
        missing_engine("oxigraph-http", e.install)
    server = servers.OxigraphServer(tmp_path).start()
    pid = server.pid
    assert server.url.startswith("http://127.0.0.1:") and _alive(pid)
    assert (tmp_path / "server.pid").read_text().strip() == str(pid)
    server.stop()
    assert not _alive(pid) and not (tmp_path / "server.pid").exists()
    server.stop()  # twice is fine


def test_command_line_start_and_stop(tmp_path):
    try:
        servers.OxigraphServer.check()
    except servers.EngineMissing as e:
        missing_engine("oxigraph-http", e.install)
    out = subprocess.run([sys.executable, str(SERVERS_PY), "start", "oxigraph", "--dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    try:
        assert info["dialect"] == "rdf12" and info["url"].startswith("http://127.0.0.1:")
        assert _alive(info["pid"])
    finally:
        stop = subprocess.run([sys.executable, str(SERVERS_PY), "stop", "--dir", str(tmp_path)],
                              capture_output=True, text=True, timeout=60)
    assert stop.returncode == 0, stop.stderr
    assert not _alive(info["pid"])
