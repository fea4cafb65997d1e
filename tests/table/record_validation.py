"""Records how live PyFlink 1.20.5 validates the statements of :mod:`tests.table.validation_cases`.

Run with a Python that has apache-flink 1.20.5, from the repository root::

    python -m tests.table.record_validation

It writes ``tests/table/pyflink-1.20.5-validation.json``: for each ``<method>|<statement>``,
``null`` when the call is accepted, else the text of the ``ValidationException`` PyFlink raises
(its first line and the lines before the Java stack); and, under ``casts``, whether an insert of
a query column of one type into a sink column of another is accepted (``explain_sql``).
"""

from __future__ import annotations

import json
import os
import tempfile
from typing import Any, Callable, Dict, Optional

from tests.table.validation_cases import CAST_TYPES, ROWS, SINK, SOURCE, STATEMENTS, WIDE_SINK

OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyflink-1.20.5-validation.json")


def exception_text(error: BaseException) -> str:
    """The Java exception's class and message, without its stack: the line naming the
    ``...Exception: `` and the message lines after it."""
    lines = str(error).splitlines()
    first = next((i for i, line in enumerate(lines) if "Exception: " in line), 0)
    kept = []
    for line in lines[first:]:
        if line.startswith("\tat "):
            break
        kept.append(line)
    text = "\n".join(kept)
    return text[2:] if text.startswith(": ") else text


def _outcome(call: Callable[[], Any]) -> Optional[str]:
    try:
        call()
    except Exception as error:  # noqa: BLE001 - a refusal is what is recorded
        return exception_text(error)
    return None


def _call(t_env: Any, method: str, text: str) -> Any:
    if method == "sqlQuery":
        return t_env.sql_query(text)
    if method == "addInsertSql":
        return t_env.create_statement_set().add_insert_sql(text)
    return t_env.execute_sql(text)


def record() -> Dict[str, Any]:
    from pyflink.table import EnvironmentSettings, TableEnvironment

    statements: Dict[str, Optional[str]] = {}
    for method, text in STATEMENTS:
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        for ddl in (SOURCE, SINK, WIDE_SINK):
            t_env.execute_sql(ddl)
        statements["{}|{}".format(method, text)] = _outcome(
            lambda: _call(t_env, method, text))  # noqa: B023 - called at once
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("CREATE TABLE typed ({}) WITH ('connector'='datagen')".format(
        ", ".join("c{} {}".format(i, name) for i, name in enumerate(CAST_TYPES))))
    casts = {}
    for j, target in enumerate(CAST_TYPES):
        t_env.execute_sql("CREATE TABLE into{} (x {}) WITH ('connector'='blackhole')".format(j, target))
        for i, source in enumerate(CAST_TYPES):
            insert = "INSERT INTO into{} SELECT c{} FROM typed".format(j, i)
            refused = _outcome(lambda: t_env.explain_sql(insert))  # noqa: B023 - called at once
            casts["{} -> {}".format(source, target)] = refused is None
    return {"statements": statements, "casts": casts}


def main() -> None:
    previous = os.getcwd()
    with tempfile.TemporaryDirectory() as directory:
        with open(os.path.join(directory, "in.csv"), "w") as rows:
            rows.write(ROWS)
        os.chdir(directory)
        try:
            recorded = record()
        finally:
            os.chdir(previous)
    with open(OUTPUT, "w") as out:
        json.dump(recorded, out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
