"""A stream connected with a broadcast stream, as one keyed function in ``transformWithState``.

Flink hands every broadcast record to every parallel instance, each keeping its own copy of the
broadcast state. Here the records of the other input keep their keys (one constant key when
that input is not keyed) and every broadcast record is copied once per state partition of the
keyed operator, under a reserved key of that partition (:func:`reserved_keys`: keys that
Spark's hash partitioning sends there, found once on the driver). The broadcast state of a
partition is a state variable of its reserved key, one per descriptor. Reserved keys sort
before every pickled key and Spark hands a partition's keys to the processor in key order,
so within a micro-batch the broadcast records are applied before the other input's records
(a registered divergence: Flink interleaves the two inputs as they arrive). The other keys of
the partition read the broadcast state once per micro-batch, switching the state server's
current key to the reserved one for the read (:mod:`~pyflink_compat.spark.implicit_key`, the
one use of a private PySpark API).

Restored at another number of state partitions, each new partition starts with a copy of the
saved broadcast state, as each new parallel instance of Flink does: partition ``i`` takes the
copy of saved partition ``i`` modulo the saved number (Flink's round robin). The copies are read
from the savepoint or checkpoint when the job starts
(:func:`pyflink_compat.checkpoints.state_reader.read_broadcast_state`) and given to the tasks
as the local property :data:`SEED_PROPERTY` (:func:`seed_text`); the processor's ``init``
writes a partition's copy under its reserved key unless a broadcast state is stored there
already, and drops the saved reserved keys that Spark's rescaling moved into the partition.
"""

from __future__ import annotations

import base64
from typing import Any, Dict, Iterator, List, Optional, Tuple

from pyflink_compat.datastream.functions import (
    BroadcastProcessFunction, KeyedBroadcastProcessFunction, KeyedProcessFunction, RuntimeContext)
from pyflink_compat.datastream.state import BroadcastState, ReadOnlyBroadcastState
from pyflink_compat.runtime.records import LONG_MIN, dumps, loads

__all__ = ["BroadcastFunction", "BroadcastSideKeys", "reserved_keys", "spark_partition", "RESERVED_PREFIX",
           "SEED_PROPERTY", "STATE_PREFIX", "seed_text", "read_seed", "spread"]

#: The first byte of reserved keys: after the end-of-input key, before every pickle.
RESERVED_PREFIX = b"\x00"

#: What the state variable of a broadcast state is named: this prefix and the descriptor's name.
STATE_PREFIX = "b_"

#: The Spark property (a session setting when the query starts, so a local property of its
#: tasks) holding the saved broadcast state that a rescaled restore seeds the partitions with.
SEED_PROPERTY = "spark.pyflink_compat.broadcast.seed"

#: The saved copies of one broadcast function: one per saved state partition, each a stored
#: state by descriptor name.
Copies = List[Dict[str, bytes]]

_MASK = 0xFFFFFFFF


def _rotl(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (32 - bits))) & _MASK


def _mix(h1: int, k1: int) -> int:
    k1 = _rotl((k1 * 0xCC9E2D51) & _MASK, 15)
    h1 ^= (k1 * 0x1B873593) & _MASK
    return (_rotl(h1, 13) * 5 + 0xE6546B64) & _MASK


def spark_partition(data: bytes, partitions: int) -> int:
    """The partition Spark's hash partitioning of a binary column gives ``data``:
    ``pmod(hash(k), partitions)``, Murmur3 (x86, 32 bits, seed 42) over the bytes, four at a
    time and then each byte left over on its own, as Spark hashes binary values."""
    h1 = 42
    aligned = len(data) - len(data) % 4
    for i in range(0, aligned, 4):
        h1 = _mix(h1, int.from_bytes(data[i:i + 4], "little"))
    for i in range(aligned, len(data)):
        byte = data[i]
        h1 = _mix(h1, (byte - 256 if byte > 127 else byte) & _MASK)
    h1 ^= len(data)
    h1 ^= h1 >> 16
    h1 = (h1 * 0x85EBCA6B) & _MASK
    h1 ^= h1 >> 13
    h1 = (h1 * 0xC2B2AE35) & _MASK
    h1 ^= h1 >> 16
    signed = h1 - (1 << 32) if h1 & 0x80000000 else h1
    return signed % partitions


def reserved_keys(partitions: int) -> List[bytes]:
    """One key per state partition, the ``i``-th placed in partition ``i`` by Spark's hash
    partitioning (the partitioning of ``groupBy(k)``)."""
    found: Dict[int, bytes] = {}
    n = 0
    while len(found) < partitions:
        candidate = RESERVED_PREFIX + b"broadcast-%d" % n
        found.setdefault(spark_partition(candidate, partitions), candidate)
        n += 1
    return [found[i] for i in range(partitions)]


