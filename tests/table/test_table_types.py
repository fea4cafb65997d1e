"""Table API jobs that use PyFlink's types and descriptors run on Spark and give PyFlink's output.

Every expected output below was printed by live PyFlink 1.20.5 running the same calls.
"""

from __future__ import annotations

import decimal
from typing import Any, Callable, List

import pytest

from pyflink_compat.table import DataTypes as D


@pytest.fixture
def b_env(make_env: Callable[..., Any], spark: Any) -> Any:
    """A table environment in batch mode."""
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment

    return StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())


def _printed(capsys: Any) -> List[str]:
    return [line for line in capsys.readouterr().out.splitlines() if line]


def test_from_elements_with_a_row_schema_keeps_the_declared_types(b_env: Any, capsys: Any) -> None:
    table = b_env.from_elements(
        [(1, 'Hi', decimal.Decimal('1.5'))],
        D.ROW([D.FIELD("id", D.TINYINT(False)), D.FIELD("d", D.VARCHAR(10)),
               D.FIELD("m", D.DECIMAL(10, 2))]))
    table.print_schema()
    print(table.get_schema())
    table.execute().print()
    assert _printed(capsys) == [
        "(", "  `id` TINYINT NOT NULL,", "  `d` VARCHAR(10),", "  `m` DECIMAL(10, 2)", ")",
        "root", " |-- id: TINYINT NOT NULL", " |-- d: VARCHAR(10)", " |-- m: DECIMAL(10, 2)",
        "+--------+--------------------------------+--------------+",
        "|     id |                              d |            m |",
        "+--------+--------------------------------+--------------+",
        "|      1 |                             Hi |         1.50 |",
        "+--------+--------------------------------+--------------+",
        "1 row in set"]
    assert repr(table.get_schema().get_field_data_type("id")) == "TinyIntType(false)"


def test_a_table_schema_answers_by_name_and_index_with_data_types(b_env: Any) -> None:
    schema = b_env.from_elements([(1, 'Hi', 1.5), (2, 'Hello', None)], ['id', 'data', 'x']).get_schema()
    assert str(schema) == 'root\n |-- id: BIGINT\n |-- data: STRING\n |-- x: DOUBLE\n'
    assert str(schema.get_field_data_type("id")) == "BIGINT"
    assert repr(schema.get_field_data_type(1)) == "VarCharType(2147483647, true)"
    assert schema.get_field_data_type("nope") is None and schema.get_field_name(9) is None
    assert schema.get_field_name(0) == "id" and schema.get_field_count() == 3
    assert repr(schema.to_row_data_type()) == (
        "RowType(RowField(id, BigIntType(true), ...),RowField(data, VarCharType(2147483647, true), "
        "...),RowField(x, DoubleType(true), ...))")


def test_a_missing_column_attribute_names_the_columns(b_env: Any) -> None:
    table = b_env.from_elements([(1, 'Hi')], ['id', 'data'])
    assert table.id is not None
    with pytest.raises(AttributeError, match=r"no column named 'nope', available columns: \[id, data\]"):
        assert table.nope is None
    # a Table operation's name is the operation, not a column
    assert table.minus(table).get_schema().get_field_names() == ['id', 'data']


def test_to_pandas_and_from_pandas_give_arrows_dtypes_and_types(b_env: Any, capsys: Any) -> None:
    import pandas as pd

    table = b_env.from_elements([(1, 'Hi', 1.5), (2, 'Hello', None)], ['id', 'data', 'x'])
    pdf = table.to_pandas()
    assert {k: str(v) for k, v in pdf.dtypes.to_dict().items()} == {
        'id': 'int64', 'data': 'object', 'x': 'float64'}
    assert pdf["data"].tolist() == ["Hi", "Hello"] and pd.isna(pdf["x"][1])
    typed = b_env.from_elements([(1, None)], D.ROW([D.FIELD("n", D.INT()), D.FIELD("i", D.BIGINT())]))
    assert {k: str(v) for k, v in typed.to_pandas().dtypes.to_dict().items()} == {
        'n': 'int32', 'i': 'float64'}
    b_env.from_pandas(pdf).execute().print()
    b_env.from_pandas(pdf, ['p', 'q', 'r']).print_schema()
    frame = pd.DataFrame({'e': pd.array([1, 2], dtype='int32'), 'g': pd.array([1, 2], dtype='int8'),
                          'd': [True, False]})
    b_env.from_pandas(frame).print_schema()
    assert _printed(capsys) == [
        "+----------------------+--------------------------------+--------------------------------+",
        "|                   id |                           data |                              x |",
        "+----------------------+--------------------------------+--------------------------------+",
        "|                    1 |                             Hi |                            1.5 |",
        "|                    2 |                          Hello |                         <NULL> |",
        "+----------------------+--------------------------------+--------------------------------+",
        "2 rows in set",
        "(", "  `p` BIGINT,", "  `q` STRING,", "  `r` DOUBLE", ")",
        "(", "  `e` INT,", "  `g` TINYINT,", "  `d` BOOLEAN", ")"]


