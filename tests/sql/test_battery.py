"""Every expression of the SQL battery gives, translated for Spark, the value and the type live
PyFlink 1.20.5 gave (tests/sql/pyflink-1.20.5-battery.json), or fails where Flink failed; every
difference is a registered divergence (``sql-battery/<case id>``)."""

from __future__ import annotations

import fnmatch
import json
import os
import struct
from typing import Any, Dict, List, Optional, Tuple

import pytest

from pyflink_compat.divergences import RUNTIME_DIVERGENCES
from tests.sql.battery_cases import CASES, TABLE_ROWS, TABLE_SCHEMA, query_of
from tests.sql.battery_values import normalize

_RECORDED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyflink-1.20.5-battery.json")


def _parse(sql: str) -> Any:
    from pyflink_compat.sql.dialect import parse

    return parse(sql)[0]


def _schema() -> Dict[str, Dict[str, Any]]:
    from pyflink_compat.sql.types import parse_type

    return {"T": {name: parse_type(kind) for name, kind in TABLE_SCHEMA}}


def _translate(source: str, expression: str) -> Tuple[str, List[str]]:
    """The Spark SQL of one case and the Flink types of its columns."""
    from pyflink_compat.sql.functions import apply_flink_semantics, result_types
    from pyflink_compat.sql.types import flink_name

    tree = apply_flink_semantics(_parse(query_of(source, expression)), _schema(), functions=())
    return tree.sql(dialect="spark"), [flink_name(t) for _, t in result_types(tree)]


def _projection(source: str, expression: str) -> Tuple[str, List[str]]:
    from pyflink_compat.sql.functions import apply_flink_semantics, result_types
    from pyflink_compat.sql.types import flink_name

    tree = apply_flink_semantics(_parse(query_of(source, expression)), _schema(), functions=())
    return tree.expressions[0].this.sql(dialect="spark"), [flink_name(t) for _, t in result_types(tree)]


def _loose(type_names: Optional[List[str]]) -> Optional[List[str]]:
    return type_names


def _sorted(values: List[Any]) -> List[Any]:
    return sorted(values, key=lambda v: json.dumps(v, sort_keys=True))


def _outcomes(spark: Any) -> Dict[str, str]:
    """For each case, "match" or what differs from the recording."""
    from pyspark.sql import types as st

    from pyflink_compat.sql.types import parse_type, to_spark

    with open(_RECORDED, encoding="utf-8") as recorded_file:
        recorded = json.load(recorded_file)["cases"]
    spark_schema = st.StructType([st.StructField(name, to_spark(parse_type(kind)))
                                  for name, kind in TABLE_SCHEMA])
    spark.createDataFrame(list(TABLE_ROWS), spark_schema).createOrReplaceTempView("T")

    outcomes: Dict[str, str] = {}
    batches: Dict[str, List[Tuple[str, str, List[str]]]] = {}
    for case_id, group, source, expression in CASES:
        expected = recorded[case_id]
        failed = "error" in expected
        try:
            if source == "statement":
                sql, types = _translate(source, expression)
            else:
                sql, types = _projection(source, expression)
        except Exception as error:  # noqa: BLE001 - a refused translation is an outcome
            outcomes[case_id] = "match" if failed and expected["error"]["phase"] == "validation" or failed \
                else "translation failed: {}".format(str(error).splitlines()[0][:200])
            continue
        if _loose(types) != _loose(expected.get("types")) and expected.get("types") is not None:
            outcomes[case_id] = "type {} where Flink has {}".format(types, expected.get("types"))
            continue
        if source == "statement":
            outcomes[case_id] = _compare_statement(spark, sql, expected)
        elif failed:
            outcomes[case_id] = _compare_failure(spark, source, sql)
        else:
            batches.setdefault(group, []).append((case_id, sql, types))

    for group, cases in batches.items():
        source = next(case[2] for case in CASES if case[1] == group)
        _evaluate(spark, source, cases, recorded, outcomes)
    return outcomes


def _query(source: str, projections: List[str]) -> str:
    columns = ", ".join("{} AS c{}".format(sql, n) for n, sql in enumerate(projections))
    return "SELECT " + columns + ("" if source == "scalar" else " FROM T")


