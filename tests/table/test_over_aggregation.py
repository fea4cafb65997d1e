"""Over windows of unbounded tables and of streams read as tables run as Flink's streaming over
aggregation: each row emitted once (``+I``) when the watermark passes its timestamp, with the
aggregates of its frame (``ROWS`` / ``RANGE`` preceding, unbounded or bounded, up to the current
row, ``RANGE`` with the row's peers).

Every expected output below was recorded from live PyFlink 1.20.5 running the same query on the
same rows, read as a bounded file in streaming mode (its rows are in time order but for rows
within the watermark's delay, so that no row is late there). Here the file is read by an
unbounded table: the row of key ``z`` a minute later raises the watermark past every other
row, whose outputs are the ones compared (Flink, at the end of its bounded input, emits that
row's too).
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any, Callable, List, Tuple

import pytest

from pyflink_compat.common.watermark_strategy import TimestampAssigner
from pyflink_compat.missing import NotSupportedError
from pyflink_compat.util.exceptions import TableException

_ROWS = ("1,a,10,1.5,2024-01-01 00:00:01\n2,a,20,2.25,2024-01-01 00:00:02\n"
         "3,b,5,0.1,2024-01-01 00:00:03\n4,a,7,0.2,2024-01-01 00:00:02\n"
         "5,a,3,0.7,2024-01-01 00:00:05\n6,b,1,0.3,2024-01-01 00:00:06\n"
         "7,a,4,0.1,2024-01-01 00:00:05\n8,z,0,0.0,2024-01-01 00:01:00\n")

_TABLE = ("CREATE TABLE ev (id INT, k STRING, amt INT, d DOUBLE, ts TIMESTAMP(3), "
          "WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH ('connector'='filesystem', "
          "'path'='ev', 'format'='csv', 'source.monitor-interval'='1s')")


@pytest.fixture
def unbounded_events(t_env: Any, tmp_path: Any, monkeypatch: Any) -> Any:
    """The table ``ev``: a directory of csv files watched for new ones (unbounded)."""
    (tmp_path / "ev").mkdir()
    (tmp_path / "ev" / "part-0.csv").write_text(_ROWS)
    monkeypatch.chdir(tmp_path)
    t_env.execute_sql(_TABLE)
    return t_env


def _rows(iterator: Any, count: int) -> List[Tuple[Any, ...]]:
    """The next ``count`` rows of a query's iterator, with their kinds, sorted."""
    rows = []
    for row in iterator:
        rows.append((str(row.get_row_kind()),) + tuple(row))
        if len(rows) == count:
            break
    return sorted(rows, key=str)


def _first_rows(result: Any, count: int) -> List[Tuple[Any, ...]]:
    """The first ``count`` rows of an unbounded query, with their kinds, sorted."""
    with result.collect() as iterator:
        return _rows(iterator, count)


def test_rows_frames_of_an_unbounded_table_give_pyflinks_rows_with_its_running_sums(
        unbounded_events: Any) -> None:
    table = unbounded_events.sql_query(
        "SELECT id, SUM(amt) OVER w AS s, COUNT(*) OVER w AS c, MIN(d) OVER w AS mn, "
        "SUM(d) OVER w AS sd FROM ev "
        "WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)")
    assert str(table.get_schema()).splitlines() == [
        "root", " |-- id: INT", " |-- s: INT", " |-- c: BIGINT NOT NULL", " |-- mn: DOUBLE",
        " |-- sd: DOUBLE"]
    with table.execute().collect() as iterator:
        # the oldest row of a frame is subtracted from the running sum, as Flink does
        # (0.9000000000000001, 0.8000000000000002), rows of one timestamp in arrival order
        assert _rows(iterator, 7) == sorted([
            ('+I', 1, 10, 1, 1.5, 1.5), ('+I', 2, 30, 2, 1.5, 3.75),
            ('+I', 4, 27, 2, 0.2, 2.45), ('+I', 3, 5, 1, 0.1, 0.1),
            ('+I', 5, 10, 2, 0.2, 0.9000000000000001), ('+I', 7, 7, 2, 0.1, 0.8000000000000002),
            ('+I', 6, 6, 2, 0.1, 0.4)], key=str)
        # the watermark is now at 00:00:58: a row of key z at 00:00:30 is late and dropped, as
        # in Flink; a row at 00:03:00 raises the watermark past z's row at 00:01:00, whose
        # frame is itself alone (the late row would have come before it)
        (Path.cwd() / "ev" / "part-1.csv").write_text(
            "9,z,2,2.0,2024-01-01 00:00:30\n10,y,0,0.0,2024-01-01 00:03:00\n")
        assert _rows(iterator, 1) == [('+I', 8, 0, 1, 0.0, 0.0)]


def test_range_frames_take_the_rows_peers_and_a_filter_applies_before_the_window(
        unbounded_events: Any) -> None:
    result = unbounded_events.execute_sql(
        "SELECT id, MAX(amt) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND "
        "PRECEDING AND CURRENT ROW) AS mx, AVG(amt) OVER (PARTITION BY k ORDER BY ts RANGE "
        "BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW) AS a FROM ev WHERE amt > 1")
    # AVG of an INT is an INT in Flink
    assert _first_rows(result, 6) == sorted([
        ('+I', 1, 10, 10), ('+I', 2, 20, 12), ('+I', 4, 20, 12), ('+I', 3, 5, 5),
        ('+I', 5, 4, 3), ('+I', 7, 4, 3)], key=str)


