"""Names a package imports on first use (PEP 562), so that importing one of its modules does not
load the rest: ``ragprov ask`` loads the pipeline it runs, not every pipeline and navigation.

>>> getattr_, dir_ = lazy_names("json", {"dumps": "json"})
>>> getattr_("dumps")({"a": 1})
'{"a": 1}'
>>> getattr_("loads")
Traceback (most recent call last):
...
AttributeError: module 'json' has no attribute 'loads'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(package: str, homes: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package``: each name of ``homes`` is imported
    from its module (relative to ``package``) when first asked for, then kept in the package."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home, package), name)
        module = sys.modules.get(package)
        if module is not None:
            setattr(module, name, value)
        return value

    def __dir__() -> list[str]:
        module = sys.modules.get(package)
        return sorted(set(vars(module) if module is not None else ()) | set(homes))

    return __getattr__, __dir__
