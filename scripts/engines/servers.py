#!/usr/bin/env python3
"""Start and stop the real RDF engines ragprov is tested on, on 127.0.0.1, on free ports.

Standard library only (the test suite, the benchmarks and CI all load this file by path):

* :class:`OxigraphServer` — ``oxigraph serve --location DIR --bind 127.0.0.1:PORT`` (RDF 1.2);
* :class:`JenaServer` — Apache Jena 4.5 TDB2 behind ``JenaSparqlServer.java`` (RDF-star), a small
  SPARQL 1.1 Protocol server compiled at start-up with ``javac`` against the Debian jars;
* :class:`VirtuosoServer` — Virtuoso 7 (no quoted triples: the reification dialect).

Every server is started as a child process and stopped by its PID (SIGTERM, then SIGKILL), also at
interpreter exit. A missing engine raises :class:`EngineMissing` carrying the command that installs it.

Command line (for shells and CI)::

    python scripts/engines/servers.py start oxigraph|jena|virtuoso --dir DIR   # prints URL, PID
    python scripts/engines/servers.py stop --dir DIR
    python scripts/engines/servers.py check                                   # which engines are here
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

__all__ = [
    "SERVERS",
    "EngineFailed",
    "EngineMissing",
    "JenaServer",
    "OxigraphServer",
    "Server",
    "VirtuosoServer",
    "free_port",
    "jena_classpath",
]

HERE = Path(__file__).resolve().parent
INSTALL_SCRIPT = ".ci/install-engines.sh"
JAVA_DIR = Path(os.environ.get("RAGPROV_JAVA_DIR", "/usr/share/java"))
JENA_JARS = [
    "jena-base", "jena-core", "jena-iri", "jena-arq", "jena-shacl", "jena-shex", "jena-rdfconnection",
    "jena-dboe-base", "jena-dboe-transaction", "jena-dboe-index", "jena-dboe-trans-data", "jena-dboe-storage",
    "jena-tdb", "jena-tdb2", "jena-cmds",
    "commons-cli", "commons-codec", "commons-compress", "commons-csv", "commons-io", "commons-lang3",
    "dexx.collection", "gson", "guava", "httpclient", "httpcore", "jackson-core", "jackson-databind",
    "jackson-annotations", "jsonld-java", "jakarta.json-api", "titanium-json-ld", "protobuf", "thrift",
    "slf4j-api", "slf4j-simple", "jcl-over-slf4j",
]
VIRTUOSO_INI = Path("/etc/virtuoso-opensource-7/virtuoso.ini")


class EngineMissing(RuntimeError):
    """The engine is not installed here; ``install`` is the command that installs it."""

    def __init__(self, engine: str, what: str, install: str):
        super().__init__(f"{engine} is not available ({what}): install it with `{install}`")
        self.engine = engine
        self.install = install


class EngineFailed(RuntimeError):
    """The engine is installed but did not start (the message ends with its log's last lines)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def _http_ok(url: str, data: bytes | None = None, timeout: float = 2.0) -> bool:
    try:
        req = urllib.request.Request(url, data=data)
        if data is not None:
            req.add_header("Content-Type", "application/x-www-form-urlencoded")
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status < 400
    except (urllib.error.URLError, OSError):
        return False


class Server:
    """A server process on 127.0.0.1; ``url`` is what :func:`ragprov.store.open_store` takes."""

    name = "server"
    dialect = ""
    start_timeout = 60.0

    def __init__(self, workdir: str | Path):
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.process: subprocess.Popen | None = None
        self.port: int | None = None
        self.log_path = self.workdir / f"{self.name}.log"
        self._log_offset = 0

    # -- subclass API ---------------------------------------------------------------------------
    @classmethod
    def check(cls) -> None:
        """Raise :class:`EngineMissing` unless the engine can run here."""

    def command(self) -> list[str]:
        raise NotImplementedError

    def wait_ready(self, deadline: float) -> None:
        raise NotImplementedError

    @property
    def url(self) -> str:
        """The endpoint URL for ``ragprov --store``."""
        raise NotImplementedError

    @property
    def query_url(self) -> str:
        return self.url

    def env(self) -> dict[str, str]:
        return dict(os.environ)

    def cwd(self) -> Path:
        return self.workdir

    # -- lifecycle ------------------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> Server:
        """Start the process and wait until it answers; raise :class:`EngineFailed` if it does not."""
        self.check()
        if self.running:
            return self
        self._log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        log = open(self.log_path, "ab")  # noqa: SIM115 (the server writes to it; closed when it stops)
        try:
            self.process = subprocess.Popen(
                self.command(), cwd=self.cwd(), env=self.env(), stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, start_new_session=True,
            )
        finally:
            log.close()
        _REGISTRY.add(self)
        deadline = time.monotonic() + self.start_timeout
        try:
            self.wait_ready(deadline)
        except BaseException:
            self.stop()
            raise
        (self.workdir / "server.pid").write_text(f"{self.process.pid}\n")
        return self

    def _check_alive(self) -> None:
        if self.process is not None and self.process.poll() is not None:
            raise EngineFailed(f"{self.name} exited with status {self.process.returncode}:\n{_tail(self.log_path)}")

    def _timeout(self) -> None:
        raise EngineFailed(f"{self.name} did not come up within {self.start_timeout:.0f} s:\n{_tail(self.log_path)}")

    def stop(self, *, timeout: float = 15.0) -> None:
        """Stop by PID: SIGTERM, then SIGKILL after ``timeout`` seconds. Safe to call twice."""
        proc = self.process
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.kill(proc.pid, signal.SIGTERM)
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait(timeout=timeout)
            except ProcessLookupError:
                pass
        self.process = None
        _REGISTRY.discard(self)
        with contextlib.suppress(OSError):
            (self.workdir / "server.pid").unlink()

    def kill(self) -> None:
        """Kill the process at once (SIGKILL by PID), as a crash would."""
        proc = self.process
        if proc is not None and proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)
        self.process = None
        _REGISTRY.discard(self)

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(pid={self.pid}, url={self.url if self.port else None})"


