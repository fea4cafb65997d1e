"""Group windows that Flink refuses fail at the call with Flink's message; those it runs
(sessions without keys, a session table function partitioned by a key, windows of batch
mode on a column without a watermark) give its rows.

Every message and row below was recorded from live PyFlink 1.20.5 (parallelism 1) running the
same statements on the same input; rows are compared sorted (Spark emits windows of one
micro-batch in another order).
"""

from __future__ import annotations

from typing import Any, List

import pytest

from pyflink_compat.util.exceptions import TableException

_EVENTS = ("k,1,2024-03-01 10:00:10\nm,2,2024-03-01 10:00:40\nk,3,2024-03-01 10:01:20\n"
           "m,5,2024-03-01 10:03:01\nk,4,2024-03-01 10:03:00\n")
_WITH = "WITH ('connector'='filesystem','path'='in.csv','format'='csv')"
_SOURCE = ("CREATE TABLE src (k STRING, v BIGINT, ts TIMESTAMP(3), "
           "WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) " + _WITH)
# the same rows, without a watermark: ts is no time attribute
_PLAIN = "CREATE TABLE plain (k STRING, v BIGINT, ts TIMESTAMP(3)) " + _WITH


@pytest.fixture
def events(tmp_path: Any, monkeypatch: Any) -> Any:
    """A bounded csv of keyed events, in the test's working directory."""
    (tmp_path / "in.csv").write_text(_EVENTS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _rows(capsys: Any) -> List[str]:
    """The printed tableau's header and its rows, sorted."""
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("|")]
    return lines[:1] + sorted(lines[1:])


_NOT_A_TIME_ATTRIBUTE = (r"An error occurred while calling o\d+\.select\.\n: .*"
                         r"org\.apache\.flink\.table\.api\.ValidationException: A group window "
                         r"expects a time attribute for grouping in a stream environment\.")


def test_a_table_api_window_on_a_column_without_watermark_fails_at_select_in_streaming_mode(
        t_env: Any) -> None:
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Session, Slide, Tumble

    t_env.execute_sql(_PLAIN)
    table = t_env.from_path("plain")
    for window in (Tumble.over(lit(1).minutes).on(col("ts")).alias("w"),
                   Slide.over(lit(2).minutes).every(lit(1).minutes).on(col("ts")).alias("w"),
                   Session.with_gap(lit(1).minutes).on(col("ts")).alias("w"),
                   Tumble.over(lit(1).minutes).on(col("v")).alias("w")):
        # window and group_by are accepted; select is where Flink validates the window
        grouped = table.window(window).group_by(col("w"), col("k"))
        with pytest.raises(Py4JJavaError, match=_NOT_A_TIME_ATTRIBUTE):
            grouped.select(col("k"), col("v").sum)


def test_a_table_api_window_on_a_projected_rowtime_is_accepted_and_on_a_cast_one_refused(
        t_env: Any) -> None:
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Tumble

    t_env.execute_sql(_SOURCE)
    window = Tumble.over(lit(1).minutes).on(col("t")).alias("w")
    projected = t_env.from_path("src").select(col("k"), col("v"), col("ts").alias("t"))
    projected.window(window).group_by(col("w"), col("k")).select(col("k"), col("v").sum)
    cast = t_env.from_path("src").select(col("k"), col("v"), col("ts").cast(DataTypes.TIMESTAMP(3)).alias("t"))
    with pytest.raises(Py4JJavaError, match=_NOT_A_TIME_ATTRIBUTE):
        cast.window(window).group_by(col("w"), col("k")).select(col("k"), col("v").sum)


def test_sql_windows_on_a_column_without_watermark_fail_when_executed_with_flinks_errors(
        t_env: Any) -> None:
    from py4j.protocol import Py4JJavaError

    t_env.execute_sql(_PLAIN)
    legacy = "SELECT k, SUM(v) FROM plain GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)"
    table_function = ("SELECT window_start, SUM(v) FROM TABLE(TUMBLE(TABLE plain, DESCRIPTOR(ts), "
                      "INTERVAL '1' MINUTE)) GROUP BY window_start, window_end")
    # sql_query is lazy in Flink: the planner refuses the window when the query is executed
    t_env.sql_query(legacy)
    t_env.sql_query(table_function)
    with pytest.raises(TableException) as raised:
        t_env.execute_sql(legacy)
    assert str(raised.value) == (
        "org.apache.flink.table.api.TableException: Window aggregate can only be defined over a "
        "time attribute column, but TIMESTAMP(3) encountered.")
    with pytest.raises(Py4JJavaError, match=r"ValidationException: The window function requires "
                                            r"the timecol is a time attribute type, but is "
                                            r"TIMESTAMP\(3\)\."):
        t_env.execute_sql(table_function)


