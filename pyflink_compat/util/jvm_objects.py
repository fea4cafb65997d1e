"""JVM-side descriptors for the API's value objects (checkpoint storages, state backends).

Flink has a Java class per storage and backend; Spark has none. pyflink_compat keeps each such
object as a ``java.util.LinkedHashMap`` in the Spark JVM: its ``type`` and parameters, with
paths already normalised by the JVM. The wrappers read their getters from it, and an
environment stores it in its session conf as JSON.
"""

from __future__ import annotations

import json
import weakref
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["jvm", "java_class", "java_static", "context_class_loader", "new_descriptor",
           "descriptor_record", "descriptor_or_none", "is_descriptor", "map_to_dict",
           "string_map_to_dict", "json_text", "java_call", "new_properties", "StringCalls",
           "descriptor_put", "record_json", "descriptor_json"]

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
        # the whole name in one look-up (one per package and class when walked part by part)
        found = _cache[name] = getattr(view, name)
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


def java_call(j_object: "JavaObject", method: str, *args: Any) -> Any:
    """Call ``method`` of ``j_object`` with arguments that are strings, ``None``, booleans,
    numbers or JVM objects, in one round trip written as py4j's protocol spells it (see
    :class:`StringCalls` for why). A JVM exception raises :class:`py4j.protocol.Py4JJavaError`.
    """
    from py4j import protocol

    client = j_object._gateway_client
    target = str(j_object._target_id)
    command = protocol.CALL_COMMAND_NAME + target + "\n" + method + "\n" \
        + "".join(map(protocol.get_command_part, args)) + protocol.END_COMMAND_PART
    return protocol.get_return_value(client.send_command(command), client, target, method)


# Value classes whose JSON text would read back differently from what py4j gives for them
# (byte arrays as base64 text, a Float's shortest text, a BigDecimal as a float): the JSON
# writer refuses them, and the caller reads the map entry by entry instead.
_NOT_AS_JSON = ("[B", "java.lang.Float", "java.math.BigDecimal")


def _plain_json_mapper() -> Any:
    """Jackson's ``ObjectMapper`` (Spark ships it) in the JVM as Jackson makes it, made once
    per gateway: it reads JSON text into any class, and writes maps of strings."""
    jvm()  # drops the cache when the gateway changed
    mapper = _cache.get("#json plain")
    if mapper is None:
        mapper = java_class("com.fasterxml.jackson.databind.ObjectMapper")()
        _cache["#json plain"] = mapper
    return mapper


def _json_mapper() -> Any:
    """A Jackson ``ObjectMapper`` that refuses to write the values whose JSON text would read
    back differently (see ``_NOT_AS_JSON``), made once per gateway."""
    jvm()  # drops the cache when the gateway changed
    mapper = _cache.get("#json")
    if mapper is None:
        databind = "com.fasterxml.jackson.databind."
        mapper = java_class(databind + "ObjectMapper")()
        module = java_class(databind + "module.SimpleModule")()
        for name in _NOT_AS_JSON:
            # Jackson's serializer of unknown types fails on any value.
            module.addSerializer(java_class("java.lang.Class").forName(name),
                                 java_class(databind + "ser.impl.UnknownSerializer")())
        mapper.registerModule(module)
        _cache["#json"] = mapper
    return mapper


def _java_class_object(name: str) -> Any:
    """The ``java.lang.Class`` object of ``name``, looked up once per gateway."""
    jvm()
    key = "#class " + name
    found = _cache.get(key)
    if found is None:
        found = java_class("java.lang.Class").forName(name)
        _cache[key] = found
    return found


def json_text(j_object: "JavaObject", strings_only: bool = False) -> Optional[str]:
    """The JSON text of a JVM map (or other value) of strings, numbers, booleans and nulls,
    written in the JVM: one round trip. ``None`` when the JVM cannot write it so (a value of
    another class, or no JSON library in the JVM).

    :param strings_only: The caller knows the value is a map of strings to strings, which
        needs none of the checks of other value classes (nor the time to set them up).
    """
    from py4j.protocol import Py4JError

    mapper = _plain_json_mapper() if strings_only else _json_mapper()
    try:
        return str(java_call(mapper, "writeValueAsString", j_object))
    except Py4JError:
        return None