class _Registry:
    """Every running server, stopped at interpreter exit (even when a test run fails)."""

    def __init__(self) -> None:
        self._servers: set[Server] = set()
        self._lock = threading.Lock()
        atexit.register(self.stop_all)

    def add(self, s: Server) -> None:
        with self._lock:
            self._servers.add(s)

    def discard(self, s: Server) -> None:
        with self._lock:
            self._servers.discard(s)

    def stop_all(self) -> None:
        with self._lock:
            servers = list(self._servers)
        for s in servers:
            with contextlib.suppress(Exception):
                s.stop(timeout=5)


_REGISTRY = _Registry()


# -- Oxigraph -------------------------------------------------------------------------------------
class OxigraphServer(Server):
    """``oxigraph serve`` on a store directory (``/query``, ``/update``, ``/store``)."""

    name = "oxigraph"
    dialect = "rdf12"

    def __init__(self, workdir: str | Path, *, port: int | None = None, read_only: bool = False):
        super().__init__(workdir)
        self.location = self.workdir / "store"
        self.port = port
        self.read_only = read_only

    @classmethod
    def binary(cls) -> str:
        found = shutil.which("oxigraph")
        if not found:
            raise EngineMissing("oxigraph", "no `oxigraph` command on PATH", "pip install 'oxigraph>=0.5,<0.6'")
        return found

    @classmethod
    def check(cls) -> None:
        cls.binary()

    def command(self) -> list[str]:
        if self.port is None:
            self.port = free_port()
        verb = "serve-read-only" if self.read_only else "serve"
        return [self.binary(), verb, "--location", str(self.location), "--bind", f"127.0.0.1:{self.port}"]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, deadline: float) -> None:
        probe = urllib.parse.urlencode({"query": "ASK {}"}).encode()
        while time.monotonic() < deadline:
            self._check_alive()
            if _http_ok(f"{self.url}/query", probe):
                return
            time.sleep(0.05)
        self._timeout()


# -- Jena TDB2 ------------------------------------------------------------------------------------
def _xerces_fix_jar(fix_dir: Path) -> Path:
    """The message bundles Debian's jena-core.jar ships in the wrong place, as a jar of their own.

    The relocated xerces classes look their bundles up under ``xerces/impl/…`` but the jar has them
    under ``org/apache/jena/ext/xerces/impl/…``; without this every Jena command dies at start-up
    (ExceptionInInitializerError in XSSimpleTypeDecl). Same fix as ``jenacp.sh``.
    """
    fix_jar = fix_dir / "jena-xerces-resources-fix.jar"
    if fix_jar.exists():
        return fix_jar
    fix_dir.mkdir(parents=True, exist_ok=True)
    prefix = "org/apache/jena/ext/xerces/impl/"
    tmp = fix_dir / f".fix-{os.getpid()}.jar"
    with zipfile.ZipFile(JAVA_DIR / "jena-core.jar") as src, zipfile.ZipFile(tmp, "w") as out:
        for info in src.infolist():
            if info.filename.startswith(prefix) and not info.is_dir():
                out.writestr("xerces/impl/" + info.filename[len(prefix):], src.read(info))
    os.replace(tmp, fix_jar)
    return fix_jar


