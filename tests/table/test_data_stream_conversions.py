"""A job's DataStreams read as tables and its tables read as DataStreams give PyFlink's columns,
rows and records.

Every expected schema, record and message below was recorded from live PyFlink 1.20.5 running
the same calls (parallelism 1) on the same input.
"""

from __future__ import annotations

import re
from typing import Any, List

import pytest

from pyflink_compat.missing import NotSupportedError


def _printed(capsys: Any) -> List[str]:
    return [line for line in capsys.readouterr().out.splitlines() if line]


def _words(t_env: Any) -> Any:
    from pyflink_compat.common import Types

    return t_env.stream_execution_environment.from_collection(
        [("a", 1), ("b", 2), ("a", 3)], type_info=Types.ROW_NAMED(["w", "n"], [Types.STRING(), Types.INT()]))


def _timed_words(t_env: Any) -> Any:
    """Four words stamped with their second (the second field) and a watermark one second
    behind."""
    from pyflink_compat.common import Duration, Types, WatermarkStrategy
    from pyflink_compat.common.watermark_strategy import TimestampAssigner

    class Seconds(TimestampAssigner):
        def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
            return int(value[1]) * 1000

    env = t_env.stream_execution_environment
    return env.from_collection(
        [("a", 1), ("b", 2), ("a", 3), ("a", 7)],
        type_info=Types.ROW_NAMED(["w", "n"], [Types.STRING(), Types.INT()])
    ).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1))
        .with_timestamp_assigner(Seconds()))


