"""A table's schema shows its time attributes, computed and metadata columns and watermark as
Flink's resolved schema does, through queries of it (every expected text recorded from PyFlink
1.20.5)."""

from __future__ import annotations

from typing import Any, List

import pytest

SOURCE = ("CREATE TABLE src (a INT, b STRING, ts TIMESTAMP(3), pt AS PROCTIME(), c AS a + 1, "
          "d AS CAST(a AS BIGINT), e AS UPPER(b), f AS ts + INTERVAL '1' SECOND, "
          "WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector'='datagen')")


@pytest.fixture
def tables(t_env: Any) -> Any:
    t_env.execute_sql(SOURCE)
    return t_env


def _lines(schema: Any) -> List[str]:
    return str(schema).splitlines()[1:]


def _printed(capsys: Any) -> List[str]:
    return capsys.readouterr().out.splitlines()


def test_a_declared_tables_schema_shows_its_rowtime_proctime_expressions_and_watermark(
        tables: Any, capsys: Any) -> None:
    table = tables.from_path("src")
    table.print_schema()
    assert _printed(capsys) == [
        "(", "  `a` INT,", "  `b` STRING,", "  `ts` TIMESTAMP(3) *ROWTIME*,",
        "  `pt` TIMESTAMP_LTZ(3) NOT NULL *PROCTIME* AS PROCTIME(),", "  `c` INT AS `a` + 1,",
        "  `d` BIGINT AS CAST(`a` AS BIGINT),", "  `e` STRING AS UPPER(`b`),",
        "  `f` TIMESTAMP(3) AS `ts` + INTERVAL '1' SECOND,",
        "  WATERMARK FOR `ts`: TIMESTAMP(3) AS `ts` - INTERVAL '5' SECOND", ")"]
    assert _lines(table.get_schema()) == [
        " |-- a: INT", " |-- b: STRING", " |-- ts: TIMESTAMP(3) *ROWTIME*",
        " |-- pt: TIMESTAMP_LTZ(3) NOT NULL *PROCTIME* AS PROCTIME()", " |-- c: INT AS `a` + 1",
        " |-- d: BIGINT AS CAST(`a` AS BIGINT)", " |-- e: STRING AS UPPER(`b`)",
        " |-- f: TIMESTAMP(3) AS `ts` + INTERVAL '1' SECOND",
        " |-- WATERMARK FOR ts: TIMESTAMP(3) AS `ts` - INTERVAL '5' SECOND"]
    # Flink's filter keeps its input's schema
    from pyflink_compat.table.expressions import col

    assert _lines(table.filter(col("a") > 1).get_schema()) == _lines(table.get_schema())


def test_metadata_computed_rowtime_and_key_columns_show_as_declared(t_env: Any, capsys: Any) -> None:
    t_env.execute_sql("CREATE TABLE meta (a INT, m TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL, "
                      "p STRING METADATA VIRTUAL, q BIGINT METADATA FROM 'offset', r INT METADATA) "
                      "WITH ('connector'='datagen')")
    t_env.execute_sql("CREATE TABLE comp (s STRING, ts AS TO_TIMESTAMP(s), ts2 AS CAST(s AS TIMESTAMP(3)), "
                      "WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE) WITH ('connector'='datagen')")
    t_env.execute_sql("CREATE TABLE pk (id INT, ts TIMESTAMP(3), c AS id * 2, PRIMARY KEY (id) NOT ENFORCED, "
                      "WATERMARK FOR ts AS ts) WITH ('connector'='datagen')")
    t_env.from_path("meta").print_schema()
    assert _printed(capsys) == [
        "(", "  `a` INT,", "  `m` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,",
        "  `p` STRING METADATA VIRTUAL,", "  `q` BIGINT METADATA FROM 'offset',", "  `r` INT METADATA", ")"]
    assert _lines(t_env.from_path("comp").get_schema()) == [
        " |-- s: STRING", " |-- ts: TIMESTAMP(3) *ROWTIME* AS TO_TIMESTAMP(`s`)",
        " |-- ts2: TIMESTAMP(3) AS CAST(`s` AS TIMESTAMP(3))",
        " |-- WATERMARK FOR ts: TIMESTAMP(3) AS `ts` - INTERVAL '1' MINUTE"]
    t_env.from_path("pk").print_schema()
    assert _printed(capsys) == [
        "(", "  `id` INT NOT NULL,", "  `ts` TIMESTAMP(3) *ROWTIME*,", "  `c` INT NOT NULL AS `id` * 2,",
        "  WATERMARK FOR `ts`: TIMESTAMP(3) AS `ts`,", "  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED", ")"]
    assert _lines(t_env.from_path("pk").get_schema())[-2:] == [
        " |-- WATERMARK FOR ts: TIMESTAMP(3) AS `ts`", " |-- CONSTRAINT PK_id PRIMARY KEY (id)"]
    assert _lines(t_env.sql_query("SELECT s, ts, ts2 FROM comp").get_schema()) == [
        " |-- s: STRING", " |-- ts: TIMESTAMP(3) *ROWTIME*", " |-- ts2: TIMESTAMP(3)"]