def jena_classpath(fix_dir: str | Path | None = None) -> str:
    """The classpath of Debian's Jena 4.5 jars plus the xerces fix jar (raises :class:`EngineMissing`)."""
    hint = f"sudo {INSTALL_SCRIPT}  (apt-get install -y libapache-jena-java openjdk-17-jdk-headless)"
    missing = [a for a in JENA_JARS if not (JAVA_DIR / f"{a}.jar").exists()]
    if missing:
        raise EngineMissing("jena-tdb2", f"missing jars in {JAVA_DIR}: {', '.join(missing[:4])}…", hint)
    if not shutil.which("java"):
        raise EngineMissing("jena-tdb2", "no `java` command", hint)
    fix_dir = Path(fix_dir) if fix_dir else Path(tempfile.gettempdir()) / "ragprov-jena-fix"
    fix = _xerces_fix_jar(fix_dir)
    return os.pathsep.join([str(JAVA_DIR / f"{a}.jar") for a in JENA_JARS] + [str(fix)])


def build_jena_server(classpath: str) -> Path:
    """Compile ``JenaSparqlServer.java`` (cached by source hash in the temp dir); the class directory."""
    if not shutil.which("javac"):
        raise EngineMissing(
            "jena-tdb2",
            "no `javac` (a JDK is needed)",
            f"sudo {INSTALL_SCRIPT}  (apt-get install -y openjdk-17-jdk-headless)",
        )
    source = HERE / "JenaSparqlServer.java"
    digest = hashlib.sha256(source.read_bytes() + classpath.encode()).hexdigest()[:16]
    out = Path(tempfile.gettempdir()) / f"ragprov-jena-server-{digest}"
    if (out / "JenaSparqlServer.class").exists():
        return out
    tmp = Path(tempfile.mkdtemp(prefix="ragprov-jena-build-"))
    result = subprocess.run(
        ["javac", "-nowarn", "-encoding", "UTF-8", "-cp", classpath, "-d", str(tmp), str(source)],
        capture_output=True, text=True,
    )
    if result.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise EngineFailed(f"javac failed on {source}:\n{result.stderr[-2000:]}")
    try:
        os.replace(tmp, out)
    except OSError:  # another process built it first
        shutil.rmtree(tmp, ignore_errors=True)
    return out


class JenaServer(Server):
    """Apache Jena 4.5 TDB2 behind a SPARQL 1.1 Protocol server (``/query``, ``/update``)."""

    name = "jena"
    dialect = "rdfstar"

    def __init__(self, workdir: str | Path, *, timeout_ms: int = 60_000, read_only: bool = False):
        super().__init__(workdir)
        self.location = self.workdir / "tdb2"
        self.timeout_ms = timeout_ms
        self.read_only = read_only
        self._classpath: str | None = None

    @classmethod
    def check(cls) -> None:
        jena_classpath()
        if not shutil.which("javac"):
            build_jena_server("")  # raises EngineMissing with the hint

    def command(self) -> list[str]:
        cp = jena_classpath()
        classes = build_jena_server(cp)
        cmd = [
            "java", "-Xmx1g", "-XX:+UseSerialGC",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            # Without TCP_NODELAY the JDK server's header and body writes meet the client's delayed
            # ACK (Nagle): ~40 ms per request instead of ~1 ms.
            "-Dsun.net.httpserver.nodelay=true",
            "-cp", cp + os.pathsep + str(classes), "JenaSparqlServer",
            "--loc", str(self.location), "--port", "0", "--timeout-ms", str(self.timeout_ms),
        ]
        return cmd + (["--read-only"] if self.read_only else [])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, deadline: float) -> None:
        pattern = re.compile(rb"listening on http://127\.0\.0\.1:(\d+)/")
        while time.monotonic() < deadline:
            self._check_alive()
            try:
                m = pattern.search(self.log_path.read_bytes()[self._log_offset:])
            except OSError:
                m = None
            if m:
                self.port = int(m.group(1))
                if _http_ok(f"{self.url}/ping"):
                    return
            time.sleep(0.05)
        self._timeout()


