"""The exceptions pyflink_compat raises, and the one place where JVM errors are converted.

PyFlink surfaces errors of its checkpoint API as py4j exceptions. Ported code catches those,
so every error raised here is an instance of the class PyFlink raises *and* of the Python class
that names the problem naturally (``ValueError`` for a rejected value, ``TypeError`` for a value
of the wrong type), so both old and new ``except`` clauses keep working.
"""

from __future__ import annotations

import collections.abc
import decimal
import functools
import inspect
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, TypeVar

from py4j.protocol import Py4JError, Py4JJavaError

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = [
    "JavaIllegalArgumentError",
    "JavaNullPointerError",
    "JavaArithmeticError",
    "JavaIllegalStateError",
    "JavaRuntimeError",
    "JavaMethodNotFoundError",
    "ArgumentAttributeError",
    "JobExecutionError",
    "JavaType",
]

T = TypeVar("T")


class JavaIllegalArgumentError(Py4JJavaError, ValueError):
    """A value was rejected; wraps a real JVM ``java.lang.IllegalArgumentException``."""


class JavaNullPointerError(Py4JJavaError, TypeError):
    """``None`` was passed where a value is required; wraps a JVM ``NullPointerException``."""


class JavaArithmeticError(Py4JJavaError, OverflowError):
    """A number overflowed on the Java side; wraps a JVM ``ArithmeticException``."""


class JavaIllegalStateError(Py4JJavaError, RuntimeError):
    """An operation is not allowed in the current state; wraps ``IllegalStateException``."""


class JavaRuntimeError(Py4JJavaError, RuntimeError):
    """Any other JVM exception raised while serving an API call."""


class JavaMethodNotFoundError(Py4JError, TypeError):
    """An argument of the wrong type: no Java method accepts it, as py4j reports it."""


class ArgumentAttributeError(AttributeError, TypeError):
    """An argument lacks what PyFlink reads from it (an enum member's ``name``, a wrapper's
    JVM object), as PyFlink reports it."""


class JobExecutionError(Py4JJavaError, RuntimeError):
    """A job ended in failure; ``__cause__`` holds what made it fail.

    PyFlink's ``execute()`` surfaces a failed job as a :class:`py4j.protocol.Py4JJavaError`;
    this is one too, wrapping a JVM ``RuntimeException`` with the failure's description.
    """


def job_failure(message: str, cause: Optional[BaseException]) -> Exception:
    """The exception a failed job raises from ``execute()``."""
    try:
        throwable = _gateway().jvm.java.lang.RuntimeException(message)
        error: Exception = JobExecutionError(_call_text("StreamExecutionEnvironment.execute"), throwable)
    except Exception:  # the JVM itself is gone: still report the failure
        error = RuntimeError(message)
    error.__cause__ = cause
    return error


_BY_JAVA_CLASS: dict[str, type[Py4JJavaError]] = {
    "java.lang.IllegalArgumentException": JavaIllegalArgumentError,
    "java.lang.NullPointerException": JavaNullPointerError,
    "java.lang.ArithmeticException": JavaArithmeticError,
    "java.lang.IllegalStateException": JavaIllegalStateError,
}


def _gateway() -> Any:
    from pyflink_compat.java_gateway import get_gateway

    return get_gateway()


def _call_text(target: str) -> str:
    return "An error occurred while calling {}.\n".format(target)


def from_java_throwable(throwable: "JavaObject", target: str) -> Py4JJavaError:
    """Wrap a JVM throwable in the Python class chosen by its Java class."""
    name = throwable.getClass().getName()
    cls = _BY_JAVA_CLASS.get(name, JavaRuntimeError)
    return cls(_call_text(target), throwable)


def java_error(java_class: str, message: Optional[str], target: str) -> Py4JJavaError:
    """Build a real JVM exception of ``java_class`` and wrap it as PyFlink would surface it.

    :param java_class: Fully qualified name of a JVM exception class with a ``String``
                       constructor (``java.lang.IllegalArgumentException``).
    :param message: The exception message, or ``None`` for an exception without one.
    :param target: What was being called, shown in the first line (``CheckpointConfig.x``).
    """
    j_class = functools.reduce(getattr, java_class.split("."), _gateway().jvm)
    throwable = j_class(message) if message is not None else j_class()
    return from_java_throwable(throwable, target)


