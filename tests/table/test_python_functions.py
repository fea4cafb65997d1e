"""Python user-defined functions (udf, udtf, udaf, udtaf) run on Spark and give PyFlink's rows.

Every expected result below was recorded from live PyFlink 1.20.5 (streaming mode) running the
same calls on the same input; rows are compared with their kinds, sorted.
"""

from __future__ import annotations

import datetime
from typing import Any, List, Tuple

import pytest

from pyflink_compat.common import Row
from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.python_functions import keeps_accumulators_in_state
from pyflink_compat.table import DataTypes
from pyflink_compat.table.expressions import call, col
from pyflink_compat.table.udf import (
    AggregateFunction, ScalarFunction, TableAggregateFunction, udaf, udf, udtaf, udtf)

_ROWS = [(1, 'a,b', 2.5), (2, None, None), (3, 'c', 1.0), (1, 'd', 4.0)]


def _source(t_env: Any) -> Any:
    return t_env.from_elements(_ROWS, ['id', 'data', 'v'])


def _result(table: Any) -> Tuple[List[str], List[str]]:
    """The table's column names and its rows (with their kinds), sorted."""
    with table.execute().collect() as rows:
        records = sorted(str(r.get_row_kind()) + str(r) for r in rows)
    return list(table.get_schema().get_field_names()), records


class _Scaled(ScalarFunction):
    def open(self, function_context: Any) -> None:
        self.factor = int(function_context.get_job_parameter("factor", "10"))

    def eval(self, x: Any) -> Any:
        return None if x is None else x * self.factor


@udtf(result_types=[DataTypes.STRING(), DataTypes.INT()])
def _parts(s: Any) -> Any:
    if s is not None:
        for p in s.split(','):
            yield p, len(p)


def test_scalar_functions_run_in_the_table_api_and_in_sql_with_their_result_types(t_env: Any) -> None:
    table = _source(t_env)
    scaled = udf(_Scaled(), result_type=DataTypes.BIGINT())
    assert _result(table.select(col('id'), scaled(col('id')))) == (
        ['id', '_c1'], ['+I<Row(1, 10)>', '+I<Row(1, 10)>', '+I<Row(2, 20)>', '+I<Row(3, 30)>'])

    @udf(result_type=DataTypes.DOUBLE())
    def half(i: int) -> int:
        return i // 2  # an int for a DOUBLE result: PyFlink gives 0.0

    @udf(result_type='STRING')
    def nulls(s: Any) -> str:
        return 'null' if s is None else s

    t_env.create_temporary_system_function("half", half)
    t_env.create_temporary_function("nulls", nulls)
    assert _result(t_env.sql_query(
        "SELECT id, half(id) AS h, half(id) + 1 AS h1, nulls(data) AS n FROM {}".format(table))) == (
        ['id', 'h', 'h1', 'n'],
        ["+I<Row(1, 0.0, 1.0, 'a,b')>", "+I<Row(1, 0.0, 1.0, 'd')>", "+I<Row(2, 1.0, 2.0, 'null')>",
         "+I<Row(3, 1.0, 2.0, 'c')>"])


def test_a_pandas_scalar_function_gets_series_and_keeps_nulls(t_env: Any) -> None:
    @udf(result_type=DataTypes.DOUBLE(), func_type="pandas")
    def plus(a: Any, b: Any) -> Any:
        return a + b

    assert _result(_source(t_env).select(col('id'), plus(col('id'), col('v')).alias('s'))) == (
        ['id', 's'], ['+I<Row(1, 3.5)>', '+I<Row(1, 5.0)>', '+I<Row(2, None)>', '+I<Row(3, 4.0)>'])


