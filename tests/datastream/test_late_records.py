"""Records behind the watermark still reach a ``KeyedProcessFunction``, as in Flink (only
windows drop late records): a watched file source read in two micro-batches, the second
holding a record older than the watermark the first set. An event-time timer the late record
registers for a time the watermark has passed fires at the next watermark, and the function
sees Flink's watermark (the greatest timestamp less the out-of-orderness less 1 ms)."""

from __future__ import annotations

from pathlib import Path
from typing import List

from tests.datastream.test_file_connectors import _wait_for


def test_a_record_behind_the_watermark_reaches_process_element_and_its_past_timer_fires(spark, tmp_path):
    from pyflink_compat.common import Duration, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.connectors.file_system import FileSource, StreamFormat
    from pyflink_compat.datastream.functions import KeyedProcessFunction

    class Second(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return int(value.split(",")[1])

    class Seen(KeyedProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_event_time_timer(ctx.timestamp())
            yield "element %s %d" % (value, ctx.timer_service().current_watermark())

        def on_timer(self, timestamp, ctx):
            yield "timer %s %d" % (ctx.get_current_key(), timestamp)

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "1.txt").write_text("a,10000\n")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), str(tmp_path / "in")) \
        .monitor_continuously(Duration.of_millis(100)).build()
    out = tmp_path / "out.txt"
    env.from_source(source, WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(Second()),
                    "watched") \
        .key_by(lambda line: line.split(",")[0]) \
        .process(Seen()) \
        .map(lambda line: _append(str(out), line)) \
        .print()
    client = env.execute_async("late")
    try:
        _wait_for(lambda: _elements(out) == ["a,10000"])
        (tmp_path / "in" / "2.txt").write_text("b,10500\n")  # the watermark passes 10000: a's timer fires
        _wait_for(lambda: "timer a 10000" in _lines(out))
        (tmp_path / "in" / "3.txt").write_text("a,1000\nc,11000\n")  # a,1000 is late now
        _wait_for(lambda: "c,11000" in _elements(out))
        (tmp_path / "in" / "4.txt").write_text("d,20000\n")
        _wait_for(lambda: "d,20000" in _elements(out))
    finally:
        client.cancel().result()
    lines = _lines(out)
    # Flink's watermark after 10500 with monotonous timestamps is 10499
    assert "element a,1000 10499" in lines
    assert lines.index("timer a 1000") > lines.index("element a,1000 10499")
    assert [line for line in lines if line.startswith("timer a")] == ["timer a 10000", "timer a 1000"]


def _append(path: str, line: str) -> str:
    with open(path, "a") as out:
        out.write(line + "\n")
    return line


def _elements(path: Path) -> List[str]:
    return [line.split()[1] for line in _lines(path) if line.startswith("element ")]


def _lines(path: Path) -> List[str]:
    return path.read_text().splitlines() if path.exists() else []
