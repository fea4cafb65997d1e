"""JVM-side descriptors for the API's value objects (checkpoint storages, state backends).

Flink has a Java class per storage and backend; Spark has none. pyflink_compat keeps each such
object as a ``java.util.LinkedHashMap`` in the Spark JVM: its ``type`` and parameters, with
paths already normalised by the JVM. The wrappers read their getters from it, and an
environment stores it in its session conf as JSON.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["jvm", "java_class", "java_static", "context_class_loader", "new_descriptor",
           "descriptor_record", "is_descriptor", "map_to_dict", "string_map_to_dict", "StringCalls"]

# Joins keys in the JVM: py4j iterators end in a JVM exception, which is slow to convert.
_SEPARATOR = "\u0001"

# The gateway last reached and the classes and static methods looked up through it. Looking
# a class or a static method up through py4j is a JVM round trip each time; both stay valid
# for as long as the gateway does.
_cache: Dict[str, Any] = {}
_cached_gateway: List[Any] = [None]


def _live_gateway() -> Optional[Any]:
    """The gateway already reached, if its ``SparkContext`` is still the active one (checked
    without touching the JVM), else ``None``."""
    gateway = _cached_gateway[0]
    if gateway is None:
        return None
    from pyspark import SparkContext

    context = SparkContext._active_spark_context
    if context is None or context._gateway is not gateway:
        return None
    return gateway


def jvm() -> Any:
    """The Spark JVM as py4j shows it, reached through the session's gateway when first needed
    (nothing touches the JVM at import time)."""
    gateway = _live_gateway()
    if gateway is None:
        from pyflink_compat.java_gateway import get_gateway

        gateway = get_gateway()
        if gateway is not _cached_gateway[0]:
            _cache.clear()
            _cached_gateway[0] = gateway
    return gateway.jvm


def java_class(name: str) -> Any:
    """The JVM class ``name`` (fully qualified), looked up once per gateway."""
    view = jvm()
    found = _cache.get(name)
    if found is None:
        found = view
        for part in name.split("."):
            found = getattr(found, part)
        _cache[name] = found
    return found


def java_static(class_name: str, method: str) -> Any:
    """The static method ``method`` of the JVM class ``class_name``, looked up once per
    gateway."""
    key = class_name + "#" + method
    jvm()  # drops the cache when the gateway changed
    found = _cache.get(key)
    if found is None:
        found = getattr(java_class(class_name), method)
        _cache[key] = found
    return found


def context_class_loader() -> Any:
    """The class loader of the calling JVM thread, which sees the classes a user added."""
    return jvm().Thread.currentThread().getContextClassLoader()


def new_descriptor(record: Mapping[str, Any]) -> "JavaObject":
    """A JVM map holding ``record``; lists are kept as JSON text."""
    j_map = java_class("java.util.LinkedHashMap")()
    for key, value in record.items():
        j_map.put(key, json.dumps(value) if isinstance(value, (list, tuple)) else value)
    return j_map


def is_descriptor(j_object: Any) -> bool:
    """Whether ``j_object`` is a descriptor made by :func:`new_descriptor`: a JVM map (which
    py4j shows as a :class:`~py4j.java_collections.JavaMap`, so no JVM call is needed to tell)
    holding a ``type``."""
    from py4j.java_collections import JavaMap

    if not isinstance(j_object, JavaMap):
        return False
    try:
        return bool(j_object.containsKey("type"))
    except Exception:
        return False


def descriptor_record(j_map: "JavaObject") -> Dict[str, Any]:
    """The Python record a descriptor holds."""
    return map_to_dict(j_map)


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
    """A JVM ``Map`` with string keys as a dict, values converted by py4j."""
    return {key: j_map.get(key) for key in _keys(j_map, int(j_map.size()))}


def string_map_to_dict(j_map: "JavaObject") -> Dict[str, str]:
    """A JVM ``Map`` of strings to strings as a dict, in five JVM round trips.

    Keys and values are joined in the JVM; a key or value holding the separator would shift
    the pairs, so the counts are checked against the map's size and the map is read key by
    key when they differ.
    """
    from py4j.java_gateway import get_method

    size = int(j_map.size())
    keys = _keys(j_map, size)
    # py4j shows a JVM map as a Python mapping whose ``values`` is Python's: call the JVM's.
    values = _join(get_method(j_map, "values")(), size)
    if values is None or len(keys) != size:
        return {key: str(j_map.get(key)) for key in keys}
    return dict(zip(keys, values))


class StringCalls:
    """Calls of a JVM object's methods whose arguments are all strings (or ``None``).

    The command is written here as py4j's protocol spells it. py4j's general path first asks
    each argument whether one of its collection converters applies, which costs about as much
    as the JVM round trip itself; a string never needs one. Errors are py4j's own: a JVM
    exception raises :class:`py4j.protocol.Py4JJavaError`.

    :param j_object: The JVM object; it is kept referenced for as long as this is.
    """

    def __init__(self, j_object: "JavaObject"):
        from py4j import protocol

        self._protocol = protocol
        self._j_object = j_object
        self._client = j_object._gateway_client
        self._target = str(j_object._target_id)
        self._head = protocol.CALL_COMMAND_NAME + self._target + "\n"

    def __call__(self, method: str, *args: Optional[str]) -> Any:
        protocol = self._protocol
        command = self._head + method + "\n" + "".join(map(protocol.get_command_part, args)) \
            + protocol.END_COMMAND_PART
        answer = self._client.send_command(command)
        return protocol.get_return_value(answer, self._client, self._target, method)