def _evaluate(spark: Any, source: str, cases: List[Tuple[str, str, List[str]]], recorded: Dict[str, Any],
              outcomes: Dict[str, str]) -> None:
    """All ``cases`` in one Spark query; a failing query is split until the failing case is alone."""
    try:
        rows = spark.sql(_query(source, [sql for _, sql, _ in cases])).collect()
    except Exception as error:  # noqa: BLE001
        if len(cases) == 1:
            outcomes[cases[0][0]] = "Spark failed: {}".format(str(error).splitlines()[0][:200])
            return
        middle = len(cases) // 2
        _evaluate(spark, source, cases[:middle], recorded, outcomes)
        _evaluate(spark, source, cases[middle:], recorded, outcomes)
        return
    for n, (case_id, _, types) in enumerate(cases):
        values = [normalize(row[n]) for row in rows]
        expected = recorded[case_id]["values"]
        if types and types[0].startswith("FLOAT"):
            values, expected = _as_float32(values), _as_float32(expected)
        if _sorted(values) == _sorted(expected):
            outcomes[case_id] = "match"
        else:
            outcomes[case_id] = "values {} where Flink has {}".format(values, expected)


def _as_float32(values: List[Any]) -> List[Any]:
    # PyFlink gives a FLOAT as the shortest text of the 32-bit value, PySpark as its double
    def narrow(value: Any) -> Any:
        if isinstance(value, dict) and "float" in value:
            return struct.unpack("f", struct.pack("f", float(value["float"])))[0]
        return value
    return [narrow(v) for v in values]


def _compare_failure(spark: Any, source: str, sql: str) -> str:
    try:
        rows = spark.sql(_query(source, [sql])).collect()
    except Exception:  # noqa: BLE001 - failing as Flink failed
        return "match"
    return "gives {} where Flink fails".format([normalize(row[0]) for row in rows])


def _compare_statement(spark: Any, sql: str, expected: Dict[str, Any]) -> str:
    try:
        rows = [normalize(list(row)) for row in spark.sql(sql).collect()]
    except Exception as error:  # noqa: BLE001
        return "match" if "error" in expected else "Spark failed: {}".format(str(error).splitlines()[0][:200])
    if "error" in expected:
        return "gives {} where Flink fails".format(rows)
    return "match" if _sorted(rows) == _sorted(expected["rows"]) else \
        "rows {} where Flink has {}".format(rows, expected["rows"])


def _registered(case_id: str) -> Optional[str]:
    step = "sql-battery/" + case_id
    for divergence in RUNTIME_DIVERGENCES:
        for pattern in divergence.steps:
            if pattern == step or (pattern.startswith("sql-battery/") and "[" not in pattern
                                   and fnmatch.fnmatchcase(step, pattern)):
                return divergence.id
    return None


@pytest.fixture(scope="module")
def outcomes(spark: Any) -> Dict[str, str]:
    return _outcomes(spark)


def test_the_battery_has_at_least_300_recorded_cases():
    with open(_RECORDED, encoding="utf-8") as recorded_file:
        recorded = json.load(recorded_file)["cases"]
    assert len(CASES) >= 300
    assert set(recorded) == {case[0] for case in CASES}


def test_every_case_gives_flinks_value_and_type_or_is_a_registered_divergence(outcomes):
    unexplained = {case_id: outcome for case_id, outcome in outcomes.items()
                   if outcome != "match" and _registered(case_id) is None}
    assert not unexplained, "\n".join("{}: {}".format(k, v) for k, v in sorted(unexplained.items()))


def test_every_registered_battery_divergence_is_observed(outcomes):
    import pyspark

    stale = [case_id for case_id, outcome in outcomes.items()
             if outcome == "match" and _registered(case_id) is not None
             and _registered(case_id) not in _VERSION_DEPENDENT]
    assert not stale, "registered but matching on pyspark {}: {}".format(pyspark.__version__, stale)


# divergences that appear on one Spark version only (ANSI mode is the default from Spark 4)
_VERSION_DEPENDENT = {"sql-integer-overflow-fails"}


if __name__ == "__main__":  # pragma: no cover - lists the outcomes for a look by hand
    from tests._helpers.spark_session import local_test_session

    for key, value in sorted(_outcomes(local_test_session("battery")).items()):
        if value != "match":
            print(key, "=>", value)