def saved_copies(stored: Dict[str, Dict[bytes, bytes]], partitions: int) -> Copies:
    """The copy of each of ``partitions`` saved state partitions, from one broadcast function's
    stored states (bytes by grouping key, per descriptor name, as
    :func:`~pyflink_compat.checkpoints.state_reader.read_broadcast_state` reads them)."""
    return [{name: entries[key] for name, entries in sorted(stored.items()) if key in entries}
            for key in reserved_keys(partitions)]


def seed_text(seeds: Dict[Tuple[str, ...], Copies], stale: List[bytes]) -> str:
    """The value of :data:`SEED_PROPERTY`: the saved copies by the function's descriptor names,
    and the reserved keys of the saved state that the new partitions do not use (each
    partition drops those placed in it)."""
    return base64.b64encode(dumps((seeds, sorted(stale)))).decode("ascii")


def read_seed(text: Optional[str]) -> Tuple[Dict[Tuple[str, ...], Copies], List[bytes]]:
    """The saved copies and the unused reserved keys given in :data:`SEED_PROPERTY` (none when
    it is not set)."""
    if not text:
        return {}, []
    seeds, stale = loads(base64.b64decode(text))
    return seeds, stale


def spread(copies: Copies, partitions: int) -> Copies:
    """The copy each of ``partitions`` state partitions starts with: partition ``i`` takes
    saved copy ``i`` modulo their number (Flink's round robin)."""
    return [copies[i % len(copies)] for i in range(partitions)] if copies else []


class BroadcastSideKeys(object):
    """The ``replicate`` operator of the broadcast input: each record once per reserved key."""

    def __init__(self, keys: List[bytes]):
        self.keys = keys


class _StateView(BroadcastState):
    """One descriptor's broadcast state of this partition, held in memory for the micro-batch;
    the broadcast side marks it changed so that it is written back."""

    def __init__(self, owner: 'BroadcastFunction', name: str, entries: Dict[Any, Any]):
        self._owner, self._name, self._entries = owner, name, entries
        self.writable = False

    def _changed(self) -> None:
        if not self.writable:
            raise RuntimeError("The broadcast state is read-only on the non-broadcast side.")
        self._owner.changed.add(self._name)

    def get(self, key: Any) -> Any:
        return self._entries.get(key)

    def contains(self, key: Any) -> bool:
        return key in self._entries

    def items(self) -> Any:
        return list(self._entries.items())

    def keys(self) -> Any:
        return list(self._entries.keys())

    def values(self) -> Any:
        return list(self._entries.values())

    def is_empty(self) -> bool:
        return not self._entries

    def clear(self) -> None:
        self._changed()
        self._entries.clear()

    def put(self, key: Any, value: Any) -> None:
        self._changed()
        self._entries[key] = value

    def put_all(self, dict_value: Any) -> None:
        # As PyFlink's runtime state: (key, value) pairs, a dict's ``items()``.
        for key, value in dict_value:
            self.put(key, value)

    def remove(self, key: Any) -> None:
        self._changed()
        self._entries.pop(key, None)


class _ReadOnlyView(ReadOnlyBroadcastState):
    """The read-only face of a broadcast state (what the non-broadcast side is given)."""

    def __init__(self, view: _StateView):
        self._view = view

    def get(self, key: Any) -> Any:
        return self._view.get(key)

    def contains(self, key: Any) -> bool:
        return self._view.contains(key)

    def items(self) -> Any:
        return self._view.items()

    def keys(self) -> Any:
        return self._view.keys()

    def values(self) -> Any:
        return self._view.values()

    def is_empty(self) -> bool:
        return self._view.is_empty()

    def clear(self) -> None:
        raise RuntimeError("The broadcast state is read-only on the non-broadcast side.")


class _Context(KeyedBroadcastProcessFunction.OnTimerContext, KeyedBroadcastProcessFunction.Context):
    """The context of one call: the broadcast state (writable on the broadcast side only), the
    record's timestamp, the time; on the keyed side its key and timers."""

    def __init__(self, owner: 'BroadcastFunction', ctx: Any, writable: bool):
        self._owner, self._ctx, self._writable = owner, ctx, writable

    def get_broadcast_state(self, state_descriptor: Any) -> Any:
        view = self._owner.view(state_descriptor)
        view.writable = self._writable
        return view if self._writable else _ReadOnlyView(view)

    def timestamp(self) -> int:
        ts = self._ctx.timestamp()
        return LONG_MIN if ts is None else int(ts)

    def current_processing_time(self) -> int:
        return int(self._ctx.timer_service().current_processing_time())

    def current_watermark(self) -> int:
        return int(self._ctx.timer_service().current_watermark())

    def timer_service(self) -> Any:
        return self._ctx.timer_service()

    def get_current_key(self) -> Any:
        return self._ctx.get_current_key()

    def time_domain(self) -> Any:
        return self._ctx.time_domain()


