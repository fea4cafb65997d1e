"""The Flink options behind an :class:`~pyflink_compat.common.ExecutionConfig`: where they are
held, and their text.

An ExecutionConfig reads and writes Flink options (``parallelism.default``,
``pipeline.max-parallelism``, ``restart-strategy.type``...) as text through
:class:`ExecutionOptions`, so that the environment decides where they live.
:class:`SessionOptions` keeps them in the JVM conf of an environment's Spark session, next to
the checkpoint settings: options the settings registry knows go through the environment's
:class:`~pyflink_compat.settings.store.SettingsStore` (validated, and the Spark keys derived
from them rewritten); any other option is kept as text under the same ``spark.flink.`` prefix.
:class:`DictOptions` keeps them in a dict. Durations are written and read with
:mod:`pyflink_compat.settings.values`, maps in Flink's ``k:v,k:v`` syntax, and the restart
strategy set through the API as JSON beside its ``restart-strategy.*`` options.
"""
import json
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Protocol

from pyflink_compat.common.restart_strategy import (
    RESTART_OPTION_KEYS, RestartStrategies, RestartStrategyConfiguration)
from pyflink_compat.settings.registry import CONF_PREFIX, SETTINGS_BY_KEY
from pyflink_compat.settings.values import duration_text, from_millis, read_duration, to_millis

__all__ = ["ExecutionOptions", "SessionOptions", "DictOptions", "as_options",
           "API_RESTART_STRATEGY_KEY", "millis_text", "millis_of", "encode_map", "decode_map",
           "restart_changes", "restart_strategy_of"]


class ExecutionOptions(Protocol):
    """What an ExecutionConfig reads and writes its options through."""

    def get_option(self, key: str) -> Optional[str]:
        """The text of Flink option ``key``, or ``None`` when it is not set."""

    def set_options(self, changes: Mapping[str, Optional[str]]) -> None:
        """Set (or, for ``None``, unset) several options at once; all or nothing."""

    def default_parallelism(self) -> int:
        """The parallelism reported while ``parallelism.default`` is not set."""


class SessionOptions(object):
    """An environment's :class:`ExecutionOptions`: the settings in its Spark session's JVM
    ``RuntimeConfig``.

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
        return CONF_PREFIX + key

    def get_option(self, key: str) -> Optional[str]:
        return self._store.text(self._conf_key(key))

    def set_options(self, changes: Mapping[str, Optional[str]]) -> None:
        known = SETTINGS_BY_KEY
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
        return isinstance(other, SessionOptions) and self._j_conf == other._j_conf

    def __hash__(self) -> int:
        return int(self._j_conf.hashCode())


class DictOptions(object):
    """:class:`ExecutionOptions` in a Python dict: for an ExecutionConfig that belongs to no
    environment, and for tests."""

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


def as_options(j_execution_config: Any) -> Any:
    """``j_execution_config`` itself when it is an :class:`ExecutionOptions`, else the
    :class:`SessionOptions` over it (a session's JVM conf)."""
    from py4j.java_gateway import JavaObject

    # A py4j JavaObject answers any attribute, so it is recognised by its type.
    if isinstance(j_execution_config, JavaObject):
        return SessionOptions(j_execution_config)
    return j_execution_config


#: The options of the restart strategy configuration set through the API, as JSON (absent: none
#: was, and PyFlink reports the fall-back configuration whatever the ``restart-strategy.*``
#: options say).
API_RESTART_STRATEGY_KEY = "compat.execution-config.restart-strategy"


def millis_text(millis: int) -> str:
    """The text a duration option given in milliseconds is stored as."""
    return duration_text(from_millis(millis))


def millis_of(text: str) -> int:
    """The milliseconds of a duration option's text (which may be negative, as setters allow)."""
    try:
        return to_millis(read_duration(text))
    except ValueError:
        raise ValueError("Could not parse value '{}'.".format(text)) from None


def _quote(text: str) -> str:
    if any(c in text for c in ",:'\""):
        return "'" + text.replace("'", "''") + "'"
    return text


def _split(text: str, separator: str, unquote: bool) -> List[str]:
    """Split Flink list/map text on ``separator`` outside quotes (``'`` or ``"``, doubled
    inside to escape); with ``unquote``, the quotes are removed from the parts."""
    parts: List[str] = []
    current: List[str] = []
    quote: Optional[str] = None
    i = 0
    while i < len(text):
        char = text[i]
        if quote is not None and char == quote and text[i + 1:i + 2] == quote:
            current.append(char if unquote else char * 2)
            i += 1
        elif quote is not None and char == quote:
            quote = None
            if not unquote:
                current.append(char)
        elif quote is None and char in "'\"":
            quote = char
            if not unquote:
                current.append(char)
        elif quote is None and char == separator:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
        i += 1
    parts.append("".join(current))
    return parts


def encode_map(entries: Mapping[str, str]) -> str:
    return ",".join("{}:{}".format(_quote(k), _quote(v)) for k, v in entries.items())


def decode_map(text: Optional[str]) -> Dict[str, str]:
    if not text:
        return {}
    out: Dict[str, str] = {}
    for item in _split(text, ",", unquote=False):
        key, value = _split(item, ":", unquote=True)[:2]
        out[key] = value
    return out


def restart_changes(current_record: Optional[str],
                    configuration: RestartStrategyConfiguration) -> Dict[str, Optional[str]]:
    """The option changes that set ``configuration`` through the API.

    The configuration's own options are also kept, as JSON, under
    :data:`API_RESTART_STRATEGY_KEY`: PyFlink reports the configuration set through the API
    even after ``configure`` changes some ``restart-strategy.*`` option (other than
    ``restart-strategy.type``, which makes it report the fall-back configuration; the
    environment's ``configure`` must then unset that key).

    The fall-back configuration leaves ``restart-strategy.*`` options alone unless they were
    written by an earlier API call, so that options given to the session (the cluster level)
    apply again.
    """
    options = configuration._to_flink_options()
    changes: Dict[str, Optional[str]] = {}
    earlier = {} if current_record is None else json.loads(current_record)
    if options or earlier:
        changes.update({key: None for key in RESTART_OPTION_KEYS})
    changes.update(options)
    changes[API_RESTART_STRATEGY_KEY] = json.dumps(options, sort_keys=True)
    return changes


def restart_strategy_of(options: ExecutionOptions) -> RestartStrategyConfiguration:
    """The restart strategy configuration an environment reports (see
    :meth:`ExecutionConfig.get_restart_strategy`)."""
    record = options.get_option(API_RESTART_STRATEGY_KEY)
    if record is None:
        return RestartStrategies.fall_back_restart()
    return RestartStrategies._from_flink_options(json.loads(record))
