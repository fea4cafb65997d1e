"""Settings kept in the JVM conf of an environment's Spark session.

A Flink option ``k`` lives under ``spark.flink.k`` as canonical text; reading parses it, writing
validates first and changes nothing when a value is rejected. Objects that are not Flink options
(the checkpoint storage and state backend set through the API) are kept as JSON under
``spark.flink.object.<name>``. After a change to a setting Spark reads natively (one whose
:attr:`~pyflink_compat.settings.registry.Setting.native` is true) or to an object, the Spark
keys derived from them are written to the same session conf. What those keys are is the
translation layer's business: the store is given a :data:`SparkKeys` function, so that this
package never imports :mod:`pyflink_compat.spark`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Dict, Mapping, Optional


from pyflink_compat.settings.registry import CONF_PREFIX, SETTINGS, JobSettings, Setting
from pyflink_compat.util.exceptions import call_java, illegal_argument, java_error
from pyflink_compat.util.jvm_objects import StringCalls

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["SettingsStore", "SparkKeys", "parse_flink_options", "object_of", "OBJECT_PREFIX"]

#: Conf prefix of the API objects (checkpoint storage, state backend) an environment holds.
OBJECT_PREFIX = CONF_PREFIX + "object."

#: The Spark session keys that follow from a settings snapshot, the checkpoint storage record
#: and the state backend record (``None`` as a value: unset the key).
SparkKeys = Callable[[JobSettings, Optional[Dict[str, Any]], Optional[Dict[str, Any]]],
                     Mapping[str, Optional[str]]]


def _parse(setting: Setting, key: str, text: str, target: str) -> Any:
    try:
        return setting.codec.parse(text)
    except (ValueError, TypeError):
        raise illegal_argument("Could not parse value '{}' for key '{}'.".format(text, key), target) from None


def _decode(setting: Setting, text: str, target: str) -> Any:
    try:
        return setting.codec.decode(text)
    except (ValueError, TypeError):
        raise illegal_argument(
            "Could not parse value '{}' for key '{}'.".format(text, setting.key), target
        ) from None


def _reject(setting: Setting, value: Any, target: str) -> None:
    """Raise PyFlink's error when ``value`` is out of range for ``setting``."""
    rejection = setting.rejection(value)
    if rejection is not None:
        raise java_error(rejection[0], rejection[1], target)


def parse_flink_options(options: Mapping[str, str], target: str) -> Dict[Setting, Any]:
    """Read every setting present in ``options`` (Flink keys, fallbacks honoured).

    :raises Py4JJavaError: (a :class:`JavaIllegalArgumentError` or, for a duration too long
        to count in milliseconds, a :class:`JavaArithmeticError`) when a value cannot be parsed
        or is out of range; in that case nothing has been read.
    """
    found: Dict[Setting, Any] = {}
    for setting in SETTINGS:
        for key in setting.all_keys:
            if key in options:
                # Flink names the option's own key, whichever key held the value.
                value = _parse(setting, setting.key, str(options[key]), target)
                _reject(setting, value, target)
                found[setting] = value
                break
    return found


