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

from pyflink_compat.util.java_limits import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN

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
    # PyFlink's own module (which has no __all__): the Table API's exceptions and py4j hooks.
    "JavaException",
    "TableException",
    "CatalogException",
    "DatabaseAlreadyExistException",
    "DatabaseNotEmptyException",
    "DatabaseNotExistException",
    "FunctionAlreadyExistException",
    "FunctionNotExistException",
    "PartitionAlreadyExistsException",
    "PartitionNotExistException",
    "PartitionSpecInvalidException",
    "TableAlreadyExistException",
    "TableNotExistException",
    "TableNotPartitionedException",
    "exception_mapping",
    "capture_java_exception",
    "install_exception_handler",
    "install_py4j_hooks",
    "convert_py4j_exception",
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
        _without_frames(throwable)
        error: Exception = JobExecutionError(_call_text("StreamExecutionEnvironment.execute"), throwable)
    except Exception:  # the JVM itself is gone: still report the failure
        error = RuntimeError(message)
    error.__cause__ = cause
    return error


def job_start_failure(job_name: str, message: str, cause: Optional[BaseException] = None) -> Exception:
    """The exception ``execute()`` raises for a job that cannot start at all.

    :param job_name: The job's name.
    :param message: What is wrong, naming the setting, file or directory at fault.
    """
    return job_failure("Job '{}' could not start: {}".format(job_name, message), cause)


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
    _without_frames(throwable)
    return from_java_throwable(throwable, target)


def _without_frames(throwable: "JavaObject") -> None:
    """Drop the stack frames of a throwable made here: they would show py4j's reflection, where
    the throwable was built, as if it were where the error happened."""
    from pyflink_compat.util.java_classes import per_gateway

    gateway = _gateway()
    no_frames = per_gateway("no-stack-frames", lambda: gateway.new_array(gateway.jvm.java.lang.StackTraceElement, 0))
    throwable.setStackTrace(no_frames)


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
        return "class java.lang.Integer" if INT_MIN <= value <= INT_MAX else "class java.lang.Long"
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
        if isinstance(arg, int) and not isinstance(arg, bool) and not LONG_MIN <= arg <= LONG_MAX:
            return JavaMethodNotFoundError(
                '{}java.lang.NumberFormatException: For input string: "{}"\n'.format(trace, arg))
    kind = "Constructor" if constructor else "Method"
    shown = ", ".join(java_type_name(a) for a in args)
    return JavaMethodNotFoundError(
        "{}py4j.Py4JException: {} {}([{}]) does not exist\n".format(trace, kind, java_method, shown))


def jvm_name_missing(name: str) -> Py4JError:
    """The error py4j raises when a JVM class or member of that name does not exist."""
    return JavaMethodNotFoundError("{} does not exist in the JVM".format(name))


# -- PyFlink's exception classes ------------------------------------------------------------
# PyFlink turns the JVM exceptions of its Table API into these classes. pyflink_compat runs no
# Flink JVM code, so nothing raises them on its own; they exist so that ported ``except``
# clauses and the conversion helpers below keep working.
class JavaException(Exception):
    """A JVM exception raised again on the Python side; ``str()`` gives the Java text.

    :param stack_trace: The Java exception's message (or trace).
    """

    def __init__(self, stack_trace: str):
        self.stack_trace = stack_trace

    def __str__(self) -> str:
        return self.stack_trace


class TableException(JavaException):
    """Any failure while handling a table (Flink's ``TableException``)."""


class CatalogException(JavaException):
    """A failure inside a catalog."""


class DatabaseAlreadyExistException(JavaException):
    """A database to create exists already."""


class DatabaseNotEmptyException(JavaException):
    """A database to drop still holds tables or functions."""


class DatabaseNotExistException(JavaException):
    """The database named does not exist."""


class FunctionAlreadyExistException(JavaException):
    """A function to create exists already."""


class FunctionNotExistException(JavaException):
    """The function named does not exist."""


class PartitionAlreadyExistsException(JavaException):
    """A partition to create exists already."""


