"""Stores: the protocol, the embedded pyoxigraph store, SPARQL endpoints, and ``open_store``.

>>> store = open_store("memory:")
>>> store
EmbeddedStore(memory:)
"""

from __future__ import annotations

import os
import re
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ConfigurationError, NotFoundError

if TYPE_CHECKING:
    from ..sparql.dialect import Dialect
    from .base import Store

#: imported on first use (PEP 562): ``ragprov --help`` loads no store, the HTTP stack (requests)
#: loads for endpoint stores only
_LAZY = {
    "EndpointConfig": "endpoint", "EndpointStore": "endpoint", "redact": "endpoint", "detect_dialect": "detect",
    "EmbeddedStore": "embedded", "Row": "base", "Rows": "base", "Store": "base", "Term": "base",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value

__all__ = [
    "STORE_ENV",
    "EmbeddedStore",
    "EndpointConfig",
    "EndpointStore",
    "Row",
    "Rows",
    "Store",
    "Term",
    "detect_dialect",
    "open_store",
    "redact",
]

STORE_ENV = "RAGPROV_STORE"


def _check_store_directory(path: Path, *, create: bool) -> None:
    if path.exists() and not path.is_dir():
        raise ConfigurationError(f"store path {path} is a file: give a directory for an on-disk store")
    is_store = (path / "CURRENT").is_file()
    if path.is_dir() and not is_store and any(path.iterdir()):
        raise ConfigurationError(
            f"{path} holds other files and no ragprov store: give an empty or new directory for a store"
        )
    if not create and not is_store:
        raise NotFoundError(
            f"no ragprov store at {path}: a store is made by `ragprov load …`, `ragprov ask …` or "
            "`ragprov demo --store PATH`"
        )


def _check_url(url: str) -> None:
    """A clear error for a URL that cannot be parsed (``http://[::1``, a port that is no number)."""
    try:
        _ = urllib.parse.urlsplit(url).port  # parsing the port is the check
    except ValueError as e:
        shown = re.sub(r"(?<=://)[^/@]*@", "", url)  # no credentials in the message
        raise ConfigurationError(f"not a valid endpoint URL {shown!r} ({e}): e.g. http://127.0.0.1:7878") from None


def open_store(
    location: str | Path | None = None,
    *,
    dialect: str | Dialect | None = None,
    spool: str | Path | None = None,
    create: bool = True,
    read_only: bool = False,
    **options,
) -> Store:
    """Open a store by location: ``memory:``, a directory path, or an ``http(s)://`` endpoint URL.

    With no location, ``$RAGPROV_STORE`` is used, else ``memory:``. Endpoint options
    (``update_url``, ``user``, ``password``, ``token``, ``timeout``, ``retries``) may also come
    from ``$RAGPROV_UPDATE_URL``, ``$RAGPROV_STORE_USER``, ``$RAGPROV_STORE_PASSWORD``,
    ``$RAGPROV_STORE_TOKEN``; the dialect from ``$RAGPROV_DIALECT`` or by probing the store.

    ``create=False`` opens only an existing on-disk store (what read commands want): a missing
    path is a :class:`NotFoundError`, never a new empty store. A directory that holds other files is
    refused either way, so a mistyped ``--store`` never writes database files into it.
    ``read_only=True`` opens an on-disk store for reading only (implies ``create=False``): any
    number of readers run beside each other and beside the one writer.

    ``spool`` (or ``$RAGPROV_SPOOL``): a directory where an endpoint store's updates go when the
    store cannot be reached, to be replayed in order later (``ragprov spool replay``): a trace is
    never lost. Embedded stores write locally and need none.
    """
    from ..sparql.dialect import Dialect
    from .embedded import EmbeddedStore

    if location is None:
        location = os.environ.get(STORE_ENV) or "memory:"
    location = str(location)
    if dialect is None and os.environ.get("RAGPROV_DIALECT"):
        dialect = os.environ["RAGPROV_DIALECT"]
    if location in ("memory:", ":memory:", "memory"):
        store: Store = EmbeddedStore()
    elif location.startswith(("http://", "https://")):
        from .endpoint import EndpointConfig, EndpointStore

        _check_url(location)
        env = {
            "update_url": os.environ.get("RAGPROV_UPDATE_URL"),
            "user": os.environ.get("RAGPROV_STORE_USER"),
            "password": os.environ.get("RAGPROV_STORE_PASSWORD"),
            "token": os.environ.get("RAGPROV_STORE_TOKEN"),
        }
        for key, value in env.items():
            if value and key not in options:
                options[key] = value
        config = EndpointConfig.from_url(location, dialect=Dialect.parse(dialect) if dialect else None, **options)
        endpoint = EndpointStore(config)
        spool = spool or os.environ.get("RAGPROV_SPOOL") or None
        if spool:
            from .spool import SpoolingStore

            return SpoolingStore(endpoint, spool)
        return endpoint
    elif "://" in location or location.startswith("memory:"):
        from .endpoint import redact

        raise ConfigurationError(
            f"unknown store location {redact(location)!r}: use memory:, a directory, or an http(s) URL"
        )
    else:
        path = Path(location).expanduser()
        _check_store_directory(path, create=create and not read_only)
        store = EmbeddedStore(path, read_only=read_only)
    if dialect is not None and Dialect.parse(dialect) is not Dialect.RDF12:
        raise ConfigurationError("the embedded pyoxigraph store speaks the rdf12 dialect only")
    return store