# -- Virtuoso -------------------------------------------------------------------------------------
class VirtuosoServer(Server):
    """Virtuoso 7 with a private database directory, both ports on loopback, anonymous SPARQL UPDATE."""

    name = "virtuoso"
    dialect = "reification"
    start_timeout = 120.0

    def __init__(self, workdir: str | Path):
        super().__init__(workdir)
        self.db = self.workdir / "db"
        self.sql_port: int | None = None

    @classmethod
    def check(cls) -> None:
        hint = f"sudo {INSTALL_SCRIPT}  (apt-get install -y virtuoso-opensource)"
        for exe in ("virtuoso-t", "isql-vt"):
            if not shutil.which(exe):
                raise EngineMissing("virtuoso", f"no `{exe}` command", hint)
        if not VIRTUOSO_INI.exists():
            raise EngineMissing("virtuoso", f"no {VIRTUOSO_INI}", hint)

    def write_ini(self) -> Path:
        """A copy of the packaged virtuoso.ini: database in ``db/``, ports on 127.0.0.1 only."""
        self.db.mkdir(parents=True, exist_ok=True)
        text = VIRTUOSO_INI.read_text()
        text = text.replace("/var/lib/virtuoso-opensource-7/db", str(self.db))
        text, n1 = re.subn(r"(?m)^(ServerPort\s*=\s*)1111\b.*$", rf"\g<1>127.0.0.1:{self.sql_port}", text)
        text, n2 = re.subn(r"(?m)^(ServerPort\s*=\s*)8890\b.*$", rf"\g<1>127.0.0.1:{self.port}", text)
        if n1 != 1 or n2 != 1:
            raise EngineFailed(f"{VIRTUOSO_INI} does not have the expected ServerPort lines (1111, 8890)")
        # A debugging setting, OpenLink says (virtuoso-opensource#1395, #535): with it the optimiser's
        # estimate, which swings from run to run on a small store, refuses queries that take milliseconds.
        text = re.sub(r"(?m)^(MaxQueryCostEstimationTime\s*=)", r";\1", text)
        ini = self.workdir / "virtuoso.ini"
        ini.write_text(text)
        return ini

    def command(self) -> list[str]:
        self.sql_port, self.port = free_port(), free_port()
        while self.port == self.sql_port:
            self.port = free_port()
        ini = self.write_ini()
        return ["virtuoso-t", "+configfile", str(ini), "+foreground"]

    def cwd(self) -> Path:
        return self.db

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/sparql"

    def isql(self, sql: str) -> str:
        """Run one SQL statement as dba through ``isql-vt`` (the default dba/dba of a fresh database)."""
        result = subprocess.run(
            ["isql-vt", f"127.0.0.1:{self.sql_port}", "dba", "dba", f"exec={sql}"],
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
        if result.returncode != 0 or "Error" in result.stdout:
            raise EngineFailed(f"isql-vt failed on {sql!r}: {result.stdout[-500:]} {result.stderr[-500:]}")
        return result.stdout

    def wait_ready(self, deadline: float) -> None:
        # virtuoso-t +foreground logs to stdout (our log file) as well as to db/virtuoso.log
        while time.monotonic() < deadline:
            self._check_alive()
            try:
                online = b"Server online" in self.log_path.read_bytes()[self._log_offset:]
            except OSError:
                online = False
            if online and _http_ok(f"{self.url}?query=" + urllib.parse.quote("ASK {}")):
                self.isql('GRANT SPARQL_UPDATE TO "SPARQL";')
                return
            time.sleep(0.1)
        self._timeout()


SERVERS: dict[str, type[Server]] = {"oxigraph": OxigraphServer, "jena": JenaServer, "virtuoso": VirtuosoServer}


# -- command line ---------------------------------------------------------------------------------
def _main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start/stop ragprov's test engines on 127.0.0.1.")
    sub = parser.add_subparsers(dest="cmd", required=True)
    p_start = sub.add_parser("start", help="start an engine in the background; prints a JSON line {url, pid, dialect}")
    p_start.add_argument("engine", choices=sorted(SERVERS))
    p_start.add_argument("--dir", required=True, help="working directory (store, logs, server.pid)")
    p_stop = sub.add_parser("stop", help="stop the engine started with --dir (by its PID file)")
    p_stop.add_argument("--dir", required=True)
    sub.add_parser("check", help="say which engines are installed")
    args = parser.parse_args(argv)
    if args.cmd == "check":
        status = 0
        for name, cls in SERVERS.items():
            try:
                cls.check()
                print(f"{name}: ok")
            except EngineMissing as e:
                print(f"{name}: {e}")
                status = 1
        return status
    if args.cmd == "start":
        server = SERVERS[args.engine](args.dir)
        try:
            server.start()
        except (EngineMissing, EngineFailed) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        # Leave it running: forget it so that our exit does not stop it.
        _REGISTRY.discard(server)
        print(json.dumps({"engine": args.engine, "url": server.url, "pid": server.pid, "dialect": server.dialect}))
        return 0
    pid_file = Path(args.dir) / "server.pid"
    try:
        pid = int(pid_file.read_text().strip())
    except (OSError, ValueError):
        print(f"error: no server.pid in {args.dir}", file=sys.stderr)
        return 1
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    for _ in range(150):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, signal.SIGKILL)
    pid_file.unlink(missing_ok=True)
    print(f"stopped {pid}")
    return 0


if __name__ == "__main__":
    sys.exit(_main())
