"""Group windows (Flink SQL's windowing table functions and GROUP BY TUMBLE/HOP/SESSION, the
Table API's ``window``) run on Spark and give PyFlink's rows.

Every expected output below was recorded from live PyFlink 1.20.5 running the same statements
(parallelism 1) on the same input. Rows of one result arrive in another order on Spark, so
the rows are compared sorted.
"""

from __future__ import annotations

from typing import Any, List

import pytest

from pyflink_compat.missing import NotSupportedError

_SOURCE = ("CREATE TABLE src (k STRING, v BIGINT, ts TIMESTAMP(3), "
           "WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
           "WITH ('connector'='filesystem','path'='in.csv','format'='csv')")


@pytest.fixture
def events(tmp_path: Any, monkeypatch: Any) -> Any:
    """A bounded csv of keyed events (the last one a second out of order), in the test's working directory."""
    (tmp_path / "in.csv").write_text("k,1,2024-03-01 10:00:10\nm,2,2024-03-01 10:00:40\n"
                                     "k,3,2024-03-01 10:01:20\nm,5,2024-03-01 10:03:01\n"
                                     "k,4,2024-03-01 10:03:00\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tableau(capsys: Any) -> List[str]:
    """The printed tableau: its header lines as printed, then its rows sorted, then the count."""
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("|", "+"))
             or line.endswith("in set")]
    header, rows = lines[:3], [line for line in lines[3:] if line.startswith("|")]
    return header + sorted(rows) + [lines[-1]]


def test_a_legacy_tumble_window_gives_its_properties_and_the_end_of_input_fires_the_last_windows(
        t_env: Any, events: Any, capsys: Any) -> None:
    t_env.execute_sql(_SOURCE)
    t_env.execute_sql(
        "SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, TUMBLE_END(ts, INTERVAL '1' MINUTE) AS e, "
        "TUMBLE_ROWTIME(ts, INTERVAL '1' MINUTE) AS rt, SUM(v) AS total FROM src WHERE v > 1 "
        "GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)").print()
    assert _tableau(capsys) == [
        '+----+--------------------------------+-------------------------+-------------------------+-------------------------+----------------------+',  # noqa: E501
        '| op |                              k |                       s |                       e |                      rt |                total |',  # noqa: E501
        '+----+--------------------------------+-------------------------+-------------------------+-------------------------+----------------------+',  # noqa: E501
        '| +I |                              k | 2024-03-01 10:01:00.000 | 2024-03-01 10:02:00.000 | 2024-03-01 10:01:59.999 |                    3 |',  # noqa: E501
        '| +I |                              k | 2024-03-01 10:03:00.000 | 2024-03-01 10:04:00.000 | 2024-03-01 10:03:59.999 |                    4 |',  # noqa: E501
        '| +I |                              m | 2024-03-01 10:00:00.000 | 2024-03-01 10:01:00.000 | 2024-03-01 10:00:59.999 |                    2 |',  # noqa: E501
        '| +I |                              m | 2024-03-01 10:03:00.000 | 2024-03-01 10:04:00.000 | 2024-03-01 10:03:59.999 |                    5 |',  # noqa: E501
        '4 rows in set',
    ]


def test_a_hop_table_function_groups_by_window_start_and_end(t_env: Any, events: Any, capsys: Any) -> None:
    t_env.execute_sql(_SOURCE)
    t_env.execute_sql("SELECT window_start, window_end, COUNT(*) AS n, MAX(v) AS top FROM TABLE(HOP(TABLE src, "
                      "DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '2' MINUTES)) "
                      "GROUP BY window_start, window_end").print()
    assert _tableau(capsys) == [
        '+----+-------------------------+-------------------------+----------------------+----------------------+',  # noqa: E501
        '| op |            window_start |              window_end |                    n |                  top |',  # noqa: E501
        '+----+-------------------------+-------------------------+----------------------+----------------------+',  # noqa: E501
        '| +I | 2024-03-01 09:59:00.000 | 2024-03-01 10:01:00.000 |                    2 |                    2 |',  # noqa: E501
        '| +I | 2024-03-01 10:00:00.000 | 2024-03-01 10:02:00.000 |                    3 |                    3 |',  # noqa: E501
        '| +I | 2024-03-01 10:01:00.000 | 2024-03-01 10:03:00.000 |                    1 |                    3 |',  # noqa: E501
        '| +I | 2024-03-01 10:02:00.000 | 2024-03-01 10:04:00.000 |                    2 |                    5 |',  # noqa: E501
        '| +I | 2024-03-01 10:03:00.000 | 2024-03-01 10:05:00.000 |                    2 |                    5 |',  # noqa: E501
        '5 rows in set',
    ]


