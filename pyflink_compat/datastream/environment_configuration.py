"""An environment's configuration as the map a :class:`~pyflink_compat.common.Configuration` wraps.

PyFlink jobs reach the ``Configuration`` a Java environment holds with
``get_j_env_configuration(env._j_stream_execution_environment)`` and wrap it in a Python
``Configuration``: what they set there is the environment's configuration, and what the
environment sets they read there. An environment of pyflink_compat keeps its settings in its
Spark session's conf (:class:`~pyflink_compat.settings.store.SettingsStore`), so its
configuration is this view of that store, with the methods of ``java.util.Map`` that
``Configuration`` calls. A value set through it is applied as
:meth:`~pyflink_compat.datastream.StreamExecutionEnvironment.configure` applies it: checked
first (a rejected value raises and changes nothing), then stored with what follows from it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional

from pyflink_compat.common._execution_options import API_RESTART_STRATEGY_KEY
from pyflink_compat.datastream.stream_execution_environment import _configure_store, _option_text
from pyflink_compat.settings.registry import CONF_PREFIX, SETTINGS_BY_KEY
from pyflink_compat.settings.store import OBJECT_PREFIX, SettingsStore
from pyflink_compat.spark.translation import settings_store
from pyflink_compat.util.java_maps import map_to_dict

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["EnvironmentConfiguration", "environment_configuration"]

# The Java setter a value of each type comes from, for the error a rejected value raises.
_SETTERS = ((bool, "setBoolean"), (int, "setLong"), (float, "setDouble"))


def _is_internal(key: str) -> bool:
    """Whether ``key`` holds a record of this package (an API object), not a Flink option."""
    return (CONF_PREFIX + key).startswith(OBJECT_PREFIX) or key == API_RESTART_STRATEGY_KEY


def _setter(value: Any) -> str:
    return "Configuration." + next((name for kind, name in _SETTERS if isinstance(value, kind)),
                                   "setString")


class EnvironmentConfiguration:
    """The Flink options of one environment, read from and written to its settings.

    Keys are Flink's (``parallelism.default``); values read as the text of the option, as Flink
    writes it (``5 s`` for a checkpoint interval set as ``5000`` milliseconds).

    :param store: The environment's settings.
    """

    def __init__(self, store: SettingsStore):
        self._store = store

    def entries(self) -> Dict[str, str]:
        """Every option set, as text by key."""
        return {key: self._flink_text(key, text) for key, text in self._store.raw().items()
                if not _is_internal(key)}

    def _flink_text(self, key: str, text: str) -> str:
        setting = SETTINGS_BY_KEY.get(key)
        if setting is None or setting.key != key:
            return text
        return setting.codec.flink_text(self._store.get(setting, "Configuration.getString"))

    # -- the methods of java.util.Map that Configuration calls ----------------------------------
    def get(self, key: str) -> Optional[str]:
        text = self._store.text(CONF_PREFIX + key)
        if text is None or _is_internal(key):
            return None
        return self._flink_text(key, text)

    def put(self, key: str, value: Any) -> Optional[str]:
        previous = self.get(key)
        _configure_store(self._store, {key: _option_text(value)}, _setter(value))
        return previous

    def putAll(self, other: Any) -> None:  # noqa: N802 (Java's name)
        entries = other.entries() if isinstance(other, EnvironmentConfiguration) else map_to_dict(other)
        _configure_store(self._store, {k: _option_text(v) for k, v in entries.items()},
                         "Configuration.addAll")

    def remove(self, key: str) -> Optional[str]:
        previous = self.get(key)
        if previous is not None:
            setting = SETTINGS_BY_KEY.get(key)
            if setting is not None and setting.key == key:
                self._store.put({setting: None}, "Configuration.removeConfig")
            else:
                self._store.put({}, "Configuration.removeConfig", others={CONF_PREFIX + key: None})
        return previous

    def containsKey(self, key: str) -> bool:  # noqa: N802 (Java's name)
        return self.get(key) is not None

    def size(self) -> int:
        return len(self.entries())

    def java_copy(self) -> "JavaObject":
        """A ``java.util.HashMap`` holding the entries as they are now."""
        from pyflink_compat.java_gateway import get_gateway

        j_map = get_gateway().jvm.java.util.HashMap()
        for key, text in self.entries().items():
            j_map.put(key, text)
        return j_map

    def hashCode(self) -> int:  # noqa: N802 (Java's name)
        return int(self.java_copy().hashCode())

    def equals(self, other: Any) -> bool:
        return bool(self.java_copy().equals(other))

    def toString(self) -> str:  # noqa: N802 (Java's name)
        return str(self.java_copy().toString())

    def __repr__(self) -> str:
        return "EnvironmentConfiguration({!r})".format(self.entries())


def environment_configuration(j_conf: "JavaObject") -> EnvironmentConfiguration:
    """The configuration of the environment whose session conf is ``j_conf``."""
    return EnvironmentConfiguration(settings_store(j_conf))

