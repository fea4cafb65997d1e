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
from pyflink_compat.util.jvm_objects import StringCalls, java_call, json_text, new_properties

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
        # The session's JVM SQLConf, behind the RuntimeConfig, which sets several keys in one
        # call; looked up when first needed (False: this Spark does not expose it).
        self._j_sql_conf: Any = None
        self._j_settings: Any = None

    def _write(self, key: str, text: Optional[str]) -> None:
        if text is None:
            self._call("unset", key)
        else:
            self._call("set", key, text)

    def _write_all(self, writes: Mapping[str, Optional[str]]) -> None:
        """Write several keys (``None``: unset) with as few JVM round trips as possible.

        Three or more values are set in two round trips: Jackson reads them from JSON text as
        a ``java.util.Properties``, which the session's ``SQLConf`` sets at once (the same
        ``setConfString`` per key that ``RuntimeConfig.set`` ends in; the checks it adds
        before, against static and Spark core keys, never apply to the keys written here:
        ``spark.flink.*`` and the session-wide SQL keys derived from them).
        """
        values = {k: v for k, v in writes.items() if v is not None}
        j_sql_conf = self._sql_conf() if len(values) > 2 else False
        if j_sql_conf is not False:
            properties = new_properties(values)
            if properties is not None:
                call_java("SQLConf.setConf", java_call, j_sql_conf, "setConf", properties)
                values = {}
        for key, text in writes.items():
            if text is None or key in values:
                self._write(key, text)

    def _sql_conf(self) -> Any:
        if self._j_sql_conf is None:
            try:
                self._j_sql_conf = self._call("sqlConf")
            except Exception:  # Spark 3.5's RuntimeConfig does not expose it
                self._j_sql_conf = False
        return self._j_sql_conf

    def _settings_map(self) -> Any:
        """The JVM map the session's ``SQLConf`` keeps its entries in (the conf itself, not
        a copy), or ``False`` when this Spark does not expose it."""
        if self._j_settings is None:
            j_sql_conf = self._sql_conf()
            self._j_settings = False
            if j_sql_conf is not False:
                try:
                    self._j_settings = java_call(j_sql_conf, "settings")
                except Exception:  # an internal of SQLConf: absent from some Spark version
                    self._j_settings = False
        return self._j_settings

    def get(self, setting: Setting, target: str) -> Any:
        text = self._call("get", setting.conf_key, None)
        return setting.default if text is None else _decode(setting, text, target)

    def is_set(self, setting: Setting) -> bool:
        return bool(self._call("contains", setting.conf_key))

    def put(self, changes: Mapping[Setting, Any], target: str,
            objects: Optional[Mapping[str, Optional[Mapping[str, Any]]]] = None,
            others: Optional[Mapping[str, Optional[str]]] = None,
            entries: Optional[Mapping[str, str]] = None) -> None:
        """Validate every change, then store them all; a rejected change stores nothing.

        :param changes: New setting values (``None`` unsets).
        :param objects: New API objects by name (``None`` removes one).
        :param others: Further conf keys to write with them, by full key (``None`` unsets).
        :param entries: The whole conf, just read by the caller (see :meth:`_entries`); the
            derived keys are then brought up to date whatever changed.

        A setting that names an object in ``discards_object`` removes that object, as
        configuring the storage or backend kind does in Flink. When anything the Spark keys
        derived from the settings depend on changes, the whole conf is read once (before
        writing), the derived keys are computed from it with the changes applied, and only
        the keys whose value differs are written, together with the changes.
        """
        for setting, value in changes.items():
            _reject(setting, value, target)
        objects = dict(objects or {})
        for setting in changes:
            if setting.discards_object is not None:
                objects[setting.discards_object] = None
        writes: Dict[str, Optional[str]] = {}
        for setting, value in changes.items():
            writes[setting.conf_key] = None if value is None else setting.codec.encode(value)
        for name, record in objects.items():
            writes[OBJECT_PREFIX + name] = (None if record is None
                                            else json.dumps(dict(record), sort_keys=True))
        writes.update(others or {})
        if entries is not None or objects or any(s.native for s in changes):
            # A snapshot of the conf for this call only: the writes are computed from it.
            current = dict(self._entries() if entries is None else entries)
            after = dict(current)
            for key, text in writes.items():
                if text is None:
                    after.pop(key, None)
                else:
                    after[key] = text
            writes.update(self._derived(after))
            writes = {k: v for k, v in writes.items() if current.get(k) != v}
        self._write_all(writes)

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
        """Every entry set in the session conf, read at once.

        One JVM round trip: the ``SQLConf``'s own map of entries, written as JSON text in the
        JVM. Where that map is not reachable (or changed while being written), through
        ``RuntimeConfig`` (on Spark 4 two round trips: ``getAllAsJava`` and its JSON text).
        """
        j_settings = self._settings_map()
        if j_settings is not False:
            text = json_text(j_settings)
            if text is not None:
                entries = json.loads(text)
                if isinstance(entries, dict) and all(isinstance(v, str) for v in entries.values()):
                    return entries
        return call_java("RuntimeConfig.getAll", _all_entries, self._j_conf, self._call)

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
        fallbacks: Dict[str, Optional[str]] = {}
        for setting in parsed:
            for key in setting.fallback_keys:
                if key in options:
                    fallbacks[CONF_PREFIX + key] = None
        if parsed:
            self.put(parsed, target, others=fallbacks, entries=entries)
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

    def _derived(self, entries: Mapping[str, str]) -> Mapping[str, Optional[str]]:
        """The Spark keys derived from ``entries`` (the whole conf)."""
        raw = _flink_entries(entries)
        return self._spark_keys(self.snapshot(raw), object_of(raw, "checkpoint-storage"),
                                object_of(raw, "state-backend"))

    def _sync(self, entries: Mapping[str, str], write_all: bool = False) -> None:
        """Derive the Spark keys from ``entries`` (the whole conf, just read) and write the
        ones whose value differs from it (all of them with ``write_all``)."""
        native = self._derived(entries)
        self._write_all({key: text for key, text in native.items()
                         if write_all or entries.get(key) != text})


def object_of(raw: Mapping[str, str], name: str) -> Optional[Dict[str, Any]]:
    """The API object ``name`` in entries read with :meth:`SettingsStore.raw`."""
    text = raw.get(OBJECT_PREFIX[len(CONF_PREFIX):] + name)
    return None if text is None else dict(json.loads(text))


def _flink_entries(entries: Mapping[str, str]) -> Dict[str, str]:
    return {k[len(CONF_PREFIX):]: v for k, v in entries.items() if k.startswith(CONF_PREFIX)}


def _all_entries(j_conf: "JavaObject", call: Optional[StringCalls] = None) -> Dict[str, str]:
    from pyflink_compat.util.jvm_objects import string_map_to_dict

    try:
        j_map = (call or StringCalls(j_conf))("getAllAsJava")
    except Exception:  # Spark 3.5 has no getAllAsJava on the JVM side
        from pyflink_compat.java_gateway import get_gateway

        converters = get_gateway().jvm.scala.collection.JavaConverters
        j_map = converters.mapAsJavaMapConverter(j_conf.getAll()).asJava()
    return string_map_to_dict(j_map)

