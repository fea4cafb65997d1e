"""Where an :class:`~pyflink_compat.common.ExecutionConfig` keeps its settings.

An ExecutionConfig reads and writes Flink options (``parallelism.default``,
``pipeline.max-parallelism``, ``restart-strategy.type``...) as text through a small store
interface, :class:`ExecutionConfigStore`, so that the environment decides where they live.
:class:`SessionConfStore` keeps them in the JVM conf of an environment's Spark session, next to
the checkpoint settings: options the settings registry knows go through
:class:`~pyflink_compat.settings.store.SettingsStore` (validated, and the Spark keys derived
from them rewritten); any other option is kept as text under the same ``spark.flink.`` prefix.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Mapping, Optional, Protocol


__all__ = ["ExecutionConfigStore", "SessionConfStore", "DictStore", "as_store"]


class ExecutionConfigStore(Protocol):
    """What an ExecutionConfig needs from the environment that holds its settings."""

    def get_option(self, key: str) -> Optional[str]:
        """The text of Flink option ``key``, or ``None`` when it is not set."""

    def set_options(self, changes: Mapping[str, Optional[str]]) -> None:
        """Set (or, for ``None``, unset) several options at once; all or nothing."""

    def default_parallelism(self) -> int:
        """The parallelism reported while ``parallelism.default`` is not set."""


class SessionConfStore(object):
    """An :class:`ExecutionConfigStore` over a Spark session's JVM ``RuntimeConfig``.

    :param j_conf: The session's JVM conf (``spark._jsparkSession.conf()``).
    :param default_parallelism: Gives the parallelism reported while none is set; by default
                                the number of processors, as a local Flink environment reports.
    :param settings: The environment's :class:`~pyflink_compat.settings.store.SettingsStore`
                     over ``j_conf``, when there is one.
    """

    def __init__(self, j_conf: Any, default_parallelism: Optional[Callable[[], int]] = None,
                 settings: Any = None):
        self._j_conf = j_conf
        self._default_parallelism = default_parallelism
        self._settings = settings

    @property
    def _store(self) -> Any:
        """The :class:`~pyflink_compat.settings.store.SettingsStore` over the conf: the
        environment's own when given, so that both see the same view of the conf."""
        if self._settings is None:
            from pyflink_compat.spark.translation import settings_store

            self._settings = settings_store(self._j_conf)
        return self._settings

    @staticmethod
    def _conf_key(key: str) -> str:
        from pyflink_compat.settings.registry import CONF_PREFIX

        return CONF_PREFIX + key

    def get_option(self, key: str) -> Optional[str]:
        return self._store.text(self._conf_key(key))

    def set_options(self, changes: Mapping[str, Optional[str]]) -> None:
        from pyflink_compat.settings.registry import SETTINGS

        known = {setting.key: setting for setting in SETTINGS}
        registered: Dict[Any, Any] = {}
        for key, text in changes.items():
            setting = known.get(key)
            if setting is not None:
                registered[setting] = None if text is None else setting.codec.parse(text)
        others = {self._conf_key(key): text for key, text in changes.items() if key not in known}
        # Validates everything first; raises before anything is written.
        self._store.put(registered, "ExecutionConfig", others=others)

    def default_parallelism(self) -> int:
        if self._default_parallelism is not None:
            return self._default_parallelism()
        return os.cpu_count() or 1

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SessionConfStore) and self._j_conf == other._j_conf

    def __hash__(self) -> int:
        return int(self._j_conf.hashCode())


class DictStore(object):
    """An :class:`ExecutionConfigStore` in a Python dict: for an ExecutionConfig that belongs
    to no environment, and for tests."""

    def __init__(self, options: Optional[Mapping[str, str]] = None, default_parallelism: int = 1):
        self.options: Dict[str, str] = dict(options or {})
        self._default = default_parallelism

    def get_option(self, key: str) -> Optional[str]:
        return self.options.get(key)

    def set_options(self, changes: Mapping[str, Optional[str]]) -> None:
        for key, text in changes.items():
            if text is None:
                self.options.pop(key, None)
            else:
                self.options[key] = text

    def default_parallelism(self) -> int:
        return self._default


def as_store(j_execution_config: Any) -> Any:
    """``j_execution_config`` itself when it is a store, else a :class:`SessionConfStore` over it
    (a session's JVM conf)."""
    from py4j.java_gateway import JavaObject

    # A py4j JavaObject answers any attribute, so it is recognised by its type.
    if isinstance(j_execution_config, JavaObject):
        return SessionConfStore(j_execution_config)
    return j_execution_config