def test_a_streams_columns_are_the_fields_of_its_declared_type_as_flink_derives_them(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common import Types
    from pyflink_compat.common.time import Instant
    from pyflink_compat.table import DataTypes, Schema
    from pyflink_compat.table.expressions import col

    env = t_env.stream_execution_environment
    rows = env.from_collection([(Instant.of_epoch_milli(1000), "Alice", 110.1)],
                               type_info=Types.ROW([Types.INSTANT(), Types.STRING(), Types.FLOAT()]))
    tuples = env.from_collection([("a", 1)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    named = env.from_collection([("a", 1)], type_info=Types.ROW_NAMED(["x", "y"], [Types.STRING(), Types.LONG()]))
    atoms = env.from_collection(["a"], Types.STRING())
    t_env.from_data_stream(rows).print_schema()
    t_env.from_data_stream(rows, Schema.new_builder().column("f2", DataTypes.DOUBLE()).build()).print_schema()
    t_env.from_data_stream(tuples).print_schema()
    t_env.from_data_stream(atoms).print_schema()
    t_env.from_data_stream(named, col("y"), col("x")).print_schema()
    t_env.from_data_stream(named, col("x").alias("q"), col("y")).print_schema()
    assert "\n".join(_printed(capsys)) == "\n".join([
        "(", "  `f0` TIMESTAMP_LTZ(9),", "  `f1` STRING,", "  `f2` FLOAT", ")",
        "(", "  `f2` DOUBLE", ")",
        "(", "  `f0` STRING,", "  `f1` INT NOT NULL", ")",
        "(", "  `f0` STRING", ")",
        "(", "  `y` BIGINT,", "  `x` STRING", ")",
        "(", "  `q` STRING,", "  `y` BIGINT", ")"])


def test_a_stream_without_a_declared_type_is_refused_at_the_call(t_env: Any) -> None:
    stream = t_env.stream_execution_environment.from_collection([1, 2])
    with pytest.raises(NotSupportedError, match="without a declared type"):
        t_env.from_data_stream(stream)


def test_a_table_of_a_stream_converts_back_to_pyflinks_named_rows(t_env: Any) -> None:
    from pyflink_compat.table.expressions import col

    table = t_env.from_data_stream(_words(t_env), col("n"), col("w"))
    stream = t_env.to_data_stream(table)
    assert str(stream.get_type()) == "RowTypeInfo(n: Integer, w: String)"
    assert repr(list(stream.execute_and_collect())) == "[Row(n=1, w='a'), Row(n=2, w='b'), Row(n=3, w='a')]"


def test_a_stream_registered_as_a_view_with_renamed_fields_is_queried_with_sql(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.table.expressions import col

    t_env.create_temporary_view("v", _words(t_env))
    t_env.create_temporary_view("v2", _words(t_env), col("w").alias("word"), col("n"))
    t_env.sql_query("SELECT * FROM v2").print_schema()
    assert _printed(capsys) == ["(", "  `word` STRING,", "  `n` INT", ")"]
    assert sorted(str(r) for r in t_env.execute_sql("SELECT w, n + 1 FROM v").collect()) == \
        ["<Row('a', 2)>", "<Row('a', 4)>", "<Row('b', 3)>"]


def test_a_window_on_the_records_timestamps_and_source_watermark_prints_flinks_records(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.table import Schema
    from pyflink_compat.table.expressions import col, lit
    from pyflink_compat.table.window import Tumble

    stream = _timed_words(t_env)
    table = t_env.from_data_stream(stream, Schema.new_builder()
                                   .column_by_metadata("rowtime", "TIMESTAMP_LTZ(3)")
                                   .watermark("rowtime", "SOURCE_WATERMARK()").build())
    windows = table.window(Tumble.over(lit(5).seconds).on(col("rowtime")).alias("win")) \
        .group_by(col("w"), col("win")).select(col("w"), col("n").sum, col("win").start)
    t_env.to_data_stream(windows).print()
    t_env.stream_execution_environment.execute()
    assert sorted(_printed(capsys)) == ["+I[a,4,1970-01-01 00:00:00]", "+I[a,7,1970-01-01 00:00:05]",
                                        "+I[b,2,1970-01-01 00:00:00]"]


def test_the_changelog_of_an_updating_table_prints_flinks_final_rows_with_their_kinds(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.table.expressions import col

    flink = ["+I[a,1]", "+I[b,2]", "-U[a,1]", "+U[a,4]"]
    table = t_env.from_data_stream(_words(t_env)).group_by(col("w")).select(col("w"), col("n").sum.alias("s"))
    changes = t_env.to_changelog_stream(table)
    assert str(changes.get_type()) == "ExternalTypeInfo<RowTypeInfo(w: String, s: Integer)>"
    changes.print()
    t_env.stream_execution_environment.execute()
    printed = _printed(capsys)
    # a change per input row, each key's in order (keys interleave in Flink's arrival order)
    assert sorted(printed) == sorted(flink)
    assert [line for line in printed if "a" in line] == ["+I[a,1]", "-U[a,1]", "+U[a,4]"]
    with pytest.raises(NotSupportedError, match="changelog stream of an updating table"):
        changes.map(lambda row: row)


def test_an_updating_table_is_refused_by_to_data_stream_with_flinks_message(t_env: Any) -> None:
    from pyflink_compat.util.exceptions import TableException

    t_env.create_temporary_view("v", _words(t_env))
    with pytest.raises(TableException) as raised:
        t_env.to_data_stream(t_env.sql_query("SELECT w, SUM(n) FROM v GROUP BY w"))
    # the sink's number counts Flink's anonymous sinks of the whole process
    assert re.fullmatch(
        r"org\.apache\.flink\.table\.api\.TableException: Table sink "
        r"'\*anonymous_datastream_sink\$\d+\*' doesn't support consuming update changes which is "
        r"produced by node GroupAggregate\(groupBy=\[w\], select=\[w, SUM\(n\) AS EXPR\$1\]\)",
        str(raised.value).splitlines()[0])


def test_an_update_in_a_changelog_stream_that_is_not_a_collection_fails_naming_the_pyspark_way(
        t_env: Any) -> None:
    from pyflink_compat.common import Row, RowKind, Types

    deletions = _words(t_env).map(lambda r: Row.of_kind(RowKind.DELETE, r[0], r[1]),
                                  output_type=Types.ROW([Types.STRING(), Types.INT()]))
    with pytest.raises(Exception, match="transformWithState"):
        t_env.from_changelog_stream(deletions).execute().print()


def test_retract_streams_print_pyflinks_flagged_rows(t_env: Any, capsys: Any) -> None:
    # recorded from PyFlink 1.20.5: (true,+I[a, 1]) for a row type, (true,(a,1)) for a tuple type
    from pyflink_compat.common import Types
    from pyflink_compat.table.expressions import col

    t_env.to_retract_stream(t_env.from_data_stream(_words(t_env)),
                            Types.ROW([Types.STRING(), Types.INT()])).print()
    sums = t_env.from_data_stream(_words(t_env)).group_by(col("w")).select(
        col("w"), col("n").sum.alias("s"))
    retractions = t_env.to_retract_stream(sums, Types.ROW([Types.STRING(), Types.INT()]))
    retractions.print()
    t_env.stream_execution_environment.execute()
    # PyFlink 1.20.5 prints the sums' changes as (true,+I[a, 1]), (true,+I[b, 2]),
    # (false,-U[a, 1]), (true,+U[a, 4]): a change per input row
    assert sorted(_printed(capsys)) == sorted([
        "(true,+I[a, 1])", "(true,+I[a, 3])", "(true,+I[b, 2])",
        "(true,+I[a, 1])", "(true,+I[b, 2])", "(false,-U[a, 1])", "(true,+U[a, 4])"])
    with pytest.raises(NotSupportedError, match="changelog stream of an updating table"):
        retractions.map(lambda row: row)


def test_a_retracted_row_is_flagged_false_and_a_tuple_type_prints_as_a_java_tuple() -> None:
    from pyflink_compat.common import Row, RowKind, Types
    from pyflink_compat.runtime.records import print_text
    from pyflink_compat.sql.data_streams import retract_value

    before = Row("a", 1)
    before.set_row_kind(RowKind.UPDATE_BEFORE)
    as_tuple = Types.TUPLE([Types.STRING(), Types.INT()])
    assert print_text(retract_value(before, as_tuple), Types.TUPLE([Types.BOOLEAN(), as_tuple])) \
        == "(false,(a,1))"
    as_row = Types.ROW([Types.STRING(), Types.INT()])
    assert print_text(retract_value(before, as_row), Types.TUPLE([Types.BOOLEAN(), as_row])) \
        == "(false,-U[a, 1])"


def test_an_instant_counts_milliseconds_as_pyflinks_does() -> None:  # no Spark needed
    from pyflink_compat.common.time import Instant

    assert repr(Instant.of_epoch_milli(1500)) == "Instant<1, 500000000>"
    # PyFlink's arithmetic for a negative instant with a fraction, kept as it is
    assert Instant.of_epoch_milli(-1500).to_epoch_milli() == -1951
    assert Instant.of_epoch_milli(3) == Instant(0, 3000000)
    with pytest.raises(TypeError, match="unhashable"):
        hash(Instant(1, 2))


def test_a_table_of_a_keyed_streams_running_reduce_prints_flinks_rows(t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common import Row
    from pyflink_compat.table import DataTypes, Schema, TableDescriptor

    sums = _words(t_env).key_by(lambda r: r[0]).reduce(lambda a, b: Row(a[0], a[1] + b[1]))
    t_env.create_temporary_table("sink", TableDescriptor.for_connector("print").schema(
        Schema.new_builder().column("w", DataTypes.STRING()).column("n", DataTypes.INT()).build()).build())
    t_env.from_data_stream(sums).execute_insert("sink").wait()
    assert sorted(_printed(capsys)) == ["+I[a, 1]", "+I[a, 4]", "+I[b, 2]"]


def test_a_streams_time_attributes_show_in_the_schema_as_flink_shows_them(t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common import Types
    from pyflink_compat.table import Schema

    named = t_env.stream_execution_environment.from_collection(
        [("a", 1)], type_info=Types.ROW_NAMED(["x", "y"], [Types.STRING(), Types.LONG()]))
    table = t_env.from_data_stream(named, Schema.new_builder()
                                   .column_by_expression("ts", "CAST(y AS TIMESTAMP(3))")
                                   .column_by_metadata("rowtime", "TIMESTAMP_LTZ(3)")
                                   .watermark("rowtime", "SOURCE_WATERMARK()").build())
    table.print_schema()
    # recorded from PyFlink 1.20.5: print_schema() shows a Schema's expressions as written,
    # str() of the TableSchema in Flink's SQL form
    assert _printed(capsys) == [
        "(", "  `x` STRING,", "  `y` BIGINT,", "  `ts` TIMESTAMP(3) AS CAST(y AS TIMESTAMP(3)),",
        "  `rowtime` TIMESTAMP_LTZ(3) *ROWTIME* METADATA,",
        "  WATERMARK FOR `rowtime`: TIMESTAMP_LTZ(3) AS SOURCE_WATERMARK()", ")"]
    assert str(table.get_schema()).splitlines() == [
        "root", " |-- x: STRING", " |-- y: BIGINT", " |-- ts: TIMESTAMP(3) AS CAST(`y` AS TIMESTAMP(3))",
        " |-- rowtime: TIMESTAMP_LTZ(3) *ROWTIME* METADATA",
        " |-- WATERMARK FOR rowtime: TIMESTAMP_LTZ(3) AS `SOURCE_WATERMARK`()"]
    t_env.create_temporary_view("stamped", table)
    window = t_env.sql_query("SELECT window_start, window_time, COUNT(*) AS n FROM TABLE(TUMBLE("
                             "TABLE stamped, DESCRIPTOR(rowtime), INTERVAL '10' SECOND)) "
                             "GROUP BY window_start, window_end, window_time")
    assert str(window.get_schema()).splitlines()[1:] == [
        " |-- window_start: TIMESTAMP(3) NOT NULL",
        " |-- window_time: TIMESTAMP_LTZ(3) NOT NULL *ROWTIME*", " |-- n: BIGINT NOT NULL"]


def test_a_computed_watermarked_column_of_a_stream_shows_as_its_rowtime(t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common import Types
    from pyflink_compat.table import Schema

    named = t_env.stream_execution_environment.from_collection(
        [("a", 1)], type_info=Types.ROW_NAMED(["x", "y"], [Types.STRING(), Types.LONG()]))
    t_env.from_data_stream(named, Schema.new_builder()
                           .column_by_expression("ts", "CAST(y AS TIMESTAMP(3))")
                           .column_by_expression("pt", "PROCTIME()")
                           .watermark("ts", "ts - INTERVAL '1' SECOND").build()).print_schema()
    # recorded from PyFlink 1.20.5
    assert _printed(capsys) == [
        "(", "  `x` STRING,", "  `y` BIGINT,", "  `ts` TIMESTAMP(3) *ROWTIME* AS CAST(y AS TIMESTAMP(3)),",
        "  `pt` TIMESTAMP_LTZ(3) NOT NULL *PROCTIME* AS PROCTIME(),",
        "  WATERMARK FOR `ts`: TIMESTAMP(3) AS ts - INTERVAL '1' SECOND", ")"]


def test_rows_read_as_a_stream_carry_their_rowtime_into_event_time_windows(t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common import Types
    from pyflink_compat.common.time import Time
    from pyflink_compat.datastream import ProcessFunction
    from pyflink_compat.datastream.window import TumblingEventTimeWindows
    from pyflink_compat.table import Schema

    class Stamp(ProcessFunction):
        def process_element(self, value: Any, ctx: Any) -> Any:
            yield "%s@%s" % (value[0], ctx.timestamp())

    stream = _timed_words(t_env)
    records = t_env.to_data_stream(t_env.from_data_stream(stream, Schema.new_builder()
                                   .column_by_metadata("rowtime", "TIMESTAMP_LTZ(3)")
                                   .watermark("rowtime", "SOURCE_WATERMARK()").build()))
    records.process(Stamp(), output_type=Types.STRING()).print()
    records.map(lambda r: (r[0], r[1]), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda r: r[0]).window(TumblingEventTimeWindows.of(Time.seconds(5))) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])).print()
    t_env.stream_execution_environment.execute()
    assert sorted(_printed(capsys)) == sorted(["a@1000", "b@2000", "a@3000", "a@7000",
                                               "(a,4)", "(b,2)", "(a,7)"])


def test_an_append_stream_of_a_tuple_or_row_type_prints_as_pyflinks(t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common import Types

    words = t_env.stream_execution_environment.from_collection(
        [("a", 1), ("b", 2)], type_info=Types.ROW_NAMED(["w", "n"], [Types.STRING(), Types.INT()]))
    tuples = t_env.to_append_stream(t_env.from_data_stream(words), Types.TUPLE([Types.STRING(), Types.INT()]))
    assert str(tuples.get_type()) == "TupleTypeInfo(String, Integer)"
    tuples.print()
    t_env.to_append_stream(t_env.from_data_stream(words), Types.ROW([Types.STRING(), Types.INT()])).print()
    t_env.stream_execution_environment.execute()
    assert sorted(_printed(capsys)) == ["(a,1)", "(b,2)", "+I[a,1]", "+I[b,2]"]


def test_streams_of_sql_timestamps_join_within_a_time_interval_in_a_comma_join(t_env: Any) -> None:
    # Types.SQL_TIMESTAMP() fields are Flink's TIMESTAMP(9) columns; the rows PyFlink 1.20.5 gave
    import datetime

    from pyflink_compat.common import Row, Types
    from pyflink_compat.table import DataTypes, Schema

    env = t_env.stream_execution_environment

    def view(name: str, rows: List[Any], value: str) -> None:
        stream = env.from_collection(rows, type_info=Types.ROW_NAMED(
            ["ts1", "uid", value], [Types.SQL_TIMESTAMP(), Types.INT(), Types.STRING()]))
        t_env.create_temporary_view(name, stream, Schema.new_builder()
                                    .column_by_expression("ts", "CAST(ts1 AS TIMESTAMP(3))")
                                    .column("uid", DataTypes.INT()).column(value, DataTypes.STRING())
                                    .watermark("ts", "ts - INTERVAL '1' SECOND").build())

    def at(minute: int) -> datetime.datetime:
        return datetime.datetime(2021, 8, 21, 13, minute)

    view("u", [Row(at(0), 1, "A"), Row(at(5), 2, "B")], "name")
    view("o", [Row(at(2), 1, "x"), Row(at(6), 2, "z"), Row(at(20), 2, "y")], "item")
    result = t_env.execute_sql(
        "SELECT U.name, O.item, O.ts FROM u U, o O WHERE U.uid = O.uid AND O.ts BETWEEN U.ts "
        "AND U.ts + INTERVAL '5' MINUTES")
    assert sorted(tuple(r) for r in result.collect()) == [("A", "x", at(2)), ("B", "z", at(6))]