def test_a_querys_schema_keeps_a_time_attribute_where_flink_keeps_it(tables: Any) -> None:
    expected = {
        "SELECT a, ts AS t, pt FROM src WHERE a > 0": [
            " |-- a: INT", " |-- t: TIMESTAMP(3) *ROWTIME*", " |-- pt: TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*"],
        "SELECT CAST(ts AS TIMESTAMP(3)) AS t2, c FROM src": [" |-- t2: TIMESTAMP(3)", " |-- c: INT"],
        "SELECT b, COUNT(*) AS n, MAX(ts) AS mts FROM src GROUP BY b": [
            " |-- b: STRING", " |-- n: BIGINT NOT NULL", " |-- mts: TIMESTAMP(3) *ROWTIME*"],
        "SELECT t FROM (SELECT ts AS t, a FROM src) WHERE a > 1": [" |-- t: TIMESTAMP(3) *ROWTIME*"],
        "SELECT window_start, window_end, window_time, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE src, "
        "DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, window_time": [
            " |-- window_start: TIMESTAMP(3) NOT NULL", " |-- window_end: TIMESTAMP(3) NOT NULL",
            " |-- window_time: TIMESTAMP(3) NOT NULL *ROWTIME*", " |-- n: BIGINT NOT NULL"],
        "SELECT b, TUMBLE_START(ts, INTERVAL '10' SECOND) AS ws, TUMBLE_END(ts, INTERVAL '10' SECOND) "
        "AS we, TUMBLE_ROWTIME(ts, INTERVAL '10' SECOND) AS rt, COUNT(*) AS n FROM src "
        "GROUP BY b, TUMBLE(ts, INTERVAL '10' SECOND)": [
            " |-- b: STRING", " |-- ws: TIMESTAMP(3) NOT NULL", " |-- we: TIMESTAMP(3) NOT NULL",
            " |-- rt: TIMESTAMP(3) *ROWTIME*", " |-- n: BIGINT NOT NULL"],
    }
    for query, columns in expected.items():
        assert _lines(tables.sql_query(query).get_schema()) == columns, query


def test_a_views_schema_shows_the_time_attributes_it_passes_on(tables: Any, capsys: Any) -> None:
    tables.create_temporary_view("v", tables.sql_query("SELECT a, ts, pt FROM src WHERE a > 1"))
    tables.execute_sql("CREATE VIEW v2 AS SELECT a, ts, c, pt FROM src")
    tables.from_path("v").print_schema()
    assert _printed(capsys) == ["(", "  `a` INT,", "  `ts` TIMESTAMP(3) *ROWTIME*,",
                                "  `pt` TIMESTAMP_LTZ(3) NOT NULL *PROCTIME*", ")"]
    assert _lines(tables.sql_query("SELECT ts, a FROM v2").get_schema()) == [
        " |-- ts: TIMESTAMP(3) *ROWTIME*", " |-- a: INT"]


