"""The Flink dialect reads the statements real Table API jobs run (no Spark needed)."""

from __future__ import annotations

import pytest
from sqlglot import exp

from pyflink_compat.sql.dialect import Flink, parse
from pyflink_compat.sql.statements import (
    CreateTable, CreateView, Drop, Insert, Query, ResetOption, SetOption, UnsupportedStatement,
    parse_statements)

_DDL = """
CREATE TEMPORARY TABLE IF NOT EXISTS orders (
  id INT NOT NULL, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), lt TIMESTAMP_LTZ(3),
  tags ARRAY<STRING>, r ROW<a INT, b STRING>, m MAP<STRING, INT>, v VARCHAR(10), big BIGINT,
  total AS price * 2,
  meta TIMESTAMP(3) METADATA FROM 'timestamp' VIRTUAL,
  pt AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
  PRIMARY KEY (id) NOT ENFORCED
) WITH ('connector' = 'datagen', 'number-of-rows' = '10', 'fields.id.kind' = 'sequence')
"""


def test_a_create_table_gives_its_columns_watermark_key_and_options() -> None:
    (statement,) = parse_statements(_DDL)
    assert isinstance(statement, CreateTable)
    assert statement.name == "orders" and statement.temporary and statement.if_not_exists
    kinds = {c.name: c.kind for c in statement.columns}
    assert kinds["total"] == "computed" and kinds["pt"] == "computed"
    assert kinds["meta"] == "metadata" and kinds["id"] == "physical"
    meta = next(c for c in statement.columns if c.name == "meta")
    assert meta.metadata_key == "timestamp" and meta.virtual
    assert next(c for c in statement.columns if c.name == "id").not_null
    assert statement.watermark is not None and statement.watermark.column == "ts"
    assert statement.watermark.sql == "ts - INTERVAL '5' SECOND"
    assert statement.primary_key == ("id",)
    assert statement.options == {"connector": "datagen", "number-of-rows": "10",
                                 "fields.id.kind": "sequence"}


def test_flink_types_are_read_with_their_precision_and_fields() -> None:
    (statement,) = parse_statements(_DDL)
    types = {c.name: c.data_type for c in statement.columns}
    assert types["ts"].is_type(exp.DataType.Type.TIMESTAMP)
    assert types["lt"].is_type(exp.DataType.Type.TIMESTAMPLTZ)
    assert [p.name for p in types["price"].expressions] == ["10", "2"]
    row = types["r"]
    assert row.is_type(exp.DataType.Type.STRUCT)
    assert [f.name for f in row.expressions] == ["a", "b"]
    assert types["m"].is_type(exp.DataType.Type.MAP)
    assert types["tags"].is_type(exp.DataType.Type.ARRAY)


def test_insert_view_drop_set_reset_and_queries_become_their_records() -> None:
    script = [
        ("INSERT INTO sink SELECT id, name FROM orders WHERE id > 3", Insert),
        ("CREATE TEMPORARY VIEW v AS SELECT * FROM orders", CreateView),
        ("DROP TEMPORARY VIEW IF EXISTS v", Drop),
        ("SET 'table.exec.state.ttl' = '1h'", SetOption),
        ("RESET 'table.exec.state.ttl'", ResetOption),
        ("SELECT name, COUNT(*) FROM orders GROUP BY name", Query),
    ]
    for text, kind in script:
        (statement,) = parse_statements(text)
        assert isinstance(statement, kind), text
    (insert,) = parse_statements("INSERT INTO sink (a, b) SELECT 1, 2")
    assert isinstance(insert, Insert) and insert.target == "sink" and insert.columns == ("a", "b")
    (setting,) = parse_statements("SET 'table.exec.state.ttl' = '1h'")
    assert isinstance(setting, SetOption) and (setting.key, setting.value) == ("table.exec.state.ttl", "1h")


def test_windowing_table_functions_and_row_types_parse() -> None:
    tree = parse("SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), "
                 "INTERVAL '10' MINUTES)) GROUP BY window_start, window_end")[0]
    assert isinstance(tree, exp.Select)
    assert parse("SELECT CAST(r AS ROW<a INT>) FROM t")[0].sql(Flink)


def test_a_script_of_several_statements_gives_them_in_order() -> None:
    statements = parse_statements("SELECT 1; SELECT 2;")
    assert [type(s) for s in statements] == [Query, Query]


def test_a_statement_of_another_kind_is_refused_naming_it() -> None:
    with pytest.raises(UnsupportedStatement, match="CREATE SCHEMA"):
        parse_statements("CREATE SCHEMA s")
