"""Records what live PyFlink 1.20.5 computes for every case of the SQL battery.

Run with a Python that has apache-flink 1.20.5, from the repository root::

    python -m tests.sql.record_battery

It writes ``tests/sql/pyflink-1.20.5-battery.json``: for each case id, the result type as Flink
prints the resolved schema, and the values ``collect()`` gives (normalized by
:func:`tests.sql.battery_values.normalize`) with their ``str`` form, or the failure (``validation``
when the planner refuses the query, ``runtime`` when the job fails) with the Java class and
message of its root cause.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Dict, List

from tests.sql.battery_cases import CASES, TABLE_ROWS, TABLE_SCHEMA, query_of
from tests.sql.battery_values import normalize

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyflink-1.20.5-battery.json")


def _flink_type(name: str) -> Any:
    from pyflink.table import DataTypes

    simple = {"INT": DataTypes.INT(), "BIGINT": DataTypes.BIGINT(), "DOUBLE": DataTypes.DOUBLE(),
              "STRING": DataTypes.STRING(), "DATE": DataTypes.DATE(), "TINYINT": DataTypes.TINYINT(),
              "FLOAT": DataTypes.FLOAT(), "DECIMAL(10, 2)": DataTypes.DECIMAL(10, 2),
              "TIMESTAMP(3)": DataTypes.TIMESTAMP(3), "ARRAY<INT>": DataTypes.ARRAY(DataTypes.INT()),
              "MAP<STRING, INT>": DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())}
    return simple[name]


def _failure(error: BaseException, phase: str) -> Dict[str, Any]:
    java = getattr(error, "java_exception", None)
    if java is None:
        return {"phase": phase, "class": type(error).__name__, "message": str(error).splitlines()[0][:300]}
    root = java
    while root.getCause() is not None and root.getCause() is not root:
        root = root.getCause()
    message = root.getMessage() or ""
    top = java.getMessage() or ""
    return {"phase": phase, "class": root.getClass().getName(),
            "message": message.splitlines()[0][:300] if message else "",
            "top_class": java.getClass().getName(),
            "top_message": top.splitlines()[0][:300] if top else ""}


def _column_types(table: Any) -> List[str]:
    return [str(t.toString()) for t in table._j_table.getResolvedSchema().getColumnDataTypes()]


def _rows(table_result: Any) -> List[Any]:
    with table_result.collect() as results:
        return list(results)


def main() -> None:
    from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.get_config().set("table.local-time-zone", "UTC")
    schema = DataTypes.ROW([DataTypes.FIELD(name, _flink_type(kind)) for name, kind in TABLE_SCHEMA])
    t_env.create_temporary_view("T", t_env.from_elements(list(TABLE_ROWS), schema))

    results: Dict[str, Any] = {}
    batches: Dict[str, List[str]] = {}
    for case_id, group, source, expression in CASES:
        try:
            table = t_env.sql_query(query_of(source, expression))
            results[case_id] = {"types": _column_types(table)}
        except Exception as error:  # noqa: BLE001 - every failure is a recorded outcome
            results[case_id] = {"error": _failure(error, "validation")}
            continue
        if source == "statement":
            try:
                rows = _rows(table.execute())
                results[case_id]["rows"] = [normalize(list(row)) for row in rows]
                results[case_id]["str"] = [str(row) for row in rows]
            except Exception as error:  # noqa: BLE001
                results[case_id] = {"error": _failure(error, "runtime")}
        else:
            batches.setdefault(group, []).append(case_id)

    by_id = {case[0]: case for case in CASES}

    def evaluate(ids: List[str]) -> None:
        # one query for many cases; a failing batch is split until the failing case is alone
        source = by_id[ids[0]][2]
        columns = ", ".join("{} AS c{}".format(by_id[case_id][3], n) for n, case_id in enumerate(ids))
        query = "SELECT " + columns + ("" if source == "scalar" else " FROM T")
        try:
            rows = _rows(t_env.sql_query(query).execute())
        except Exception as error:  # noqa: BLE001 - a failure is a recorded outcome
            if len(ids) == 1:
                results[ids[0]] = {"types": results[ids[0]]["types"], "error": _failure(error, "runtime")}
                return
            middle = len(ids) // 2
            evaluate(ids[:middle])
            evaluate(ids[middle:])
            return
        for n, case_id in enumerate(ids):
            results[case_id]["values"] = [normalize(row[n]) for row in rows]
            results[case_id]["str"] = [str(row[n]) for row in rows]

    for group, ids in batches.items():
        print("group", group, file=sys.stderr)
        evaluate(ids)

    with open(OUTPUT, "w", encoding="utf-8") as out:
        json.dump({"pyflink": "1.20.5", "cases": results}, out, indent=1, sort_keys=True, ensure_ascii=False)
        out.write("\n")
    print("recorded", len(results), "cases into", OUTPUT, file=sys.stderr)


if __name__ == "__main__":
    main()