def test_table_functions_join_laterally_in_the_table_api_and_in_sql(t_env: Any) -> None:
    table = _source(t_env)
    inner = ["+I<Row(1, 'a', 1)>", "+I<Row(1, 'b', 1)>", "+I<Row(1, 'd', 1)>", "+I<Row(3, 'c', 1)>"]
    assert _result(table.join_lateral(_parts(col('data')).alias('p', 'l'))
                   .select(col('id'), col('p'), col('l'))) == (['id', 'p', 'l'], inner)
    assert _result(table.left_outer_join_lateral(_parts(col('data')).alias('p', 'l'))
                   .select(col('id'), col('p'), col('l'))) == (
        ['id', 'p', 'l'], inner[:3] + ['+I<Row(2, None, None)>'] + inner[3:])
    t_env.create_temporary_function("parts", _parts)
    assert _result(t_env.sql_query(
        "SELECT id, p FROM {} LEFT JOIN LATERAL TABLE(parts(data)) AS T(p, l) ON TRUE".format(table))) == (
        ['id', 'p'], ["+I<Row(1, 'a')>", "+I<Row(1, 'b')>", "+I<Row(1, 'd')>", '+I<Row(2, None)>',
                      "+I<Row(3, 'c')>"])


def test_map_expands_a_row_result_and_flat_map_gives_each_returned_row(t_env: Any) -> None:
    table = _source(t_env)

    @udf(result_type=DataTypes.ROW([DataTypes.FIELD("k", DataTypes.BIGINT()),
                                    DataTypes.FIELD("s", DataTypes.STRING())]))
    def swap(r: Row) -> Row:
        return Row(r.id * 10, r.data)

    @udtf(result_types=[DataTypes.BIGINT()])
    def repeat(r: Row) -> List[int]:
        return [r.id] * r.id

    assert _result(table.map(swap).alias('x', 'y')) == (
        ['x', 'y'], ["+I<Row(10, 'a,b')>", "+I<Row(10, 'd')>", '+I<Row(20, None)>', "+I<Row(30, 'c')>"])
    assert _result(table.flat_map(repeat)) == (
        ['f0'], ['+I<Row(1)>', '+I<Row(1)>', '+I<Row(2)>', '+I<Row(2)>', '+I<Row(3)>', '+I<Row(3)>',
                 '+I<Row(3)>'])


class _CountSum(AggregateFunction):
    def create_accumulator(self) -> List[float]:
        return [0, 0]

    def accumulate(self, accumulator: List[float], x: Any) -> None:
        if x is not None:
            accumulator[0] += 1
            accumulator[1] += x

    def get_value(self, accumulator: List[float]) -> Row:
        return Row(accumulator[0], accumulator[1])

    def get_result_type(self) -> Any:
        return DataTypes.ROW([DataTypes.FIELD("n", DataTypes.BIGINT()),
                              DataTypes.FIELD("total", DataTypes.DOUBLE())])

    def get_accumulator_type(self) -> Any:
        return DataTypes.ARRAY(DataTypes.DOUBLE())


class _Longest(AggregateFunction):
    def create_accumulator(self) -> List[Any]:
        return [None]

    def accumulate(self, accumulator: List[Any], row: Row) -> None:
        if row.data is not None and (accumulator[0] is None or len(row.data) > len(accumulator[0])):
            accumulator[0] = row.data

    def get_value(self, accumulator: List[Any]) -> Any:
        return accumulator[0]


class _Top2(TableAggregateFunction):
    def create_accumulator(self) -> List[float]:
        return []

    def accumulate(self, accumulator: List[float], v: Any) -> None:
        if v is not None:
            accumulator.append(v)
            accumulator.sort(reverse=True)
            del accumulator[2:]

    def emit_value(self, accumulator: List[float]) -> Any:
        for v in accumulator:
            yield Row(v)


