"""A stream connected with a broadcast stream of rules: the keyed variant prints what live
PyFlink 1.20.5 printed (the rules applied, each key's state and event-time timers reading the
rules); the non-keyed variant shows the registered divergence
``datastream-broadcast-records-first-in-a-micro-batch``; at parallelism 2 each state partition
keeps its own copy of the broadcast state, as each of Flink's parallel instances does; resumed
over its own checkpoints at another parallelism (no restore, so nothing rescales its state),
the job fails at its start naming why; `pyflink-compat checkpoints state` lists the timers
pending in its checkpoint, several per key, and each partition's copy of the broadcast state."""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List

import pytest

#: What live PyFlink 1.20.5 printed for the keyed job at parallelism 1 (its rules arrived first).
KEYED_PRINTED = [
    "('rule', ('a', 5), [('a', 5)], True)",
    "('rule', ('b', 7), [('a', 5), ('b', 7)], True)",
    "('rule', ('a', 6), [('a', 6), ('b', 7)], True)",
    "('rule', ('b', -1), [('a', 6)], True)",
    "('event', 'a', ('a', 1, 100), 1, 6, ['a'])",
    "('event', 'b', ('b', 2, 101), 2, None, ['a'])",
    "('event', 'a', ('a', 3, 102), 4, 6, ['a'])",
    "('event', 'c', ('c', 4, 103), 4, None, ['a'])",
    "('timer', 'a', 110, 4, [('a', 6)])",
    "('timer', 'b', 111, 2, [('a', 6)])",
    "('timer', 'a', 112, 4, [('a', 6)])",
    "('timer', 'c', 113, 4, [('a', 6)])",
]


def _build(env: Any) -> None:
    from pyflink_compat.common import Types, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.datastream.functions import BroadcastProcessFunction, KeyedBroadcastProcessFunction
    from pyflink_compat.datastream.state import MapStateDescriptor, ValueStateDescriptor

    rules_state = MapStateDescriptor("rules", Types.STRING(), Types.INT())

    class Threshold(BroadcastProcessFunction):
        def process_element(self, value, ctx):
            yield "event", value, ctx.get_broadcast_state(rules_state).get(value[0]), ctx.timestamp()

        def process_broadcast_element(self, value, ctx):
            state = ctx.get_broadcast_state(rules_state)
            state.put(value[0], value[1])
            yield "rule", value, sorted(state.items())

    class KeyedThreshold(KeyedBroadcastProcessFunction):
        def open(self, runtime_context):
            self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.INT()))

        def process_element(self, value, ctx):
            state = ctx.get_broadcast_state(rules_state)
            total = (self.total.value() or 0) + value[1]
            self.total.update(total)
            limit = state.get(value[0]) if state.contains(value[0]) else None
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 10)
            yield "event", ctx.get_current_key(), value, total, limit, list(state.keys())

        def process_broadcast_element(self, value, ctx):
            state = ctx.get_broadcast_state(rules_state)
            if value[1] < 0:
                state.remove(value[0])
            else:
                state[value[0]] = value[1]
            yield "rule", value, sorted(state.items()), ctx.current_watermark() < 0

        def on_timer(self, timestamp, ctx):
            yield ("timer", ctx.get_current_key(), timestamp, self.total.value(),
                   sorted(ctx.get_broadcast_state(rules_state).items()))

    class Stamp(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value[-1]

    rules = env.from_collection([("a", 5), ("b", 7), ("a", 6), ("b", -1)])
    events = env.from_collection([("a", 1, 100), ("b", 2, 101), ("a", 3, 102), ("c", 4, 103)])
    events.connect(rules.broadcast(rules_state)).process(Threshold()).print("plain")
    watermarks = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())
    events.assign_timestamps_and_watermarks(watermarks).key_by(lambda v: v[0]) \
        .connect(rules.broadcast(rules_state)).process(KeyedThreshold()).print("keyed")


@pytest.fixture(scope="module")
def checkpoints(tmp_path_factory: Any) -> Path:
    """Where the job run at parallelism 2 checkpoints (durably, to be restored)."""
    return tmp_path_factory.mktemp("broadcast") / "cp"


@pytest.fixture(scope="module")
def printed(spark: Any, checkpoints: Path) -> List[str]:
    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import StreamExecutionEnvironment

    # the finished job's checkpoints are kept, as Flink keeps retained checkpoints (two: the
    # timers pending before the end of the input are read from the first)
    configuration = Configuration().set_string(
        "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION") \
        .set_string("execution.checkpointing.num-retained", "2")
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.set_parallelism(2)
    env.enable_checkpointing(60000)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(checkpoints))
    _build(env)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        env.execute("broadcast-rules")
    return out.getvalue().splitlines()


def _part(lines: List[str], sink: str) -> List[str]:
    return [line[len(sink) + 2:] for line in lines if line.startswith(sink + "> ")]


def test_a_keyed_broadcast_function_prints_what_pyflink_printed_once_per_parallel_instance_for_rules(printed):
    keyed = _part(printed, "keyed")
    # every parallel instance handles each broadcast record, in Flink as here (two instances)
    expected = Counter({line: 2 if line.startswith("('rule'") else 1 for line in KEYED_PRINTED})
    assert Counter(keyed) == expected
    events = [line for line in keyed if not line.startswith("('rule'")]
    assert events == [line for line in KEYED_PRINTED if not line.startswith("('rule'")]


