"""Joins, sorts (``order_by``/``offset``/``fetch``, ``ORDER BY``/``LIMIT``) and over windows (SQL
``OVER`` and the Table API's ``over_window``) run on Spark and give PyFlink's rows, and what
Flink's streaming planner refuses is refused with its messages.

Every expected output below was recorded from live PyFlink 1.20.5 running the same calls on the
same input. Where Flink's streaming planner prints rows that a later row deletes (an outer
join's row padded with NULL, a Top-N's replaced rows), the final rows are compared (registered
divergence 'table-bounded-query-final-rows').
"""

from __future__ import annotations

from typing import Any, Callable, List

import pytest

from pyflink_compat.missing import NotSupportedError
from pyflink_compat.util.exceptions import TableException

_EVENTS = ("CREATE TABLE ev (id INT, k STRING, amt INT, ts TIMESTAMP(3), "
           "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
           "WITH ('connector'='filesystem','path'='ev.csv','format'='csv')")


@pytest.fixture
def events(tmp_path: Any, monkeypatch: Any) -> Any:
    """A bounded csv of keyed events in time order, in the test's working directory."""
    (tmp_path / "ev.csv").write_text(
        "1,a,10,2024-01-01 00:00:01\n2,a,20,2024-01-01 00:00:02\n3,b,5,2024-01-01 00:00:03\n"
        "4,a,7,2024-01-01 00:00:05\n5,b,1,2024-01-01 00:00:09\n6,a,3,2024-01-01 00:00:12\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _rows(table_or_result: Any) -> List[Any]:
    result = table_or_result.execute() if hasattr(table_or_result, "execute") else table_or_result
    return [tuple(row) for row in result.collect()]


def _tables(t_env: Any) -> Any:
    left = t_env.from_elements([(1, 'x'), (2, 'y'), (3, 'z')], ['id', 'v'])
    right = t_env.from_elements([(1, 10), (3, 30), (4, 40)], ['rid', 'w'])
    return left, right


def test_table_joins_give_pyflinks_final_rows(t_env: Any) -> None:
    from pyflink_compat.table.expressions import col

    left, right = _tables(t_env)
    on = col('id') == col('rid')
    assert sorted(_rows(left.join(right, on))) == [(1, 'x', 1, 10), (3, 'z', 3, 30)]
    assert sorted(_rows(left.left_outer_join(right, on)), key=str) == [
        (1, 'x', 1, 10), (2, 'y', None, None), (3, 'z', 3, 30)]
    assert sorted(_rows(left.full_outer_join(right, on)), key=str) == [
        (1, 'x', 1, 10), (2, 'y', None, None), (3, 'z', 3, 30), (None, None, 4, 40)]
    # without a predicate: every pair
    assert len(_rows(left.join(right))) == 9


def test_a_join_of_tables_with_a_common_column_name_fails_at_the_call_as_in_pyflink(
        t_env: Any) -> None:
    from py4j.protocol import Py4JJavaError

    left, _ = _tables(t_env)
    other = t_env.from_elements([(1, 10)], ['id', 'w'])
    with pytest.raises(Py4JJavaError, match=r"ValidationException: join relations with "
                                            r"ambiguous names: \[id\]"):
        left.join(other)


def test_column_operations_add_replace_rename_and_drop_columns_as_pyflink(t_env: Any) -> None:
    from pyflink_compat.table.expressions import col, concat

    left, _ = _tables(t_env)
    added = left.add_columns(col('id') + 1, concat(col('v'), 'a'))
    assert added.get_schema().get_field_names() == ['id', 'v', '_c2', '_c3']
    replaced = left.add_or_replace_columns(concat(col('v'), '!').alias('v'), col('id').alias('n'))
    renamed = replaced.rename_columns(col('n').alias('m')).drop_columns(col('id'))
    assert renamed.get_schema().get_field_names() == ['v', 'm']
    assert sorted(_rows(renamed)) == [('x!', 1), ('y!', 2), ('z!', 3)]


def test_sorts_with_a_fetch_run_in_streaming_mode_and_give_the_first_rows(t_env: Any) -> None:
    from pyflink_compat.table.expressions import col

    left, _ = _tables(t_env)
    assert _rows(left.order_by(col('id').desc).fetch(2)) == [(3, 'z'), (2, 'y')]
    assert _rows(left.order_by(col('v')).limit(1, 1)) == [(2, 'y')]
    assert _rows(left.fetch(2)) == [(1, 'x'), (2, 'y')]
    assert _rows(t_env.execute_sql("SELECT * FROM %s ORDER BY id DESC LIMIT 2" % left)) == [
        (3, 'z'), (2, 'y')]


def test_flinks_streaming_rules_for_sorts_are_kept_with_its_messages(t_env: Any) -> None:
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.table.expressions import col

    left, _ = _tables(t_env)
    with pytest.raises(TableException, match="Sort on a non-time-attribute field is not supported."):
        left.order_by(col('id').desc).execute()
    with pytest.raises(TableException, match="FETCH is missed, which on streaming table is not "
                                             "supported currently."):
        left.order_by(col('id')).offset(1).execute()
    with pytest.raises(Py4JJavaError, match="FETCH is already defined."):
        left.fetch(1).fetch(2)


def test_in_batch_mode_a_sort_and_an_offset_run(make_env: Callable[..., Any], spark: Any) -> None:
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment
    from pyflink_compat.table.expressions import col

    batch = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())
    left, _ = _tables(batch)
    assert _rows(left.order_by(col('id').desc)) == [(3, 'z'), (2, 'y'), (1, 'x')]
    assert _rows(left.order_by(col('id').desc).offset(1)) == [(2, 'y'), (1, 'x')]