class BroadcastFunction(KeyedProcessFunction):
    """A ``BroadcastProcessFunction`` or ``KeyedBroadcastProcessFunction`` as a process
    function of marked records: ``(0, record)`` of the broadcast input (under a reserved key),
    ``(1, record)`` of the other.

    :param function: The job's function.
    :param descriptors: The broadcast stream's map state descriptors.
    :param keys: The reserved key of each state partition.
    """

    def __init__(self, function: Any, descriptors: List[Any], keys: List[bytes]):
        self.function = function
        self.names = [d.get_name() for d in descriptors]
        self.keys = keys
        self.changed: set = set()
        self._views: Optional[Dict[str, _StateView]] = None
        self._processor: Any = None
        self._states: Dict[str, Any] = {}

    def open(self, runtime_context: RuntimeContext) -> None:
        processor = getattr(runtime_context, "_processor", None)
        self._processor = processor
        self._views = None
        self.changed = set()
        if processor is not None:
            # Spark declares state variables in the processor's init only.
            self._states = {name: processor.handle.getValueState(STATE_PREFIX + name, "v binary")
                            for name in self.names}
            self._seed(processor.handle)
        self.function.open(runtime_context)

    def _seed(self, handle: Any) -> None:
        """Give this task's state partition its copy of the saved broadcast state, when the
        job was restored at another number of partitions (see the module's text)."""
        from pyspark import TaskContext

        from pyflink_compat.spark.implicit_key import as_key, in_task

        context = TaskContext.get()
        if context is None or not in_task(handle):
            return
        seeds, stale = read_seed(context.getLocalProperty(SEED_PROPERTY))
        copies = seeds.get(tuple(sorted(self.names)))
        partition = int(context.partitionId())
        if not copies or partition >= len(self.keys):
            return
        copy = copies[partition % len(copies)]
        with as_key(handle, self.keys[partition], None):
            for name in self.names:
                if name in copy and self._states[name].get() is None:
                    self._states[name].update((copy[name],))
        for key in stale:
            if key not in self.keys and spark_partition(key, len(self.keys)) == partition:
                with as_key(handle, key, None):
                    for name in self.names:
                        self._states[name].clear()

    def close(self) -> None:
        self.function.close()

    def view(self, descriptor: Any) -> _StateView:
        name = descriptor.get_name()
        views = self._load()
        if name not in views:
            raise ValueError("The broadcast state '%s' was not given to DataStream.broadcast." % name)
        return views[name]

    def _reserved(self) -> bytes:
        """The reserved key of the partition of the key at hand."""
        current = self._processor.key_data
        if current[:1] == RESERVED_PREFIX:
            return current
        return self.keys[spark_partition(current, len(self.keys))]

    def _load(self) -> Dict[str, _StateView]:
        """This partition's broadcast state, read from its reserved key once per micro-batch."""
        if self._views is not None:
            return self._views
        from pyflink_compat.spark.implicit_key import as_key

        processor = self._processor
        views = {}
        with as_key(processor.handle, self._reserved(), processor.key_data):
            for name in self.names:
                stored = self._states[name].get()
                views[name] = _StateView(self, name, {} if stored is None else loads(bytes(stored[0])))
        self._views = views
        return views

    def process_element(self, value: Any, ctx: Any) -> Iterator[Any]:
        index, record = value
        function = self.function
        if index == 0:
            produced = function.process_broadcast_element(record, _Context(self, ctx, True))
            if produced is not None:
                yield from produced
            self._store()
            return
        produced = function.process_element(record, _Context(self, ctx, False))
        if produced is not None:
            yield from produced

    def _store(self) -> None:
        views = self._load()
        for name in sorted(self.changed):
            self._states[name].update((dumps(dict(views[name]._entries)),))
        self.changed.clear()

    def on_timer(self, timestamp: int, ctx: Any) -> Any:
        if isinstance(self.function, BroadcastProcessFunction):
            return None
        return self.function.on_timer(timestamp, _Context(self, ctx, False))
