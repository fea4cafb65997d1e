"""The settings of an environment, kept in its Spark session's JVM conf, and this process's
write-through copy of that conf.

A Flink option ``k`` lives under ``spark.flink.k`` as canonical text; reading parses it, writing
validates first and changes nothing when a value is rejected. Objects that are not Flink options
(the checkpoint storage and state backend set through the API) are kept as JSON under
``spark.flink.object.<name>``, written to the JVM conf before it is next read from there
rather than at the call (nothing but this package reads them). After a change to a setting
Spark reads natively (one whose :attr:`~pyflink_compat.settings.registry.Setting.native` is
true) or to an object, the Spark keys derived from them are written to the same session
conf at once. What those keys are is the translation layer's business: the store is given a
:data:`SparkKeys` function, so that this package never imports :mod:`pyflink_compat.spark`.

The session's JVM conf is the one store of an environment's settings: ``spark-submit --conf``
fills it, and planning or starting a job reads it. Reading it on every getter would make every
getter a JVM round trip, so a :class:`ConfView` keeps a copy of its entries in Python:

* the copy is read from the JVM in one round trip when first needed, and again whenever
  :meth:`ConfView.refresh` is called (an environment does so when it plans or starts a job);
* every write made through the view goes to the JVM first and then to the copy, so the copy
  never holds a value the JVM does not; a write the JVM rejects, or that fails half way, drops
  the copy, and the next read fetches the conf again;
* all the API objects over one session conf (the environment, its checkpoint and execution
  configs, a ``CheckpointConfig`` built on the conf directly) share one view
  (:func:`conf_view`), so none of them can miss a change another made.

What the copy cannot see is an entry written to the session conf some other way after it was
read (``spark.conf.set`` or SQL ``SET`` on the environment's session): such an entry is picked
up at the next refresh, that is when the next job is planned or started, which is also when
it first affects what Spark does.

One kind of write may wait: an entry that only this package reads and that nobody sets by
hand (the records of the API objects an environment holds, ``spark.flink.object.*``) can be
*held* (:meth:`ConfView.write` with ``held``). It is in the copy at once and reaches the JVM
conf before the conf is next read from there (:meth:`ConfView.refresh`); a dropped view's held
entries are sent before this module next reads a conf or opens a view. What Spark reads, and
every setting, is written at the call.
"""

from __future__ import annotations

import json
import logging
import queue
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Mapping, Optional, Tuple, Union

from pyflink_compat.settings.registry import CONF_PREFIX, SETTINGS, JobSettings, Setting
from pyflink_compat.util.exceptions import call_java, illegal_argument, java_error
from pyflink_compat.util.descriptors import record_json
from pyflink_compat.util.java_classes import java_static
from pyflink_compat.util.java_json import json_text, read_json
from pyflink_compat.util.java_maps import string_map_to_dict
from pyflink_compat.util.py4j_calls import StringCalls, java_call

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["SettingsStore", "SparkKeys", "parse_flink_options", "object_of", "OBJECT_PREFIX",
           "ConfView", "conf_view", "read_all_entries",
           "store_of"]

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


def store_of(owner: Any) -> "SettingsStore":
    """The settings store behind an API object (an environment or a checkpoint config): the
    one way for tools and tests to read what the API wrote, beyond PyFlink's getters."""
    store: SettingsStore = owner._store
    return store