def test_sql_over_windows_of_rows_and_of_a_time_range_give_pyflinks_rows(
        t_env: Any, events: Any) -> None:
    t_env.execute_sql(_EVENTS)
    rows = _rows(t_env.execute_sql(
        "SELECT id, SUM(amt) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING AND "
        "CURRENT ROW) AS s, COUNT(*) OVER (PARTITION BY k ORDER BY ts ROWS BETWEEN 1 PRECEDING "
        "AND CURRENT ROW) AS c, MAX(amt) OVER (PARTITION BY k ORDER BY ts RANGE BETWEEN "
        "INTERVAL '3' SECOND PRECEDING AND CURRENT ROW) AS mx FROM ev"))
    assert sorted(rows) == [(1, 10, 1, 10), (2, 30, 2, 20), (3, 5, 1, 5), (4, 27, 2, 20),
                            (5, 6, 2, 1), (6, 10, 2, 3)]
    rows = _rows(t_env.execute_sql(
        "SELECT id, AVG(amt) OVER w AS a, MIN(amt) OVER w AS mn FROM ev "
        "WINDOW w AS (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)"))
    # AVG of an INT is an INT in Flink
    assert sorted(rows) == [(1, 10, 10), (2, 15, 10), (3, 11, 5), (4, 10, 5), (5, 8, 1),
                            (6, 7, 1)]


def test_table_api_over_windows_give_pyflinks_rows(t_env: Any, events: Any) -> None:
    from pyflink_compat.table.expressions import UNBOUNDED_ROW, CURRENT_ROW, col, lit, row_interval
    from pyflink_compat.table.window import Over

    t_env.execute_sql(_EVENTS)
    ev = t_env.from_path('ev')
    over_rows = ev.over_window(Over.partition_by(col('k')).order_by(col('ts'))
                               .preceding(row_interval(1)).alias('w')) \
        .select(col('id'), col('amt').sum.over(col('w')), col('amt').max.over(col('w')).alias('mx'))
    assert over_rows.get_schema().get_field_names() == ['id', '_c1', 'mx']
    assert sorted(_rows(over_rows)) == [(1, 10, 10), (2, 30, 20), (3, 5, 5), (4, 27, 20),
                                        (5, 6, 5), (6, 10, 7)]
    over_range = ev.over_window(Over.partition_by(col('k')).order_by(col('ts'))
                                .preceding(lit(3).seconds).alias('w')) \
        .select(col('id'), col('amt').sum.over(col('w')).alias('s'))
    assert sorted(_rows(over_range)) == [(1, 10), (2, 30), (3, 5), (4, 27), (5, 1), (6, 3)]
    unbounded = ev.over_window(Over.partition_by(col('k')).order_by(col('ts'))
                               .preceding(UNBOUNDED_ROW).following(CURRENT_ROW).alias('w')) \
        .select(col('id'), col('amt').avg.over(col('w')).alias('c'))
    assert sorted(_rows(unbounded)) == [(1, 10), (2, 15), (3, 5), (4, 12), (5, 3), (6, 10)]