def test_over_windows_of_a_stream_ordered_by_its_rowtime_give_pyflinks_rows(
        make_env: Callable[..., Any]) -> None:
    from pyflink_compat.common import Types, WatermarkStrategy
    from pyflink_compat.table import EnvironmentSettings, Schema, StreamTableEnvironment
    from pyflink_compat.table.expressions import UNBOUNDED_RANGE, col
    from pyflink_compat.table.window import Over

    env = make_env()
    t_env = StreamTableEnvironment.create(env, EnvironmentSettings.in_streaming_mode())
    stream = env.from_collection(
        [('a', 1, 1000), ('b', 2, 2000), ('a', 3, 2000), ('a', 4, 4000), ('b', 5, 4000)],
        type_info=Types.ROW_NAMED(['k', 'v', 't'], [Types.STRING(), Types.INT(), Types.LONG()]))
    stream = stream.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(_ThirdField()))
    table = t_env.from_data_stream(stream, Schema.new_builder()
                                   .column_by_metadata("rowtime", "TIMESTAMP_LTZ(3)")
                                   .watermark("rowtime", "SOURCE_WATERMARK()").build())
    sums = table.over_window(Over.partition_by(col('k')).order_by(col('rowtime'))
                             .preceding(UNBOUNDED_RANGE).alias('w')) \
        .select(col('k'), col('v'), col('v').sum.over(col('w')), col('v').count.over(col('w')).alias('n'))
    assert sums.get_schema().get_field_names() == ['k', 'v', '_c2', 'n']
    assert _first_rows(sums.execute(), 5) == [
        ('+I', 'a', 1, 1, 1), ('+I', 'a', 3, 4, 2), ('+I', 'a', 4, 8, 3), ('+I', 'b', 2, 2, 1),
        ('+I', 'b', 5, 7, 2)]


class _ThirdField(TimestampAssigner):
    """The timestamp assigner of the stream: the record's third field."""

    def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
        return int(value[2])


def test_aggregates_over_different_windows_are_refused_with_flinks_message(
        unbounded_events: Any) -> None:
    with pytest.raises(TableException, match="All aggregates must be computed on the same window"):
        unbounded_events.execute_sql(
            "SELECT id, SUM(amt) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND "
            "CURRENT ROW), COUNT(*) OVER (ORDER BY ts) FROM ev")


def test_over_windows_ordered_by_processing_time_emit_each_row_over_the_rows_before_it(
        unbounded_events: Any) -> None:
    unbounded_events.execute_sql(
        "CREATE TABLE g (id INT, k STRING, amt INT, d DOUBLE, ts TIMESTAMP(3), pt AS PROCTIME()) "
        "WITH ('connector'='filesystem', 'path'='ev', 'format'='csv', "
        "'source.monitor-interval'='1s')")
    result = unbounded_events.execute_sql(
        "SELECT id, SUM(amt) OVER w AS s, COUNT(*) OVER w AS c FROM g "
        "WINDOW w AS (PARTITION BY k ORDER BY pt ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)")
    # no watermark: every row, z's too, at once, its frame the row before it in arrival order
    assert _first_rows(result, 8) == sorted([
        ('+I', 1, 10, 1), ('+I', 2, 30, 2), ('+I', 3, 5, 1), ('+I', 4, 27, 2), ('+I', 5, 10, 2),
        ('+I', 6, 6, 2), ('+I', 7, 7, 2), ('+I', 8, 0, 1)], key=str)
    with pytest.raises(NotSupportedError, match="RANGE frame with a preceding interval over the "
                                                "processing-time attribute 'pt'"):
        unbounded_events.execute_sql(
            "SELECT k, COUNT(*) OVER (PARTITION BY k ORDER BY pt RANGE BETWEEN INTERVAL '1' "
            "SECOND PRECEDING AND CURRENT ROW) AS c FROM g")


def test_an_over_window_of_an_unbounded_table_without_transform_with_state_fails_at_the_call(
        unbounded_events: Any) -> None:
    from pyspark.sql import GroupedData

    if hasattr(GroupedData, "transformWithState"):
        pytest.skip("this pyspark runs the over aggregation")
    with pytest.raises(NotSupportedError, match="Spark 4.1"):
        unbounded_events.execute_sql(
            "SELECT id, COUNT(*) OVER (PARTITION BY k ORDER BY ts) AS c FROM ev")


