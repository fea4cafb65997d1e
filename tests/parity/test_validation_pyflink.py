"""Live PyFlink 1.20.5 still validates the statements of ``tests/table/validation_cases.py``
and casts the sink types of its inserts as ``tests/table/pyflink-1.20.5-validation.json``
records (what ``tests/table/test_validation.py`` holds pyflink_compat to).

Runs in the PyFlink environment (``tox -e parity``); other runs do not collect it
(``tests/conftest.py``).
"""
from __future__ import annotations

import json
from typing import Any

import pyflink.table  # noqa: F401  (plainly: a broken apache-flink install fails here)

from tests.table import record_validation
from tests.table.validation_cases import ROWS


def test_live_pyflink_validates_the_statements_and_sink_types_as_recorded(
        tmp_path: Any, monkeypatch: Any) -> None:
    (tmp_path / "in.csv").write_text(ROWS)
    monkeypatch.chdir(tmp_path)
    with open(record_validation.OUTPUT) as recorded:
        assert record_validation.record() == json.load(recorded)
