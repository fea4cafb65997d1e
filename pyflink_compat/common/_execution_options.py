"""Flink option text for ExecutionConfig: milliseconds, maps, and the restart strategy
set through the API."""
import json
from typing import Any, Dict, List, Mapping, Optional

from pyflink_compat.common.restart_strategy import (
    RESTART_OPTION_KEYS, RestartStrategies, RestartStrategyConfiguration)
from pyflink_compat.settings.values import duration_text, from_millis, read_duration, to_millis

__all__ = ["API_RESTART_STRATEGY_KEY", "millis_text", "millis_of", "encode_map", "decode_map",
           "restart_changes", "restart_strategy_of"]

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


def restart_strategy_of(store: Any) -> RestartStrategyConfiguration:
    """The restart strategy configuration an environment reports (see
    :meth:`ExecutionConfig.get_restart_strategy`)."""
    record = store.get_option(API_RESTART_STRATEGY_KEY)
    if record is None:
        return RestartStrategies.fall_back_restart()
    return RestartStrategies._from_flink_options(json.loads(record))
