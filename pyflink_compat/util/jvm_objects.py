"""JVM-side descriptors for the API's value objects (checkpoint storages, state backends).

Flink has a Java class per storage and backend; Spark has none. pyflink_compat keeps each such
object as a ``java.util.LinkedHashMap`` in the Spark JVM: its ``type`` and parameters, with
paths already normalised by the JVM. The wrappers read their getters from it, and an
environment stores it in its session conf as JSON.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, Mapping

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["new_descriptor", "descriptor_record", "is_descriptor"]


def new_descriptor(record: Mapping[str, Any]) -> "JavaObject":
    """A JVM map holding ``record``; lists are kept as JSON text."""
    from pyflink_compat.java_gateway import get_gateway

    j_map = get_gateway().jvm.java.util.LinkedHashMap()
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
    """The Python record a descriptor holds (one JVM round trip)."""
    return {str(k): v for k, v in dict(j_map).items()}
