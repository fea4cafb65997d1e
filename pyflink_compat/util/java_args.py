"""Argument checks that reproduce how PyFlink's calls into the JVM reject bad arguments.

PyFlink passes arguments to Java methods through py4j, so a value of the wrong type is
reported by py4j as a missing method overload, and an enum argument is read through its
``name``. These helpers check the same things in Python, before anything is stored.
"""

from __future__ import annotations

import enum
from typing import Any, Type, TypeVar

from pyflink_compat.util.exceptions import ArgumentAttributeError, jvm_name_missing, method_not_found

__all__ = ["java_long", "java_int", "java_boolean", "java_string", "enum_member", "java_attribute"]

E = TypeVar("E", bound=enum.Enum)

_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def java_long(value: Any, java_method: str, target: str) -> int:
    """``value`` if a Java ``long`` parameter accepts it."""
    if not (_is_int(value) and _LONG_MIN <= value <= _LONG_MAX):
        raise method_not_found(java_method, [value], target)
    return int(value)


def java_int(value: Any, java_method: str, target: str) -> int:
    """``value`` if a Java ``int`` parameter accepts it."""
    if not (_is_int(value) and _INT_MIN <= value <= _INT_MAX):
        raise method_not_found(java_method, [value], target)
    return int(value)


def java_boolean(value: Any, java_method: str, target: str) -> bool:
    """``value`` if a Java ``boolean`` parameter accepts it."""
    if not isinstance(value, bool):
        raise method_not_found(java_method, [value], target)
    return value


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
