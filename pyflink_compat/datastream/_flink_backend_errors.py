"""How PyFlink's state backends reject an argument, reproduced for the Spark JVM.

The state backends of :mod:`pyflink_compat.datastream.state_backend` keep PyFlink's API; the
checks here fail as py4j and Flink fail with a bad argument (the exception class and message),
and return the value a backend then stores. Nothing here changes a backend.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from py4j.java_gateway import JavaObject

from pyflink_compat.settings import registry
from pyflink_compat.util.exceptions import (
    JavaMethodNotFoundError,
    JavaType,
    call_java,
    java_error,
    java_type_name,
    method_not_found,
)
from pyflink_compat.util.descriptors import descriptor_record, is_descriptor
from pyflink_compat.util.java_classes import context_class_loader
from pyflink_compat.util.java_limits import INT_MAX, INT_MIN

# The Flink classes whose constructors and methods PyFlink calls, as py4j names them.
MEMORY_CLASS = "org.apache.flink.runtime.state.memory.MemoryStateBackend"
FS_CLASS = "org.apache.flink.runtime.state.filesystem.FsStateBackend"
ROCKSDB_CLASS = "org.apache.flink.contrib.streaming.state.RocksDBStateBackend"
PATH_CLASS = "org.apache.flink.core.fs.Path"
OPTIONS_FACTORY = "org.apache.flink.contrib.streaming.state.RocksDBOptionsFactory"
#: Constructor arguments of these JVM types, as py4j reports them.
URI = JavaType("class java.net.URI")
TERNARY = JavaType("class org.apache.flink.util.TernaryBoolean")
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

#: The backends that are also checkpoint storages, through which a legacy RocksDB backend writes.
_STREAM_BACKENDS = (registry.BackendKind.FS, registry.BackendKind.MEMORY, registry.BackendKind.ROCKSDB_LEGACY)


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


def wrapped_descriptor(j_backend: Any, java_method: str) -> Any:
    """``j_backend``, a backend's descriptor, failing as PyFlink's call of ``java_method`` does
    when the backend wraps nothing (a ``RocksDBStateBackend()`` built without arguments)."""
    if not isinstance(j_backend, JavaObject):
        raise AttributeError(  # PyFlink's error
            f"'{type(j_backend).__name__}' object has no attribute '{java_method}'")
    return j_backend


def call_target(j_object: Any, java_method: str) -> str:
    return f"{j_object._target_id}.{java_method}"


def check_string_array(values: Any) -> None:
    """Fail as py4j does when it cannot fill a ``String[]`` with ``values``."""
    for value in values:
        if value is not None and not isinstance(value, str):
            name = "[B" if isinstance(value, (bytes, bytearray)) else java_type_name(value)[6:]
            raise JavaMethodNotFoundError(
                "An error occurred while calling None.None. Trace:\npy4j.Py4JException: "
                f"Cannot convert {name} to java.lang.String\n")


def options_factory_name(class_name: Any) -> str:
    """The RocksDB options factory class to store for ``class_name``.

    The class is loaded in the Spark JVM and must implement Flink's options factory, which
    Spark's class path does not have unless a user adds it. Flink's own factory classes are
    known by name instead, since the setting is only stored.
    """
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
        return class_name
    j_class = call_java(target, loader.loadClass, class_name)
    try:
        j_factory = loader.loadClass(OPTIONS_FACTORY)
    except Exception:
        j_factory = None
    if j_factory is None or not j_factory.isAssignableFrom(j_class):
        raise ValueError("The input class does not implement RocksDBOptionsFactory.")
    return str(j_class.getName())


def stream_backend_record(j_backend: Any, target: str) -> Dict[str, Any]:
    """The record of the backend a legacy RocksDB backend checkpoints through (``j_backend``,
    its JVM object); it must be one that is also a checkpoint storage."""
    if j_backend is not None and not isinstance(j_backend, JavaObject):
        raise no_constructor(ROCKSDB_CLASS, [j_backend, TERNARY], target)
    if j_backend is not None and is_descriptor(j_backend):
        record = descriptor_record(j_backend)
        if record["type"] in _STREAM_BACKENDS:
            return record
    raise java_error("java.lang.IllegalStateException", NOT_A_STORAGE, target)
