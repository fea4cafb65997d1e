"""Lazy re-exports: a package names its members without importing them until first use.

Importing ``pyflink_compat.datastream`` then costs next to nothing; the first access to a
name imports its defining module (and py4j with it), and the package caches the object, so
re-exports stay identical to the defining module's objects.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Dict, List, Mapping, Tuple

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str], namespace: Dict[str, Any]
) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """Module ``__getattr__`` and ``__dir__`` for ``package``.

    :param package: The package's ``__name__``.
    :param exports: Public name to the module that defines it: relative to ``package``, or
                    absolute when it starts with ``pyflink_compat.`` (a re-export from another
                    package, as ``pyflink.table`` re-exports ``Row``).
    :param namespace: The package's ``globals()``, where resolved names are cached.
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError("module {!r} has no attribute {!r}".format(package, name))
        path = module if module.startswith("pyflink_compat.") else package + "." + module
        value = getattr(importlib.import_module(path), name)
        namespace[name] = value
        return value

    def __dir__() -> List[str]:
        return sorted(set(namespace) | set(exports))

    return __getattr__, __dir__
