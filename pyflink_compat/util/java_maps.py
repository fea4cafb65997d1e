"""JVM maps read into Python dicts in as few round trips as the values allow."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional

from pyflink_compat.util.java_classes import java_static
from pyflink_compat.util.java_json import json_text

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["map_to_dict", "string_map_to_dict", "scalar_map_from_json", "has_scalar_values"]

# Joins keys in the JVM: py4j iterators end in a JVM exception, which is slow to convert.
_SEPARATOR = "\u0001"


def has_scalar_values(record: Mapping[str, Any]) -> bool:
    """Whether every value of ``record`` is a string, integer, boolean or ``None``: the values
    whose JSON text reads back as py4j would give them."""
    return all(v is None or isinstance(v, (str, bool, int)) for v in record.values())


def scalar_map_from_json(j_map: "JavaObject") -> Optional[Dict[str, Any]]:
    """A JVM map as a dict through its JSON text, or ``None`` when some value is not a
    string, integer, boolean or null (py4j would give those values another type)."""
    text = json_text(j_map)
    if text is None:
        return None
    record = json.loads(text)
    if not isinstance(record, dict) or not has_scalar_values(record):
        return None
    return record


def _join(j_items: "JavaObject", size: int) -> Optional[List[str]]:
    """The strings of a JVM collection of ``size`` items, joined in the JVM and split here;
    ``None`` when an item holds the separator (the split then finds more than ``size``)."""
    if size == 0:
        return []
    items = str(java_static("java.lang.String", "join")(_SEPARATOR, j_items)).split(_SEPARATOR)
    return items if len(items) == size else None


def _keys(j_map: "JavaObject", size: int) -> List[str]:
    keys = _join(j_map.keySet(), size)
    if keys is None:  # a key holds the separator: read the keys one by one
        j_keys = j_map.keySet().toArray()
        keys = [str(j_keys[i]) for i in range(size)]
    return keys


def map_to_dict(j_map: "JavaObject") -> Dict[str, Any]:
    """A JVM ``Map`` with string keys as a dict, values converted by py4j.

    A map of strings, integers, booleans and nulls is read in one round trip, as JSON text;
    any other map key by key.
    """
    record = scalar_map_from_json(j_map)
    if record is not None:
        return record
    return {key: j_map.get(key) for key in _keys(j_map, int(j_map.size()))}


def string_map_to_dict(j_map: "JavaObject") -> Dict[str, str]:
    """A JVM ``Map`` of strings to strings as a dict: one JVM round trip, as JSON text.

    Without a JSON library in the JVM, keys and values are joined in the JVM; a key or value
    holding the separator would shift the pairs, so the counts are checked against the map's
    size and the map is read key by key when they differ.
    """
    from py4j.java_gateway import get_method

    text = json_text(j_map)
    if text is not None:
        entries = json.loads(text)
        if isinstance(entries, dict) and all(isinstance(v, str) for v in entries.values()):
            return entries
    size = int(j_map.size())
    keys = _keys(j_map, size)
    # py4j shows a JVM map as a Python mapping whose ``values`` is Python's: call the JVM's.
    values = _join(get_method(j_map, "values")(), size)
    if values is None or len(keys) != size:
        return {key: str(j_map.get(key)) for key in keys}
    return dict(zip(keys, values))
