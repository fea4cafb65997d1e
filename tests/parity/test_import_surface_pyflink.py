"""Live PyFlink still has the import surface recorded in ``pyflink-1.20.5-import-surface.json``.

Runs in the PyFlink environment (``tox -e parity``); other runs do not collect it
(``tests/conftest.py``).
"""
from __future__ import annotations


import pyflink.datastream  # noqa: F401  (plainly: a broken apache-flink install fails here)

from . import record_import_surface


def test_live_pyflink_has_the_recorded_import_surface() -> None:
    recorded = record_import_surface.SURFACE_FILE.read_text()
    assert record_import_surface.dumps(record_import_surface.document()) == recorded


def test_every_module_a_job_imports_from_was_recorded_and_none_skipped() -> None:
    document = record_import_surface.document()
    assert document["skipped"] == {}
    assert {"pyflink.datastream.connectors.kafka", "pyflink.common.typeinfo",
            "pyflink.table.expressions", "pyflink.util.exceptions"} <= set(document["modules"])
