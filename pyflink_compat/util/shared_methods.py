"""Methods written once and given to several API classes without changing their bases.

PyFlink's classes have plain bases (``StreamExecutionEnvironment`` derives from ``object``,
both RocksDB backends from ``StateBackend``), and a ported job may look at them. Methods
several classes share are therefore not inherited from a mixin: each class gets its own copy
of every function, named as if defined in its body.
"""

from __future__ import annotations

import types
from typing import Any, Callable, TypeVar

__all__ = ["install_methods"]

T = TypeVar("T", bound=type)


def install_methods(source: type, target: T) -> T:
    """Give ``target`` a copy of every public or private method ``source`` defines.

    Special methods (``__x__``) are left out. A copy is a new function over the same code, so
    ``target.method.__qualname__`` names ``target``; the code must not use argument-less
    ``super()``, which would still refer to ``source``.
    """
    for name, member in vars(source).items():
        if name.startswith("__") or not isinstance(member, types.FunctionType):
            continue
        setattr(target, name, _copy(member, target))
    return target


def _copy(function: Callable[..., Any], owner: type) -> Callable[..., Any]:
    assert isinstance(function, types.FunctionType)
    copy = types.FunctionType(function.__code__, function.__globals__, function.__name__,
                              function.__defaults__, function.__closure__)
    copy.__kwdefaults__ = function.__kwdefaults__
    copy.__doc__ = function.__doc__
    copy.__annotations__ = dict(function.__annotations__)
    copy.__dict__.update(function.__dict__)
    copy.__qualname__ = "{}.{}".format(owner.__qualname__, function.__name__)
    return copy