def test_aggregate_functions_give_each_groups_value_and_a_table_aggregate_its_rows(t_env: Any) -> None:
    table = _source(t_env)
    count_sum = udaf(_CountSum())
    if not keeps_accumulators_in_state():
        with pytest.raises(NotSupportedError, match="accumulator kept per key on pyspark 3"):
            _result(table.group_by(col('id')).aggregate(count_sum(col('v')).alias('n', 'total'))
                    .select(col('id'), col('n'), col('total')))
        return
    assert _result(table.group_by(col('id')).aggregate(count_sum(col('v')).alias('n', 'total'))
                   .select(col('id'), col('n'), col('total'))) == (
        ['id', 'n', 'total'], ['+I<Row(1, 2, 6.5)>', '+I<Row(2, 0, 0.0)>', '+I<Row(3, 1, 1.0)>'])
    assert _result(table.aggregate(count_sum(col('v')).alias('n', 'total'))
                   .select(col('n'), col('total'))) == (['n', 'total'], ['+I<Row(3, 7.5)>'])
    longest = udaf(_Longest(), result_type=DataTypes.STRING(),
                   accumulator_type=DataTypes.ARRAY(DataTypes.STRING()))
    assert _result(table.group_by(col('id')).aggregate(longest.alias('m'))
                   .select(col('id'), col('m'))) == (
        ['id', 'm'], ["+I<Row(1, 'a,b')>", '+I<Row(2, None)>', "+I<Row(3, 'c')>"])
    top2 = udtaf(_Top2(), result_type=DataTypes.ROW([DataTypes.FIELD("top", DataTypes.DOUBLE())]),
                 accumulator_type=DataTypes.ARRAY(DataTypes.DOUBLE()))
    assert _result(table.group_by(col('id')).flat_aggregate(top2(col('v')))
                   .select(col('id'), col('top'))) == (
        ['id', 'top'], ['+I<Row(1, 2.5)>', '+I<Row(1, 4.0)>', '+I<Row(3, 1.0)>'])


def test_what_does_not_run_is_refused_at_the_call_naming_the_way_to_go(t_env: Any) -> None:
    with pytest.raises(NotSupportedError, match="registerJavaFunction"):
        t_env.create_java_temporary_function("f", "com.example.F")
    table = _source(t_env)
    with pytest.raises(NotSupportedError, match="udtf"):
        table.flat_map(udf(lambda r: r, result_type='BIGINT'))


def test_function_objects_check_their_declarations_as_pyflink_does() -> None:
    with pytest.raises(TypeError, match="Invalid returnType"):
        udf(lambda x: x, result_type=5)
    with pytest.raises(ValueError, match="The func_type must be one of 'general, pandas', got x."):
        udf(lambda x: x, result_type='INT', func_type="x")
    with pytest.raises(TypeError, match="Invalid function"):
        udf(_Scaled, result_type='INT')
    wrapped = udtf(lambda s: [s], result_types=DataTypes.ROW([DataTypes.FIELD("a", DataTypes.INT())]))
    assert [str(t) for t in wrapped._result_types] == [str(DataTypes.INT())]


def test_a_pandas_aggregate_function_in_a_grouped_select_runs_in_batch_mode_as_in_pyflink(
        make_env: Any, spark: Any) -> None:
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment
    from pyflink_compat.util.exceptions import TableException

    @udaf(result_type=DataTypes.DOUBLE(), func_type="pandas")
    def mean_udaf(v: Any) -> Any:
        return v.mean()

    rows = [(1, 2.0), (2, 1.0), (1, 3.0), (2, None)]
    batch = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())
    table = batch.from_elements(rows, ['a', 'b'])
    if not keeps_accumulators_in_state():
        with pytest.raises(NotSupportedError, match="accumulator kept per key on pyspark 3"):
            table.group_by(col('a')).select(col('a'), mean_udaf(col('b')))._plan()
        return
    assert _result(table.group_by(col('a')).select(col('a'), mean_udaf(col('b')))) == (
        ['a', 'EXPR$0'], ['+I<Row(1, 2.5)>', '+I<Row(2, 1.0)>'])
    streaming = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_streaming_mode())
    with pytest.raises(TableException, match="Cannot generate a valid execution plan"):
        streaming.from_elements(rows, ['a', 'b']).group_by(col('a')) \
            .select(col('a'), mean_udaf(col('b'))).execute()


