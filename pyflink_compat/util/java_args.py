"""Argument checks that reproduce how PyFlink's calls into the JVM reject bad arguments.

PyFlink passes arguments to Java methods through py4j, so a value of the wrong type is
reported by py4j as a missing method overload, and an enum argument is read through its
``name``. These helpers check the same things in Python, before anything is stored.
"""

from __future__ import annotations

import enum
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Type, TypeVar

import attrs

from pyflink_compat.util.exceptions import (
    ArgumentAttributeError, jvm_name_missing, method_not_found, null_pointer)
from pyflink_compat.util.java_limits import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN

__all__ = [
    "java_long", "java_int", "java_boolean", "java_string", "java_call_args", "enum_member",
    "java_attribute", "JavaMethod",
]

E = TypeVar("E", bound=enum.Enum)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


_ACCEPTS: Dict[str, Callable[[Any], bool]] = {
    "long": lambda v: _is_int(v) and LONG_MIN <= v <= LONG_MAX,
    "int": lambda v: _is_int(v) and INT_MIN <= v <= INT_MAX,
    "boolean": lambda v: isinstance(v, bool),
    "double": lambda v: isinstance(v, float) or _is_int(v),
    "String": lambda v: v is None or isinstance(v, str),
}


def java_call_args(java_method: str, target: str, params: Sequence[Tuple[Any, Optional[str]]],
                   constructor: bool = False) -> None:
    """Check every argument of one Java call as py4j matches them to the parameters.

    :param params: ``(value, java type)`` per parameter, the type one of ``long``, ``int``,
                   ``boolean``, ``double``, ``String``, or ``None`` for an argument that needs no check
                   (``None`` or a :class:`~pyflink_compat.util.exceptions.JavaType`).
    :raises JavaMethodNotFoundError: naming every argument's type, as py4j does, when one of
                                     them does not fit.
    """
    if not all(kind is None or _ACCEPTS[kind](value) for value, kind in params):
        raise method_not_found(java_method, [value for value, _ in params], target,
                               constructor=constructor)


def java_long(value: Any, java_method: str, target: str, *others: Any) -> int:
    """``value`` if a Java ``long`` parameter accepts it; ``others`` are the call's further
    arguments (already converted), shown in the error."""
    java_call_args(java_method, target, [(value, "long")] + [(o, None) for o in others])
    return int(value)


def java_int(value: Any, java_method: str, target: str) -> int:
    """``value`` if a Java ``int`` parameter accepts it."""
    java_call_args(java_method, target, [(value, "int")])
    return int(value)


def java_boolean(value: Any, java_method: str, target: str) -> bool:
    """``value`` if a Java ``boolean`` parameter accepts it."""
    java_call_args(java_method, target, [(value, "boolean")])
    return bool(value)


def java_string(value: Any, java_method: str, target: str, constructor: bool = False) -> str:
    """``value`` if a Java ``String`` parameter accepts it (``None`` is not accepted here)."""
    if not isinstance(value, str):
        raise method_not_found(java_method, [value], target, constructor=constructor)
    return value


def enum_member(value: Any, enum_class: Type[E], java_enum: str) -> E:
    """The member of ``enum_class`` named like ``value``.

    As in PyFlink, any object with a ``name`` naming a member is accepted (so a member of a
    sibling enum with the same name works), and anything else is rejected.
    """
    name = java_attribute(value, "name")
    if not isinstance(name, str) or name not in enum_class.__members__:
        raise jvm_name_missing("{}.{}".format(java_enum, name))
    return enum_class[name]


def java_attribute(value: Any, attribute: str) -> Any:
    """``value.attribute``, failing with PyFlink's message when it is missing."""
    try:
        return getattr(value, attribute)
    except AttributeError:
        raise ArgumentAttributeError(
            "'{}' object has no attribute '{}'".format(type(value).__name__, attribute)
        ) from None


_CONVERT: Dict[str, Callable[[Any], Any]] = {"long": int, "int": int, "boolean": bool, "String": str}


@attrs.frozen
class JavaMethod:
    """One Java method PyFlink calls, declared once: who py4j says was called, the method's
    name and the kinds of its parameters, which decide how a bad argument fails.

    :param owner: The called object as py4j names it in errors (``CheckpointConfig``,
                  ``StreamExecutionEnvironment``).
    :param name: The Java method's name.
    :param kinds: The kind of each parameter: ``long``, ``int``, ``boolean``, ``double`` or
                  ``String`` (a ``String`` that must not be ``None``).
    """

    owner: str
    name: str
    kinds: Tuple[str, ...] = ()

    @property
    def target(self) -> str:
        """The call as errors name it: ``<owner>.<name>``."""
        return "{}.{}".format(self.owner, self.name)

    def arg(self, value: Any, *others: Any) -> Any:
        """``value``, converted, if the method's first parameter accepts it.

        :param others: The call's further arguments, already converted; they are only shown
                       in the error, as py4j shows every argument of a call it cannot match.
        :raises JavaMethodNotFoundError: as py4j raises it for an argument of the wrong type.
        """
        kind = self.kinds[0]
        if kind == "String":
            return java_string(value, self.name, self.target)
        java_call_args(self.name, self.target, [(value, kind)] + [(o, None) for o in others])
        return _CONVERT[kind](value)

    def not_found(self, *args: Any) -> Exception:
        """py4j's error when no overload of the method takes ``args``."""
        error: Exception = method_not_found(self.name, list(args), self.target)
        return error

    def null_pointer(self, message: Optional[str] = None) -> Exception:
        """Java's ``NullPointerException`` thrown by the method."""
        error: Exception = null_pointer(message, self.target)
        return error
