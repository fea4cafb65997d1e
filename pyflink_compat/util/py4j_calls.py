"""Calls of JVM methods sent in py4j's protocol as written here.

py4j's general call path first asks each argument whether one of its collection converters
applies. The calls here take only arguments that never need a converter (strings, ``None``,
booleans, numbers, JVM objects) and write the command directly, which spares that work on the
calls every getter and setter makes (``docs/benchmarks.rst`` has the measurements). Errors
are py4j's own: a JVM exception raises :class:`py4j.protocol.Py4JJavaError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["java_call", "StringCalls"]

#: py4j's protocol: the type mark of a string argument, and the answer of a call that
#: succeeded and returned nothing.
_STRING_PART = "s"
_VOID_ANSWER = "yv"


def java_call(j_object: "JavaObject", method: str, *args: Any) -> Any:
    """Call ``method`` of ``j_object`` with arguments that are strings, ``None``, booleans,
    numbers or JVM objects, in one round trip."""
    from py4j import protocol

    client = j_object._gateway_client
    target = str(j_object._target_id)
    command = protocol.CALL_COMMAND_NAME + target + "\n" + method + "\n" \
        + "".join(map(protocol.get_command_part, args)) + protocol.END_COMMAND_PART
    return protocol.get_return_value(client.send_command(command), client, target, method)


class StringCalls:
    """Calls of a JVM object's methods whose arguments are all strings (or ``None``).

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