class _WeightedAvg(AggregateFunction):
    def create_accumulator(self) -> List[int]:
        return [0, 0]

    def accumulate(self, accumulator: List[int], v: Any, w: int) -> None:
        if v is not None:
            accumulator[0] += v * w
            accumulator[1] += w

    def retract(self, accumulator: List[int], v: Any, w: int) -> None:
        if v is not None:
            accumulator[0] -= v * w
            accumulator[1] -= w

    def merge(self, accumulator: List[int], accumulators: Any) -> None:
        for other in accumulators:
            accumulator[0] += other[0]
            accumulator[1] += other[1]

    def get_value(self, accumulator: List[int]) -> Any:
        return None if accumulator[1] == 0 else accumulator[0] / accumulator[1]

    def get_result_type(self) -> Any:
        return DataTypes.DOUBLE()

    def get_accumulator_type(self) -> Any:
        return DataTypes.ARRAY(DataTypes.BIGINT())


@udaf(result_type=DataTypes.DOUBLE(), func_type="pandas")
def _mean(v: Any) -> Any:
    return v.mean()


@pytest.fixture
def events(t_env: Any, tmp_path: Any, monkeypatch: Any) -> Any:
    """The environment with a bounded csv of keyed events as ``src`` and the functions ``wavg``
    (general) and ``mean_udaf`` (pandas) registered."""
    (tmp_path / "in.csv").write_text("k,1,2024-03-01 10:00:10\nm,2,2024-03-01 10:00:40\n"
                                     "k,3,2024-03-01 10:01:20\nm,5,2024-03-01 10:03:01\n"
                                     "k,4,2024-03-01 10:03:00\n")
    monkeypatch.chdir(tmp_path)
    t_env.execute_sql("CREATE TABLE src (k STRING, v BIGINT, ts TIMESTAMP(3), "
                      "WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
                      "WITH ('connector'='filesystem','path'='in.csv','format'='csv')")
    t_env.create_temporary_function("wavg", udaf(_WeightedAvg()))
    t_env.create_temporary_system_function("mean_udaf", _mean)
    return t_env


def _rows(result: Any) -> List[str]:
    with result.collect() as rows:
        return sorted(str(r.get_row_kind()) + str(r) for r in rows)


def _at(minute: int, second: int = 0) -> str:
    return repr(datetime.datetime(2024, 3, 1, 10, minute, second))


def test_a_general_aggregate_function_runs_in_sql_group_aggregates_beside_builtin_ones(
        events: Any) -> None:
    assert _rows(events.execute_sql("SELECT k, wavg(v, 2) AS a FROM src GROUP BY k")) == [
        "+I<Row('k', 2.6666666666666665)>", "+I<Row('m', 3.5)>"]
    # the one Python aggregate of a group aggregate keeps each key's accumulator in Spark's state
    # (pyspark 4; on pyspark 3.5 the group's rows, as every other Python aggregate)
    plan = events.sql_query("SELECT k, wavg(v, 2) AS a FROM src GROUP BY k")._plan().frame
    assert ("FlatMapGroupsInPandasWithState" in plan._jdf.queryExecution().analyzed().toString()) \
        == keeps_accumulators_in_state()
    assert _rows(events.execute_sql(
        "SELECT k, wavg(v, 1) + 1 AS a FROM src WHERE v > 1 GROUP BY k HAVING wavg(v, 1) > 2")) == [
        "+I<Row('k', 4.5)>", "+I<Row('m', 4.5)>"]
    assert _rows(events.execute_sql("SELECT k, wavg(v, 1) AS a, COUNT(*) AS n FROM src GROUP BY k")) == [
        "+I<Row('k', 2.6666666666666665, 3)>", "+I<Row('m', 3.5, 2)>"]
    # PyFlink: +I[1.0], -U[1.0], +U[3.0]; divergence 'updates-per-micro-batch': one micro-batch
    assert _rows(events.execute_sql("SELECT wavg(v, 1) AS a FROM src")) == ['+I<Row(3.0)>']
    table = events.from_path("src")
    assert _rows(table.group_by(col("k")).select(col("k"), call("wavg", col("v"), 3).alias("a"))
                 .execute()) == ["+I<Row('k', 2.6666666666666665)>", "+I<Row('m', 3.5)>"]
    assert _rows(table.group_by(col("k")).select(col("k"), call("wavg", col("v"), 1), col("v").count)
                 .execute()) == ["+I<Row('k', 2.6666666666666665, 3)>", "+I<Row('m', 3.5, 2)>"]