def test_an_over_window_not_ordered_by_a_time_attribute_is_refused_in_streaming_mode(
        t_env: Any, events: Any) -> None:
    t_env.execute_sql(_EVENTS)
    with pytest.raises(TableException, match="OVER windows' ordering in stream mode must be "
                                             "defined on a time attribute."):
        t_env.execute_sql("SELECT id, SUM(amt) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 "
                          "PRECEDING AND CURRENT ROW) AS s FROM ev")


def test_a_ranking_over_window_of_an_unbounded_table_is_not_supported_and_names_the_pyspark_way(
        t_env: Any) -> None:
    # over windows of aggregates run (tests/table/test_over_aggregation.py)
    t_env.execute_sql("CREATE TABLE g (k INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                      "WITH ('connector'='datagen')")
    with pytest.raises(NotSupportedError, match="pyspark.sql.Window"):
        t_env.execute_sql("SELECT k, ROW_NUMBER() OVER (ORDER BY ts) AS r FROM g")


def test_explain_gives_sparks_logical_plan_and_accepts_flinks_details(t_env: Any) -> None:
    # divergence 'table-explain-spark-plan': PyFlink gives Flink's plans
    from pyflink_compat.table import ExplainDetail

    left, _ = _tables(t_env)
    plan = left.explain(ExplainDetail.PLAN_ADVICE)
    assert plan.startswith("== Parsed Logical Plan ==") and "== Analyzed Logical Plan ==" in plan
    assert t_env.explain_sql("SELECT * FROM %s" % left).startswith("== Parsed Logical Plan ==")


def test_an_aggregate_of_a_distinct_table_gives_the_final_value_in_batch_mode(
        make_env: Callable[..., Any], spark: Any) -> None:
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment
    from pyflink_compat.table.expressions import col

    batch = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())
    prices = batch.from_elements([(1.5,), (2.5,), (1.5,), (4.0,)], ['p'])
    assert _rows(prices.select(col('p')).distinct().select(col('p').avg.alias('a'))) == [
        (8.0 / 3,)]


def test_from_pandas_then_to_pandas_gives_the_frames_rows_in_order(t_env: Any) -> None:
    # as recorded from live PyFlink 1.20.5 (parallelism 1): the same values, in order, float64
    import numpy as np
    import pandas as pd

    from pyflink_compat.table import DataTypes

    t_env.get_config().set("parallelism.default", "1")
    pdf = pd.DataFrame(np.random.default_rng(7).random((1000, 2)))
    table = t_env.from_pandas(pdf, schema=DataTypes.ROW([DataTypes.FIELD("a", DataTypes.DOUBLE()),
                                                         DataTypes.FIELD("b", DataTypes.DOUBLE())]))
    out = table.to_pandas()
    assert list(out.columns) == ['a', 'b'] and [str(d) for d in out.dtypes] == ['float64', 'float64']
    assert list(out.index) == list(range(1000))
    assert (out.values == pdf.values).all()


def test_a_cumulate_window_of_a_bounded_table_gives_pyflinks_windows(
        t_env: Any, events: Any, capsys: Any) -> None:
    t_env.execute_sql(_EVENTS)
    t_env.execute_sql(
        "SELECT window_start, window_end, k, SUM(amt) AS s, COUNT(*) AS c FROM TABLE(CUMULATE("
        "TABLE ev, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '6' SECOND)) "
        "GROUP BY window_start, window_end, k").print()
    rows = sorted(line for line in capsys.readouterr().out.splitlines() if line.startswith("| +I"))
    assert rows == [
        '| +I | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:02.000 |                              a |          10 |                    1 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:04.000 |                              a |          30 |                    2 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:04.000 |                              b |           5 |                    1 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:06.000 |                              a |          37 |                    3 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:00.000 | 2024-01-01 00:00:06.000 |                              b |           5 |                    1 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:06.000 | 2024-01-01 00:00:10.000 |                              b |           1 |                    1 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:06.000 | 2024-01-01 00:00:12.000 |                              b |           1 |                    1 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:14.000 |                              a |           3 |                    1 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:16.000 |                              a |           3 |                    1 |',  # noqa: E501
        '| +I | 2024-01-01 00:00:12.000 | 2024-01-01 00:00:18.000 |                              a |           3 |                    1 |',  # noqa: E501
    ]


