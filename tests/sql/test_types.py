"""Flink SQL type text is read and printed as Flink does, mapped to Spark types, and derived
by Flink's result-type rules."""

from __future__ import annotations

import pytest

from pyflink_compat.sql import types


@pytest.mark.parametrize("text, printed", [
    ("INT", "INT"),
    ("INTEGER NOT NULL", "INT NOT NULL"),
    ("STRING", "STRING"),
    ("VARCHAR(2147483647)", "STRING"),
    ("VARCHAR", "VARCHAR(1)"),
    ("CHAR(3) NOT NULL", "CHAR(3) NOT NULL"),
    ("DECIMAL", "DECIMAL(10, 0)"),
    ("NUMERIC(10,2)", "DECIMAL(10, 2)"),
    ("TIMESTAMP", "TIMESTAMP(6)"),
    ("TIMESTAMP(3) WITHOUT TIME ZONE", "TIMESTAMP(3)"),
    ("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"),
    ("TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(3)"),
    ("TIME", "TIME(0)"),
    ("BYTES", "BYTES"),
    ("DOUBLE PRECISION", "DOUBLE"),
    ("ARRAY<INT NOT NULL> NOT NULL", "ARRAY<INT NOT NULL> NOT NULL"),
    ("INT ARRAY", "ARRAY<INT>"),
    ("MAP<STRING, BIGINT>", "MAP<STRING, BIGINT>"),
    ("ROW<a INT, `b c` STRING>", "ROW<`a` INT, `b c` STRING>"),
    ("ROW(a INT, b STRING)", "ROW<`a` INT, `b` STRING>"),
    ("MULTISET<STRING>", "MULTISET<STRING>"),
])
def test_a_type_text_reads_back_as_flink_prints_it(text, printed):
    assert types.flink_name(types.parse_type(text)) == printed


def test_an_unknown_type_name_is_refused():
    with pytest.raises(ValueError, match="Unknown Flink SQL type"):
        types.parse_type("NUMBER(3)")


def test_flink_types_map_to_the_spark_types_holding_their_values():
    from pyspark.sql import types as st

    assert types.to_spark(types.parse_type("TIMESTAMP(3)")) == st.TimestampNTZType()
    assert types.to_spark(types.parse_type("TIMESTAMP_LTZ(3)")) == st.TimestampType()
    assert types.to_spark(types.parse_type("DECIMAL(10, 2)")) == st.DecimalType(10, 2)
    assert types.to_spark(types.parse_type("ARRAY<INT NOT NULL>")) == st.ArrayType(st.IntegerType(), False)
    assert types.to_spark(types.parse_type("ROW<a INT NOT NULL, b STRING>")) == st.StructType([
        st.StructField("a", st.IntegerType(), False), st.StructField("b", st.StringType(), True)])


@pytest.mark.parametrize("rule, left, right, result", [
    # measured on PyFlink 1.20.5
    (types.decimal_divide, "DECIMAL(10, 2)", "INT", "DECIMAL(21, 13)"),
    (types.decimal_multiply, "DECIMAL(10, 2)", "DECIMAL(10, 3)", "DECIMAL(21, 5)"),
    (types.decimal_add, "DECIMAL(10, 2)", "DECIMAL(5, 3)", "DECIMAL(12, 3)"),
    (types.decimal_multiply, "DECIMAL(38, 10)", "DECIMAL(38, 10)", "DECIMAL(38, 6)"),
])
def test_decimal_arithmetic_takes_flinks_precision_and_scale(rule, left, right, result):
    assert types.flink_name(rule(types.parse_type(left), types.parse_type(right))) == result


def test_avg_and_sum_over_an_integer_keep_the_integer_type():
    assert types.flink_name(types.avg_type(types.parse_type("INT NOT NULL"))) == "INT"
    assert types.flink_name(types.sum_type(types.parse_type("BIGINT"))) == "BIGINT"