def test_a_descriptors_schema_shows_its_expressions_as_written_when_printed(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.table import DataTypes, Schema, TableDescriptor

    t_env.create_temporary_table("td", TableDescriptor.for_connector("datagen").schema(
        Schema.new_builder().column("a", DataTypes.INT()).column("ts", DataTypes.TIMESTAMP(3))
        .column_by_expression("c", "a + 1").column_by_expression("pt", "PROCTIME()")
        .column_by_metadata("m", DataTypes.STRING(), "x", True)
        .watermark("ts", "ts - INTERVAL '1' SECOND").build()).build())
    table = t_env.from_path("td")
    table.print_schema()
    assert _printed(capsys) == [
        "(", "  `a` INT,", "  `ts` TIMESTAMP(3) *ROWTIME*,", "  `c` INT AS a + 1,",
        "  `pt` TIMESTAMP_LTZ(3) NOT NULL *PROCTIME* AS PROCTIME(),",
        "  `m` STRING METADATA FROM 'x' VIRTUAL,",
        "  WATERMARK FOR `ts`: TIMESTAMP(3) AS ts - INTERVAL '1' SECOND", ")"]
    assert _lines(table.get_schema()) == [
        " |-- a: INT", " |-- ts: TIMESTAMP(3) *ROWTIME*", " |-- c: INT AS `a` + 1",
        " |-- pt: TIMESTAMP_LTZ(3) NOT NULL *PROCTIME* AS PROCTIME()",
        " |-- m: STRING METADATA FROM 'x' VIRTUAL",
        " |-- WATERMARK FOR ts: TIMESTAMP(3) AS `ts` - INTERVAL '1' SECOND"]


def test_an_expression_flinks_parser_rewrites_shows_as_written(t_env: Any) -> None:
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    t_env.execute_sql("CREATE TABLE tr (b STRING, c AS TRIM(b), d AS CAST(b AS INT)) "
                      "WITH ('connector'='datagen')")
    # divergence 'table-schema-expression-as-written': PyFlink 1.20.5 shows
    # `c: STRING AS TRIM(BOTH ' ' FROM `b`)`; the CAST's text is Flink's
    assert _lines(t_env.from_path("tr").get_schema()) == [
        " |-- b: STRING", " |-- c: STRING AS TRIM(`b`)", " |-- d: INT AS CAST(`b` AS INTEGER)"]
    assert "table-schema-expression-as-written" in {d.id for d in RUNTIME_DIVERGENCES}


def test_a_query_results_table_schema_marks_its_rowtime_and_keeps_not_null(t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE plain (a INT NOT NULL, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                      "WITH ('connector'='datagen', 'number-of-rows'='1')")
    query = "SELECT ts, a FROM plain WHERE a > 0"
    expected = [" |-- ts: TIMESTAMP(3) *ROWTIME*", " |-- a: INT NOT NULL"]
    assert _lines(t_env.sql_query(query).get_schema()) == expected
    result = t_env.execute_sql(query)
    assert _lines(result.get_table_schema()) == expected
    result.get_job_client().cancel().result()


def test_a_windows_bounds_reach_pandas_as_flinks_timestamps(
        t_env: Any, tmp_path: Any, monkeypatch: Any) -> None:
    import pandas as pd

    (tmp_path / "ev.csv").write_text("1,2024-01-01 00:00:01\n2,2024-01-01 00:00:12\n")
    monkeypatch.chdir(tmp_path)
    t_env.execute_sql("CREATE TABLE ev (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                      "WITH ('connector'='filesystem','path'='ev.csv','format'='csv')")
    frame = t_env.sql_query(
        "SELECT window_start, window_end, window_time, COUNT(*) AS n FROM TABLE(TUMBLE("
        "TABLE ev, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, "
        "window_time").to_pandas().sort_values("window_start")
    # recorded from PyFlink 1.20.5: TIMESTAMP(3) columns, without a time zone
    assert [str(t) for t in frame.dtypes] == ["datetime64[ns]"] * 3 + ["int64"]
    assert frame.values.tolist() == [
        [pd.Timestamp("2024-01-01 00:00:00"), pd.Timestamp("2024-01-01 00:00:10"),
         pd.Timestamp("2024-01-01 00:00:09.999"), 1],
        [pd.Timestamp("2024-01-01 00:00:10"), pd.Timestamp("2024-01-01 00:00:20"),
         pd.Timestamp("2024-01-01 00:00:19.999"), 1]]