class PartitionNotExistException(JavaException):
    """The partition named does not exist, or its table or database does not."""


class PartitionSpecInvalidException(JavaException):
    """A partition spec does not match the partition keys of its table (too many keys, or
    keys that are not a prefix of them)."""


class TableAlreadyExistException(JavaException):
    """A table or view to create exists already."""


class TableNotExistException(JavaException):
    """The table or view named does not exist."""


class TableNotPartitionedException(JavaException):
    """A partition operation on a table that has no partitions."""


#: Fully qualified Flink exception class name to the Python class it becomes.
exception_mapping: dict[str, type[JavaException]] = {
    "org.apache.flink.table.api.TableException": TableException,
    "org.apache.flink.table.catalog.exceptions.CatalogException": CatalogException,
    "org.apache.flink.table.catalog.exceptions.DatabaseAlreadyExistException":
        DatabaseAlreadyExistException,
    "org.apache.flink.table.catalog.exceptions.DatabaseNotEmptyException": DatabaseNotEmptyException,
    "org.apache.flink.table.catalog.exceptions.DatabaseNotExistException": DatabaseNotExistException,
    "org.apache.flink.table.catalog.exceptions.FunctionAlreadyExistException":
        FunctionAlreadyExistException,
    "org.apache.flink.table.catalog.exceptions.FunctionNotExistException": FunctionNotExistException,
    "org.apache.flink.table.catalog.exceptions.PartitionAlreadyExistsException":
        PartitionAlreadyExistsException,
    "org.apache.flink.table.catalog.exceptions.PartitionNotExistException":
        PartitionNotExistException,
    "org.apache.flink.table.catalog.exceptions.PartitionSpecInvalidException":
        PartitionSpecInvalidException,
    "org.apache.flink.table.catalog.exceptions.TableAlreadyExistException":
        TableAlreadyExistException,
    "org.apache.flink.table.catalog.exceptions.TableNotExistException": TableNotExistException,
    "org.apache.flink.table.catalog.exceptions.TableNotPartitionedException":
        TableNotPartitionedException,
}


def _mapped_class(e: Py4JJavaError) -> Optional[type[JavaException]]:
    text = str(e.java_exception.toString())
    return next((cls for name, cls in exception_mapping.items() if text.startswith(name)), None)


def convert_py4j_exception(e: Py4JJavaError) -> JavaException:
    """The Python exception for a py4j error: the class :data:`exception_mapping` gives for its
    Java class, else :class:`JavaException`, with the text after the first ``": "``."""
    message = str(e).split(": ", 1)[-1]
    return (_mapped_class(e) or JavaException)(message)


def capture_java_exception(f: Callable[..., T]) -> Callable[..., T]:
    """Wrap ``f`` so that a py4j error of a Java class in :data:`exception_mapping` is raised as
    its Python class; any other error passes through unchanged."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        try:
            return f(*args, **kwargs)
        except Py4JJavaError as e:
            if _mapped_class(e) is None:
                raise
            converted = convert_py4j_exception(e)
        raise converted

    wrapper._pyflink_compat_capture = True  # type: ignore[attr-defined]
    return wrapper


def install_exception_handler() -> None:
    """Convert mapped Java exceptions of every py4j call into their Python classes.

    Wraps the return-value hook that ``py4j.java_gateway`` uses *as installed*, so PySpark's
    own conversion of Spark's exceptions keeps working; calling it again changes nothing.
    """
    import py4j.java_gateway

    current = py4j.java_gateway.get_return_value
    if not getattr(current, "_pyflink_compat_capture", False):
        py4j.java_gateway.get_return_value = capture_java_exception(current)


def install_py4j_hooks() -> None:
    """Make calling a Java class that is not on the JVM's class path fail with a
    :class:`TypeError` that names it and says how to add it to Spark (``spark.jars``)."""
    from py4j.java_gateway import JavaPackage

    def missing_class(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            "Could not find the Java class '{}'. Add the jars that hold it to the Spark session, "
            "with the spark.jars option or spark-submit --jars.".format(self._fqn))

    JavaPackage.__call__ = missing_class