def test_python_aggregate_functions_run_in_window_table_functions_and_legacy_group_windows(
        events: Any) -> None:
    assert _rows(events.execute_sql(
        "SELECT k, window_start, window_end, wavg(v, 1) AS a, COUNT(*) AS n FROM TABLE(TUMBLE("
        "TABLE src, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY k, window_start, window_end")) == [
        "+I<Row('k', {}, {}, 1.0, 1)>".format(_at(0), _at(1)),
        "+I<Row('k', {}, {}, 3.0, 1)>".format(_at(1), _at(2)),
        "+I<Row('k', {}, {}, 4.0, 1)>".format(_at(3), _at(4)),
        "+I<Row('m', {}, {}, 2.0, 1)>".format(_at(0), _at(1)),
        "+I<Row('m', {}, {}, 5.0, 1)>".format(_at(3), _at(4))]
    assert _rows(events.execute_sql(
        "SELECT k, HOP_END(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE) AS e, wavg(v, 1) AS a, "
        "COUNT(*) AS n FROM src GROUP BY k, HOP(ts, INTERVAL '1' MINUTE, INTERVAL '2' MINUTE)")) == [
        "+I<Row('k', {}, 1.0, 1)>".format(_at(1)), "+I<Row('k', {}, 2.0, 2)>".format(_at(2)),
        "+I<Row('k', {}, 3.0, 1)>".format(_at(3)), "+I<Row('k', {}, 4.0, 1)>".format(_at(4)),
        "+I<Row('k', {}, 4.0, 1)>".format(_at(5)), "+I<Row('m', {}, 2.0, 1)>".format(_at(1)),
        "+I<Row('m', {}, 2.0, 1)>".format(_at(2)), "+I<Row('m', {}, 5.0, 1)>".format(_at(4)),
        "+I<Row('m', {}, 5.0, 1)>".format(_at(5))]
    assert _rows(events.execute_sql(
        "SELECT k, SESSION_END(ts, INTERVAL '1' MINUTE) AS e, wavg(v, 1) AS a FROM src "
        "GROUP BY k, SESSION(ts, INTERVAL '1' MINUTE)")) == [
        "+I<Row('k', {}, 1.0)>".format(_at(1, 10)), "+I<Row('k', {}, 3.0)>".format(_at(2, 20)),
        "+I<Row('k', {}, 4.0)>".format(_at(4)), "+I<Row('m', {}, 2.0)>".format(_at(1, 40)),
        "+I<Row('m', {}, 5.0)>".format(_at(4, 1))]
    by_minute = ["+I<Row('k', {}, 1.0)>".format(_at(0)), "+I<Row('k', {}, 3.0)>".format(_at(1)),
                 "+I<Row('k', {}, 4.0)>".format(_at(3)), "+I<Row('m', {}, 2.0)>".format(_at(0)),
                 "+I<Row('m', {}, 5.0)>".format(_at(3))]
    assert _rows(events.execute_sql(
        "SELECT k, TUMBLE_START(ts, INTERVAL '1' MINUTE) AS s, mean_udaf(v) AS m FROM src "
        "GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)")) == by_minute


