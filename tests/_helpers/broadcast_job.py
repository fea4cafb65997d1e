"""A keyed DataStream job with broadcast state over an unbounded stream of JSON files, and the
records Flink's semantics give it, computed here independently of any engine.

Each input file holds either rules (``{"kind": "rule", "key": "k1", "value": 7}``) or events
(``{"kind": "event", "key": "k1", "value": <id>}``); the file source reads one file per
micro-batch, oldest first. The rules are broadcast into the ``rules`` broadcast state (a
negative value removes a key's rule); the events are keyed by their key and handled by
:class:`RuledCount`, which counts each key's events (``ValueState``) and emits
``(key, id, count, the key's rule, the keys with a rule)``. Broadcast records emit nothing, so
the records do not depend on the job's parallelism: restored at another parallelism, the job
must emit exactly what it emits without rescaling, which is what Flink emits, each of its new
parallel instances starting with a copy of the broadcast state.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Optional, Tuple

from pyflink_compat.datastream.functions import KeyedBroadcastProcessFunction, RuntimeContext

from tests._helpers.files import write_input
from tests._helpers.keyed_job import BatchFiles, read_outputs

__all__ = ["JOB_NAME", "write_rules", "write_events", "expected_outputs", "build", "read_outputs"]

JOB_NAME = "broadcast-job"

#: The broadcast state's descriptor name.
RULES = "rules"


def _write(directory: Any, index: int, rows: List[Dict[str, Any]]) -> None:
    """File ``index`` of the input, its modification time in input order (the file source
    reads the oldest first)."""
    name = "part-{:05d}.json".format(index)
    write_input(directory, name, rows)
    os.utime(os.path.join(str(directory), name), (1700000000 + index, 1700000000 + index))


def write_rules(directory: Any, index: int, rules: Dict[str, int]) -> List[Tuple[str, str, int]]:
    """Write the rules file ``index``; the input it adds."""
    rows = [{"kind": "rule", "key": key, "value": value} for key, value in rules.items()]
    _write(directory, index, rows)
    return [("rule", key, value) for key, value in rules.items()]


def write_events(directory: Any, index: int, ids: List[int], n_keys: int = 5) -> List[Tuple[str, str, int]]:
    """Write the events file ``index`` with the given ids (key ``k<id % n_keys>``); the input it adds."""
    rows = [{"kind": "event", "key": "k{}".format(i % n_keys), "value": i} for i in ids]
    _write(directory, index, rows)
    return [("event", row["key"], row["value"]) for row in rows]


def expected_outputs(inputs: List[Tuple[str, str, int]]) -> List[Tuple[Any, ...]]:
    """What the job emits for its input in file order (rules before the events of later
    files), sorted."""
    rules: Dict[str, int] = {}
    counts: Dict[str, int] = {}
    outputs: List[Tuple[Any, ...]] = []
    for kind, key, value in inputs:
        if kind == "rule":
            if value < 0:
                rules.pop(key, None)
            else:
                rules[key] = value
            continue
        counts[key] = counts.get(key, 0) + 1
        outputs.append((key, value, counts[key], rules.get(key), sorted(rules)))
    return sorted(outputs)


class RuledCount(KeyedBroadcastProcessFunction):
    """Counts each key's events and reads the key's rule from the broadcast state."""

    def open(self, runtime_context: RuntimeContext) -> None:
        from pyflink_compat.common import Types
        from pyflink_compat.datastream.state import ValueStateDescriptor

        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))

    def process_element(self, value: Any, ctx: Any) -> Iterator[Tuple[Any, ...]]:
        rules = ctx.get_broadcast_state(rules_descriptor())
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        yield value[1], value[2], count, rules.get(value[1]), sorted(rules.keys())

    def process_broadcast_element(self, value: Any, ctx: Any) -> Optional[Iterator[Any]]:
        rules = ctx.get_broadcast_state(rules_descriptor())
        if value[2] < 0:
            rules.remove(value[1])
        else:
            rules.put(value[1], value[2])
        return None


def rules_descriptor() -> Any:
    from pyflink_compat.common import Types
    from pyflink_compat.datastream.state import MapStateDescriptor

    return MapStateDescriptor(RULES, Types.STRING(), Types.INT())


class JsonFilesSource(object):
    """The records of the JSON files in a directory, one file per micro-batch: ``(kind, key,
    value)`` tuples."""

    def __init__(self, directory: str):
        self.directory = directory

    def frame(self, spark: Any) -> Any:
        from pyflink_compat.runtime.plan import RECORD_SCHEMA

        rows = spark.readStream.schema("kind STRING, key STRING, value LONG") \
            .option("maxFilesPerTrigger", 1).json(self.directory)
        return rows.mapInArrow(_as_records, RECORD_SCHEMA)


def _as_records(batches: Iterator[Any]) -> Iterator[Any]:
    import pyarrow as pa  # type: ignore[import-untyped]

    from pyflink_compat.runtime.records import dumps

    for batch in batches:
        columns = batch.to_pydict()
        records = list(zip(columns["kind"], columns["key"], columns["value"]))
        yield pa.RecordBatch.from_pydict(
            {"v": [dumps(r) for r in records], "ts": pa.array([None] * len(records), pa.int64()),
             # arrival order: an event's id (a micro-batch may hold several files), a rule's line
             "seq": [[value if kind == "event" else i] for i, (kind, _, value) in enumerate(records)],
             "k": pa.array([None] * len(records), pa.binary())})


def build(env: Any, input_dir: str, out: str) -> None:
    """Add the job to ``env``: the files of ``input_dir`` through :class:`RuledCount` into
    :class:`~tests._helpers.keyed_job.BatchFiles` at ``out``."""
    from pyflink_compat.datastream.data_stream import DataStream
    from pyflink_compat.runtime.graph import SOURCE, Node

    source = DataStream(Node(env, SOURCE, (), JsonFilesSource(input_dir), None, name="JSON files"))
    rules = source.filter(lambda r: r[0] == "rule").broadcast(rules_descriptor())
    stream = source.filter(lambda r: r[0] == "event").key_by(lambda r: r[1]).connect(rules).process(RuledCount())
    env._add_datastream_sink(stream._frame(), BatchFiles(out), True)
