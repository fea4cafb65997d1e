"""JVM-side descriptors for the API's value objects (checkpoint storages, state backends).

Flink has a Java class per storage and backend; Spark has none. pyflink_compat keeps each such
object as a ``java.util.LinkedHashMap`` in the Spark JVM: its ``type`` and parameters, with
paths already normalised by the JVM. The wrappers read their getters from it, and an
environment stores it in its session conf as JSON.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Mapping

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["jvm", "context_class_loader", "new_descriptor", "descriptor_record", "is_descriptor",
           "map_to_dict", "string_map_to_dict"]

# Joins keys in the JVM: py4j iterators end in a JVM exception, which is slow to convert.
_SEPARATOR = "\u0001"


def jvm() -> Any:
    """The Spark JVM as py4j shows it, reached through the session's gateway when first needed
    (nothing touches the JVM at import time)."""
    from pyflink_compat.java_gateway import get_gateway

    return get_gateway().jvm


def context_class_loader() -> Any:
    """The class loader of the calling JVM thread, which sees the classes a user added."""
    return jvm().Thread.currentThread().getContextClassLoader()


def new_descriptor(record: Mapping[str, Any]) -> "JavaObject":
    """A JVM map holding ``record``; lists are kept as JSON text."""
    j_map = jvm().java.util.LinkedHashMap()
    for key, value in record.items():
        j_map.put(key, json.dumps(value) if isinstance(value, (list, tuple)) else value)
    return j_map


def is_descriptor(j_object: Any) -> bool:
    """Whether ``j_object`` is a descriptor made by :func:`new_descriptor`."""
    try:
        return bool(j_object.getClass().getName() == "java.util.LinkedHashMap" and j_object.containsKey("type"))
    except Exception:
        return False


def descriptor_record(j_map: "JavaObject") -> Dict[str, Any]:
    """The Python record a descriptor holds."""
    return map_to_dict(j_map)


def _join(j_map: "JavaObject", j_items: "JavaObject") -> List[str]:
    if j_map.isEmpty():
        return []
    return str(jvm().java.lang.String.join(_SEPARATOR, j_items)).split(_SEPARATOR)


def map_to_dict(j_map: "JavaObject") -> Dict[str, Any]:
    """A JVM ``Map`` with string keys as a dict, values converted by py4j."""
    return {key: j_map.get(key) for key in _join(j_map, j_map.keySet())}


def string_map_to_dict(j_map: "JavaObject") -> Dict[str, str]:
    """A JVM ``Map`` of strings to strings as a dict, in three JVM round trips."""
    return dict(zip(_join(j_map, j_map.keySet()), _join(j_map, j_map.values())))