def test_schema_and_table_descriptor_show_as_pyflinks() -> None:
    from pyflink_compat.table import Schema, TableDescriptor

    schema = Schema.new_builder().column('id', D.BIGINT()).column('data', D.STRING()) \
        .column('ts', D.TIMESTAMP(3)).column_by_expression('p', 'PROCTIME()') \
        .watermark('ts', "ts - INTERVAL '1' SECOND").primary_key('id').build()
    assert str(schema) == (
        "(\n  `id` BIGINT,\n  `data` STRING,\n  `ts` TIMESTAMP(3),\n  `p` AS [PROCTIME()],\n"
        "  WATERMARK FOR `ts` AS [ts - INTERVAL '1' SECOND],\n"
        "  CONSTRAINT `PK_id` PRIMARY KEY (`id`) NOT ENFORCED\n)")
    descriptor = TableDescriptor.for_connector('print') \
        .schema(Schema.new_builder().column('id', D.BIGINT()).build()) \
        .option('print-identifier', 'x').format('json').partitioned_by('id').comment('c').build()
    assert str(descriptor) == (
        "(\n  `id` BIGINT\n)\nCOMMENT 'c'\nPARTITIONED BY (`id`)\nWITH (\n  'connector' = 'print',\n"
        "  'format' = 'json',\n  'print-identifier' = 'x'\n)")
    assert descriptor.get_options() == {'connector': 'print', 'print-identifier': 'x', 'format': 'json'}


def test_descriptor_tables_run_through_their_connectors(t_env: Any, capsys: Any, caplog: Any) -> None:
    import logging

    from pyflink_compat.table import Schema, TableDescriptor
    from pyflink_compat.table.expressions import col

    caplog.set_level(logging.INFO, logger="pyflink_compat")

    def datagen(rows: int) -> Any:
        return TableDescriptor.for_connector('datagen').option('number-of-rows', str(rows)) \
            .option('fields.id.kind', 'sequence').option('fields.id.start', '1') \
            .option('fields.id.end', str(rows)) \
            .schema(Schema.new_builder().column('id', D.INT()).build()).build()

    t_env.create_temporary_table('src', datagen(3))
    t_env.create_temporary_table('sink', TableDescriptor.for_connector('print').schema(
        Schema.new_builder().column('id', D.BIGINT()).column('data', D.STRING()).build()).build())
    t_env.from_path('src').select(col('id'), col('id').cast(D.STRING())).execute_insert('sink').wait()
    assert sorted(_printed(capsys)) == ["+I[1, 1]", "+I[2, 2]", "+I[3, 3]"]
    # the job log is the job's own (pyflink_compat's loggers), as Flink's is the cluster's
    assert any("switched to FINISHED" in r.getMessage() for r in caplog.records
               if r.name.startswith("pyflink_compat"))
    assert sorted(r[0] for r in t_env.from_descriptor(datagen(2)).execute().collect()) == [1, 2]
    assert "src" in t_env.list_tables()


def test_json_value_returns_the_scalar_at_the_path(t_env: Any) -> None:
    from pyflink_compat.table.expressions import col

    table = t_env.from_elements(
        [(1, '{"name": "Flink", "addr": {"country": "Germany"}}'), (2, '{"tel": 135}')], ['id', 'data'])
    rows = table.select(col('id'), col('data').json_value('$.addr.country', D.STRING()),
                        col('data').json_value('$.tel', D.INT())).execute().collect()
    assert sorted(tuple(r) for r in rows) == [(1, 'Germany', None), (2, None, 135)]


def test_a_csv_table_source_reads_its_files_with_the_declared_types(
        b_env: Any, tmp_path: Any, monkeypatch: Any, capsys: Any) -> None:
    import datetime

    from pyflink_compat.table import CsvTableSource
    from pyflink_compat.table.expressions import col

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "part.csv").write_text(
        "id,product,qty,price,day\nLNK,Toothbrush,2,3.99,2021-07-01\nOMH,Dental Floss,5,1.99,2021-07-02\n")
    monkeypatch.chdir(tmp_path)
    source = CsvTableSource("./in", ["id", "product", "qty", "price", "day"],
                            [D.STRING(), D.STRING(), D.INT(), D.DOUBLE(), D.DATE()],
                            ignore_first_line=True)
    with pytest.warns(DeprecationWarning, match="Deprecated in 1.10"):
        b_env.register_table_source("sales", source)
    table = b_env.from_path("sales")
    table.print_schema()
    rows = table.select(col("product"), (col("price") * col("qty")).alias("s"), col("day")) \
        .execute().collect()
    assert sorted(tuple(r) for r in rows) == [
        ('Dental Floss', 1.99 * 5, datetime.date(2021, 7, 2)),
        ('Toothbrush', 3.99 * 2, datetime.date(2021, 7, 1))]
    assert _printed(capsys) == ["(", "  `id` STRING,", "  `product` STRING,", "  `qty` INT,",
                                "  `price` DOUBLE,", "  `day` DATE", ")"]


