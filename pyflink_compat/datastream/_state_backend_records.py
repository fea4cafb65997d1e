"""The records of state backends that an environment keeps in its session conf.

A backend set on an environment is stored as a JSON record of its descriptor (see
:mod:`pyflink_compat.util.descriptors`); these helpers make that record, turn one back into a
backend wrapper, and check the backend a legacy ``RocksDBStateBackend`` checkpoints through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple

from py4j.java_gateway import JavaObject

from pyflink_compat.datastream._state_backend_checks import NOT_A_STORAGE, no_constructor
from pyflink_compat.settings import kinds
from pyflink_compat.util.exceptions import java_error, method_not_found
from pyflink_compat.util.java_args import java_attribute
from pyflink_compat.util.descriptors import (
    descriptor_or_none, descriptor_record, is_descriptor, new_descriptor)

if TYPE_CHECKING:
    from pyflink_compat.datastream.state_backend import StateBackend

__all__ = ["_state_backend_record", "_state_backend_from_record", "_stream_backend_record"]

#: The backends that are also checkpoint storages, through which a legacy RocksDB backend writes.
_STREAM_BACKENDS = (kinds.BackendKind.FS, kinds.BackendKind.MEMORY, kinds.BackendKind.ROCKSDB_LEGACY)


def _state_backend_record(backend: 'StateBackend',
                          target: str = "StreamExecutionEnvironment.setStateBackend",
                          ) -> Dict[str, Any]:
    """The record of ``backend`` an environment keeps in its session conf.

    :param target: The call named in the error for a backend that wraps nothing (Flink's
                   ``NullPointerException``) or something of the wrong type.
    """
    return _record_of(backend, target)[0]


def _record_of(backend: 'StateBackend',
               target: str = "StreamExecutionEnvironment.setStateBackend",
               ) -> Tuple[Dict[str, Any], bool]:
    """The record of ``backend`` (see :func:`_state_backend_record`) and whether its JVM
    object is a descriptor."""
    j_backend = java_attribute(backend, "_j_state_backend")
    if j_backend is None:
        raise java_error("java.lang.NullPointerException", None, target)
    record = descriptor_or_none(j_backend)
    if record is not None:
        return record, True
    if not isinstance(j_backend, (str, JavaObject)):
        raise method_not_found("setStateBackend", [j_backend], target)
    from pyflink_compat.datastream.state_backend import CustomStateBackend

    return {"type": kinds.BackendKind.CUSTOM.value,
            "class": CustomStateBackend._class_name(j_backend)}, False


def _state_backend_from_record(record: Optional[Dict[str, Any]]) -> Optional['StateBackend']:
    """The backend a record made by :func:`_state_backend_record` describes."""
    from pyflink_compat.datastream.state_backend import _from_j_state_backend

    if record is None:
        return None
    return _from_j_state_backend(new_descriptor(record))


def _stream_backend_record(backend: 'StateBackend', target: str) -> Dict[str, Any]:
    """The record of a backend a legacy RocksDB backend checkpoints through; it must be one
    that is also a checkpoint storage."""
    from pyflink_compat.datastream.state_backend import _ROCKSDB_CLASS, _TERNARY

    j_backend = backend._j_state_backend
    if j_backend is not None and not isinstance(j_backend, JavaObject):
        raise no_constructor(_ROCKSDB_CLASS, [j_backend, _TERNARY], target)
    if j_backend is not None and is_descriptor(j_backend):
        record = descriptor_record(j_backend)
        if record["type"] in _STREAM_BACKENDS:
            return record
    raise java_error("java.lang.IllegalStateException", NOT_A_STORAGE, target)
