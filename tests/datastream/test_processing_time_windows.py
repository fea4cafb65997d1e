"""Processing-time windows on a running job, the registered divergence
``datastream-processing-time-windows-fire-with-their-key``: a window fires when its key is next
handled after its end rather than when the clock reaches it (that a bounded input's end fires
no open window, as in Flink, is in the battery, ``test_battery.py``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, List

from tests.datastream.test_file_connectors import _wait_for


def test_a_processing_time_window_fires_only_once_its_key_is_handled_again(spark: Any, tmp_path: Path) -> None:
    from pyflink_compat.common import Duration, Time, WatermarkStrategy
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.connectors.file_system import FileSource, StreamFormat
    from pyflink_compat.datastream.functions import ProcessWindowFunction
    from pyflink_compat.datastream.window import TumblingProcessingTimeWindows
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    assert "datastream-processing-time-windows-fire-with-their-key" in {d.id for d in RUNTIME_DIVERGENCES}

    class Fired(ProcessWindowFunction):
        def process(self, key, context, elements):
            yield "%s %d %s" % (key, context.current_processing_time(), ",".join(elements))

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "1.txt").write_text("a1\n")
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), str(tmp_path / "in")) \
        .monitor_continuously(Duration.of_millis(100)).build()
    seen, fired = tmp_path / "seen.txt", tmp_path / "fired.txt"
    env.from_source(source, WatermarkStrategy.no_watermarks(), "watched") \
        .map(lambda line: _append(str(seen), line)) \
        .key_by(lambda line: line[0]) \
        .window(TumblingProcessingTimeWindows.of(Time.milliseconds(1))) \
        .process(Fired()) \
        .map(lambda line: _append(str(fired), line)) \
        .print()
    client = env.execute_async("processing windows")
    try:
        _wait_for(lambda: _lines(seen) == ["a1"])
        second_written = int(time.time() * 1000)
        (tmp_path / "in" / "2.txt").write_text("a2\n")
        _wait_for(lambda: any(line.endswith(" a1") for line in _lines(fired)))
    finally:
        client.cancel().result()
    key, fired_at, elements = next(line for line in _lines(fired) if line.endswith(" a1")).split()
    # Flink fires the 1 ms window of a1 by the clock, long before a2 is written
    assert (key, elements) == ("a", "a1") and int(fired_at) >= second_written


def _append(path: str, line: str) -> str:
    with open(path, "a") as out:
        out.write(line + "\n")
    return line


def _lines(path: Path) -> List[str]:
    return path.read_text().splitlines() if path.exists() else []
