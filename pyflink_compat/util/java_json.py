"""JSON text written and read in the JVM, with the Jackson library Spark ships.

One round trip turns a JVM value into JSON text, or JSON text into a JVM object of a given
class, where reading or building the value through py4j would take one per entry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pyflink_compat.util.java_classes import class_object, java_class, per_gateway
from pyflink_compat.util.py4j_calls import java_call

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["json_text", "read_json"]

_DATABIND = "com.fasterxml.jackson.databind."

# Value classes whose JSON text would read back differently from what py4j gives for them
# (byte arrays as base64 text, a Float's shortest text, a BigDecimal as a float): the JSON
# writer refuses them, and the caller reads the value another way.
_NOT_AS_JSON = ("[B", "java.lang.Float", "java.math.BigDecimal")


def _plain_mapper() -> Any:
    """Jackson's ``ObjectMapper`` as Jackson makes it, once per gateway: it reads JSON text into
    any class, and writes maps of strings."""
    return per_gateway("#json plain", lambda: java_class(_DATABIND + "ObjectMapper")())


def _make_checked_mapper() -> Any:
    mapper = java_class(_DATABIND + "ObjectMapper")()
    module = java_class(_DATABIND + "module.SimpleModule")()
    for name in _NOT_AS_JSON:
        # Jackson's serializer of unknown types fails on any value.
        module.addSerializer(java_class("java.lang.Class").forName(name),
                             java_class(_DATABIND + "ser.impl.UnknownSerializer")())
    mapper.registerModule(module)
    return mapper


def _checked_mapper() -> Any:
    """An ``ObjectMapper`` that refuses to write the values whose JSON text would read back
    differently (see ``_NOT_AS_JSON``), once per gateway."""
    return per_gateway("#json", _make_checked_mapper)


def json_text(j_object: "JavaObject", strings_only: bool = False) -> Optional[str]:
    """The JSON text of a JVM map (or other value) of strings, numbers, booleans and nulls,
    written in the JVM: one round trip. ``None`` when the JVM cannot write it so (a value of
    another class, or no JSON library in the JVM).

    :param strings_only: The caller knows the value is a map of strings to strings, which
        needs none of the checks of other value classes (nor the time to set them up).
    """
    from py4j.protocol import Py4JError

    mapper = _plain_mapper() if strings_only else _checked_mapper()
    try:
        return str(java_call(mapper, "writeValueAsString", j_object))
    except Py4JError:
        return None


def read_json(text: str, class_name: str) -> Optional["JavaObject"]:
    """A new JVM object of class ``class_name`` read from the JSON ``text``, in one round trip;
    ``None`` when the JVM has no JSON library to read it with. Numbers become the classes py4j
    would have sent (``Integer``, ``Long``)."""
    from py4j.protocol import Py4JError

    try:
        return java_call(_plain_mapper(), "readValue", text, class_object(class_name))
    except Py4JError:
        return None
