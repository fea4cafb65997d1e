"""Key/value settings as Flink reads them, held in a JVM map in the Spark JVM."""
import base64
import math
import re
from typing import Any, Dict, List, Optional, Set

from py4j.java_gateway import JavaObject

from pyflink_compat.util.exceptions import call_java, java_error
from pyflink_compat.util.java_args import java_call_args
from pyflink_compat.util.java_limits import LONG_MAX, LONG_MIN
from pyflink_compat.util.java_maps import map_to_dict

__all__ = ['Configuration']


def _new_map(other: 'Configuration' = None):
    from pyflink_compat.java_gateway import get_gateway

    j_map = get_gateway().jvm.java.util.HashMap()
    if other is not None:
        j_map.putAll(_java_map(other._j_configuration))
    return j_map


def _java_map(j_configuration: Any) -> JavaObject:
    """The JVM map of a configuration's entries, for JVM calls that take one.

    A configuration usually wraps a ``java.util.HashMap``. The configuration of an environment
    (:func:`pyflink_compat.util.java_utils.get_j_env_configuration`) wraps the environment's
    settings instead, which are no JVM map: a JVM copy of its entries stands for it.
    """
    if isinstance(j_configuration, JavaObject):
        return j_configuration
    copy: JavaObject = j_configuration.java_copy()
    return copy


def _number_format_error(text: str, target: str) -> Exception:
    return java_error("java.lang.NumberFormatException",
                      'For input string: "%s"' % text, target)


_JAVA_LONG_TEXT = re.compile(r"[+-]?[0-9]+")


def _call(java_method: str, key: Any, value: Any, value_type: str) -> str:
    """Check the arguments of Flink's ``Configuration.<java_method>(String key, <value_type>)``
    as py4j and Flink do; returns the call's target."""
    target = "Configuration." + java_method
    java_call_args(java_method, target, [(key, "String"), (value, value_type)])
    if key is None:
        raise java_error("java.lang.NullPointerException", "Key must not be null.", target)
    return target


# -- YAML lists, as Flink's YAML configuration writes them ------------------------------------
_YAML_INT = re.compile(r"[-+]?[0-9]+")
_YAML_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")