def test_the_other_input_sees_the_broadcast_records_of_its_whole_micro_batch(printed):
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    assert "datastream-broadcast-records-first-in-a-micro-batch" in {d.id for d in RUNTIME_DIVERGENCES}
    plain = _part(printed, "plain")
    # Flink printed ('event', ('a', 1, 100), 5, ...) in one run: the rule ('a', 6) had not arrived
    assert [line for line in plain if line.startswith("('event'")] == [
        "('event', ('a', 1, 100), 6, -9223372036854775808)",
        "('event', ('b', 2, 101), -1, -9223372036854775808)",
        "('event', ('a', 3, 102), 6, -9223372036854775808)",
        "('event', ('c', 4, 103), None, -9223372036854775808)"]
    assert plain.count("('rule', ('b', -1), [('a', 6), ('b', -1)])") == 2


def test_the_non_broadcast_side_cannot_write_the_broadcast_state(spark):
    from pyflink_compat.common import Types
    from pyflink_compat.datastream.state import MapStateDescriptor
    from pyflink_compat.runtime.broadcast import _ReadOnlyView, _StateView

    view = _StateView(None, "rules", {"a": 1})  # type: ignore[arg-type]
    read_only = _ReadOnlyView(view)
    assert read_only["a"] == 1 and "a" in read_only and list(read_only) == ["a"]
    assert not hasattr(read_only, "put")
    with pytest.raises(RuntimeError, match="read-only"):
        view.put("b", 2)
    assert MapStateDescriptor("rules", Types.STRING(), Types.INT()).get_name() == "rules"


def test_reserved_keys_land_in_their_partitions_by_sparks_own_hash(spark):
    from pyspark.sql import functions as F

    from pyflink_compat.runtime.broadcast import reserved_keys

    keys = reserved_keys(5)
    rows = spark.createDataFrame([(k,) for k in keys], "k binary") \
        .select(F.pmod(F.hash("k"), F.lit(5)).alias("p")).collect()
    assert [row["p"] for row in rows] == [0, 1, 2, 3, 4]


def test_broadcast_state_resumed_in_place_at_another_parallelism_fails_at_the_start_naming_why(
        printed, checkpoints):
    from pyflink_compat.checkpoints.errors import CheckpointFileError
    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import StreamExecutionEnvironment

    saved = checkpoints / "broadcast-rules"
    assert (saved / "datastream" / "commits").is_dir()
    # run again over its own checkpoints, at another parallelism, without a restore (which
    # would rescale it, tests/savepoints/test_broadcast_savepoints.py): refused, nothing written
    batches = sorted(p.name for p in (saved / "datastream" / "commits").iterdir())
    again = StreamExecutionEnvironment.get_execution_environment(Configuration().set_string(
        "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION"))
    again.set_parallelism(3)
    again.enable_checkpointing(60000)
    again.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(checkpoints))
    _build(again)
    with pytest.raises(CheckpointFileError, match="chosen for 2 partitions, and the job would run it with 3 "
                                                  "without rescaling its state: restore it .* or run it at "
                                                  "parallelism 2"):
        again.execute("broadcast-rules")
    assert sorted(p.name for p in (saved / "datastream" / "commits").iterdir()) == batches


def test_pyflink_compat_checkpoints_state_lists_every_pending_timer_of_a_key(printed, checkpoints, capsys):
    import json

    from pyflink_compat.cli import main as cli_main

    query = str(checkpoints / "broadcast-rules" / "datastream")
    listed: Dict[str, Any] = {}
    keyed_operator = None
    for operator in ("0", "1"):  # the keyed function's operator is the one with its state 'total'
        capsys.readouterr()
        # batch 0: the records handled, the end of the input's watermark not yet reached
        code = cli_main(["checkpoints", "state", query, "--json", "--operator", operator,
                         "--batch-id", "0", "--state-var", "timers"])
        out = capsys.readouterr().out
        if code == 0:
            listed, keyed_operator = json.loads(out), operator
    assert listed["keyed_state"] == ["total", "timers"]
    assert listed["broadcast_state"] == ["rules"]
    assert {row["domain"] for row in listed["rows"]} == {"EVENT_TIME"}
    # key 'a' had two records, each registering a timer at its timestamp + 10
    assert sorted((row["key"], row["value"]) for row in listed["rows"]) == [
        ("a", 110), ("a", 112), ("b", 111), ("c", 113)]
    # the broadcast state: one copy per state partition, as the job sees it
    code = cli_main(["checkpoints", "state", query, "--json", "--operator", str(keyed_operator),
                     "--batch-id", "0", "--state-var", "rules"])
    rules = json.loads(capsys.readouterr().out)
    assert code == 0, rules
    assert sorted((row["partition"], row["key"], row["value"]) for row in rules["rows"]) == [
        (0, "(broadcast state)", {"a": 6}), (1, "(broadcast state)", {"a": 6})]


def test_the_saved_copies_of_broadcast_state_are_taken_in_partition_order():
    from pyflink_compat.runtime.broadcast import read_seed, reserved_keys, saved_copies, seed_text, spread

    old = reserved_keys(2)
    stored = {"rules": {old[1]: b"second", old[0]: b"first", b"\x00broadcast-99": b"stale"},
              "limits": {old[1]: b"only-second"}}
    copies = saved_copies(stored, 2)
    # partition i's copy is the one under partition i's reserved key (new partition j of any
    # number then takes copy j % 2, Flink's round robin over the saved instances)
    assert copies == [{"rules": b"first"}, {"limits": b"only-second", "rules": b"second"}]
    assert read_seed(seed_text({("limits", "rules"): copies}, [old[1]])) == ({("limits", "rules"): copies}, [old[1]])
    assert read_seed(None) == ({}, [])
    # a pending seed of 3 partitions restored again: its partition i had saved copy i % 2
    assert spread(copies, 3) == [copies[0], copies[1], copies[0]]