def test_a_batch_aggregate_inserts_its_final_rows_into_files_and_distinct_rows_print_once(
        b_env: Any, tmp_path: Any, capsys: Any) -> None:
    from pyflink_compat.table.expressions import col

    table = b_env.from_elements([("a", 1), ("b", 2), ("a", 3), ("a", 4)], ["w", "n"])
    b_env.execute_sql("CREATE TABLE res (w STRING, cnt BIGINT) WITH ('connector'='filesystem',"
                      "'path'='{}','format'='csv')".format(tmp_path / "res"))
    table.group_by(col("w")).select(col("w"), col("n").count.alias("cnt")).execute_insert("res").wait()
    written = sorted(line for f in (tmp_path / "res").iterdir() if not f.name.startswith((".", "_"))
                     for line in f.read_text().splitlines())
    assert written == ["a,3", "b,1"]
    table.select(col("w")).distinct().execute().print()
    printed = _printed(capsys)
    assert sorted(printed[3:5]) == ["|                              a |",
                                    "|                              b |"]
    assert printed[-1] == "2 rows in set"


def test_a_csv_table_source_gives_the_rows_its_files_held_when_registered(
        b_env: Any, tmp_path: Any) -> None:
    # the registered divergence table-csv-source-read-when-registered
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES
    from pyflink_compat.table import CsvTableSource

    data = tmp_path / "in.csv"
    data.write_text("a,1\n")
    with pytest.warns(DeprecationWarning):
        b_env.register_table_source("t", CsvTableSource(str(data), ["w", "n"], [D.STRING(), D.INT()]))
    data.write_text("b,2\n")
    assert [tuple(r) for r in b_env.from_path("t").execute().collect()] == [("a", 1)]
    assert "table/csv-table-source" in [s for d in RUNTIME_DIVERGENCES for s in d.steps]


def test_a_csv_table_sink_writes_flinks_lines_to_one_file_and_overwrites_it_when_asked(
        b_env: Any, tmp_path: Any) -> None:
    # lines recorded from PyFlink 1.20.5: Java's text of each field, empty for NULL, no quoting
    import datetime

    from pyflink_compat.table import CsvTableSink, WriteMode

    names = ["a", "b", "c", "d", "e", "f"]
    types = [D.INT(), D.STRING(), D.DOUBLE(), D.DATE(), D.TIMESTAMP(3), D.BOOLEAN()]
    rows = [(1, "x,y", 1.5, datetime.date(2021, 7, 3), datetime.datetime(2024, 1, 1), True),
            (None, None, None, None, None, None)]
    table = b_env.from_elements(rows, D.ROW([D.FIELD(n, t) for n, t in zip(names, types)]))
    out = tmp_path / "out.csv"
    out.write_text("old\n")
    with pytest.warns(DeprecationWarning, match="Deprecated in 1.10"):
        b_env.register_table_sink("s", CsvTableSink(names, types, str(out), "|", 1,
                                                    WriteMode.OVERWRITE))
    table.execute_insert("s").wait()
    assert out.read_text().splitlines() == ["1|x,y|1.5|2021-07-03|2024-01-01T00:00|true", "|||||"]
    with pytest.warns(DeprecationWarning):
        b_env.register_table_sink("t", CsvTableSink(names, types, str(out), "|", 1,
                                                    WriteMode.NO_OVERWRITE))
    with pytest.raises(Exception) as failure:  # noqa: B017 - the job's error, as in PyFlink
        table.execute_insert("t").wait()
    assert "not overwritten in NO_OVERWRITE mode" in str(failure.value) + repr(
        failure.value.__cause__) + str(getattr(failure.value, "java_exception", ""))
    assert out.read_text().splitlines()[1] == "|||||"


def test_a_csv_table_sink_of_several_files_writes_a_directory_of_numbered_files(
        b_env: Any, tmp_path: Any) -> None:
    from pyflink_compat.table import CsvTableSink

    with pytest.warns(DeprecationWarning):
        b_env.register_table_sink("s", CsvTableSink(["w", "n"], [D.STRING(), D.BIGINT()],
                                                    str(tmp_path / "out"), num_files=2))
    b_env.from_elements([("a", 1), ("b", 2)], ["w", "n"]).execute_insert("s").wait()
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["1", "2"]
    assert sorted(line for p in (tmp_path / "out").iterdir()
                  for line in p.read_text().splitlines()) == ["a,1", "b,2"]


def test_the_schema_of_a_python_map_gives_the_functions_declared_result_columns(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common import Row
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.udf import udf

    rows = t_env.from_elements([("a", 1), ("b", 2)], ["k", "v"])
    double = udf(lambda r: Row(r.k, r.v * 2, r.v / 2), result_type=DataTypes.ROW([
        DataTypes.FIELD("name", DataTypes.STRING()), DataTypes.FIELD("twice", DataTypes.INT()),
        DataTypes.FIELD("half", DataTypes.DOUBLE())]))
    rows.map(double).print_schema()
    # recorded from PyFlink 1.20.5
    assert capsys.readouterr().out.splitlines()[-5:] == [
        "(", "  `name` STRING,", "  `twice` INT,", "  `half` DOUBLE", ")"]
