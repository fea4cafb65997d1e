"""Placeholders for PyFlink names that pyflink_compat declares but does not implement.

A placeholder can be imported, named in type hints, checked with ``isinstance`` and subclassed,
and it documents itself; *using* it (instantiating it, calling it, or reaching a public
attribute such as ``Types.STRING`` or ``KafkaSource.builder``) raises
:class:`~pyflink_compat.missing.NotSupportedError` with the PySpark way to do the same.
Dunder and private lookups behave as on any class, so introspection (``copy``, ``pickle``,
``typing``, Sphinx) is not disturbed.

Importing this module imports nothing else: the hint table is read when an error is built.
"""

from __future__ import annotations

import abc
import types
from typing import Any, Callable, ClassVar, Dict, NoReturn, Optional

from pyflink_compat.missing import NotSupportedError, not_supported

__all__ = ["Declared", "DeclaredValue", "NotSupportedAttributeError", "declared_function",
           "declared_method", "declared_value", "pyflink_module"]

_COMPAT_ROOT = "pyflink_compat"


class NotSupportedAttributeError(NotSupportedError, AttributeError):
    """A public attribute of a declared-only PyFlink class or value.

    It is an :class:`AttributeError` too, so ``hasattr`` answers ``False`` and
    ``getattr(..., default)`` returns the default.
    """

    def __init__(self, api: str, hint: str):
        NotSupportedError.__init__(self, api, hint)
        self.name = api.rsplit(".", 1)[-1]


def pyflink_module(module: str) -> str:
    """The PyFlink module path that a pyflink_compat module mirrors."""
    if module == _COMPAT_ROOT or module.startswith(_COMPAT_ROOT + "."):
        return "pyflink" + module[len(_COMPAT_ROOT):]
    return module


def _raise(api: str, module: Optional[str]) -> NoReturn:
    raise not_supported(api, module)


def _attribute_error(api: str, module: Optional[str]) -> NotSupportedAttributeError:
    error = not_supported(api, module)
    return NotSupportedAttributeError(error.api, error.hint)


class _DeclaredMeta(abc.ABCMeta):
    """Metaclass of the placeholders: calls and public class attributes raise."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if "_pyflink_api" in vars(cls):
            _raise(vars(cls)["_pyflink_api"], vars(cls)["_pyflink_module"])
        return super().__call__(*args, **kwargs)

    def __getattr__(cls, name: str) -> Any:
        # Only reached when normal lookup failed: a name the placeholder does not define.
        if name.startswith("_"):
            raise AttributeError("type object {!r} has no attribute {!r}".format(cls.__name__, name))
        declared = next((k for k in cls.__mro__ if "_pyflink_api" in vars(k)), None)
        if declared is None:
            raise AttributeError("type object {!r} has no attribute {!r}".format(cls.__name__, name))
        raise _attribute_error("{}.{}".format(vars(declared)["_pyflink_api"], name),
                               vars(declared)["_pyflink_module"])


class Declared(metaclass=_DeclaredMeta):
    """Base of the placeholder classes.

    A direct subclass defined in a pyflink_compat module is a placeholder for the PyFlink
    class of the same name. A class that a job derives from a placeholder (a ``MapFunction``
    subclass, say) is the job's own class: it can be defined and instantiated, and only the
    attributes it inherits from the placeholder raise.
    """

    # Set on each placeholder itself (never inherited: the metaclass reads them with vars()).
    _pyflink_api: ClassVar[str]
    _pyflink_module: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__.split(".")[0] != _COMPAT_ROOT:
            return
        module = pyflink_module(cls.__module__)
        cls._pyflink_api = cls.__qualname__
        cls._pyflink_module = module
        if "__doc__" not in vars(cls) or cls.__doc__ is None:
            cls.__doc__ = ("PyFlink's ``{}.{}``, declared so that imports work; using it raises "
                           ":class:`~pyflink_compat.missing.NotSupportedError`.".format(
                               module, cls.__qualname__))

    def __class_getitem__(cls, params: Any) -> Any:
        # PyFlink's generic classes (``ListState[T]``...) are subscripted in type hints.
        return types.GenericAlias(cls, params)


def declared_function(module: str, name: str) -> Callable[..., Any]:
    """A placeholder for the PyFlink function ``name`` of the pyflink_compat module ``module``."""
    pyflink = pyflink_module(module)

    def placeholder(*args: Any, **kwargs: Any) -> Any:
        _raise(name, pyflink)

    placeholder.__name__ = placeholder.__qualname__ = name
    placeholder.__module__ = module
    placeholder.__doc__ = ("PyFlink's ``{}.{}``, declared so that imports work; calling it raises "
                           ":class:`~pyflink_compat.missing.NotSupportedError`.".format(pyflink, name))
    return placeholder


def declared_method(module: str, owner: str, name: str, parameters: str, doc: str) -> Callable[..., Any]:
    """A placeholder for the method ``name`` of a PyFlink class that pyflink_compat implements
    in part: calling it raises :class:`~pyflink_compat.missing.NotSupportedError` for
    ``owner.name``.

    The placeholder is a function with PyFlink's parameters, so that its signature reads as
    PyFlink's and a call with arguments the method does not take fails as it would.

    :param module: The pyflink_compat module defining the class.
    :param owner: The class, as PyFlink names it (``TableEnvironment``).
    :param name: The method's name.
    :param parameters: The method's parameter list as PyFlink spells it, ``self`` first;
        defaults are literals (``self, path, descriptor``, ``self, elements, schema=None``).
    :param doc: The method's docstring.
    """
    api = "{}.{}".format(owner, name)
    namespace: Dict[str, Any] = {"_raise": _raise}
    source = "def {}({}):\n    _raise({!r}, None)\n".format(name, parameters, api)
    exec(compile(source, "<declared {}>".format(api), "exec"), namespace)
    method: Callable[..., Any] = namespace[name]
    method.__qualname__ = api
    method.__module__ = module
    method.__doc__ = doc
    return method


class DeclaredValue:
    """A placeholder for a PyFlink module constant that is an object (an ``Expression``...).

    :param module: The pyflink_compat module holding it.
    :param name: Its name in that module.
    """

    __slots__ = ("_module", "_name")

    def __init__(self, module: str, name: str):
        self._module = module
        self._name = name

    def __repr__(self) -> str:
        return "<declared {}.{}>".format(pyflink_module(self._module), self._name)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        raise _attribute_error("{}.{}".format(self._name, name), pyflink_module(self._module))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        _raise(self._name, pyflink_module(self._module))


def declared_value(module: str, name: str) -> DeclaredValue:
    """A placeholder for the PyFlink constant ``name`` of the pyflink_compat module ``module``."""
    return DeclaredValue(module, name)
