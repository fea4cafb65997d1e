"""Flink SQL is rewritten for Spark with Flink's semantics: each rewrite on its own (the SQL
battery, tests/sql/test_battery.py, runs them all on Spark against PyFlink's values)."""

from __future__ import annotations

from typing import Dict, List, Tuple

import pytest

from pyflink_compat.sql.dialect import parse
from pyflink_compat.sql.functions import SqlValidationError, apply_flink_semantics, result_types
from pyflink_compat.sql.types import flink_name, parse_type

_SCHEMA = {"clicks": {"user_id": parse_type("STRING"), "n": parse_type("INT"), "price": parse_type("DOUBLE"),
                      "amount": parse_type("DECIMAL(10, 2)")}}


def _translated(sql: str, schema: Dict = _SCHEMA) -> Tuple[str, List[str]]:
    tree = apply_flink_semantics(parse(sql)[0], schema)
    return tree.sql(dialect="spark"), [flink_name(t) for _, t in result_types(tree)]


def test_int_divided_by_int_is_an_integer_division_of_type_int():
    sql, types = _translated("SELECT n / 2 AS h FROM clicks")
    assert " DIV " in sql and types == ["INT"]


def test_a_double_divisor_divides_as_java_does():
    sql, types = _translated("SELECT n / price FROM clicks")
    assert "Infinity" in sql and types == ["DOUBLE"]


def test_avg_over_an_int_column_is_the_integer_quotient_as_int():
    sql, types = _translated("SELECT AVG(n) AS a FROM clicks")
    assert "SUM(n) DIV COUNT(n)" in sql and types == ["INT"]


def test_sum_keeps_the_argument_type_and_a_decimal_sum_has_precision_38():
    _, types = _translated("SELECT SUM(n), SUM(amount) FROM clicks")
    assert types == ["INT", "DECIMAL(38, 2)"]


def test_regexp_extract_without_a_group_takes_group_0_and_null_without_a_match():
    sql, _ = _translated("SELECT REGEXP_EXTRACT(user_id, '([a-z]+)([0-9]+)') FROM clicks")
    assert "REGEXP_EXTRACT(user_id, '([a-z]+)([0-9]+)', 0)" in sql and "RLIKE" in sql


def test_ceil_of_a_double_stays_a_double():
    sql, types = _translated("SELECT CEIL(price) FROM clicks")
    assert "CAST(CEIL(price) AS DOUBLE)" in sql and types == ["DOUBLE"]


def test_a_cast_of_bad_text_fails_as_in_flink():
    sql, types = _translated("SELECT CAST(user_id AS INT) FROM clicks")
    assert "RAISE_ERROR" in sql and types == ["INT"]


def test_split_index_is_0_based_and_takes_the_separator_as_text():
    sql, _ = _translated("SELECT SPLIT_INDEX(user_id, '.', 1) FROM clicks")
    assert "TRY_ELEMENT_AT" in sql and "\\\\Q" in sql


def test_date_format_keeps_the_java_pattern():
    sql, _ = _translated("SELECT DATE_FORMAT(TIMESTAMP '2024-01-05 08:09:10', 'yyyy-MM-dd HH:mm') AS d")
    assert "'yyyy-MM-dd HH:mm'" in sql


def test_a_timestamp_literal_is_a_spark_timestamp_without_time_zone():
    sql, types = _translated("SELECT TIMESTAMP '2024-01-05 08:09:10.123' AS t")
    assert "TIMESTAMP_NTZ" in sql and types == ["TIMESTAMP(3) NOT NULL"]


def test_a_function_flink_does_not_have_is_refused():
    with pytest.raises(SqlValidationError, match="No match found for function signature LAST_DAY"):
        _translated("SELECT LAST_DAY(DATE '2024-02-10')")


def test_a_registered_user_function_is_kept():
    tree = apply_flink_semantics(parse("SELECT my_udf(n) FROM clicks")[0], _SCHEMA, functions=["my_udf"])
    assert "MY_UDF(n)" in tree.sql(dialect="spark")


def test_a_function_neither_flink_nor_the_environment_has_is_refused():
    # Flink's text: the name as written, the argument's type family
    with pytest.raises(SqlValidationError, match=r"^No match found for function signature no_such\(<NUMERIC>\)$"):
        apply_flink_semantics(parse("SELECT no_such(n) FROM clicks")[0], _SCHEMA, functions=["my_udf"])


def test_columns_are_typed_through_a_subquery_and_an_alias():
    _, types = _translated("SELECT q FROM (SELECT n / 2 AS q FROM clicks AS c) AS s")
    assert types == ["INT"]


def test_the_input_tree_is_not_modified():
    tree = parse("SELECT n / 2 FROM clicks")[0]
    before = tree.sql()
    apply_flink_semantics(tree, _SCHEMA)
    assert tree.sql() == before


def test_columns_of_a_with_table_are_typed():
    sql, types = _translated("WITH a AS (SELECT n / 2 AS h FROM clicks) SELECT AVG(h) AS m FROM a")
    assert types == ["INT"] and "SUM(h) DIV COUNT(h)" in sql