class SettingsStore:
    """The settings of one environment, held in its Spark session's JVM ``RuntimeConfig``.

    Reads and writes go through the session conf's :class:`ConfView`: the conf is read once,
    every write goes to the JVM and to that copy, and :meth:`refresh` reads it again (before a
    job is planned or started).

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
    def view(self) -> ConfView:
        """This process's copy of the session conf, shared with every other store over it
        (found when first needed, so that making a store costs no round trip)."""
        view = self._shared
        if view is None:
            view = self._shared = conf_view(self._j_conf)
        return view

    def get(self, setting: Setting, target: str) -> Any:
        key = setting.conf_key
        text = self.view.get(key)
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
        return self.view.get(setting.conf_key) is not None

    def text(self, key: str) -> Optional[str]:
        """The text of the session conf entry ``key`` (a full key), or ``None``."""
        return self.view.get(key)

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
        view = self.view
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
        text = self.view.get(OBJECT_PREFIX + name)
        return None if text is None else dict(json.loads(text))

    def put_object(self, name: str, record: Union[Mapping[str, Any], str, None]) -> None:
        """Store (or, with ``None``, remove) one API object: its record, or the record's JSON
        text as :func:`~pyflink_compat.util.descriptors.record_json` makes it."""
        if record is not None and not isinstance(record, str):
            record = _record_text(record)
        self._write({OBJECT_PREFIX + name: record}, True)

    def raw(self) -> Dict[str, str]:
        """Every ``spark.flink.*`` entry of the session conf, prefix removed."""
        return _flink_entries(self.view.prefixed(CONF_PREFIX))

    def refresh(self) -> None:
        """Read the session conf from the JVM again (entries written to it other than through
        this package since it was last read are then seen)."""
        self.view.refresh()

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
        view = self.view
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
        view = self.view
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


# -- this process's copy of the session conf ----------------------------------------------------
class ConfView:
    """The entries of one session's JVM ``RuntimeConfig``, as last read or written here.

    :param j_conf: The session's JVM ``RuntimeConfig``.
    """

    def __init__(self, j_conf: "JavaObject"):
        self.j_conf = j_conf
        # Reads and writes of single keys: strings only, so sent without py4j's converters.
        self.call = StringCalls(j_conf)
        # The session's JVM SQLConf behind the RuntimeConfig and the map it keeps its entries
        # in, looked up when first needed (False: this Spark does not expose them).
        self._j_sql_conf: Any = None
        self._j_settings: Any = None
        self._entries: Optional[Dict[str, str]] = None
        # The entries under a key prefix, by prefix (see prefixed), kept in step with _entries.
        self._prefixed: Dict[str, Dict[str, str]] = {}
        #: How many times the conf has been read from the JVM.
        self.reads = 0
        # Held writes (see write): in the copy, not yet in the JVM conf. If the view is dropped
        # first (while the interpreter is still running), its finalizer passes them on to be
        # sent before this module next reads the conf or opens a view (see _send_dropped).
        self._held: Dict[str, Optional[str]] = {}
        weakref.finalize(self, _dropped_writes.put, (self.call, self._held)).atexit = False

    # -- reading ------------------------------------------------------------------------------
    def entries(self) -> Mapping[str, str]:
        """Every entry of the conf (read from the JVM only if there is no copy yet)."""
        entries = self._entries
        if entries is None:
            entries = self.refresh()
        return entries

    def get(self, key: str) -> Optional[str]:
        """The text of ``key``, or ``None`` when it is not set."""
        return self.entries().get(key)

    def prefixed(self, prefix: str) -> Mapping[str, str]:
        """The entries whose key starts with ``prefix`` (full keys). Found once per read of
        the conf and kept in step with the writes made here; read it only."""
        found = self._prefixed.get(prefix)
        if found is None:
            entries = self.entries()
            found = self._prefixed[prefix] = {
                k: v for k, v in entries.items() if k.startswith(prefix)}
        return found

    def refresh(self) -> Dict[str, str]:
        """Read every entry from the JVM conf again and keep them as the copy.

        One round trip where this Spark exposes the session's ``SQLConf``: the JSON text of the
        map it keeps its entries in, written in the JVM. Elsewhere through ``RuntimeConfig``.
        Held writes, this view's and those of dropped views, are sent first.
        """
        _send_dropped()
        self.send_held()
        self._forget()
        entries: Optional[Dict[str, str]] = None
        j_settings = self.settings_map()
        if j_settings is not False:
            text = json_text(j_settings, strings_only=True)  # SQLConf keeps strings
            if text is not None:
                found = json.loads(text)
                if isinstance(found, dict) and all(isinstance(v, str) for v in found.values()):
                    entries = found
        if entries is None:
            entries = call_java("RuntimeConfig.getAll", read_all_entries, self.j_conf, self.call)
        self._entries = entries
        self.reads += 1
        return entries

    # -- writing ------------------------------------------------------------------------------
    def write(self, writes: Mapping[str, Optional[str]],
              held: Optional[Mapping[str, Optional[str]]] = None) -> None:
        """Set (``None``: unset) several keys in the JVM conf, then in the copy.

        Four or more values are set in two round trips: Jackson reads them from JSON text as
        a ``java.util.Properties``, which the session's ``SQLConf`` sets at once (the same
        ``setConfString`` per key that ``RuntimeConfig.set`` ends in; the checks it adds
        before, against static and Spark core keys, never apply to the keys written here:
        ``spark.flink.*`` and the session-wide SQL keys derived from them). Fewer are set one
        call each: no more calls than that, and no ``Properties`` object for py4j to release.

        :param writes: The keys to set in the JVM conf now.
        :param held: Further keys set in the copy at once and in the JVM conf before it is next
            read (see the module's description); only for entries that nothing but this
            package reads. A key written later without being held replaces its held value.
        :raises Py4JJavaError: When the JVM rejects a value; the copy is then dropped, since
            some keys may have been written.
        """
        if writes:
            if self._held:
                for key in writes:
                    self._held.pop(key, None)
            self._write_jvm(writes)
        entries = self._entries
        if held:
            if entries is None:
                entries = self.refresh()  # a held write needs the copy, which it is kept in
            self._held.update(held)
            self._apply(entries, held)
        if entries is not None and writes:
            self._apply(entries, writes)

    def _apply(self, entries: Dict[str, str], changed: Mapping[str, Optional[str]]) -> None:
        """Bring the copy ``entries`` and its indexes by prefix in step with ``changed``."""
        indexes = self._prefixed.items()
        for key, text in changed.items():
            if text is None:
                entries.pop(key, None)
            else:
                entries[key] = text
            for prefix, found in indexes:
                if key.startswith(prefix):
                    if text is None:
                        found.pop(key, None)
                    else:
                        found[key] = text

    def send_held(self) -> None:
        """Write the held writes to the JVM conf (see :meth:`write`)."""
        if self._held:
            writes = dict(self._held)
            self._held.clear()
            self._write_jvm(writes)

    def _write_jvm(self, writes: Mapping[str, Optional[str]]) -> None:
        """Set ``writes`` in the JVM conf; when that fails, drop the copy (some keys may have
        been written) and raise."""
        try:
            if len(writes) > 3:
                values = {k: v for k, v in writes.items() if v is not None}
                j_sql_conf = self.sql_conf() if len(values) > 3 else False
                properties = read_json(json.dumps(values), "java.util.Properties") if j_sql_conf is not False else None
                if properties is not None:
                    call_java("SQLConf.setConf", java_call, j_sql_conf, "setConf", properties)
                    writes = {k: v for k, v in writes.items() if v is None}
            _set_one_by_one(self.call, writes)
        except BaseException:
            self._forget()
            raise

    def _forget(self) -> None:
        """Drop the copy: the next read fetches the conf from the JVM."""
        self._entries = None
        self._prefixed.clear()

    # -- JVM handles --------------------------------------------------------------------------
    def sql_conf(self) -> Any:
        """The session's JVM ``SQLConf``, or ``False`` where ``RuntimeConfig`` hides it."""
        if self._j_sql_conf is None:
            try:
                self._j_sql_conf = self.call("sqlConf")
            except Exception:  # Spark 3.5's RuntimeConfig does not expose it
                self._j_sql_conf = False
        return self._j_sql_conf

    def settings_map(self) -> Any:
        """The JVM map the session's ``SQLConf`` keeps its entries in (the conf itself, not
        a copy), or ``False`` when this Spark does not expose it."""
        if self._j_settings is None:
            j_sql_conf = self.sql_conf()
            self._j_settings = False
            if j_sql_conf is not False:
                try:
                    self._j_settings = java_call(j_sql_conf, "settings")
                except Exception:  # an internal of SQLConf: absent from some Spark version
                    self._j_settings = False
        return self._j_settings

    def hides_sql_conf(self) -> None:
        """Use only ``RuntimeConfig``, as on a Spark that does not expose its ``SQLConf``."""
        self._j_sql_conf = self._j_settings = False


# One view per session conf of the current gateway, found by the JVM object's identity hash.
_views: "weakref.WeakValueDictionary[Tuple[int, int], ConfView]" = weakref.WeakValueDictionary()


def conf_view(j_conf: "JavaObject") -> ConfView:
    """The view shared by every API object over the session conf ``j_conf``.

    One round trip (the conf's identity hash), two when a view of a conf with that hash
    already exists (its identity is then checked).
    """
    _send_dropped()
    client = j_conf._gateway_client
    identity = int(java_static("java.lang.System", "identityHashCode")(j_conf))
    key = (id(client), identity)
    view = _views.get(key)
    if view is not None and view.j_conf._gateway_client is client and (
            view.j_conf is j_conf or bool(java_call(view.j_conf, "equals", j_conf))):
        return view
    view = ConfView(j_conf)
    _views[key] = view
    return view


def _set_one_by_one(call: StringCalls, writes: Mapping[str, Optional[str]]) -> None:
    """Set (``None``: unset) each key of ``writes`` with a ``RuntimeConfig`` call of its own."""
    for key, text in writes.items():
        if text is None:
            call("unset", key)
        else:
            call("set", key, text)


# The held writes of dropped views. A view's finalizer runs wherever the cyclic collector
# happens to run, which may be inside a py4j call of the same thread, while it waits for the
# JVM's answer: a call made there would read from the same connection and break the one it
# interrupted. So the finalizer only queues them (``SimpleQueue.put`` may be called from a
# finalizer) and they are sent at the next read or view, outside any py4j call.
_dropped_writes: "queue.SimpleQueue[Tuple[StringCalls, Dict[str, Optional[str]]]]" = (
    queue.SimpleQueue())


def _send_dropped() -> None:
    """Send the writes that dropped views still held (a best effort: the JVM may be gone)."""
    while True:
        try:
            call, held = _dropped_writes.get_nowait()
        except queue.Empty:
            return
        if held:
            try:
                _set_one_by_one(call, held)
            except Exception as e:  # that session's JVM stopped first: its conf is gone with it
                logging.getLogger(__name__).debug("Held conf entries %s not sent: %s",
                                                  sorted(held), e)


def read_all_entries(j_conf: "JavaObject", call: Optional[StringCalls] = None) -> Dict[str, str]:
    """Every entry of a JVM ``RuntimeConfig``, read through its public methods (after the
    writes that dropped views held)."""
    _send_dropped()
    try:
        j_map = (call or StringCalls(j_conf))("getAllAsJava")
    except Exception:  # Spark 3.5 has no getAllAsJava on the JVM side
        from pyflink_compat.java_gateway import get_gateway

        converters = get_gateway().jvm.scala.collection.JavaConverters
        j_map = converters.mapAsJavaMapConverter(j_conf.getAll()).asJava()
    return string_map_to_dict(j_map)
