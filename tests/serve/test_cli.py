"""``ragprov serve``: the one command that starts the explorer, its refusals, and its install hint."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import requests

from ragprov.store import open_store


def ragprov(*args: str, code: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "ragprov.cli", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env={**os.environ, "RAGPROV_SERVE_TOKEN": ""})


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_refuses_to_listen_beyond_loopback_without_a_token(tmp_path):
    open_store(str(tmp_path / "s")).close()
    out = ragprov("serve", "--store", str(tmp_path / "s"), "--host", "0.0.0.0")
    assert out.returncode == 1 and "without a token" in out.stderr and "--token" in out.stderr


def test_serve_without_the_extra_names_the_install_command(tmp_path):
    open_store(str(tmp_path / "s")).close()
    code = "import sys; sys.modules['uvicorn'] = None; from ragprov.cli import main; main(sys.argv[1:])"
    out = ragprov("serve", "--store", str(tmp_path / "s"), code=code)
    assert out.returncode == 1, out.stderr
    assert "pip install 'ragprov[serve]'" in out.stderr and "Traceback" not in out.stderr


def test_serve_starts_answers_and_stops(tmp_path):
    open_store(str(tmp_path / "s")).close()
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "ragprov.cli", "serve", "--store", str(tmp_path / "s"), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                health = requests.get(f"{base}/health", timeout=5)
                break
            except requests.ConnectionError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() is not None else "no answer"
                time.sleep(0.2)
        assert health.json()["status"] == "ok"
        assert "ragprov explorer" in requests.get(base + "/", timeout=10).text
        assert requests.get(f"{base}/traces", timeout=10).json() == {"traces": [], "next": None}
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert f"http://127.0.0.1:{port}/" in proc.stderr.read()
