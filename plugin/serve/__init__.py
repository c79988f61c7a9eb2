"""``ragprov serve``: an HTTP API with live explain events, and the trace explorer page.

Needs the ``serve`` extra (``pip install 'ragprov[serve]'``: Starlette and uvicorn). The views
themselves (:mod:`ragprov.serve.views`) and the self-contained HTML page (:mod:`ragprov.serve.page`)
need nothing beyond ragprov.

>>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
(True, True, False)
"""

from __future__ import annotations

import ipaddress

from ..errors import ConfigurationError

__all__ = ["INSTALL_HINT", "TOKEN_ENV", "check_bind", "is_loopback", "require_serve_extra", "run_server"]

INSTALL_HINT = "pip install 'ragprov[serve]'"
TOKEN_ENV = "RAGPROV_SERVE_TOKEN"


def is_loopback(host: str) -> bool:
    """Whether ``host`` only accepts connections from this machine."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Refuse to listen beyond loopback without a token: anyone who can reach the port could
    record and delete traces."""
    if not is_loopback(host) and not token:
        raise ConfigurationError(
            f"refusing to listen on {host} without a token: anyone reaching it could ask and delete traces; "
            f"set --token (or ${TOKEN_ENV}), or listen on 127.0.0.1"
        )


def require_serve_extra() -> None:
    """A clear error naming the install command when Starlette or uvicorn is missing."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        raise ConfigurationError(f"ragprov serve needs the serve extra ({e.name} is missing): {INSTALL_HINT}") from None


def run_server(store, *, host: str = "127.0.0.1", port: int = 8040, token: str | None = None, engine=None,
               facts_graph=None, log_level: str = "info") -> None:
    """Serve ``store`` until interrupted (uvicorn, one process; see :func:`ragprov.serve.app.create_app`)."""
    check_bind(host, token)
    require_serve_extra()
    import uvicorn

    from .app import ServeConfig, create_app

    app = create_app(store, ServeConfig(token=token or None, engine=engine, facts_graph=facts_graph))
    uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=5)
