"""Key/value settings as Flink reads them, held in a JVM map in the Spark JVM."""
from typing import Any, Dict, Set

from py4j.java_gateway import JavaObject

from pyflink_compat.util.exceptions import call_java, java_error
from pyflink_compat.util.jvm_objects import map_to_dict

__all__ = ['Configuration']


def _new_map(other: 'Configuration' = None):
    from pyflink_compat.java_gateway import get_gateway

    j_map = get_gateway().jvm.java.util.HashMap()
    if other is not None:
        j_map.putAll(other._j_configuration)
    return j_map


def _number_format_error(text: str, target: str) -> Exception:
    return java_error("java.lang.NumberFormatException",
                      'For input string: "%s"' % text, target)


class Configuration:
    """Flink options as key/value pairs, such as ``execution.checkpointing.interval``.

    Pass one to :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.configure` or
    :meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.get_execution_environment`.
    Values keep the type they were set with; getters convert as Flink does (``"5"`` reads as
    the integer 5). The entries live in a ``java.util.HashMap`` in the Spark JVM, so ``str()``
    prints them as Flink does.

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
        self._j_configuration.put(key, value)
        return self

    @staticmethod
    def parse_list_value(value: str, standard_yaml: bool = True):
        """Split a list written as Flink writes lists in its configuration file.

        :param value: ``[a, b]`` (YAML flow style) or, when ``standard_yaml`` is False,
                      ``a;b``.
        :return: The items, as text.
        """
        text = value.strip()
        if standard_yaml:
            if text.startswith("[") and text.endswith("]"):
                text = text[1:-1]
            items = [item.strip().strip("'\"") for item in text.split(",")]
        else:
            items = [item.strip() for item in text.split(";")]
        return [item for item in items if item]

    def get_integer(self, key: str, default_value: int) -> int:
        """The value of ``key`` as an integer, or ``default_value`` when it is absent."""
        value = self._raw(key)
        if value is None:
            return default_value
        if isinstance(value, bool):
            raise _number_format_error(str(value).lower(), "Configuration.getInteger")
        try:
            number = int(str(value).strip())
        except ValueError:
            raise _number_format_error(str(value), "Configuration.getInteger") from None
        if not -(2 ** 31) <= number < 2 ** 31:
            raise java_error("java.lang.IllegalArgumentException",
                             "Configuration value %s overflows/underflows the integer type."
                             % number, "Configuration.getInteger")
        return number

    def set_integer(self, key: str, value: int) -> 'Configuration':
        """Set ``key`` to the integer ``value``.

        :return: This configuration.
        """
        self._j_configuration.put(key, value)
        return self

    def get_boolean(self, key: str, default_value: bool) -> bool:
        """The value of ``key`` as a boolean, or ``default_value`` when it is absent."""
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
        self._j_configuration.put(key, value)
        return self

    def get_float(self, key: str, default_value: float) -> float:
        """The value of ``key`` as a float, or ``default_value`` when it is absent."""
        value = self._raw(key)
        if value is None:
            return default_value
        try:
            return float(str(value).strip())
        except ValueError:
            raise _number_format_error(str(value), "Configuration.getFloat") from None

    def set_float(self, key: str, value: float) -> 'Configuration':
        """Set ``key`` to the float ``value``.

        :return: This configuration.
        """
        self._j_configuration.put(key, float(value))
        return self

    def get_bytearray(self, key: str, default_value: bytearray) -> bytearray:
        """The value of ``key`` as bytes, or ``default_value`` when it is absent."""
        value = self._raw(key)
        if value is None:
            return default_value
        return bytearray(value)

    def set_bytearray(self, key: str, value: bytearray) -> 'Configuration':
        """Set ``key`` to the bytes ``value``.

        :return: This configuration.
        """
        self._j_configuration.put(key, bytearray(value))
        return self

    def key_set(self) -> Set[str]:
        """Every key that has a value."""
        return set(map_to_dict(self._j_configuration))

    def add_all_to_dict(self, target_dict: Dict):
        """Copy every entry, as text, into ``target_dict``."""
        target_dict.update(self.to_dict())

    def add_all(self, other: 'Configuration', prefix: str = None) -> 'Configuration':
        """Copy every entry of ``other``, with ``prefix`` put before each key if given.

        :return: This configuration.
        """
        if prefix is None:
            self._j_configuration.putAll(other._j_configuration)
        else:
            for key, value in map_to_dict(other._j_configuration).items():
                self._j_configuration.put(prefix + key, value)
        return self

    def contains_key(self, key: str) -> bool:
        """Whether ``key`` has a value."""
        return bool(self._j_configuration.containsKey(key))

    def to_dict(self) -> Dict[str, str]:
        """Every entry, with the values as text."""
        return {key: self._text(value) for key, value in map_to_dict(self._j_configuration).items()}

    def remove_config(self, key: str) -> bool:
        """Remove ``key``.

        :return: Whether it had a value.
        """
        return self._j_configuration.remove(key) is not None

    def __deepcopy__(self, memodict=None):
        return Configuration(other=self)

    def __hash__(self):
        return int(self._j_configuration.hashCode())

    def __eq__(self, other):
        if isinstance(other, Configuration):
            return bool(self._j_configuration.equals(other._j_configuration))
        return False

    def __str__(self):
        return str(call_java("Configuration.toString", self._j_configuration.toString))