def test_distinct_aggregates_and_first_and_last_values_over_rows_frames_give_pyflinks_rows(
        unbounded_events: Any) -> None:
    table = unbounded_events.sql_query(
        "SELECT id, COUNT(DISTINCT amt) OVER w AS c, SUM(DISTINCT amt) OVER w AS s, "
        "FIRST_VALUE(amt) OVER w AS f, LAST_VALUE(d) OVER w AS l FROM ev "
        "WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)")
    assert str(table.get_schema()).splitlines() == [
        "root", " |-- id: INT", " |-- c: BIGINT NOT NULL", " |-- s: INT", " |-- f: INT",
        " |-- l: DOUBLE"]
    # the frame of row 5 holds rows 2, 4 and 5 (the oldest, row 1, retracted): 20, 7 and 3
    assert _first_rows(table.execute(), 7) == sorted([
        ('+I', 1, 1, 10, 10, 1.5), ('+I', 2, 2, 30, 10, 2.25), ('+I', 3, 1, 5, 5, 0.1),
        ('+I', 4, 3, 37, 10, 0.2), ('+I', 5, 3, 30, 20, 0.7), ('+I', 6, 2, 6, 5, 0.3),
        ('+I', 7, 3, 14, 7, 0.1)], key=str)


def test_distinct_aggregates_and_first_and_last_values_over_range_frames_give_pyflinks_rows(
        unbounded_events: Any) -> None:
    result = unbounded_events.execute_sql(
        "SELECT id, COUNT(DISTINCT amt) OVER w AS c, AVG(DISTINCT amt) OVER w AS a, "
        "FIRST_VALUE(d) OVER w AS f, LAST_VALUE(amt) OVER w AS l FROM ev WINDOW w AS "
        "(PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '3' SECOND PRECEDING AND CURRENT ROW)")
    # LAST_VALUE of a row's peers is the last of them to arrive (row 4 for rows 2 and 4)
    assert _first_rows(result, 7) == sorted([
        ('+I', 1, 1, 10, 1.5, 10), ('+I', 2, 3, 12, 1.5, 7), ('+I', 3, 1, 5, 0.1, 5),
        ('+I', 4, 3, 12, 1.5, 7), ('+I', 5, 4, 8, 2.25, 4), ('+I', 6, 2, 3, 0.1, 1),
        ('+I', 7, 4, 8, 2.25, 4)], key=str)


def test_an_over_window_reading_nested_filtering_subqueries_gives_pyflinks_rows(
        unbounded_events: Any) -> None:
    # the subqueries drop the row of key z, whose timestamp still raises the watermark (Flink
    # assigns it where the table is read), so the rows before it are emitted
    result = unbounded_events.execute_sql(
        "SELECT id, COUNT(*) OVER w AS c, SUM(amt) OVER w AS s FROM (SELECT id, k, amt, ts FROM "
        "(SELECT * FROM ev WHERE amt > 1) WHERE k <> 'b') WHERE amt < 20 WINDOW w AS "
        "(PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '2' SECOND PRECEDING AND CURRENT ROW)")
    assert _first_rows(result, 4) == sorted([
        ('+I', 1, 1, 10), ('+I', 4, 2, 17), ('+I', 5, 2, 7), ('+I', 7, 2, 7)], key=str)


def test_an_over_window_reading_a_star_subquery_gives_pyflinks_columns_and_rows(
        unbounded_events: Any) -> None:
    table = unbounded_events.sql_query(
        "SELECT k, ts, SUM(amt) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN UNBOUNDED "
        "PRECEDING AND CURRENT ROW) AS s FROM (SELECT * FROM ev WHERE amt > 1)")
    assert table.get_schema().get_field_names() == ['k', 'ts', 's']
    at = [datetime.datetime(2024, 1, 1, 0, 0, n) for n in range(6)]
    assert _first_rows(table.execute(), 6) == sorted([
        ('+I', 'a', at[1], 10), ('+I', 'a', at[2], 30), ('+I', 'a', at[2], 37),
        ('+I', 'b', at[3], 5), ('+I', 'a', at[5], 40), ('+I', 'a', at[5], 44)], key=str)


def test_distinct_aggregates_over_windows_of_a_bounded_table_give_pyflinks_rows(
        t_env: Any, tmp_path: Any, monkeypatch: Any) -> None:
    (tmp_path / "ev").mkdir()
    (tmp_path / "ev" / "part-0.csv").write_text(_ROWS)
    monkeypatch.chdir(tmp_path)
    t_env.execute_sql(_TABLE.replace(", 'source.monitor-interval'='1s'", ""))
    result = t_env.execute_sql(
        "SELECT id, COUNT(DISTINCT amt) OVER w AS c, SUM(DISTINCT amt) OVER w AS s, "
        "MAX(DISTINCT d) OVER w AS m FROM ev "
        "WINDOW w AS (ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)")
    # Spark refuses DISTINCT in window functions: each is computed from the window's value set
    with result.collect() as iterator:
        rows = sorted(((str(r.get_row_kind()),) + tuple(r) for r in iterator), key=str)
    assert rows == sorted([
        ('+I', 1, 1, 10, 1.5), ('+I', 2, 2, 30, 2.25), ('+I', 3, 3, 32, 2.25), ('+I', 4, 3, 37, 2.25),
        ('+I', 5, 3, 15, 0.7), ('+I', 6, 3, 8, 0.7), ('+I', 7, 3, 12, 0.7), ('+I', 8, 3, 5, 0.3)],
        key=str)
