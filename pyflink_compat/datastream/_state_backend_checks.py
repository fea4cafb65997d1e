"""How PyFlink's state backends check their arguments and fail, reproduced for the Spark JVM.

The state backends of :mod:`pyflink_compat.datastream.state_backend` keep PyFlink's API; the
helpers here reproduce what py4j and Flink do with a bad argument (the exception class and
message), and read and write the backend descriptors as the JVM methods would.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, List, Optional

from py4j.java_gateway import JavaObject

from pyflink_compat.spark.paths import local_directory
from pyflink_compat.util.exceptions import (
    JavaMethodNotFoundError,
    call_java,
    illegal_argument,
    java_error,
    java_type_name,
    method_not_found,
)
from pyflink_compat.util.java_args import java_int
from pyflink_compat.util.java_limits import INT_MAX, INT_MIN
from pyflink_compat.util.descriptors import descriptor_put
from pyflink_compat.util.java_classes import context_class_loader

if TYPE_CHECKING:
    from pyflink_compat.datastream.state_backend import StateBackend

OPTIONS_FACTORY = "org.apache.flink.contrib.streaming.state.RocksDBOptionsFactory"
#: The options factories Flink ships (not on Spark's class path), and the error Flink raises
#: when it instantiates one (its interfaces cannot be), or None.
FLINK_OPTIONS_FACTORIES = {
    "org.apache.flink.contrib.streaming.state.DefaultConfigurableOptionsFactory": None,
    OPTIONS_FACTORY: "java.lang.InstantiationException",
    "org.apache.flink.contrib.streaming.state.ConfigurableRocksDBOptionsFactory":
        "java.lang.InstantiationException",
}



# PyFlink leaves the placeholder unformatted and a space out; the text is kept as it is.
TERNARY_ERROR = ("Unsupported input for '{}': %s, the value of the parameter should be None or"
                  "True or False.")
TRANSFER_THREADS_ERROR = ("The number of threads used to transfer files in "
                           "EmbeddedRocksDBStateBackend should be greater than zero.")
NOT_A_STORAGE = ("RocksDBStateBackend can only checkpointto state backends that also "
                  "implement CheckpointStorage.")


def is_java_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and INT_MIN <= value <= INT_MAX


def no_constructor(java_class: str, args: List[Any], target: str) -> Exception:
    """py4j's error for constructor arguments of the wrong types (``args``: the values passed,
    or a :class:`JavaType` for a JVM-typed one)."""
    return method_not_found(java_class, args, target, constructor=True)


def ternary(value: Any, parameter: str) -> Optional[bool]:
    """A tri-state flag of the heap backends: only ``None``, ``True`` and ``False`` are taken."""
    if value is None or value is True or value is False:
        return value
    raise TypeError(TERNARY_ERROR.format(parameter))


def incremental_flag(value: Any) -> Optional[bool]:
    """The RocksDB incremental flag: anything equal to a bool passes, but only ``True`` is on."""
    if value not in (None, True, False):
        raise TypeError(TERNARY_ERROR.format('enable_incremental_checkpointing'))
    return None if value is None else value is True


# --- descriptors and the RocksDB settings both RocksDB backends share ------------------------

def descriptor(backend: 'StateBackend', java_method: str) -> Any:
    """The descriptor of ``backend``, failing as PyFlink's call of ``java_method`` does when the
    backend wraps nothing (a ``RocksDBStateBackend()`` built without arguments)."""
    j_backend = backend._j_state_backend
    if not isinstance(j_backend, JavaObject):
        raise AttributeError(  # PyFlink's error
            f"'{type(j_backend).__name__}' object has no attribute '{java_method}'")
    return j_backend


def read(backend: 'StateBackend', java_method: str, key: str) -> Any:
    return descriptor(backend, java_method).get(key)


def call_target(j_object: Any, java_method: str) -> str:
    return f"{j_object._target_id}.{java_method}"


def set_db_storage_paths(backend: 'StateBackend', paths: Any) -> None:
    if len(paths) < 1:
        descriptor_put(descriptor(backend, "setDbStoragePath"), "db_storage_paths", None)
        return
    for path in paths:  # py4j fills a String[] first
        if path is not None and not isinstance(path, str):
            name = "[B" if isinstance(path, (bytes, bytearray)) else java_type_name(path)[6:]
            raise JavaMethodNotFoundError(
                "An error occurred while calling None.None. Trace:\npy4j.Py4JException: "
                f"Cannot convert {name} to java.lang.String\n")
    j_backend = descriptor(backend, "setDbStoragePaths")
    target = call_target(j_backend, "setDbStoragePaths")
    descriptor_put(j_backend, "db_storage_paths",
                   json.dumps([local_directory(path, target) for path in paths]))


def db_storage_paths(backend: 'StateBackend') -> List[str]:
    # No paths read back as None, which PyFlink's list() turns into a TypeError.
    return list(json.loads(read(backend, "getDbStoragePaths", "db_storage_paths") or "null"))



def set_options(backend: 'StateBackend', class_name: Any) -> None:
    """Load ``class_name`` in the Spark JVM; it must implement Flink's options factory, which
    Spark's class path does not have unless a user adds it. Flink's own factory classes are
    known by name instead, since the setting is only stored."""
    loader = context_class_loader()
    target = call_target(loader, "loadClass")
    if class_name is None:
        raise java_error("java.lang.NullPointerException", None, target)
    if not isinstance(class_name, str):
        raise method_not_found("loadClass", [class_name], target)
    if class_name in FLINK_OPTIONS_FACTORIES:
        error = FLINK_OPTIONS_FACTORIES[class_name]
        if error is not None:
            raise java_error(error, class_name, "java.lang.Class.newInstance")
        descriptor_put(descriptor(backend, "setRocksDBOptions"), "options", class_name)
        return
    j_class = call_java(target, loader.loadClass, class_name)
    try:
        j_factory = loader.loadClass(OPTIONS_FACTORY)
    except Exception:
        j_factory = None
    if j_factory is None or not j_factory.isAssignableFrom(j_class):
        raise ValueError("The input class does not implement RocksDBOptionsFactory.")
    descriptor_put(descriptor(backend, "setRocksDBOptions"), "options", str(j_class.getName()))


def set_transfer_threads(backend: 'StateBackend', number: Any, java_method: str) -> None:
    j_backend = descriptor(backend, java_method)
    target = call_target(j_backend, java_method)
    java_int(number, java_method, target)
    if number <= 0:
        raise illegal_argument(TRANSFER_THREADS_ERROR, target)
    descriptor_put(j_backend, "number_of_transfer_threads", number)
