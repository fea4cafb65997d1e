"""A statement Flink's SQL validation refuses fails at the call, with Flink's message, before
any query starts; an insert into a sink column of a type Flink does not cast to implicitly is
refused as Flink refuses it.

The expected outcomes are recorded from live PyFlink 1.20.5 by
:mod:`tests.table.record_validation` (``pyflink-1.20.5-validation.json``).
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Optional

import pytest

from tests.table.record_validation import exception_text
from tests.table.validation_cases import (
    CAST_TYPES, REFUSED_OTHERWISE, ROWS, SINK, SOURCE, STATEMENTS, WIDE_SINK)

_RECORDED: Dict[str, Any] = json.load(open(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "pyflink-1.20.5-validation.json")))


def test_every_case_is_recorded() -> None:
    assert sorted(_RECORDED["statements"]) == sorted("{}|{}".format(m, t) for m, t in STATEMENTS)
    assert len(_RECORDED["casts"]) == len(CAST_TYPES) ** 2


def test_the_implicit_casts_of_an_insert_are_flinks_for_every_pair_of_types() -> None:
    from pyflink_compat.sql.types import parse_type, supports_implicit_cast

    got = {"{} -> {}".format(s, t): supports_implicit_cast(parse_type(s), parse_type(t))
           for s in CAST_TYPES for t in CAST_TYPES}
    assert got == _RECORDED["casts"]


def _outcome(t_env: Any, method: str, text: str) -> Optional[str]:
    try:
        if method == "sqlQuery":
            t_env.sql_query(text)
        elif method == "addInsertSql":
            t_env.create_statement_set().add_insert_sql(text)
        else:
            result = t_env.execute_sql(text)
            client = result.get_job_client()
            if client is not None:
                client.cancel()
    except Exception as error:  # noqa: BLE001 - the refusal is the outcome
        return exception_text(error)
    return None


@pytest.mark.parametrize("method,text", STATEMENTS, ids=["{}|{}".format(m, t) for m, t in STATEMENTS])
def test_a_statement_is_refused_or_accepted_with_flinks_message(
        t_env: Any, tmp_path: Any, monkeypatch: Any, method: str, text: str) -> None:
    (tmp_path / "in.csv").write_text(ROWS)
    monkeypatch.chdir(tmp_path)
    for ddl in (SOURCE, SINK, WIDE_SINK):
        t_env.execute_sql(ddl)
    got = _outcome(t_env, method, text)
    expected = _RECORDED["statements"]["{}|{}".format(method, text)]
    if expected is None:
        assert got is None
    elif (method, text) in REFUSED_OTHERWISE:
        assert got is not None and not t_env._runtime.planner.spark.streams.active
    else:
        assert got is not None and got.replace("java.lang.RuntimeException: ", "", 1) == expected


def _registered(step: str) -> bool:
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    return step in [s for d in RUNTIME_DIVERGENCES for s in d.steps]


def test_a_statement_set_refuses_an_insert_of_the_wrong_sink_types_when_it_is_added_a_registered_divergence(
        t_env: Any, tmp_path: Any, monkeypatch: Any) -> None:
    (tmp_path / "in.csv").write_text(ROWS)
    monkeypatch.chdir(tmp_path)
    for ddl in (SOURCE, SINK, WIDE_SINK):
        t_env.execute_sql(ddl)
    # PyFlink 1.20.5 accepts this add and refuses the set at execute, with the text below
    # and "Query schema: [c: BIGINT NOT NULL, a: INT]"
    got = _outcome(t_env, "addInsertSql", "INSERT INTO wide SELECT c, a FROM src")
    assert got is not None and got.endswith(
        "Cause: Incompatible types for sink column 'a' at position 0.\n\n"
        "Query schema: [c: BIGINT, a: INT]\nSink schema:  [a: INT, b: INT]")
    assert _registered("table/validation-refused-at-add")
    assert _registered("table/validation-query-schema-nullability")


def test_the_statements_refused_with_another_text_are_a_registered_divergence() -> None:
    assert REFUSED_OTHERWISE and _registered("table/validation-refused-otherwise")