def test_a_table_api_tumble_window_in_batch_mode_names_its_unnamed_columns_as_flink_does(
        make_env: Any, events: Any, capsys: Any) -> None:
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Tumble

    t_env = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())
    t_env.execute_sql(_SOURCE)
    t_env.from_path("src").window(Tumble.over(lit(2).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")) \
        .select(col("k"), col("w").start, col("w").end, col("v").sum).execute().print()
    assert _tableau(capsys) == [
        '+--------------------------------+-------------------------+-------------------------+----------------------+',  # noqa: E501
        '|                              k |                  EXPR$0 |                  EXPR$1 |               EXPR$2 |',  # noqa: E501
        '+--------------------------------+-------------------------+-------------------------+----------------------+',  # noqa: E501
        '|                              k | 2024-03-01 10:00:00.000 | 2024-03-01 10:02:00.000 |                    4 |',  # noqa: E501
        '|                              k | 2024-03-01 10:02:00.000 | 2024-03-01 10:04:00.000 |                    4 |',  # noqa: E501
        '|                              m | 2024-03-01 10:00:00.000 | 2024-03-01 10:02:00.000 |                    2 |',  # noqa: E501
        '|                              m | 2024-03-01 10:02:00.000 | 2024-03-01 10:04:00.000 |                    5 |',  # noqa: E501
        '4 rows in set',
    ]


def test_a_table_api_session_window_closes_a_session_after_the_gap(
        t_env: Any, events: Any, capsys: Any) -> None:
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Session

    t_env.execute_sql(_SOURCE)
    t_env.from_path("src").window(Session.with_gap(lit(1).minutes).on(col("ts")).alias("w")) \
        .group_by(col("k"), col("w")) \
        .select(col("k"), col("w").start, col("w").end, col("v").sum.alias("total")).execute().print()
    assert _tableau(capsys) == [
        '+----+--------------------------------+-------------------------+-------------------------+----------------------+',  # noqa: E501
        '| op |                              k |                  EXPR$0 |                  EXPR$1 |                total |',  # noqa: E501
        '+----+--------------------------------+-------------------------+-------------------------+----------------------+',  # noqa: E501
        '| +I |                              k | 2024-03-01 10:00:10.000 | 2024-03-01 10:01:10.000 |                    1 |',  # noqa: E501
        '| +I |                              k | 2024-03-01 10:01:20.000 | 2024-03-01 10:02:20.000 |                    3 |',  # noqa: E501
        '| +I |                              k | 2024-03-01 10:03:00.000 | 2024-03-01 10:04:00.000 |                    4 |',  # noqa: E501
        '| +I |                              m | 2024-03-01 10:00:40.000 | 2024-03-01 10:01:40.000 |                    2 |',  # noqa: E501
        '| +I |                              m | 2024-03-01 10:03:01.000 | 2024-03-01 10:04:01.000 |                    5 |',  # noqa: E501
        '5 rows in set',
    ]


def test_an_over_window_of_an_unbounded_table_over_a_processing_time_interval_is_refused_naming_the_pyspark_way(
        t_env: Any) -> None:
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Over

    t_env.execute_sql("CREATE TABLE g (k INT, ts TIMESTAMP(3), pt AS PROCTIME(), "
                      "WATERMARK FOR ts AS ts) WITH ('connector'='datagen')")
    window = Over.partition_by(col("k")).order_by(col("pt")).preceding(
        lit(1).seconds).alias("w")
    with pytest.raises(NotSupportedError, match="RANGE frame with a preceding interval over the "
                                                "processing-time attribute 'pt'.*rangeBetween"):
        t_env.from_path("g").over_window(window).select(col("k"), col("k").count.over(col("w"))).execute()


def test_a_count_window_of_the_table_api_is_refused_at_the_call() -> None:
    from pyflink_compat.table.expressions import lit
    from pyflink_compat.table.window import Tumble

    with pytest.raises(NotSupportedError, match="time interval"):
        Tumble.over(lit(10))


def test_a_row_behind_the_watermark_of_earlier_rows_of_the_same_micro_batch_is_counted(
        t_env: Any, tmp_path: Any, monkeypatch: Any, capsys: Any) -> None:
    # divergence 'window-lateness-per-micro-batch': Spark reads the file in one micro-batch and
    # raises the watermark after it, so 10:00:20 is not late; Flink may drop it
    (tmp_path / "in.csv").write_text("k,1,2024-03-01 10:00:10\nk,2,2024-03-01 10:05:00\n"
                                     "k,3,2024-03-01 10:00:20\n")
    monkeypatch.chdir(tmp_path)
    t_env.execute_sql(_SOURCE)
    t_env.execute_sql("SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, SUM(v) AS total FROM src "
                      "GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)").print()
    rows = [line for line in _tableau(capsys) if line.startswith("| +I")]
    assert [line.split("|")[2:4] for line in rows] == [
        [" 2024-03-01 10:00:00.000 ", "                    4 "],
        [" 2024-03-01 10:05:00.000 ", "                    2 "]]


def test_a_processing_time_window_of_an_unbounded_query_is_refused_before_any_query_starts(
        t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE gen (v INT, pt AS PROCTIME()) WITH ('connector'='datagen')")
    with pytest.raises(NotSupportedError, match="window on 'pt', which has no watermark.*"
                                                "outputMode"):
        t_env.execute_sql("SELECT TUMBLE_START(pt, INTERVAL '1' SECOND), COUNT(*) FROM gen "
                          "GROUP BY TUMBLE(pt, INTERVAL '1' SECOND)")


_PLAIN = ("CREATE TABLE plain (a INT, b STRING, ts TIMESTAMP(3)) "
          "WITH ('connector'='datagen','number-of-rows'='3')")


@pytest.mark.parametrize("query, error, message", [
    ("SELECT b, SUM(a) FROM plain GROUP BY b, TUMBLE(ts, INTERVAL '1' SECOND)", "TableException",
     "org.apache.flink.table.api.TableException: Window aggregate can only be defined over a time "
     "attribute column, but TIMESTAMP(3) encountered."),
    ("SELECT b, SUM(a) FROM plain GROUP BY b, SESSION(ts, INTERVAL '1' SECOND)", "TableException",
     "org.apache.flink.table.api.TableException: Window aggregate can only be defined over a time "
     "attribute column, but TIMESTAMP(3) encountered."),
    ("SELECT b, SUM(a) FROM TABLE(HOP(TABLE plain, DESCRIPTOR(ts), INTERVAL '1' SECOND, "
     "INTERVAL '2' SECOND)) GROUP BY b, window_start, window_end", "JavaRuntimeError",
     "org.apache.flink.table.api.ValidationException: The window function requires the timecol "
     "is a time attribute type, but is TIMESTAMP(3)."),
    ("SELECT * FROM TABLE(TUMBLE(TABLE plain, DESCRIPTOR(ts), INTERVAL '1' SECOND))",
     "JavaRuntimeError",
     "org.apache.flink.table.api.ValidationException: The window function requires the timecol "
     "is a time attribute type, but is TIMESTAMP(3)."),
])
def test_a_streaming_window_on_a_column_without_watermark_fails_at_execute_with_flinks_message(
        t_env: Any, query: str, error: str, message: str) -> None:
    t_env.execute_sql(_PLAIN)
    table = t_env.sql_query(query)  # Flink validates the window when the query is planned
    with pytest.raises(Exception) as raised:
        t_env.execute_sql(query)
    assert type(raised.value).__name__ == error
    assert message in str(raised.value)
    assert table is not None


def test_a_table_api_window_on_a_plain_column_fails_at_select_in_streaming_mode_only(
        make_env: Any) -> None:
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Tumble
    from pyflink_compat.util.exceptions import JavaRuntimeError

    flink = ("org.apache.flink.table.api.ValidationException: A group window expects a time "
             "attribute for grouping in a stream environment.")
    streaming = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    rows = streaming.from_elements([(1, "a", 1000), (2, "b", 2000)], ["a", "b", "ts"])
    grouped = rows.window(Tumble.over(lit(1).seconds).on(col("ts")).alias("w")).group_by(
        col("w"), col("b"))  # window and group_by pass, as in PyFlink
    with pytest.raises(JavaRuntimeError, match=flink):
        grouped.select(col("b"), col("a").sum)
    streaming.execute_sql(_PLAIN)
    with pytest.raises(JavaRuntimeError, match=flink):
        streaming.from_path("plain").window(Tumble.over(lit(1).seconds).on(col("ts")).alias("w")) \
            .group_by(col("w"), col("b")).select(col("b"), col("a").sum)

    batch = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    rows = batch.from_elements([(1, "a", 1000), (2, "b", 2000)], ["a", "b", "ts"])
    assert rows.window(Tumble.over(lit(1).seconds).on(col("ts")).alias("w")).group_by(
        col("w"), col("b")).select(col("b"), col("a").sum) is not None