def illegal_argument(message: str, target: str) -> Py4JJavaError:
    """A rejected value, with the exact message PyFlink gives."""
    return java_error("java.lang.IllegalArgumentException", message, target)


def null_pointer(message: Optional[str], target: str) -> Py4JJavaError:
    """PyFlink's ``NullPointerException`` for a missing required argument."""
    return java_error("java.lang.NullPointerException", message, target)


def call_java(target: str, fn: Callable[..., T], *args: Any) -> T:
    """Call into the JVM, turning any JVM exception into the classes of this module.

    PySpark converts some JVM exceptions into its own classes; this undoes that so that the
    caller always sees a :class:`py4j.protocol.Py4JJavaError`.
    """
    try:
        return fn(*args)
    except Py4JJavaError as e:
        if isinstance(e, tuple(_BY_JAVA_CLASS.values()) + (JavaRuntimeError,)):
            raise
        raise from_java_throwable(e.java_exception, target) from None
    except Exception as e:
        origin = getattr(e, "_origin", None)
        if origin is None:
            raise
        raise from_java_throwable(origin, target) from None


_JAVA_BOXED = {bool: "java.lang.Boolean", float: "java.lang.Double", str: "java.lang.String"}
_LONG_MIN, _LONG_MAX = -(2**63), 2**63 - 1


class JavaType(str):
    """An argument already converted to a JVM object, named by its class as py4j prints it
    (``class org.apache.flink.core.fs.Path``); usable in :func:`method_not_found`'s ``args``."""


def java_type_name(value: Any) -> str:
    """The class py4j would pass to Java for ``value``, as py4j prints it."""
    if isinstance(value, JavaType):
        return str(value)
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "class java.lang.Boolean"
    if isinstance(value, int):
        return "class java.lang.Integer" if -(2**31) <= value < 2**31 else "class java.lang.Long"
    for py_type, name in _JAVA_BOXED.items():
        if isinstance(value, py_type):
            return "class " + name
    converted = _converted_type(value)
    if converted is not None:
        return converted
    return "class py4j.reflection.PythonProxy" if hasattr(value, "Java") else "class java.lang.Object"


def _converted_type(value: Any) -> Optional[str]:
    """The JVM class py4j's automatic conversion sends ``value`` as, if it converts it."""
    if isinstance(value, (bytes, bytearray)):
        return "class [B"
    if isinstance(value, decimal.Decimal):
        return "class java.math.BigDecimal"
    if isinstance(value, collections.abc.Set):
        return "class java.util.HashSet"
    if _has_static(value, "keys") and _has_static(value, "__getitem__"):
        return "class java.util.HashMap"
    if _has_static(value, "__iter__") and not isinstance(value, str):
        return "class java.util.ArrayList"
    return None


def _has_static(value: Any, attribute: str) -> bool:
    # py4j's own test: dynamic attributes (of JVM object wrappers) do not count.
    return bool(inspect.getattr_static(value, attribute, False))


def py4j_sends(value: Any) -> bool:
    """Whether py4j can pass ``value`` to Java without it being a JVM object wrapper (a plain
    value, or one its automatic conversion turns into a JVM collection)."""
    return (value is None or isinstance(value, (bool, int, float, str))
            or _converted_type(value) is not None)


def method_not_found(java_method: str, args: Sequence[Any], target: str, constructor: bool = False) -> Py4JError:
    """The error py4j raises when no Java method takes arguments of these types.

    An int outside Java's ``long`` range cannot be sent at all: py4j's JVM side fails to read
    it before looking for a method, and that is the error reported.
    """
    trace = "An error occurred while calling {}. Trace:\n".format(target)
    for arg in args:
        if isinstance(arg, int) and not isinstance(arg, bool) and not _LONG_MIN <= arg <= _LONG_MAX:
            return JavaMethodNotFoundError(
                '{}java.lang.NumberFormatException: For input string: "{}"\n'.format(trace, arg))
    kind = "Constructor" if constructor else "Method"
    shown = ", ".join(java_type_name(a) for a in args)
    return JavaMethodNotFoundError(
        "{}py4j.Py4JException: {} {}([{}]) does not exist\n".format(trace, kind, java_method, shown))


def jvm_name_missing(name: str) -> Py4JError:
    """The error py4j raises when a JVM class or member of that name does not exist."""
    return JavaMethodNotFoundError("{} does not exist in the JVM".format(name))