def _scalar_values(record: Mapping[str, Any]) -> bool:
    return all(v is None or isinstance(v, (str, bool, int)) for v in record.values())


def _map_from_json(j_map: "JavaObject") -> Optional[Dict[str, Any]]:
    """A JVM map as a dict through its JSON text, or ``None`` when some value is not a
    string, integer, boolean or null (py4j would give those values another type)."""
    text = json_text(j_map)
    if text is None:
        return None
    record = json.loads(text)
    if not isinstance(record, dict) or not _scalar_values(record):
        return None
    return record


def new_properties(values: Mapping[str, str]) -> Optional["JavaObject"]:
    """A ``java.util.Properties`` holding ``values``, made in one round trip; ``None`` when
    the JVM has no JSON library to read them with."""
    from py4j.protocol import Py4JError

    try:
        return java_call(_plain_json_mapper(), "readValue", json.dumps(dict(values)),
                         _java_class_object("java.util.Properties"))
    except Py4JError:
        return None


# The records of descriptors made here, by the id of their py4j object, so that reading one
# back costs no round trip. The weak reference tells a reused id apart and drops the entry
# with the object; descriptor_put, the one way a descriptor is changed, drops it too. The
# third item is the record's JSON text (record_json), once asked for.
_records: Dict[int, List[Any]] = {}


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
    if _scalar_values(values):
        from py4j.protocol import Py4JError

        # One round trip: Jackson reads the map from its JSON text, with the value classes
        # py4j would have sent (Integer, Long, Boolean, String, null).
        try:
            j_map = java_call(_plain_json_mapper(), "readValue", json.dumps(values),
                              _java_class_object("java.util.LinkedHashMap"))
        except Py4JError:  # no JSON library in the JVM: put the values one by one
            pass
        else:
            _remember(j_map, values)
            return j_map
    j_map = java_class("java.util.LinkedHashMap")()
    for key, value in values.items():
        j_map.put(key, value)
    return j_map


def _java_map_class() -> Any:
    """py4j's ``JavaMap`` (imported when first needed; an import statement run on every
    call would cost more than the rest of :func:`is_descriptor` or
    :func:`descriptor_or_none`)."""
    found = _cache.get("py4j JavaMap")
    if found is None:
        from py4j.java_collections import JavaMap

        found = _cache["py4j JavaMap"] = JavaMap
    return found


def is_descriptor(j_object: Any) -> bool:
    """Whether ``j_object`` is a descriptor made by :func:`new_descriptor`: a JVM map (which
    py4j shows as a :class:`~py4j.java_collections.JavaMap`, so no JVM call is needed to tell)
    holding a ``type``."""
    if not isinstance(j_object, _java_map_class()):
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
    if not isinstance(j_object, _java_map_class()):
        return None
    record = _recall(j_object)
    if record is None:
        record = _map_from_json(j_object)
    if record is not None:
        return record if "type" in record else None
    return descriptor_record(j_object) if is_descriptor(j_object) else None


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
    record = _map_from_json(j_map)
    if record is not None:
        return record
    return {key: j_map.get(key) for key in _keys(j_map, int(j_map.size()))}


def string_map_to_dict(j_map: "JavaObject") -> Dict[str, str]:
    """A JVM ``Map`` of strings to strings as a dict: one JVM round trip, as JSON text.

    Without a JSON library in the JVM, in five: keys and values are joined in the JVM; a key
    or value holding the separator would shift the pairs, so the counts are checked against
    the map's size and the map is read key by key when they differ.
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


#: py4j's protocol: the type mark of a string argument, and the answer of a call that
#: succeeded and returned nothing.
_STRING_PART = "s"
_VOID_ANSWER = "yv"


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
        parts = [self._head, method, "\n"]
        for arg in args:
            if type(arg) is str:  # py4j's string part: backslash, CR and LF escaped
                parts.append(_STRING_PART + arg.replace("\\", "\\\\").replace("\r", "\\r")
                             .replace("\n", "\\n") + "\n")
            else:
                parts.append(protocol.get_command_part(arg))
        parts.append(protocol.END_COMMAND_PART)
        answer = self._client.send_command("".join(parts))
        if answer == _VOID_ANSWER:  # the usual answer of a setter: nothing to convert
            return None
        return protocol.get_return_value(answer, self._client, self._target, method)
