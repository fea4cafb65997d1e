"""Flink SQL and Table API jobs run on Spark and print or write what PyFlink 1.20.5 does.

Every expected output below was recorded from live PyFlink 1.20.5 running the same statements
(parallelism 1) on the same input.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Tuple

import pytest

from pyflink_compat.missing import NotSupportedError

_WORDS = "CREATE TABLE src (w STRING, n INT) WITH ('connector'='filesystem','path'='in.csv','format'='csv')"


def _printed(capsys: Any) -> List[str]:
    return [line for line in capsys.readouterr().out.splitlines() if line]


def _final_table(lines: List[str]) -> Dict[str, Tuple[str, ...]]:
    """The table a changelog of ``+I[k, ...]`` lines leaves, by key (the first field)."""
    table: Dict[str, Tuple[str, ...]] = {}
    for line in lines:
        kind, fields = line[:2], tuple(line[3:-1].split(", "))
        if kind in ("+I", "+U"):
            table[fields[0]] = fields
        elif kind in ("-U", "-D"):
            table.pop(fields[0], None)
    return table


def test_a_datagen_sequence_inserted_into_a_print_table_prints_flinks_rows_cast_to_the_sink_types(
        t_env: Any, capsys: Any) -> None:
    t_env.execute_sql("CREATE TABLE src (id INT, v BIGINT) WITH ('connector'='datagen',"
                      "'number-of-rows'='5','fields.id.kind'='sequence','fields.id.start'='1',"
                      "'fields.id.end'='5','fields.v.kind'='sequence','fields.v.start'='10',"
                      "'fields.v.end'='100')")
    t_env.execute_sql("CREATE TABLE snk (id INT, v BIGINT, s STRING) "
                      "WITH ('connector'='print','print-identifier'='out')")
    t_env.execute_sql("INSERT INTO snk SELECT id, v / 3, CAST(id AS STRING) || 'x' FROM src").wait()
    assert _printed(capsys) == ["out> +I[1, 3, 1x]", "out> +I[2, 3, 2x]", "out> +I[3, 4, 3x]",
                                "out> +I[4, 4, 4x]", "out> +I[5, 4, 5x]"]


def test_a_query_result_prints_as_pyflinks_tableau_with_long_values_cut(t_env: Any, capsys: Any) -> None:
    table = t_env.from_elements([(1, 'hello', 1.5), (2, 'a much longer string value here', None)],
                                ['id', 'word', 'd'])
    table.execute().print()
    t_env.sql_query("SELECT id, word FROM " + str(table) + " WHERE id > 1").execute().print()
    assert _printed(capsys) == [
        "+----+----------------------+--------------------------------+--------------------------------+",
        "| op |                   id |                           word |                              d |",
        "+----+----------------------+--------------------------------+--------------------------------+",
        "| +I |                    1 |                          hello |                            1.5 |",
        "| +I |                    2 | a much longer string value ... |                         <NULL> |",
        "+----+----------------------+--------------------------------+--------------------------------+",
        "2 rows in set",
        "+----+----------------------+--------------------------------+",
        "| op |                   id |                           word |",
        "+----+----------------------+--------------------------------+",
        "| +I |                    2 | a much longer string value ... |",
        "+----+----------------------+--------------------------------+",
        "1 row in set",
    ]


def test_wide_characters_take_two_columns_in_the_tableau_as_in_pyflink(t_env: Any, capsys: Any) -> None:
    # East Asian wide and fullwidth characters count 2, a character beyond the Basic
    # Multilingual Plane its two UTF-16 units (plus 1 when wide); a cut value keeps what fits
    table = t_env.from_elements(
        [("\u624b\u673a", 1), ("\u7b14\u8bb0\u672c\u7535\u8111\u548c\u5e73\u677f\u7535\u8111"
          "\u4ee5\u53ca\u624b\u673a\u548c\u8033\u673a\u8fd8\u6709\u952e\u76d8", 2),
         ("\U0001f389x", 3), ("\uff21\uff22\uff23", 4), ("\u00e9", 5),
         ("ab\u624b\u673acdefghijklmnopqrstuvwxyz12", 6)],
        ["\u540d\u5b57", "n"])
    table.execute().print()
    assert _printed(capsys) == [
        "+----+--------------------------------+----------------------+",
        "| op |                           \u540d\u5b57 |                    n |",
        "+----+--------------------------------+----------------------+",
        "| +I |                           \u624b\u673a |                    1 |",
        "| +I |  \u7b14\u8bb0\u672c\u7535\u8111\u548c\u5e73\u677f\u7535\u8111\u4ee5\u53ca\u624b... |"
        "                    2 |",
        "| +I |                           \U0001f389x |                    3 |",
        "| +I |                         \uff21\uff22\uff23 |                    4 |",
        "| +I |                              \u00e9 |                    5 |",
        "| +I | ab\u624b\u673acdefghijklmnopqrstuvw... |                    6 |",
        "+----+--------------------------------+----------------------+",
        "6 rows in set",
    ]


def test_an_alias_of_fewer_names_renames_the_first_columns_and_keeps_the_rest_as_in_pyflink(
        t_env: Any, capsys: Any) -> None:
    from py4j.protocol import Py4JJavaError

    table = t_env.from_elements([(1, "a", 2.0)], ["f0", "f1", "f2"])
    # one string is one name, its commas included
    assert table.alias("ts, name, price").get_schema().get_field_names() == ["ts, name, price", "f1", "f2"]
    table.alias("x").execute().print()
    assert _printed(capsys) == [
        "+----+----------------------+--------------------------------+--------------------------------+",
        "| op |                    x |                             f1 |                             f2 |",
        "+----+----------------------+--------------------------------+--------------------------------+",
        "| +I |                    1 |                              a |                            2.0 |",
        "+----+----------------------+--------------------------------+--------------------------------+",
        "1 row in set",
    ]
    with pytest.raises(Py4JJavaError, match=r"ValidationException: Aliasing more fields than we "
                                            r"actually have\."):
        table.alias("a", "b", "c", "d")


def test_an_updating_query_into_a_print_table_ends_with_flinks_table_and_shows_updates(
        t_env: Any, capsys: Any, in_dir: Any) -> None:
    flink = ["+I[a, 1, 1]", "+I[b, 1, 2]", "-U[a, 1, 1]", "+U[a, 2, 4]", "+I[c, 1, 4]",
             "-U[a, 2, 4]", "+U[a, 3, 9]"]
    t_env.execute_sql(_WORDS)
    t_env.execute_sql("CREATE TABLE snk (w STRING, c BIGINT, s INT) WITH ('connector'='print')")
    t_env.execute_sql("INSERT INTO snk SELECT w, COUNT(*), SUM(n) FROM src GROUP BY w").wait()
    printed = _printed(capsys)
    assert _final_table(printed) == _final_table(flink)
    # a change per input row, each key's in order (keys interleave in Flink's arrival order)
    assert sorted(printed) == sorted(flink)
    assert [line for line in printed if line[3] == "a"] == [line for line in flink if line[3] == "a"]


def test_an_updating_query_into_a_file_table_is_refused_before_start_with_flinks_message(
        t_env: Any, in_dir: Any) -> None:
    from pyflink_compat.util.exceptions import TableException

    t_env.execute_sql(_WORDS)
    t_env.execute_sql("CREATE TABLE snk (w STRING, c BIGINT) WITH ('connector'='filesystem',"
                      "'path'='out','format'='csv')")
    with pytest.raises(TableException) as raised:
        t_env.execute_sql("INSERT INTO snk SELECT w, COUNT(*) FROM src GROUP BY w")
    assert str(raised.value).splitlines()[0] == (
        "org.apache.flink.table.api.TableException: Table sink 'default_catalog.default_database.snk' "
        "doesn't support consuming update changes which is produced by node "
        "GroupAggregate(groupBy=[w], select=[w, COUNT(*) AS EXPR$1])")
    assert not os.path.exists("out")


def _lines(directory: str) -> List[str]:
    lines: List[str] = []
    for root, dirs, files in os.walk(directory):
        dirs[:] = [d for d in dirs if not d.startswith(("_", "."))]
        for name in files:
            if not name.startswith(("_", ".")) and not name.endswith(".crc"):
                with open(os.path.join(root, name)) as handle:
                    lines.extend(line.rstrip("\n") for line in handle if line.strip())
    return lines


def test_a_statement_set_writes_csv_and_json_files_in_one_job_as_flink_does(t_env: Any, in_dir: Any) -> None:
    from pyflink_compat.table.expressions import col

    t_env.execute_sql(_WORDS)
    t_env.execute_sql("CREATE TABLE snk (w STRING, n INT) WITH ('connector'='filesystem',"
                      "'path'='out','format'='csv')")
    t_env.execute_sql("CREATE TABLE snk2 (w STRING, n INT) WITH ('connector'='filesystem',"
                      "'path'='out2','format'='json')")
    statements = t_env.create_statement_set()
    statements.add_insert_sql("INSERT INTO snk SELECT w, n * 2 FROM src")
    statements.add_insert("snk2", t_env.from_path("src").where(col("n") > 1))
    result = statements.execute()
    result.wait()
    assert result.get_job_client() is not None
    assert sorted(_lines("out")) == sorted(["a,2", "b,4", "a,6", "c,8", "a,10"])
    # divergence 'table-file-sink-spark-metadata': Spark's commit log next to the part files
    assert os.path.isdir(os.path.join("out", "_spark_metadata"))
    assert sorted(_lines("out2")) == sorted(['{"w":"b","n":2}', '{"w":"a","n":3}', '{"w":"c","n":4}',
                                             '{"w":"a","n":5}'])


def test_a_table_api_grouped_sum_over_a_view_ends_with_flinks_rows(t_env: Any) -> None:
    from pyflink_compat.table.expressions import col

    table = t_env.from_elements([(1, 'a'), (2, 'b'), (3, 'a')], ['id', 'w'])
    t_env.create_temporary_view("v", table)
    result = t_env.from_path("v").group_by(col("w")).select(col("w"), col("id").sum.alias("s")).execute()
    rows = list(result.collect())
    # PyFlink: +I[a, 1], +I[b, 2], -U[a, 1], +U[a, 4]
    final = {}
    for row in rows:
        final[row[0]] = tuple(row)
    assert final == {"a": ("a", 4), "b": ("b", 2)}
    assert all(type(row).__name__ == "Row" for row in rows)


def test_a_query_result_collects_the_rows_in_input_order(t_env: Any, in_dir: Any) -> None:
    t_env.execute_sql(_WORDS)
    rows = list(t_env.execute_sql("SELECT w, n FROM src").collect())
    from pyflink_compat.common import Row

    assert rows == [Row("a", 1), Row("b", 2), Row("a", 3), Row("c", 4), Row("a", 5)]


def test_an_unknown_connector_is_refused_before_any_query_starts_naming_it_and_the_statement(
        t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE snk (a INT) WITH ('connector'='nosuch')")
    with pytest.raises(NotSupportedError) as raised:
        t_env.execute_sql("INSERT INTO snk SELECT 1")
    message = str(raised.value)
    assert "Connector 'nosuch'" in message and "CREATE TABLE snk" in message
    assert "spark.readStream" in message
    assert not t_env.stream_execution_environment._runs


def test_an_unknown_option_is_refused_naming_the_option_and_the_statement(t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE snk (a INT) WITH ('connector'='print', 'no-such-option'='1')")
    with pytest.raises(NotSupportedError, match="Option 'no-such-option' of connector 'print'"):
        t_env.execute_sql("INSERT INTO snk SELECT 1")


def test_random_datagen_fields_are_drawn_from_flinks_ranges(t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE src (i INT, b TINYINT, s STRING, r INT) WITH ("
                      "'connector'='datagen','number-of-rows'='200',"
                      "'fields.r.min'='5','fields.r.max'='7')")
    rows = list(t_env.execute_sql("SELECT * FROM src").collect())
    assert len(rows) == 200
    assert all(-2 ** 31 <= i <= 2 ** 31 - 1 and -128 <= b <= 127 for i, b, _, _ in rows)
    assert all(len(s) == 100 and set(s) <= set("0123456789abcdef") for _, _, s, _ in rows)
    assert {r for *_, r in rows} == {5, 6, 7}
    assert len({i for i, *_ in rows}) > 190  # spread over the whole range


def test_a_table_with_a_watermark_on_a_flink_timestamp_passes_its_rows_with_their_wall_clock_time(
        t_env: Any, capsys: Any, tmp_path: Any, monkeypatch: Any) -> None:
    (tmp_path / "events.csv").write_text("2024-01-01 10:00:01,a\n2024-01-01 10:00:07.250,b\n")
    monkeypatch.chdir(tmp_path)
    t_env.execute_sql("CREATE TABLE ev (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
                      "WITH ('connector'='filesystem','path'='events.csv','format'='csv')")
    t_env.execute_sql("CREATE TABLE snk (ts TIMESTAMP(3), k STRING) WITH ('connector'='print')")
    t_env.execute_sql("INSERT INTO snk SELECT ts, k FROM ev").wait()
    # Flink's print sink writes LocalDateTime.toString()
    assert _printed(capsys) == ["+I[2024-01-01T10:00:01, a]", "+I[2024-01-01T10:00:07.250, b]"]


def test_csv_timestamps_are_read_as_flinks_csv_format_reads_them_spaces_and_fractions_included(
        t_env: Any, capsys: Any, tmp_path: Any) -> None:
    (tmp_path / "events.csv").write_text(" 2024-01-01 10:00:01 ,a\n2024-01-01 10:00:02.5,b\n"
                                         "2024-01-01 10:00:03.,c\n2024-01-01 10:00:04.250\t,d\n")
    t_env.execute_sql("CREATE TABLE ev (ts TIMESTAMP(3), k STRING, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
                      "WITH ('connector'='filesystem','path'='{}','format'='csv')".format(tmp_path / "events.csv"))
    t_env.execute_sql("CREATE TABLE snk (ts TIMESTAMP(3), k STRING) WITH ('connector'='print')")
    t_env.execute_sql("INSERT INTO snk SELECT ts, k FROM ev").wait()
    assert _printed(capsys) == ["+I[2024-01-01T10:00:01, a]", "+I[2024-01-01T10:00:02.500, b]",
                                "+I[2024-01-01T10:00:03, c]", "+I[2024-01-01T10:00:04.250, d]"]


@pytest.mark.parametrize("text", ["2024-01-01T00:00:00", "2024-01-01", "2024-01-01 00:00:00Z"])
def test_a_csv_timestamp_flink_cannot_parse_fails_the_job_even_when_the_query_drops_it(
        t_env: Any, tmp_path: Any, text: str) -> None:
    from pyflink_compat.util.exceptions import JobExecutionError

    # PyFlink 1.20.5 fails this job: the watermark parses every row's timestamp
    (tmp_path / "events.csv").write_text("1,2024-01-01 00:00:00\n3,{}\n".format(text))
    t_env.execute_sql("CREATE TABLE ev (id BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
                      "WITH ('connector'='filesystem','path'='{}','format'='csv')".format(tmp_path / "events.csv"))
    t_env.execute_sql("CREATE TABLE snk (id BIGINT) WITH ('connector'='blackhole')")
    with pytest.raises(JobExecutionError, match="Fail to deserialize at field: ts. Text '{}'".format(text)):
        t_env.execute_sql("INSERT INTO snk SELECT id FROM ev WHERE MOD(id, 2) = 1").wait()


def _csv_into_print(t_env: Any, tmp_path: Any, text: str, columns: str, options: str = "") -> None:
    (tmp_path / "in.csv").write_text(text)
    t_env.execute_sql("CREATE TABLE src ({}) WITH ('connector'='filesystem','path'='{}','format'='csv'{})"
                      .format(columns, tmp_path / "in.csv", options))
    t_env.execute_sql("CREATE TABLE snk ({}) WITH ('connector'='print')".format(columns))
    t_env.execute_sql("INSERT INTO snk SELECT * FROM src").wait()


def test_a_csv_timestamp_past_the_months_end_is_its_last_day_and_24_oclock_the_next_midnight_as_in_flink(
        t_env: Any, capsys: Any, tmp_path: Any) -> None:
    _csv_into_print(t_env, tmp_path, "1,2024-02-30 10:00:00\n2,2023-02-29 23:59:59.5\n3,2024-04-31 00:00:00\n"
                    "4,2024-12-31 24:00:00\n", "id INT, ts TIMESTAMP(3)")
    # recorded from PyFlink 1.20.5
    assert _printed(capsys) == ["+I[1, 2024-02-29T10:00]", "+I[2, 2023-02-28T23:59:59.500]",
                                "+I[3, 2024-04-30T00:00]", "+I[4, 2025-01-01T00:00]"]


@pytest.mark.parametrize("text, reason", [
    ("2024-02-32 10:00:00", "Invalid value for DayOfMonth (valid values 1 - 28/31): 32"),
    ("2024-01-01 24:00:01", "Invalid value for HourOfDay (valid values 0 - 23): 24"),
])
def test_a_csv_timestamp_with_a_field_out_of_range_fails_the_job_with_flinks_reason(
        t_env: Any, tmp_path: Any, text: str, reason: str) -> None:
    from pyflink_compat.util.exceptions import JobExecutionError

    with pytest.raises(JobExecutionError) as failure:
        _csv_into_print(t_env, tmp_path, "1,{}\n".format(text), "id INT, ts TIMESTAMP(3)")
    assert "Fail to deserialize at field: ts. Text '{}' could not be parsed: {}".format(text, reason) \
        in str(failure.value)


def test_a_csv_date_past_the_months_end_rolls_into_the_next_month_as_in_flink(
        t_env: Any, tmp_path: Any) -> None:
    (tmp_path / "in.csv").write_text("1,2024-02-30\n2,2024-02-31\n3,2023-02-29\n4,2024-04-31\n5,2024-2-5\n"
                                     "6,2024-13-01\n")
    t_env.execute_sql("CREATE TABLE src (id INT, d DATE) WITH ('connector'='filesystem','path'='{}',"
                      "'format'='csv','csv.ignore-parse-errors'='true')".format(tmp_path / "in.csv"))
    rows = [(r[0], str(r[1])) for r in t_env.execute_sql("SELECT * FROM src").collect()]
    # recorded from PyFlink 1.20.5 (java.sql.Date.valueOf rolls a day of 29 to 31 over)
    assert sorted(rows) == [(1, "2024-03-01"), (2, "2024-03-02"), (3, "2023-03-01"), (4, "2024-05-01"),
                            (5, "2024-02-05"), (6, "None")]


@pytest.mark.parametrize("text", ["2024-02-32", "2024-13-01", "2024-01-00", " 2024-02-01", "2024-02-01x"])
def test_a_csv_date_flink_cannot_read_fails_the_job_with_flinks_message(
        t_env: Any, tmp_path: Any, text: str) -> None:
    from pyflink_compat.util.exceptions import JobExecutionError

    with pytest.raises(JobExecutionError) as failure:
        _csv_into_print(t_env, tmp_path, "1,{}\n".format(text), "id INT, d DATE")
    # recorded from PyFlink 1.20.5: "Fail to deserialize at field: d." caused by
    # java.lang.IllegalArgumentException
    assert "Fail to deserialize at field: d. java.lang.IllegalArgumentException" in str(failure.value)


def test_an_empty_csv_field_reads_as_an_empty_string_and_false_as_in_flink(
        t_env: Any, capsys: Any, tmp_path: Any) -> None:
    _csv_into_print(t_env, tmp_path, "1,,\n2,x,a\n3,TRUE,b\n", "id INT, b BOOLEAN, s STRING")
    assert _printed(capsys) == ["+I[1, false, ]", "+I[2, false, a]", "+I[3, true, b]"]


@pytest.mark.parametrize("column, cause", [
    ("n INT", 'For input string: ""'),
    ("ts TIMESTAMP(3)", "Text '' could not be parsed at index 0"),
    ("d DATE", "java.lang.IllegalArgumentException"),
])
def test_an_empty_csv_field_of_a_number_date_or_timestamp_fails_the_job_with_flinks_message(
        t_env: Any, capsys: Any, tmp_path: Any, column: str, cause: str) -> None:
    from pyflink_compat.util.exceptions import JobExecutionError

    with pytest.raises(JobExecutionError) as failure:
        _csv_into_print(t_env, tmp_path, "1,2\n3,\n", "id INT, " + column)
    assert "Fail to deserialize at field: {}. {}".format(column.split()[0], cause) in str(failure.value)


def test_with_ignore_parse_errors_empty_csv_fields_are_null_except_strings_and_booleans_as_in_flink(
        t_env: Any, capsys: Any, tmp_path: Any) -> None:
    _csv_into_print(t_env, tmp_path, "1,,,,,,,,\n2\n",
                    "id INT, n INT, d DOUBLE, dt DATE, amt DECIMAL(10,2), ts TIMESTAMP(3), b BOOLEAN, "
                    "s STRING, big BIGINT", ",'csv.ignore-parse-errors'='true'")
    # a row missing its fields has them all NULL
    assert _printed(capsys) == ["+I[1, null, null, null, null, null, false, , null]",
                                "+I[2, null, null, null, null, null, null, null, null]"]


@pytest.mark.parametrize("null_literal", ["", ",'csv.null-literal'='n'"])
def test_with_ignore_parse_errors_a_csv_row_of_too_many_fields_is_skipped_and_a_short_one_kept_as_in_flink(
        t_env: Any, capsys: Any, tmp_path: Any, null_literal: str) -> None:
    # recorded from PyFlink 1.20.5: the 4-field row is gone, the 2-field one has its last field
    # NULL, an unreadable number is NULL (a quoted delimiter is no field boundary)
    _csv_into_print(t_env, tmp_path, '1,a,2\n3,b\n4,c,5,7\n6,d,8\nx,e,9\n"7,q",f,1\n',
                    "a INT, b STRING, c INT", ",'csv.ignore-parse-errors'='true'" + null_literal)
    assert sorted(_printed(capsys)) == ["+I[1, a, 2]", "+I[3, b, null]", "+I[6, d, 8]", "+I[null, e, 9]",
                                        "+I[null, f, 1]"]


def test_an_empty_csv_null_literal_makes_every_empty_field_null_as_in_flink(
        t_env: Any, capsys: Any, tmp_path: Any) -> None:
    _csv_into_print(t_env, tmp_path, "1,,,,,,,\n",
                    "id INT, n INT, d DOUBLE, dt DATE, amt DECIMAL(10,2), ts TIMESTAMP(3), b BOOLEAN, s STRING",
                    ",'csv.null-literal'=''")
    assert _printed(capsys) == ["+I[1, null, null, null, null, null, null, null]"]


def test_an_empty_csv_field_beside_another_null_literal_is_null_a_registered_divergence(
        t_env: Any, capsys: Any, tmp_path: Any) -> None:
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    # PyFlink 1.20.5 fails this job: "Fail to deserialize at field: n." (For input string: "")
    _csv_into_print(t_env, tmp_path, "1,\n2,N/A\n", "id INT, n INT", ",'csv.null-literal'='N/A'")
    assert _printed(capsys) == ["+I[1, null]", "+I[2, null]"]
    assert "table/csv-empty-field-with-null-literal" in [s for d in RUNTIME_DIVERGENCES for s in d.steps]


@pytest.mark.parametrize("text, flink", [
    ("a,1,2\nb,2\n", "Row length mismatch. 3 fields expected but was 2."),
    ("a,1,2\nb,2,3,9\n", 'Too many entries: expected at most 3 (value #3 (1 chars) "9")'),
    ("a,1,2\nb,x,3\n", 'Fail to deserialize at field: b. For input string: "x"'),
])
def test_a_malformed_csv_row_fails_the_job_with_sparks_text_a_registered_divergence(
        t_env: Any, tmp_path: Any, text: str, flink: str) -> None:
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES
    from pyflink_compat.util.exceptions import JobExecutionError

    # PyFlink 1.20.5 fails each of these jobs too, with the text in ``flink`` (the last one as
    # "Fail to deserialize at field: b." caused by NumberFormatException: For input string: "x")
    with pytest.raises(JobExecutionError) as failure:
        _csv_into_print(t_env, tmp_path, text, "a STRING, b INT, c INT")
    assert "Malformed" in str(failure.value) and flink not in str(failure.value)
    assert "table/csv-malformed-row-text" in [s for d in RUNTIME_DIVERGENCES for s in d.steps]


def _json_timestamps(t_env: Any, tmp_path: Any, texts: List[str], options: str) -> List[str]:
    import json

    (tmp_path / "in.json").write_text("".join(json.dumps({"id": i, "ts": t}) + "\n" for i, t in enumerate(texts)))
    t_env.execute_sql("CREATE TABLE src (id INT, ts TIMESTAMP(3)) WITH ('connector'='filesystem','path'='{}',"
                      "'format'='json'{})".format(tmp_path / "in.json", options))
    with t_env.execute_sql("SELECT id, CAST(ts AS STRING) FROM src").collect() as rows:
        return [r[1] for r in sorted(rows, key=lambda r: int(r[0]))]


def test_json_timestamps_are_read_as_flinks_json_format_reads_them_bad_ones_null_when_ignored(
        t_env: Any, tmp_path: Any) -> None:
    texts = ["2024-01-01 10:00:00", "2024-01-01 10:00:00.5", "2024-01-01 10:00:00.123456789", "2024-01-01 10:00:00.",
             "2024-02-30 10:00:00", "2024-12-31 24:00:00", " 2024-01-01 10:00:00", "2024-01-01T10:00:00",
             "2024-01-01", "2024-02-32 10:00:00", "", "2024-01-01 10:00:00Z"]
    # recorded from PyFlink 1.20.5 (json.timestamp-format.standard 'SQL')
    assert _json_timestamps(t_env, tmp_path, texts, ",'json.ignore-parse-errors'='true'") == [
        "2024-01-01 10:00:00.000", "2024-01-01 10:00:00.500", "2024-01-01 10:00:00.123", "2024-01-01 10:00:00.000",
        "2024-02-29 10:00:00.000", "2025-01-01 00:00:00.000", None, None, None, None, None, None]


def test_a_json_timestamp_flink_cannot_parse_fails_the_job(t_env: Any, tmp_path: Any) -> None:
    from pyflink_compat.util.exceptions import JobExecutionError

    with pytest.raises(JobExecutionError, match="Fail to deserialize at field: ts. Text '2024-01-01T10:00:00'"):
        _json_timestamps(t_env, tmp_path, ["2024-01-01 10:00:00", "2024-01-01T10:00:00"], "")


def test_iso_json_timestamps_take_the_t_separator_only(t_env: Any, tmp_path: Any) -> None:
    options = ",'json.timestamp-format.standard'='ISO-8601','json.ignore-parse-errors'='true'"
    assert _json_timestamps(t_env, tmp_path, ["2024-01-01T10:00:00", "2024-01-01 10:00:00",
                                              "2024-01-01T10:00:00Z"], options) == [
        "2024-01-01 10:00:00.000", None, None]


def test_iso_json_timestamps_are_not_adjusted_to_a_valid_day_as_in_flink(t_env: Any, tmp_path: Any) -> None:
    options = ",'json.timestamp-format.standard'='ISO-8601','json.ignore-parse-errors'='true'"
    # recorded from PyFlink 1.20.5: its ISO-8601 parser resolves strictly
    assert _json_timestamps(t_env, tmp_path, ["2024-02-30T10:00:00", "2024-12-31T24:00:00"], options) == [None, None]


def test_a_csv_timestamp_column_no_query_reads_is_not_parsed_as_in_flink(
        t_env: Any, capsys: Any, tmp_path: Any) -> None:
    (tmp_path / "events.csv").write_text("1,2024-01-01 00:00:00\n3,2024-01-01T00:00:00\n")
    t_env.execute_sql("CREATE TABLE ev (id BIGINT, ts TIMESTAMP(3)) "
                      "WITH ('connector'='filesystem','path'='{}','format'='csv')".format(tmp_path / "events.csv"))
    t_env.execute_sql("CREATE TABLE snk (id BIGINT) WITH ('connector'='print')")
    t_env.execute_sql("INSERT INTO snk SELECT id FROM ev WHERE MOD(id, 2) = 1").wait()
    assert _printed(capsys) == ["+I[1]", "+I[3]"]


def test_in_batch_mode_results_are_final_rows_without_row_kinds_as_pyflink_prints_them(
        make_env: Any, capsys: Any, in_dir: Any) -> None:
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment

    t_env = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())
    t_env.execute_sql(_WORDS)
    t_env.execute_sql("SELECT w, COUNT(*) AS c, SUM(n) AS s FROM src GROUP BY w").print()
    t_env.execute_sql("CREATE TABLE snk (w STRING, c BIGINT) WITH ('connector'='print')")
    t_env.execute_sql("INSERT INTO snk SELECT w, COUNT(*) FROM src GROUP BY w").wait()
    t_env.execute_sql("SELECT w FROM src WHERE n > 10").print()
    printed = _printed(capsys)
    border = "+--------------------------------+----------------------+-------------+"
    assert printed[:3] == [border, "|                              w |                    c |           s |", border]
    assert sorted(printed[3:6]) == ["|                              a |                    3 |           9 |",
                                    "|                              b |                    1 |           2 |",
                                    "|                              c |                    1 |           4 |"]
    assert printed[6:8] == [border, "3 rows in set"]
    assert sorted(printed[8:11]) == ["+I[a, 3]", "+I[b, 1]", "+I[c, 1]"]
    assert printed[11:] == ["Empty set"]


def test_ddl_and_insert_results_print_as_pyflink_prints_them(t_env: Any, capsys: Any) -> None:
    t_env.execute_sql("CREATE TABLE snk (a INT) WITH ('connector'='blackhole')").print()
    result = t_env.execute_sql("INSERT INTO snk SELECT 1")  # a query of constants runs too
    result.print()
    result.wait()
    assert _printed(capsys) == ["OK", "-1"]


def test_a_parquet_and_an_orc_table_write_rows_that_read_back_as_they_were(t_env: Any, in_dir: Any) -> None:
    t_env.execute_sql(_WORDS)
    for fmt in ("parquet", "orc"):
        t_env.execute_sql("CREATE TABLE {0}_out (w STRING, n INT) WITH ('connector'='filesystem',"
                          "'path'='{0}','format'='{0}')".format(fmt))
        t_env.execute_sql("INSERT INTO {0}_out SELECT w, n FROM src".format(fmt)).wait()
        rows = [tuple(r) for r in t_env.execute_sql("SELECT w, n FROM {}_out".format(fmt)).collect()]
        assert sorted(rows) == [("a", 1), ("a", 3), ("a", 5), ("b", 2), ("c", 4)]


def test_a_parquet_writer_setting_is_dropped_with_a_warning_and_compression_is_kept(
        t_env: Any, in_dir: Any) -> None:
    from pyflink_compat.connectors.filesystem import sink_options
    from pyflink_compat.sql.statements import CreateTable

    table = t_env._runtime.parse_one(
        "CREATE TABLE t (w STRING) WITH ('connector'='filesystem','path'='p','format'='parquet',"
        "'parquet.compression'='GZIP','parquet.block.size'='1024','parquet.utc-timezone'='true')")
    assert isinstance(table, CreateTable)
    with pytest.warns(UserWarning, match="parquet.block.size"):
        _, fmt, options = sink_options(table)
    assert (fmt, options) == ("parquet", {"compression": "gzip"})


def test_a_float_sum_is_rounded_to_float_once_a_registered_divergence(t_env: Any) -> None:
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES
    from pyflink_compat.table import DataTypes

    table = t_env.from_elements([(1, 0.1)] * 10, DataTypes.ROW([
        DataTypes.FIELD("k", DataTypes.INT()), DataTypes.FIELD("v", DataTypes.FLOAT())]))
    t_env.create_temporary_view("floats", table)
    rows = list(t_env.execute_sql("SELECT k, SUM(v) AS s FROM floats GROUP BY k").collect())
    # PyFlink 1.20.5 adds in 32-bit precision and prints 1.0000001 (sql-floating-point-sums)
    assert [tuple(row) for row in rows][-1] == (1, 1.0)
    assert "sql-floating-point-sums" in {d.id for d in RUNTIME_DIVERGENCES}


def test_timestamp_columns_print_their_declared_fraction_digits_in_every_path(
        t_env: Any, capsys: Any, tmp_path: Any, monkeypatch: Any) -> None:
    # Flink casts a TIMESTAMP(3) to text with three fraction digits, always
    (tmp_path / "ev.csv").write_text("1,2024-01-01 00:00:00\n2,2024-01-01 00:00:01.250\n")
    monkeypatch.chdir(tmp_path)
    t_env.execute_sql("CREATE TABLE ev (id INT, ts TIMESTAMP(3)) "
                      "WITH ('connector'='filesystem','path'='ev.csv','format'='csv')")
    t_env.execute_sql("SELECT * FROM ev").print()
    t_env.execute_sql("SELECT id, ts FROM ev ORDER BY id LIMIT 5").print()  # read once
    rows = [line for line in _printed(capsys) if line.startswith("| +I")]
    assert rows == ["| +I |           1 | 2024-01-01 00:00:00.000 |",
                    "| +I |           2 | 2024-01-01 00:00:01.250 |"] * 2


def test_a_results_table_schema_gives_pyflinks_names_and_types(t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE s (a INT, b STRING, c VARCHAR(10), d DOUBLE, ts TIMESTAMP(3), "
                      "WATERMARK FOR ts AS ts) WITH ('connector'='datagen','number-of-rows'='3')")
    t_env.execute_sql("CREATE TABLE k (a INT, n BIGINT) WITH ('connector'='blackhole')")
    # recorded from PyFlink 1.20.5 (str of the schema)
    expected = {
        "CREATE TABLE x (a INT) WITH ('connector'='blackhole')": ["result: STRING"],
        "SELECT a, b, c, d, ts, a + 1, CAST(a AS DOUBLE) AS dd FROM s": [
            "a: INT", "b: STRING", "c: VARCHAR(10)", "d: DOUBLE", "ts: TIMESTAMP(3) *ROWTIME*",
            "EXPR$5: INT", "dd: DOUBLE"],
        "SELECT b, SUM(a) AS total, COUNT(*) FROM s GROUP BY b": [
            "b: STRING", "total: INT", "EXPR$2: BIGINT NOT NULL"],
        "INSERT INTO k SELECT a, CAST(a AS BIGINT) FROM s": [
            "default_catalog.default_database.k: BIGINT"],
    }
    for statement, columns in expected.items():
        result = t_env.execute_sql(statement)
        assert str(result.get_table_schema()).splitlines() == ["root"] + [" |-- " + c for c in columns]
        if result.get_job_client() is not None:
            result.get_job_client().cancel().result()


_DESCRIBED_DDL = (
    "CREATE TABLE orders (id BIGINT NOT NULL, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), "
    "cost AS price * 2, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND, PRIMARY KEY (id) NOT ENFORCED) "
    "WITH ('connector'='filesystem','path'='x.csv','format'='csv')",
    "CREATE TABLE events (k STRING, v BIGINT NOT NULL, part INT METADATA FROM 'partition' VIRTUAL, "
    "ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', PRIMARY KEY (k, v) NOT ENFORCED) "
    "WITH ('connector'='kafka','topic'='x','properties.bootstrap.servers'='b:9092','format'='json')",
    "CREATE TABLE plain (a INT, b STRING) WITH ('connector'='datagen')",
    "CREATE VIEW v AS SELECT a, b, a + 1 AS c FROM plain",
)


def test_describe_lists_a_tables_and_a_views_columns_as_pyflink_prints_them(t_env: Any, capsys: Any) -> None:
    for ddl in _DESCRIBED_DDL:
        t_env.execute_sql(ddl)
    capsys.readouterr()
    for statement in ("DESCRIBE orders", "DESC events", "describe `v`"):
        t_env.execute_sql(statement).print()
    # recorded from PyFlink 1.20.5
    assert capsys.readouterr().out.splitlines() == [
        "+-------+------------------------+-------+---------+----------------+----------------------------+",
        "|  name |                   type |  null |     key |         extras |                  watermark |",
        "+-------+------------------------+-------+---------+----------------+----------------------------+",
        "|    id |                 BIGINT | FALSE | PRI(id) |                |                            |",
        "|  name |                 STRING |  TRUE |         |                |                            |",
        "| price |         DECIMAL(10, 2) |  TRUE |         |                |                            |",
        "|    ts | TIMESTAMP(3) *ROWTIME* |  TRUE |         |                | `ts` - INTERVAL '5' SECOND |",
        "|  cost |         DECIMAL(21, 2) |  TRUE |         | AS `price` * 2 |                            |",
        "+-------+------------------------+-------+---------+----------------+----------------------------+",
        "5 rows in set",
        "+------+------------------+-------+-----------+-----------------------------------+-----------+",
        "| name |             type |  null |       key |                            extras | watermark |",
        "+------+------------------+-------+-----------+-----------------------------------+-----------+",
        "|    k |           STRING | FALSE | PRI(k, v) |                                   |           |",
        "|    v |           BIGINT | FALSE | PRI(k, v) |                                   |           |",
        "| part |              INT |  TRUE |           | METADATA FROM 'partition' VIRTUAL |           |",
        "|   ts | TIMESTAMP_LTZ(3) |  TRUE |           |         METADATA FROM 'timestamp' |           |",
        "+------+------------------+-------+-----------+-----------------------------------+-----------+",
        "4 rows in set",
        "+------+--------+------+-----+--------+-----------+",
        "| name |   type | null | key | extras | watermark |",
        "+------+--------+------+-----+--------+-----------+",
        "|    a |    INT | TRUE |     |        |           |",
        "|    b | STRING | TRUE |     |        |           |",
        "|    c |    INT | TRUE |     |        |           |",
        "+------+--------+------+-----+--------+-----------+",
        "3 rows in set",
    ]


def test_describe_collects_rows_with_nulls_and_has_pyflinks_result_schema(t_env: Any) -> None:
    t_env.execute_sql(_DESCRIBED_DDL[0])
    result = t_env.execute_sql("DESC orders")
    assert str(result.get_table_schema()) == ("root\n |-- name: STRING\n |-- type: STRING\n |-- null: BOOLEAN\n"
                                              " |-- key: STRING\n |-- extras: STRING\n |-- watermark: STRING\n")
    assert result.get_result_kind() == 1
    with result.collect() as rows:
        assert [tuple(r) for r in rows] == [
            ("id", "BIGINT", False, "PRI(id)", None, None), ("name", "STRING", True, None, None, None),
            ("price", "DECIMAL(10, 2)", True, None, None, None),
            ("ts", "TIMESTAMP(3) *ROWTIME*", True, None, None, "`ts` - INTERVAL '5' SECOND"),
            ("cost", "DECIMAL(21, 2)", True, None, "AS `price` * 2", None)]
    with pytest.raises(Exception, match="Tables or views with the identifier "
                       "'default_catalog.default_database.nope' doesn't exist."):
        t_env.execute_sql("DESCRIBE nope")