def test_a_cumulate_window_of_an_unbounded_table_is_not_supported(t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE g (k INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                      "WITH ('connector'='datagen')")
    with pytest.raises(NotSupportedError, match="CUMULATE window of an unbounded table"):
        t_env.execute_sql("SELECT window_start, COUNT(*) FROM TABLE(CUMULATE(TABLE g, DESCRIPTOR(ts), "
                          "INTERVAL '1' SECOND, INTERVAL '4' SECOND)) GROUP BY window_start, window_end")


def _bags(t_env: Any) -> Any:
    left = t_env.from_elements([(1, "a"), (2, "b"), (2, "b"), (3, "c"), (3, "c"), (3, "c")],
                               ["n", "s"])
    right = t_env.from_elements([(2, "b"), (3, "c"), (4, "d")], ["n", "s"])
    t_env.create_temporary_view("l", left)
    t_env.create_temporary_view("r", right)
    return left, right


def test_sql_set_operations_of_bounded_tables_give_pyflinks_final_rows(t_env: Any) -> None:
    _bags(t_env)

    def rows(operation: str) -> List[Any]:
        return sorted(_rows(t_env.execute_sql("SELECT * FROM l {} SELECT * FROM r".format(operation))))

    assert rows("UNION") == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]
    assert rows("UNION ALL") == [(1, "a"), (2, "b"), (2, "b"), (2, "b"), (3, "c"), (3, "c"),
                                 (3, "c"), (3, "c"), (4, "d")]
    assert rows("EXCEPT") == [(1, "a")]
    assert rows("EXCEPT ALL") == [(1, "a"), (2, "b"), (3, "c"), (3, "c")]
    assert rows("INTERSECT") == [(2, "b"), (3, "c")]
    assert rows("INTERSECT ALL") == [(2, "b"), (3, "c")]


def test_a_union_of_streams_prints_each_distinct_row_once_as_an_insert(
        t_env: Any, capsys: Any) -> None:
    t_env.execute_sql("CREATE TABLE g (k INT) WITH ('connector'='datagen', 'number-of-rows'='4', "
                      "'fields.k.kind'='sequence', 'fields.k.start'='1', 'fields.k.end'='4')")
    t_env.execute_sql("SELECT k % 2 AS p FROM g UNION SELECT k FROM g WHERE k > 2").print()
    printed = capsys.readouterr().out.splitlines()
    assert sorted(line for line in printed if line.startswith("| +")) == [
        "| +I |           0 |", "| +I |           1 |", "| +I |           3 |",
        "| +I |           4 |"]


def test_table_set_operations_run_in_batch_mode_and_are_refused_in_streaming_mode_as_in_pyflink(
        t_env: Any, make_env: Callable[..., Any]) -> None:
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment

    left, right = _bags(t_env)
    for method, name in (("union", "UNION"), ("minus", "MINUS"), ("minus_all", "MINUS"),
                         ("intersect", "INTERSECT"), ("intersect_all", "INTERSECT")):
        with pytest.raises(Py4JJavaError, match="The {} operation on two unbounded tables is "
                                                "currently not supported.".format(name)):
            getattr(left, method)(right)
    batch = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())
    left, right = _bags(batch)
    assert sorted(_rows(left.union(right))) == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]
    assert sorted(_rows(left.minus(right))) == [(1, "a")]
    assert sorted(_rows(left.minus_all(right))) == [(1, "a"), (2, "b"), (3, "c"), (3, "c")]
    assert sorted(_rows(left.intersect(right))) == [(2, "b"), (3, "c")]
    assert sorted(_rows(left.intersect_all(right))) == [(2, "b"), (3, "c")]


def test_except_and_intersect_of_an_unbounded_table_are_not_supported_naming_the_pyspark_way(
        t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE g (k INT) WITH ('connector'='datagen')")
    for operation in ("EXCEPT", "INTERSECT ALL"):
        with pytest.raises(NotSupportedError, match="exceptAll"):
            t_env.execute_sql("SELECT k FROM g {} SELECT k FROM g".format(operation))