def test_python_aggregate_functions_run_in_table_api_group_windows(events: Any) -> None:
    from pyflink_compat.table.expressions import lit
    from pyflink_compat.table.window import Slide, Tumble

    table = events.from_path("src")
    minutes = table.window(Tumble.over(lit(1).minutes).on(col("ts")).alias("w")).group_by(
        col("k"), col("w"))
    assert _rows(minutes.select(col("k"), col("w").start, _mean(col("v"))).execute()) == [
        "+I<Row('k', {}, 1.0)>".format(_at(0)), "+I<Row('k', {}, 3.0)>".format(_at(1)),
        "+I<Row('k', {}, 4.0)>".format(_at(3)), "+I<Row('m', {}, 2.0)>".format(_at(0)),
        "+I<Row('m', {}, 5.0)>".format(_at(3))]
    assert _rows(minutes.select(col("k"), col("w").end, call("wavg", col("v"), 1)).execute()) == [
        "+I<Row('k', {}, 1.0)>".format(_at(1)), "+I<Row('k', {}, 3.0)>".format(_at(2)),
        "+I<Row('k', {}, 4.0)>".format(_at(4)), "+I<Row('m', {}, 2.0)>".format(_at(1)),
        "+I<Row('m', {}, 5.0)>".format(_at(4))]
    mean_max = udaf(lambda a: (a.mean(), a.max()), func_type="pandas", result_type=DataTypes.ROW(
        [DataTypes.FIELD("a", DataTypes.DOUBLE()), DataTypes.FIELD("b", DataTypes.BIGINT())]))
    assert _rows(minutes.aggregate(mean_max(col("v")).alias("c", "d"))
                 .select(col("k"), col("c"), col("d")).execute()) == [
        "+I<Row('k', 1.0, 1)>", "+I<Row('k', 3.0, 3)>", "+I<Row('k', 4.0, 4)>",
        "+I<Row('m', 2.0, 2)>", "+I<Row('m', 5.0, 5)>"]
    sliding = table.window(Slide.over(lit(2).minutes).every(lit(1).minutes).on(col("ts")).alias("w"))
    assert _rows(sliding.group_by(col("w")).select(
        col("w").start, udaf(_WeightedAvg())(col("v"), 1).alias("a")).execute()) == [
        "+I<Row({}, 2.0)>".format(_at(0)), "+I<Row({}, 3.0)>".format(_at(1)),
        "+I<Row({}, 4.5)>".format(_at(2)), "+I<Row({}, 4.5)>".format(_at(3)),
        "+I<Row(datetime.datetime(2024, 3, 1, 9, 59), 1.5)>"]


def test_pandas_aggregate_functions_are_refused_where_flinks_planner_has_no_plan(events: Any) -> None:
    from pyflink_compat.util.exceptions import TableException

    plan = "Cannot generate a valid execution plan for the given query"
    for query in ["SELECT k, mean_udaf(v) AS a FROM src GROUP BY k",
                  "SELECT k, window_start, mean_udaf(v) AS m FROM TABLE(TUMBLE(TABLE src, DESCRIPTOR(ts), "
                  "INTERVAL '1' MINUTE)) GROUP BY k, window_start, window_end",
                  "SELECT k, mean_udaf(v) AS m, wavg(v, 1) AS a FROM src "
                  "GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)",
                  "SELECT k, mean_udaf(v) AS m FROM src GROUP BY k, SESSION(ts, INTERVAL '1' MINUTE)"]:
        with pytest.raises(TableException, match=plan):
            events.execute_sql(query)
    with pytest.raises(Exception, match="java.lang.NullPointerException"):
        events.execute_sql("SELECT k, mean_udaf(v) AS m, COUNT(*) AS n FROM src "
                           "GROUP BY k, TUMBLE(ts, INTERVAL '1' MINUTE)")