class SettingsStore:
    """The settings of one environment, held in its Spark session's JVM ``RuntimeConfig``.

    :param j_conf: The session's JVM ``RuntimeConfig``.
    :param spark_keys: Derives the native Spark keys written beside the settings.
    """

    def __init__(self, j_conf: "JavaObject", spark_keys: SparkKeys):
        self._j_conf = j_conf
        self._spark_keys = spark_keys
        # Reads and writes of single keys: strings only, so sent without py4j's converters.
        self._call = StringCalls(j_conf)

    def _write(self, key: str, text: Optional[str]) -> None:
        if text is None:
            self._call("unset", key)
        else:
            self._call("set", key, text)

    def get(self, setting: Setting, target: str) -> Any:
        text = self._call("get", setting.conf_key, None)
        return setting.default if text is None else _decode(setting, text, target)

    def is_set(self, setting: Setting) -> bool:
        return bool(self._call("contains", setting.conf_key))

    def put(self, changes: Mapping[Setting, Any], target: str,
            objects: Optional[Mapping[str, Optional[Mapping[str, Any]]]] = None) -> None:
        """Validate every change, then store them all; a rejected change stores nothing.

        :param changes: New setting values (``None`` unsets).
        :param objects: New API objects by name (``None`` removes one).

        A setting that names an object in ``discards_object`` removes that object, as
        configuring the storage or backend kind does in Flink. The Spark keys derived from
        the settings are rewritten once, when anything they depend on changed.
        """
        for setting, value in changes.items():
            _reject(setting, value, target)
        objects = dict(objects or {})
        for setting in changes:
            if setting.discards_object is not None:
                objects[setting.discards_object] = None
        for setting, value in changes.items():
            self._write(setting.conf_key, None if value is None else setting.codec.encode(value))
        for name, record in objects.items():
            self._write(OBJECT_PREFIX + name,
                        None if record is None else json.dumps(dict(record), sort_keys=True))
        if objects or any(s.native for s in changes):
            self.sync_spark_conf()

    def get_object(self, name: str) -> Optional[Dict[str, Any]]:
        text = self._call("get", OBJECT_PREFIX + name, None)
        return None if text is None else dict(json.loads(text))

    def put_object(self, name: str, record: Optional[Mapping[str, Any]]) -> None:
        """Store (or, with ``None``, remove) one API object."""
        self.put({}, "", objects={name: record})

    def raw(self) -> Dict[str, str]:
        """Every ``spark.flink.*`` entry of the session conf, prefix removed."""
        return _flink_entries(self._entries())

    def _entries(self) -> Dict[str, str]:
        """Every entry set in the session conf (one read of the whole conf)."""
        return call_java("RuntimeConfig.getAll", _all_entries, self._j_conf)

    def snapshot(self, raw: Optional[Mapping[str, str]] = None,
                 target: str = "StreamExecutionEnvironment") -> JobSettings:
        """The settings in force, as an immutable :class:`JobSettings`.

        :param raw: Entries already read with :meth:`raw`; read afresh when omitted.
        """
        if raw is None:
            raw = self.raw()
        found = {}
        for setting in SETTINGS:
            if setting.key in raw:
                found[setting.name] = _decode(setting, raw[setting.key], target)
        return JobSettings(**found)

    def adopt_session_options(self, target: str) -> None:
        """Validate ``spark.flink.*`` options given to the session (``spark-submit --conf``).

        Fallback keys are rewritten to their current key, so that later reads find them.
        """
        entries = self._entries()
        raw = _flink_entries(entries)
        options = {k: v for k, v in raw.items() if not k.startswith("object.")}
        parsed = parse_flink_options(options, target)
        for setting in parsed:
            for key in setting.fallback_keys:
                if key in options:
                    self._write(CONF_PREFIX + key, None)
        if parsed:
            self.put(parsed, target)
        else:
            self._sync(entries)

    def sync_spark_conf(self, raw: Optional[Mapping[str, str]] = None) -> None:
        """Write the Spark keys derived from the settings into the session conf.

        :param raw: Entries already read with :meth:`raw`; then every derived key is written.
            When omitted, the whole conf is read and only the keys that differ are written.
        """
        if raw is None:
            self._sync(self._entries())
        else:
            self._sync({CONF_PREFIX + k: v for k, v in raw.items()}, write_all=True)

    def _sync(self, entries: Mapping[str, str], write_all: bool = False) -> None:
        """Derive the Spark keys from ``entries`` (the whole conf, just read) and write the
        ones whose value differs from it (all of them with ``write_all``)."""
        raw = _flink_entries(entries)
        native = self._spark_keys(self.snapshot(raw), object_of(raw, "checkpoint-storage"),
                                  object_of(raw, "state-backend"))
        for key, text in native.items():
            if write_all or entries.get(key) != text:
                self._write(key, text)


def object_of(raw: Mapping[str, str], name: str) -> Optional[Dict[str, Any]]:
    """The API object ``name`` in entries read with :meth:`SettingsStore.raw`."""
    text = raw.get(OBJECT_PREFIX[len(CONF_PREFIX):] + name)
    return None if text is None else dict(json.loads(text))


def _flink_entries(entries: Mapping[str, str]) -> Dict[str, str]:
    return {k[len(CONF_PREFIX):]: v for k, v in entries.items() if k.startswith(CONF_PREFIX)}


def _all_entries(j_conf: "JavaObject") -> Dict[str, str]:
    from pyflink_compat.util.jvm_objects import string_map_to_dict

    try:
        j_map = j_conf.getAllAsJava()
    except Exception:  # Spark 3.5 has no getAllAsJava on the JVM side
        from pyflink_compat.java_gateway import get_gateway

        converters = get_gateway().jvm.scala.collection.JavaConverters
        j_map = converters.mapAsJavaMapConverter(j_conf.getAll()).asJava()
    return string_map_to_dict(j_map)

