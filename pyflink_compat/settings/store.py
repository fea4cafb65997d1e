"""Settings kept in the JVM conf of an environment's Spark session.

A Flink option ``k`` lives under ``spark.flink.k`` as canonical text; reading parses it, writing
validates first and changes nothing when a value is rejected. Objects that are not Flink options
(the checkpoint storage and state backend set through the API) are kept as JSON under
``spark.flink.object.<name>``, written to the JVM conf before it is next read from there
rather than at the call (nothing but this package reads them). After a change to a setting
Spark reads natively (one whose :attr:`~pyflink_compat.settings.registry.Setting.native` is
true) or to an object, the Spark keys derived from them are written to the same session
conf at once. What those keys are is the translation layer's business: the store is given a
:data:`SparkKeys` function, so that this package never imports :mod:`pyflink_compat.spark`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Mapping, Optional, Tuple, Union


from pyflink_compat.settings.conf_view import ConfView, conf_view
from pyflink_compat.settings.registry import CONF_PREFIX, SETTINGS, JobSettings, Setting
from pyflink_compat.util.exceptions import illegal_argument, java_error
from pyflink_compat.util.jvm_objects import record_json

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["SettingsStore", "SparkKeys", "parse_flink_options", "object_of", "OBJECT_PREFIX"]

#: Conf prefix of the API objects (checkpoint storage, state backend) an environment holds.
OBJECT_PREFIX = CONF_PREFIX + "object."

#: How many derivations of the Spark keys a store keeps (see SettingsStore._derived).
_KEPT_DERIVATIONS = 8

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

    Reads and writes go through the session conf's :class:`~pyflink_compat.settings.conf_view.
    ConfView`: the conf is read once, every write goes to the JVM and to that copy, and
    :meth:`refresh` reads it again (before a job is planned or started).

    :param j_conf: The session's JVM ``RuntimeConfig``.
    :param spark_keys: Derives the native Spark keys written beside the settings.
    """

    def __init__(self, j_conf: "JavaObject", spark_keys: SparkKeys):
        self._j_conf = j_conf
        self._spark_keys = spark_keys
        self._shared: Optional[ConfView] = None
        # The read of the conf (ConfView.reads) the derived keys were last brought in step with.
        self._synced_at = -1
        # Derived Spark keys by the spark.flink.* entries they were derived from (_derived).
        self._derivations: Dict[FrozenSet[Tuple[str, str]], Mapping[str, Optional[str]]] = {}
        # The text of each setting last read and the value it decoded to (see get).
        self._decoded: Dict[str, Tuple[str, Any]] = {}

    @property
    def _view(self) -> ConfView:
        """The view of the session conf, shared with every other store over it (found when
        first needed, so that making a store costs no round trip)."""
        view = self._shared
        if view is None:
            view = self._shared = conf_view(self._j_conf)
        return view

    def get(self, setting: Setting, target: str) -> Any:
        key = setting.conf_key
        text = self._view.get(key)
        if text is None:
            return setting.default
        # Decoding is a function of the text alone, and every value decoded is immutable (a
        # number, text, a flag): the value last decoded for the key serves while its text
        # is the same.
        known = self._decoded.get(key)
        if known is not None and known[0] == text:
            return known[1]
        value = _decode(setting, text, target)
        self._decoded[key] = (text, value)
        return value

    def is_set(self, setting: Setting) -> bool:
        return self._view.get(setting.conf_key) is not None

    def text(self, key: str) -> Optional[str]:
        """The text of the session conf entry ``key`` (a full key), or ``None``."""
        return self._view.get(key)

    def put(self, changes: Mapping[Setting, Any], target: str,
            objects: Optional[Mapping[str, Optional[Mapping[str, Any]]]] = None,
            others: Optional[Mapping[str, Optional[str]]] = None) -> None:
        """Validate every change, then store them all; a rejected change stores nothing.

        :param changes: New setting values (``None`` unsets).
        :param objects: New API objects by name (``None`` removes one).
        :param others: Further conf keys to write with them, by full key (``None`` unsets).

        A setting that names an object in ``discards_object`` removes that object, as
        configuring the storage or backend kind does in Flink. When anything the Spark keys
        derived from the settings depend on changes, they are computed from the conf with the
        changes applied, and those whose value differs from the conf are written too.
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
            writes[OBJECT_PREFIX + name] = None if record is None else _record_text(record)
        writes.update(others or {})
        self._write(writes, bool(objects) or any(s.native for s in changes))

    def _write(self, writes: Dict[str, Optional[str]], derive: bool) -> None:
        """Write ``writes`` (full keys) and, when ``derive`` is true (an entry the derived Spark
        keys may depend on is among them), the derived keys that change with them."""
        view = self._view
        current = view.entries()
        # The records of API objects are read by this package alone: they are held, to reach
        # the JVM conf before it is next read from there (a job planned), not at the call.
        now: Dict[str, Optional[str]] = {}
        held: Dict[str, Optional[str]] = {}
        changes = view.reads != self._synced_at
        for key, text in writes.items():
            (held if key.startswith(OBJECT_PREFIX) else now)[key] = text
            changes = changes or current.get(key) != text
        # The derived keys follow from the spark.flink.* entries alone, and once brought in
        # step with a read of the conf they stay so; they need computing only when an entry
        # they may depend on changes, or when the conf was read again since.
        if derive and changes:
            self._synced_at = view.reads
            after = dict(view.prefixed(CONF_PREFIX))
            for key, text in writes.items():
                if text is None:
                    after.pop(key, None)
                elif key.startswith(CONF_PREFIX):
                    after[key] = text
            for key, text in self._derived(after).items():
                # Derived keys already at their value are left alone; what the caller asked
                # for is written whatever the copy holds.
                if key not in writes and current.get(key) != text:
                    now[key] = text
        view.write(now, held=held)

    def get_object(self, name: str) -> Optional[Dict[str, Any]]:
        text = self._view.get(OBJECT_PREFIX + name)
        return None if text is None else dict(json.loads(text))

    def put_object(self, name: str, record: Union[Mapping[str, Any], str, None]) -> None:
        """Store (or, with ``None``, remove) one API object: its record, or the record's JSON
        text as :func:`~pyflink_compat.util.jvm_objects.record_json` makes it."""
        if record is not None and not isinstance(record, str):
            record = _record_text(record)
        self._write({OBJECT_PREFIX + name: record}, True)

    def raw(self) -> Dict[str, str]:
        """Every ``spark.flink.*`` entry of the session conf, prefix removed."""
        return _flink_entries(self._view.prefixed(CONF_PREFIX))

    def refresh(self) -> None:
        """Read the session conf from the JVM again (entries written to it other than through
        this package since it was last read are then seen)."""
        self._view.refresh()

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

        Reads the session conf afresh. Fallback keys are rewritten to their current key, so
        that later reads find them.
        """
        view = self._view
        view.refresh()
        raw = _flink_entries(view.prefixed(CONF_PREFIX))
        options = {k: v for k, v in raw.items() if not k.startswith("object.")}
        parsed = parse_flink_options(options, target)
        fallbacks: Dict[str, Optional[str]] = {}
        for setting in parsed:
            for key in setting.fallback_keys:
                if key in options:
                    fallbacks[CONF_PREFIX + key] = None
        if parsed:
            self.put(parsed, target, others=fallbacks)
        if self._synced_at != view.reads:  # the put did not derive the Spark keys
            self._sync()

    def sync_spark_conf(self, keys: Optional[Mapping[str, Optional[str]]] = None) -> None:
        """Write the Spark keys derived from the settings into the session conf (those whose
        value differs from the conf as last read).

        :param keys: Those keys, when the caller derived them from the conf as last read (a
            job's plan holds them); derived here when omitted.
        """
        self._sync(keys)

    def _derived(self, flink: Mapping[str, str],
                 known: Optional[Mapping[str, Optional[str]]] = None) -> Mapping[str, Optional[str]]:
        """The Spark keys derived from ``flink``, the ``spark.flink.*`` entries of the conf
        (full keys), or ``known`` when the caller derived them already.

        They are a function of those entries alone, so the last few results are kept by them:
        going back to a configuration seen before (a backend set again after another one)
        decodes nothing. The mapping returned is shared: read it only.
        """
        key = frozenset(flink.items())
        found = self._derivations.get(key)
        if found is None:
            found = known
            if found is None:
                raw = _flink_entries(flink)
                found = self._spark_keys(self.snapshot(raw), object_of(raw, "checkpoint-storage"),
                                         object_of(raw, "state-backend"))
            if len(self._derivations) >= _KEPT_DERIVATIONS:
                self._derivations.clear()
            self._derivations[key] = found
        return found

    def _sync(self, keys: Optional[Mapping[str, Optional[str]]] = None) -> None:
        view = self._view
        entries = view.entries()
        self._synced_at = view.reads
        native = self._derived(view.prefixed(CONF_PREFIX), keys)
        view.write({key: text for key, text in native.items() if entries.get(key) != text})


def object_of(raw: Mapping[str, str], name: str) -> Optional[Dict[str, Any]]:
    """The API object ``name`` in entries read with :meth:`SettingsStore.raw`."""
    text = raw.get(OBJECT_PREFIX[len(CONF_PREFIX):] + name)
    return None if text is None else dict(json.loads(text))


def _flink_entries(entries: Mapping[str, str]) -> Dict[str, str]:
    return {k[len(CONF_PREFIX):]: v for k, v in entries.items() if k.startswith(CONF_PREFIX)}


# The JSON text of the records stored lately, by their repr (which tells apart every value a
# record holds: True from 1, a list from a tuple), so that storing one again encodes nothing.
_texts: Dict[str, str] = {}
_KEPT_TEXTS = 16


def _record_text(record: Mapping[str, Any]) -> str:
    """The JSON text a record of an API object is stored as."""
    key = repr(record)
    text = _texts.get(key)
    if text is None:
        text = record_json(record)
        if len(_texts) >= _KEPT_TEXTS:
            _texts.clear()
        _texts[key] = text
    return text
