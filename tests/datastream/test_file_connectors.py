"""``FileSource`` / ``read_text_file`` read and ``FileSink`` writes what PyFlink 1.20.5 reads and
writes: the expected file contents below were recorded from live PyFlink 1.20.5 running the same
job (Flink's part-file names differ and are not compared)."""

from __future__ import annotations

import datetime
import os
import re
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from pyflink_compat.missing import NotSupportedError

#: What PyFlink 1.20.5 wrote for the job of :func:`written` (one part file per sink).
FLINK_COUNTS = (b"(b\xc3\xa9,1)\n(or,1)\n(not,1)\n(to,1)\n(be,1)\n(or,2)\n(not,2)\n(to,2)\n(be,2)\n"
                b"(that,1)\n(,1)\n(is,1)\n(the,1)\n(question,1)\n")
FLINK_ROWS = b"+I[x,1, 3, 0.75, true]\n+I[y,2\rz,3, 7, 1.75, true]\n+I[, 0, 0.0, false]\n+I[w,4, 3, 0.75, true]\n"


def _files(root: Path) -> List[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def written(tmp_path_factory: Any) -> Dict[str, List[Path]]:
    """Run one bounded job: a word count of a directory's text lines into a FileSink with a part
    prefix and suffix in the base path, the rows of one file's lines (``read_text_file``) into a
    FileSink with the default bucket assigner, and two strings into a StreamingFileSink."""
    from pyflink_compat.common import Encoder, Row, Types, WatermarkStrategy
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.connectors.file_system import (
        BucketAssigner, FileSink, FileSource, OutputFileConfig, RollingPolicy, StreamFormat, StreamingFileSink)

    work = tmp_path_factory.mktemp("files")
    (work / "in" / "sub").mkdir(parents=True)
    (work / "in" / "a.txt").write_bytes(b"to be or\r\nnot to be\rthat\n\nis the question\n")
    (work / "in" / "sub" / "b.txt").write_bytes("b\u00e9 or not".encode("utf-8"))
    (work / "in" / ".hidden").write_bytes(b"hidden words\n")
    (work / "in" / "_skipped").write_bytes(b"skipped words\n")
    (work / "plain.txt").write_bytes(b"x,1\r\ny,2\rz,3\n\nw,4")

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    lines = env.from_source(FileSource.for_record_stream_format(StreamFormat.text_line_format(),
                                                                str(work / "in")).build(),
                            WatermarkStrategy.no_watermarks(), "files")
    lines.flat_map(lambda line: line.split(" ")) \
        .map(lambda w: (w, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1])) \
        .sink_to(FileSink.for_row_format(str(work / "counts"), Encoder.simple_string_encoder())
                 .with_output_file_config(OutputFileConfig.builder().with_part_prefix("pre")
                                          .with_part_suffix(".txt").build())
                 .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner())
                 .with_rolling_policy(RollingPolicy.default_rolling_policy()).build())
    env.read_text_file(str(work / "plain.txt")) \
        .map(lambda line: Row(line, len(line), len(line) / 4.0, len(line) > 2),
             output_type=Types.ROW([Types.STRING(), Types.INT(), Types.DOUBLE(), Types.BOOLEAN()])) \
        .sink_to(FileSink.for_row_format(str(work / "rows"), Encoder.simple_string_encoder()).build())
    env.from_collection(["x", "y"], type_info=Types.STRING()) \
        .add_sink(StreamingFileSink.for_row_format(str(work / "legacy"), Encoder.simple_string_encoder())
                  .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
    before = datetime.datetime.now()
    env.execute("files")
    return {"counts": _files(work / "counts"), "rows": _files(work / "rows"), "legacy": _files(work / "legacy"),
            "hour": [Path(before.strftime("%Y-%m-%d--%H")), Path(datetime.datetime.now().strftime("%Y-%m-%d--%H"))]}


def test_a_file_source_reads_flinks_text_lines_and_the_file_sink_writes_pyflinks_records(written):
    (part,) = written["counts"]
    assert sorted(part.read_bytes().splitlines()) == sorted(FLINK_COUNTS.splitlines())
    assert part.name.startswith("pre-") and part.name.endswith(".txt")
    assert part.parent.name == "counts"  # the base path bucket assigner: no bucket directory


def test_read_text_file_ends_lines_at_newlines_and_rows_are_written_as_the_jvm_prints_them(written):
    (part,) = written["rows"]
    assert part.read_bytes() == FLINK_ROWS
    assert part.name.startswith("part-") and not part.name.startswith(".")
    # Flink's default bucket assigner: the hour the records were written, in local time
    assert Path(part.parent.name) in written["hour"]


def test_the_legacy_streaming_file_sink_of_add_sink_writes_as_the_file_sink_does(written):
    (part,) = written["legacy"]
    assert part.read_bytes() == b"x\ny\n" and part.parent.name == "legacy"


def test_text_lines_end_as_in_flinks_formats():
    from pyflink_compat.runtime.file_io import split_lines

    assert split_lines("a\r\nb\rc\n\nd\n", "text-line") == ["a", "b", "c", "", "d"]
    assert split_lines("a\r\nb\rc\n\nd", "text-file") == ["a", "b\rc", "", "d"]
    assert split_lines("", "text-line") == []


def test_a_date_time_bucket_is_named_by_the_java_pattern_in_its_time_zone():
    from pyflink_compat.runtime.file_io import bucket_name

    when = datetime.datetime(2024, 3, 5, 7, 8, 9, 123000, tzinfo=datetime.timezone.utc)
    assert bucket_name("yyyy-MM-dd--HH", "UTC", when) == "2024-03-05--07"
    assert bucket_name("yyyy/MM/dd/HH-mm-ss.SSS", "Asia/Tokyo", when) == "2024/03/05/16-08-09.123"
    assert bucket_name("'day='d'/hour='H", "GMT-08:00", when) == "day=4/hour=23"


def test_what_the_file_connectors_cannot_do_fails_at_the_call_naming_the_pyspark_way():
    from pyflink_compat.common import Encoder
    from pyflink_compat.datastream.connectors.file_system import BucketAssigner, FileSink, FileSource
    from pyflink_compat.runtime.file_io import FileSinkBatch

    with pytest.raises(NotSupportedError, match="'EEE' is not.*partitionBy"):
        BucketAssigner.date_time_bucket_assigner("yyyy-EEE")
    with pytest.raises(NotSupportedError, match=r"driver's local file system.*s3://"):
        FileSink.for_row_format("s3://bucket/out", Encoder.simple_string_encoder())
    with pytest.raises(NotSupportedError, match="FileSource.for_bulk_file_format.*spark.readStream"):
        FileSource.for_bulk_file_format(None, "in")
    sink = FileSink.for_row_format("out", Encoder.simple_string_encoder()).build()
    with pytest.raises(NotSupportedError, match=r"\[B@.*output_type"):
        FileSinkBatch(sink.get_java_function(), None)


def _wait_for(condition: Any, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.2)


def test_a_watched_file_source_keeps_running_and_each_micro_batch_finishes_its_own_part_file(tmp_path):
    """The registered divergence ``datastream-file-sink-rolls-per-micro-batch``: two files read
    in two micro-batches are two finished part files, where Flink's default rolling policy keeps
    one part file open for 60 s."""
    from pyflink_compat.common import Duration, Encoder, Types, WatermarkStrategy
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.connectors.file_system import (
        BucketAssigner, FileSink, FileSource, StreamFormat)
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    assert "datastream-file-sink-rolls-per-micro-batch" in {d.id for d in RUNTIME_DIVERGENCES}
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "1.txt").write_text("a\nb\n")
    env = StreamExecutionEnvironment.get_execution_environment()
    source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), str(tmp_path / "in")) \
        .monitor_continuously(Duration.of_millis(100)).build()
    env.from_source(source, WatermarkStrategy.for_monotonous_timestamps(), "watched") \
        .map(str.upper, output_type=Types.STRING()) \
        .sink_to(FileSink.for_row_format(str(tmp_path / "out"), Encoder.simple_string_encoder())
                 .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())
    client = env.execute_async("watched")
    try:
        _wait_for(lambda: len(_files(tmp_path / "out")) == 1 if (tmp_path / "out").exists() else False)
        (tmp_path / "in" / "2.txt").write_text("c\n")
        _wait_for(lambda: len(_files(tmp_path / "out")) == 2)
        assert str(client.get_job_status().result()) == "JobStatus.RUNNING"
    finally:
        client.cancel().result()
    contents = [p.read_text() for p in _files(tmp_path / "out")]
    assert sorted(contents) == ["A\nB\n", "C\n"]
    assert not any(os.path.basename(p).startswith(".") for p in os.listdir(tmp_path / "out"))
    assert all(re.match(r"part-[0-9a-f-]+-\d+-\d+$", p.name) for p in _files(tmp_path / "out"))
