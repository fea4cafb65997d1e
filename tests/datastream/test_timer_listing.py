"""``pyflink-compat checkpoints state --state-var timers`` lists every pending timer of a keyed
function with its time domain: its event-time timers and its processing-time timers, each kept
in the function's state (:mod:`pyflink_compat.runtime.keyed`)."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pyspark
import pytest

pytestmark = pytest.mark.skipif(tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 1),
                                reason="keyed DataStream functions need Spark 4.1 or later")

#: Far enough ahead that no processing-time timer fires while the test runs.
LATER_MS = 10 ** 12


def test_the_timers_of_a_checkpoint_are_listed_with_their_domain(spark: Any, tmp_path: Any, capsys: Any) -> None:
    from pyflink_compat.cli import main as cli_main
    from pyflink_compat.common import Configuration, Types, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.functions import KeyedProcessFunction

    class Stamp(TimestampAssigner):
        def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
            return value[1]

    class BothTimers(KeyedProcessFunction):
        def process_element(self, value: Any, ctx: Any) -> Any:
            ctx.timer_service().register_event_time_timer(value[1] + 10)
            ctx.timer_service().register_processing_time_timer(LATER_MS + value[1])
            yield value[0]

    configuration = Configuration().set_string(
        "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION") \
        .set_string("execution.checkpointing.num-retained", "2")
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.enable_checkpointing(60000)
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(tmp_path / "cp"))
    watermarks = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Stamp())
    env.from_collection([("a", 100), ("b", 101), ("a", 102)],
                        Types.TUPLE([Types.STRING(), Types.LONG()])) \
        .assign_timestamps_and_watermarks(watermarks).key_by(lambda v: v[0]).process(BothTimers()).print()
    with contextlib.redirect_stdout(io.StringIO()):
        env.execute("timers")
    capsys.readouterr()
    # batch 0: the records handled, the end of the input's watermark not yet reached
    code = cli_main(["checkpoints", "state", str(tmp_path / "cp" / "timers" / "datastream"), "--json",
                     "--batch-id", "0", "--state-var", "timers"])
    out = capsys.readouterr().out
    assert code == 0, out
    listed = json.loads(out)
    assert sorted((row["key"], row["domain"], row["value"]) for row in listed["rows"]) == [
        ("a", "EVENT_TIME", 110), ("a", "EVENT_TIME", 112),
        ("a", "PROCESSING_TIME", LATER_MS + 100), ("a", "PROCESSING_TIME", LATER_MS + 102),
        ("b", "EVENT_TIME", 111), ("b", "PROCESSING_TIME", LATER_MS + 101)]
    assert listed["total_rows"] == 6