def _yaml_scalar(text: str) -> Any:
    """A plain or quoted YAML 1.2 scalar, typed as a YAML loader types it."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        inner = text[1:-1]
        return inner.replace("''", "'") if text[0] == "'" else inner
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE", "false", "False", "FALSE"):
        return text[0] in "tT"
    if _YAML_INT.fullmatch(text):
        return int(text)
    if _YAML_FLOAT.fullmatch(text):
        return float(text)
    return text


def _yaml_list(text: str) -> Optional[List[Any]]:
    """The items of a flow (``[a, b]``) or block (``- a``) YAML list, or None for other text."""
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        inner = text[1:-1]
        if not inner.strip():
            return []
        items, current, quote = [], "", None
        for char in inner:
            if quote is None and char == ",":
                items.append(current)
                current = ""
                continue
            if char in "'\"" and (quote is None or quote == char):
                quote = char if quote is None else None
            current += char
        items.append(current)
        return [_yaml_scalar(item) for item in items]
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if lines and all(line == "-" or line.startswith("- ") for line in lines):
        return [_yaml_scalar(line[1:]) for line in lines]
    return None


class Configuration:
    """Flink options as key/value pairs, such as ``execution.checkpointing.interval``.

    Pass one to :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.configure` or
    :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.get_execution_environment`.
    Values keep the type they were set with; getters convert as Flink does (``"5"`` reads as
    the integer 5). The entries live in a ``java.util.HashMap`` in the Spark JVM, so ``str()``
    prints them as Flink does.

    >>> config = Configuration().set_string("execution.checkpointing.interval", "30 s")
    >>> config = config.set_integer("parallelism.default", 4)
    >>> config.get_integer("parallelism.default", 1), config.get_string("parallelism.default", "")
    (4, '4')
    >>> config.get_integer("execution.checkpointing.interval", 0)
    Traceback (most recent call last):
    pyflink_compat.util.exceptions.JavaRuntimeError: An error occurred while calling ...
    : java.lang.NumberFormatException: For input string: "30 s"...
    >>> env.configure(config)
    >>> env.get_checkpoint_interval(), env.get_parallelism()
    (30000, 4)

    :param other: A configuration to copy the entries of.
    :param j_configuration: An existing JVM map to wrap.
    """

    def __init__(self, other: 'Configuration' = None, j_configuration: JavaObject = None):
        if j_configuration is None:
            j_configuration = _new_map(other)
        self._j_configuration = j_configuration

    def _raw(self, key: str) -> Any:
        return self._j_configuration.get(key)

    def get_string(self, key: str, default_value: str) -> str:
        """The value of ``key`` as text, or ``default_value`` when it is absent."""
        _call("getString", key, default_value, "String")
        value = self._raw(key)
        return default_value if value is None else self._text(value)

    @staticmethod
    def _text(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def set_string(self, key: str, value: str) -> 'Configuration':
        """Set ``key`` to the text ``value``.

        :return: This configuration.
        """
        target = _call("setString", key, value, "String")
        if value is None:
            raise java_error("java.lang.NullPointerException", "Value must not be null.", target)
        self._j_configuration.put(key, value)
        return self

    @staticmethod
    def parse_list_value(value: str, standard_yaml: bool = True):
        """Split a list written as Flink writes lists in its configuration file.

        :param value: With ``standard_yaml``, a YAML list (``[a, 1]`` or one ``- item`` per
                      line), whose items are typed as YAML types them; otherwise, or for any
                      other text, items separated by ``;``.
        :return: The items.
        """
        if not value:
            return []
        if standard_yaml:
            items = _yaml_list(value)
            if items is not None:
                return items
        return value.split(";")

    def get_integer(self, key: str, default_value: int) -> int:
        """The value of ``key`` as an integer (a Java ``long``), or ``default_value`` when it
        is absent."""
        target = _call("getLong", key, default_value, "long")
        value = self._raw(key)
        if value is None:
            return default_value
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        text = self._text(value)
        if not (_JAVA_LONG_TEXT.fullmatch(text) and LONG_MIN <= int(text) <= LONG_MAX):
            raise _number_format_error(text, target)
        return int(text)

    def set_integer(self, key: str, value: int) -> 'Configuration':
        """Set ``key`` to the integer ``value``.

        :return: This configuration.
        """
        _call("setLong", key, value, "long")
        self._j_configuration.put(key, value)
        return self

    def get_boolean(self, key: str, default_value: bool) -> bool:
        """The value of ``key`` as a boolean, or ``default_value`` when it is absent."""
        _call("getBoolean", key, default_value, "boolean")
        value = self._raw(key)
        if value is None:
            return default_value
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text not in ("true", "false"):
            raise java_error("java.lang.IllegalArgumentException",
                             "Unrecognized option for boolean: %s. Expected either true or "
                             "false(case insensitive)" % value, "Configuration.getBoolean")
        return text == "true"

    def set_boolean(self, key: str, value: bool) -> 'Configuration':
        """Set ``key`` to the boolean ``value``.

        :return: This configuration.
        """
        _call("setBoolean", key, value, "boolean")
        self._j_configuration.put(key, value)
        return self

    def get_float(self, key: str, default_value: float) -> float:
        """The value of ``key`` as a float, or ``default_value`` (as a float) when it is
        absent."""
        default = float(default_value)
        target = _call("getDouble", key, default, "double")
        value = self._raw(key)
        if value is None:
            return default
        if isinstance(value, bool):
            raise _number_format_error(self._text(value), target)
        try:
            return float(str(value).strip())
        except ValueError:
            raise _number_format_error(str(value), target) from None

    def set_float(self, key: str, value: float) -> 'Configuration':
        """Set ``key`` to the float ``value``.

        :return: This configuration.
        """
        number = float(value)
        _call("setDouble", key, number, "double")
        self._j_configuration.put(key, number)
        return self

    def get_bytearray(self, key: str, default_value: bytearray) -> bytearray:
        """The value of ``key`` as bytes, or ``default_value`` when it is absent."""
        value = self._raw(key)
        if value is None:
            return default_value
        if isinstance(value, str):  # text, as a configuration file or set_string gives it
            try:
                return bytearray(base64.b64decode(value, validate=True))
            except ValueError:
                raise java_error("java.lang.IllegalArgumentException",
                                 "Configuration cannot evaluate value %s as a byte[] value" % value,
                                 "Configuration.getBytes") from None
        return bytearray(value)

    def set_bytearray(self, key: str, value: bytearray) -> 'Configuration':
        """Set ``key`` to the bytes ``value``.

        :return: This configuration.
        """
        self._j_configuration.put(key, bytearray(value))
        return self

    def key_set(self) -> Set[str]:
        """Every key that has a value."""
        return set(map_to_dict(_java_map(self._j_configuration)))

    def add_all_to_dict(self, target_dict: Dict):
        """Copy every entry into ``target_dict``, each value of the type it was set with."""
        target_dict.update(map_to_dict(_java_map(self._j_configuration)))

    def add_all(self, other: 'Configuration', prefix: str = None) -> 'Configuration':
        """Copy every entry of ``other``, with ``prefix`` put before each key if given.

        :return: This configuration.
        """
        if prefix is None:
            self._j_configuration.putAll(_java_map(other._j_configuration))
        else:
            for key, value in map_to_dict(_java_map(other._j_configuration)).items():
                self._j_configuration.put(prefix + key, value)
        return self

    def contains_key(self, key: str) -> bool:
        """Whether ``key`` has a value."""
        return bool(self._j_configuration.containsKey(key))

    def to_dict(self) -> Dict[str, str]:
        """Every entry, with the values as text, in the order PyFlink gives them (Flink copies
        its entries into a hash map sized for them, whose order this follows)."""
        from pyflink_compat.java_gateway import get_gateway

        size = int(self._j_configuration.size())
        capacity = 2 if size <= 1 else math.ceil(size / 0.75)
        j_copy = get_gateway().jvm.java.util.HashMap(capacity)
        j_copy.putAll(_java_map(self._j_configuration))
        return {key: self._text(value) for key, value in map_to_dict(j_copy).items()}

    def remove_config(self, key: str) -> bool:
        """Remove ``key``.

        :return: Whether it had a value.
        """
        return self._j_configuration.remove(key) is not None

    def __deepcopy__(self, memodict=None):
        return Configuration(other=self)

    def __hash__(self):
        return int(_java_map(self._j_configuration).hashCode())

    def __eq__(self, other):
        if isinstance(other, Configuration):
            return bool(_java_map(self._j_configuration).equals(_java_map(other._j_configuration)))
        return False

    def __str__(self):
        return str(call_java("Configuration.toString", _java_map(self._j_configuration).toString))


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
