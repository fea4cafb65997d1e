"""JVM-side descriptors for the API's value objects (checkpoint storages, state backends).

Flink has a Java class per storage and backend; Spark has none. pyflink_compat keeps each such
object as a ``java.util.LinkedHashMap`` in the Spark JVM: its ``type`` and parameters, with
paths already normalised by the JVM. The wrappers read their getters from it, and an
environment stores it in its session conf as JSON. The record of a descriptor made here is
remembered, so that reading it back costs no round trip while it is unchanged.
"""

from __future__ import annotations

import json
import weakref
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional

from pyflink_compat.util.java_classes import java_class
from pyflink_compat.util.java_json import read_json
from pyflink_compat.util.java_maps import has_scalar_values, map_to_dict, scalar_map_from_json

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["new_descriptor", "descriptor_record", "descriptor_or_none", "is_descriptor",
           "descriptor_put", "record_json", "descriptor_json"]

# The records of descriptors made here, by the id of their py4j object. The weak reference
# tells a reused id apart and drops the entry with the object; descriptor_put, the one way a
# descriptor is changed, drops it too. The third item is the record's JSON text (record_json),
# once asked for.
_records: Dict[int, List[Any]] = {}

# py4j's JavaMap class, imported once when first needed rather than by an import statement in
# is_descriptor and descriptor_or_none, which run on every getter of a storage or backend.
_java_map_class: List[Any] = []


def _java_map() -> Any:
    if not _java_map_class:
        from py4j.java_collections import JavaMap

        _java_map_class.append(JavaMap)
    return _java_map_class[0]


def _remember(j_map: "JavaObject", record: Mapping[str, Any]) -> None:
    key = id(j_map)

    def forget(ref: "weakref.ref[Any]", key: int = key) -> None:
        entry = _records.get(key)
        if entry is not None and entry[0] is ref:
            del _records[key]

    _records[key] = [weakref.ref(j_map, forget), dict(record), None]


def _recall(j_map: Any) -> Optional[Dict[str, Any]]:
    entry = _records.get(id(j_map))
    if entry is None or entry[0]() is not j_map:
        return None
    return dict(entry[1])


def record_json(record: Mapping[str, Any]) -> str:
    """The JSON text a record is kept as in a session conf: keys sorted, so that equal
    records give equal text."""
    return json.dumps(dict(record), sort_keys=True)


def descriptor_json(j_object: Any) -> Optional[str]:
    """:func:`record_json` of the record of a descriptor (see :func:`is_descriptor`) made here
    and unchanged since: no JVM round trip, and no encoding after the first time. ``None``
    for anything else."""
    entry = _records.get(id(j_object))
    if entry is None or entry[0]() is not j_object or "type" not in entry[1]:
        return None
    text: Optional[str] = entry[2]
    if text is None:
        text = entry[2] = record_json(entry[1])
    return text


def descriptor_put(j_map: "JavaObject", key: str, value: Any) -> None:
    """Set one parameter of a descriptor (see :func:`new_descriptor`)."""
    _records.pop(id(j_map), None)
    j_map.put(key, value)


def new_descriptor(record: Mapping[str, Any]) -> "JavaObject":
    """A JVM map holding ``record``; lists are kept as JSON text."""
    values = {key: json.dumps(value) if isinstance(value, (list, tuple)) else value
              for key, value in record.items()}
    if has_scalar_values(values):
        # One round trip: Jackson reads the map from its JSON text, with the value classes
        # py4j would have sent (Integer, Long, Boolean, String, null).
        j_map = read_json(json.dumps(values), "java.util.LinkedHashMap")
        if j_map is not None:
            _remember(j_map, values)
            return j_map
    # No JSON library in the JVM, or values JSON would not carry: put the values one by one.
    j_map = java_class("java.util.LinkedHashMap")()
    for key, value in values.items():
        j_map.put(key, value)
    return j_map


def is_descriptor(j_object: Any) -> bool:
    """Whether ``j_object`` is a descriptor made by :func:`new_descriptor`: a JVM map (which
    py4j shows as a :class:`~py4j.java_collections.JavaMap`, so no JVM call is needed to tell)
    holding a ``type``."""
    if not isinstance(j_object, _java_map()):
        return False
    try:
        return bool(j_object.containsKey("type"))
    except Exception:
        return False


def descriptor_record(j_map: "JavaObject") -> Dict[str, Any]:
    """The Python record a descriptor holds."""
    return map_to_dict(j_map)


def descriptor_or_none(j_object: Any) -> Optional[Dict[str, Any]]:
    """The record of ``j_object`` when it is a descriptor (see :func:`is_descriptor`), else
    ``None``: no JVM round trip for a descriptor made here and unchanged since, usually one
    for both answers otherwise."""
    if not isinstance(j_object, _java_map()):
        return None
    record = _recall(j_object)
    if record is None:
        record = scalar_map_from_json(j_object)
    if record is not None:
        return record if "type" in record else None
    return descriptor_record(j_object) if is_descriptor(j_object) else None