def test_a_table_api_window_on_a_column_without_watermark_runs_in_batch_mode(
        make_env: Any, events: Any, capsys: Any) -> None:
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Tumble

    t_env = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())
    t_env.execute_sql(_PLAIN)
    t_env.from_path("plain").window(Tumble.over(lit(2).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")).select(col("k"), col("w").start, col("v").sum) \
        .execute().print()
    assert _rows(capsys) == [
        '|                              k |                  EXPR$0 |               EXPR$1 |',
        '|                              k | 2024-03-01 10:00:00.000 |                    4 |',
        '|                              k | 2024-03-01 10:02:00.000 |                    4 |',
        '|                              m | 2024-03-01 10:00:00.000 |                    2 |',
        '|                              m | 2024-03-01 10:02:00.000 |                    5 |',
    ]


def test_a_session_window_without_keys_gives_the_sessions_of_all_rows(
        t_env: Any, events: Any, capsys: Any) -> None:
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Session

    t_env.execute_sql(_SOURCE)
    t_env.execute_sql("SELECT window_start, window_end, SUM(v) AS total FROM TABLE(SESSION("
                      "TABLE src, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) "
                      "GROUP BY window_start, window_end").print()
    assert _rows(capsys) == [
        '| op |            window_start |              window_end |                total |',
        '| +I | 2024-03-01 10:00:10.000 | 2024-03-01 10:02:20.000 |                    6 |',
        '| +I | 2024-03-01 10:03:00.000 | 2024-03-01 10:04:01.000 |                    9 |',
    ]
    t_env.from_path("src").window(Session.with_gap(lit(1).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w")).select(col("w").start, col("v").sum).execute().print()
    assert _rows(capsys) == [
        '| op |                  EXPR$0 |               EXPR$1 |',
        '| +I | 2024-03-01 10:00:10.000 |                    6 |',
        '| +I | 2024-03-01 10:03:00.000 |                    9 |',
    ]


def test_a_session_table_function_partitioned_by_a_key_gives_the_sessions_of_each_key(
        t_env: Any, events: Any, capsys: Any) -> None:
    t_env.execute_sql(_SOURCE)
    t_env.execute_sql("SELECT k, window_start, window_end, SUM(v) AS total FROM TABLE(SESSION("
                      "TABLE src PARTITION BY k, DESCRIPTOR(ts), INTERVAL '1' MINUTES)) "
                      "GROUP BY k, window_start, window_end").print()
    assert _rows(capsys) == [
        '| op |                              k |            window_start |              window_end |                total |',  # noqa: E501
        '| +I |                              k | 2024-03-01 10:00:10.000 | 2024-03-01 10:01:10.000 |                    1 |',  # noqa: E501
        '| +I |                              k | 2024-03-01 10:01:20.000 | 2024-03-01 10:02:20.000 |                    3 |',  # noqa: E501
        '| +I |                              k | 2024-03-01 10:03:00.000 | 2024-03-01 10:04:00.000 |                    4 |',  # noqa: E501
        '| +I |                              m | 2024-03-01 10:00:40.000 | 2024-03-01 10:01:40.000 |                    2 |',  # noqa: E501
        '| +I |                              m | 2024-03-01 10:03:01.000 | 2024-03-01 10:04:01.000 |                    5 |',  # noqa: E501
    ]


def test_selecting_star_of_a_window_aggregate_fails_at_the_call_as_in_pyflink(t_env: Any) -> None:
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.udf import udaf
    from pyflink_compat.table.window import Tumble

    t_env.execute_sql(_SOURCE)
    aggregated = t_env.from_path("src").window(Tumble.over(lit(1).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")).aggregate(udaf(_total())(col("v")).alias("s"))
    with pytest.raises(Py4JJavaError, match=r"o\d+\.select\.\n: .*ValidationException: Can not use "
                                            r"\* for window aggregate!"):
        aggregated.select(col("*"))
    # PyFlink 1.20 takes expressions only
    with pytest.raises(AttributeError, match="'str' object has no attribute '_j_expr'"):
        aggregated.select("*")


def test_a_window_table_function_on_a_column_that_is_no_timestamp_fails_at_sql_query_in_both_modes(
        make_env: Any) -> None:
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment

    hop = ("HOP(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval"
           "[, datetime interval])")
    session = ("SESSION(TABLE table_name [PARTITION BY (keycols, ...)], DESCRIPTOR(timecol), "
               "datetime interval)")
    for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
        t_env = StreamTableEnvironment.create(make_env(), settings)
        t_env.execute_sql("CREATE TABLE plain (k STRING, v BIGINT, ts TIMESTAMP(3)) " + _WITH)
        for query, method, signature, type_text in (
                ("SELECT * FROM TABLE(HOP(TABLE plain, DESCRIPTOR(v), INTERVAL '1' MINUTE, "
                 "INTERVAL '2' MINUTE))", "sqlQuery", hop, "BIGINT"),
                ("SELECT k, window_start, SUM(v) FROM TABLE(SESSION(TABLE plain PARTITION BY k, "
                 "DESCRIPTOR(k), INTERVAL '1' MINUTE)) GROUP BY k, window_start, window_end",
                 "executeSql", session, "VARCHAR(2147483647)")):
            with pytest.raises(Py4JJavaError) as raised:
                t_env.sql_query(query) if method == "sqlQuery" else t_env.execute_sql(query)
            text = str(raised.value)
            assert "o0.{}.".format(method) in text
            assert ("ValidationException: SQL validation failed. The window function {} requires "
                    "the timecol to be TIMESTAMP or TIMESTAMP_LTZ, but is {}.\nBesides, the "
                    "timecol must be a time attribute type in streaming mode.".format(
                        signature, type_text)) in text


def test_a_window_aggregate_selects_the_windows_properties_as_pyflink_does(
        t_env: Any, events: Any, capsys: Any) -> None:
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.udf import udaf
    from pyflink_compat.table.window import Tumble

    t_env.execute_sql(_SOURCE)
    total = udaf(_total())
    t_env.from_path("src").window(Tumble.over(lit(1).minutes).on(col("ts")).alias("w")) \
        .group_by(col("w"), col("k")).aggregate(total(col("v")).alias("s")) \
        .select(col("k"), col("s"), col("w").start).execute().print()
    assert _rows(capsys) == [
        '| op |                              k |                    s |                  EXPR$0 |',
        '| +I |                              k |                    1 | 2024-03-01 10:00:00.000 |',
        '| +I |                              k |                    3 | 2024-03-01 10:01:00.000 |',
        '| +I |                              k |                    4 | 2024-03-01 10:03:00.000 |',
        '| +I |                              m |                    2 | 2024-03-01 10:00:00.000 |',
        '| +I |                              m |                    5 | 2024-03-01 10:03:00.000 |',
    ]


def _total() -> Any:
    """A general Python aggregate function summing its argument."""
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.udf import AggregateFunction

    class Total(AggregateFunction):
        def create_accumulator(self) -> List[int]:
            return [0]

        def accumulate(self, accumulator: List[int], value: int) -> None:
            accumulator[0] += value

        def get_value(self, accumulator: List[int]) -> int:
            return accumulator[0]

        def get_result_type(self) -> Any:
            return DataTypes.BIGINT()

        def get_accumulator_type(self) -> Any:
            return DataTypes.ARRAY(DataTypes.BIGINT())

    return Total()


_CANNOT_APPLY = ("ValidationException: {}SQL validation failed. From {}: Cannot apply '${}' to arguments "
                 "of type '${}({})'. Supported form(s): '${}({})'\n'${}({}, <TIME>)'")


def _cannot_apply(kind: str, place: str, arguments: str, insert: bool = False) -> str:
    form = "<DATETIME>, <DATETIME_INTERVAL>" + (", <DATETIME_INTERVAL>" if kind == "HOP" else "")
    return _CANNOT_APPLY.format("SQL validation failed. " if insert else "", place, kind, kind,
                                arguments, kind, form, kind, form)


def test_a_legacy_group_window_on_a_column_that_is_no_timestamp_fails_at_the_call_with_flinks_place(
        make_env: Any) -> None:
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment

    # each message as PyFlink 1.20.5 gave it (in both modes), with the call's place in the text
    cases = [
        ("SELECT k, SUM(v) FROM src GROUP BY k, TUMBLE(v, INTERVAL '1' MINUTE)",
         "TUMBLE", "line 1, column 39 to line 1, column 68", "<BIGINT>, <INTERVAL MINUTE>"),
        ("SELECT k, SUM(v) FROM src GROUP BY TUMBLE(k, INTERVAL '1' MINUTE), k",
         "TUMBLE", "line 1, column 36 to line 1, column 65", "<VARCHAR(2147483647)>, <INTERVAL MINUTE>"),
        ("SELECT k, SUM(v) FROM src\nGROUP BY HOP(v, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE), k",
         "HOP", "line 2, column 10 to line 2, column 57",
         "<BIGINT>, <INTERVAL MINUTE>, <INTERVAL MINUTE>"),
        ("\n  SELECT k, SUM(v)\n  FROM src\n  GROUP BY k, SESSION(v, INTERVAL '1' HOUR)\n",
         "SESSION", "line 4, column 15 to line 4, column 43", "<BIGINT>, <INTERVAL HOUR>"),
        ("SELECT k, TUMBLE_START(v, INTERVAL '1' MINUTE), SUM(v) FROM src GROUP BY k, "
         "TUMBLE(v, INTERVAL '1' MINUTE)",
         "TUMBLE", "line 1, column 77 to line 1, column 106", "<BIGINT>, <INTERVAL MINUTE>"),
        ("SELECT k, SUM(v) FROM (SELECT k, v, CAST(v AS INT) AS i FROM src) GROUP BY k, "
         "TUMBLE(i, INTERVAL '1' MINUTE)",
         "TUMBLE", "line 1, column 79 to line 1, column 108", "<INTEGER>, <INTERVAL MINUTE>"),
        ("SELECT k, SUM(t) FROM vw GROUP BY k, TUMBLE(t, INTERVAL '10' SECOND)",
         "TUMBLE", "line 1, column 38 to line 1, column 68", "<BIGINT>, <INTERVAL SECOND>"),
        ("SELECT k, SUM(v) FROM src GROUP BY k, HOP(v, INTERVAL '1' DAY, INTERVAL '2' HOUR)",
         "HOP", "line 1, column 39 to line 1, column 81", "<BIGINT>, <INTERVAL DAY>, <INTERVAL HOUR>"),
        ("WITH x AS (SELECT k, v FROM src) SELECT k, SUM(v) FROM x GROUP BY k, "
         "TUMBLE(v, INTERVAL '1' MINUTE)",
         "TUMBLE", "line 1, column 70 to line 1, column 99", "<BIGINT>, <INTERVAL MINUTE>"),
    ]
    for settings in (EnvironmentSettings.in_streaming_mode(), EnvironmentSettings.in_batch_mode()):
        t_env = StreamTableEnvironment.create(make_env(), settings)
        t_env.execute_sql(_SOURCE)
        t_env.execute_sql("CREATE VIEW vw AS SELECT k, v AS t FROM src")
        for query, kind, place, arguments in cases:
            for method in ("sqlQuery", "executeSql"):
                with pytest.raises(Py4JJavaError) as raised:
                    t_env.sql_query(query) if method == "sqlQuery" else t_env.execute_sql(query)
                assert "o0.{}.".format(method) in str(raised.value)
                assert _cannot_apply(kind, place, arguments) in str(raised.value), query
    # an INSERT says twice that the validation failed, at executeSql and addInsertSql
    t_env.execute_sql("CREATE TABLE snk (k STRING, s BIGINT) WITH ('connector'='print')")
    insert = "INSERT INTO snk SELECT k, SUM(v) FROM src GROUP BY k, TUMBLE(v, INTERVAL '1' MINUTE)"
    expected = _cannot_apply("TUMBLE", "line 1, column 55 to line 1, column 84",
                             "<BIGINT>, <INTERVAL MINUTE>", insert=True)
    with pytest.raises(Py4JJavaError, match=r"o0\.executeSql\.") as raised:
        t_env.execute_sql(insert)
    assert expected in str(raised.value)
    with pytest.raises(Py4JJavaError, match=r"o0\.addInsertSql\.") as raised:
        t_env.create_statement_set().add_insert_sql(insert)
    assert expected in str(raised.value)
