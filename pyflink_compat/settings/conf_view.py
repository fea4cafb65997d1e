"""This process's view of one Spark session's JVM conf: read once, written through.

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
conf before the conf is next read from there (:meth:`ConfView.refresh`), or when the view is
dropped; what Spark reads, and every setting, is written at the call.
"""

from __future__ import annotations

import json
import logging
import weakref
from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Tuple

from pyflink_compat.util.exceptions import call_java
from pyflink_compat.util.jvm_objects import (
    StringCalls, java_call, java_static, json_text, new_properties)

if TYPE_CHECKING:
    from py4j.java_gateway import JavaObject

__all__ = ["ConfView", "conf_view", "read_all_entries"]


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
        # Held writes (see write): in the copy, not yet in the JVM conf. The finalizer sends
        # them if the view is dropped first (while the interpreter is still running).
        self._held: Dict[str, Optional[str]] = {}
        weakref.finalize(self, _send_held, self.call, self._held).atexit = False

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
        Held writes are sent first.
        """
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
        call each, which costs less than the two calls and the ``Properties`` object that py4j
        later tells the JVM to release.

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
                properties = new_properties(values) if j_sql_conf is not False else None
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


def _send_held(call: StringCalls, held: Dict[str, Optional[str]]) -> None:
    """Send the writes a dropped view still held (a best effort: the JVM may be gone)."""
    try:
        _set_one_by_one(call, held)
    except Exception as e:  # noqa: BLE001 - the JVM stopped first: its conf is gone with it
        logging.getLogger(__name__).debug("Held conf entries %s not sent: %s", sorted(held), e)


def read_all_entries(j_conf: "JavaObject", call: Optional[StringCalls] = None) -> Dict[str, str]:
    """Every entry of a JVM ``RuntimeConfig``, read through its public methods."""
    from pyflink_compat.util.jvm_objects import string_map_to_dict

    try:
        j_map = (call or StringCalls(j_conf))("getAllAsJava")
    except Exception:  # Spark 3.5 has no getAllAsJava on the JVM side
        from pyflink_compat.java_gateway import get_gateway

        converters = get_gateway().jvm.scala.collection.JavaConverters
        j_map = converters.mapAsJavaMapConverter(j_conf.getAll()).asJava()
    return string_map_to_dict(j_map)
