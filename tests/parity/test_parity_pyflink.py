"""Check (or, with PARITY_REFRESH=1, rewrite) the PyFlink reference recording.

This is what ``tox -e parity`` runs in the PyFlink environment; other runs do not collect it
(``tests/conftest.py``).
"""
from __future__ import annotations

import os
from typing import Any

import pytest

import pyflink.datastream  # noqa: F401  (plainly: a broken apache-flink install fails here)

from . import record

REFRESH = os.environ.get("PARITY_REFRESH") == "1"


@pytest.fixture(scope="module")
def observations() -> dict[str, Any]:
    return record.collect_observations("pyflink")


@pytest.fixture(scope="module")
def surface() -> dict[str, Any]:
    return record.collect_surface("pyflink")


def test_pyflink_version() -> None:
    assert record.root_version("pyflink") == record.PYFLINK_VERSION


def test_observations_match_recording(observations: dict[str, Any]) -> None:
    if REFRESH:
        record.write_text(record.OBSERVATIONS_FILE, record.dumps_observations(observations))
        return
    diffs = record.diff_observations(record.load_observations(), observations)
    assert not diffs, f"{len(diffs)} difference(s):\n" + "\n".join(diffs[:100])


def test_surface_matches_recording(surface: dict[str, Any]) -> None:
    if REFRESH:
        record.write_text(record.SURFACE_FILE, record.dumps_surface(surface))
        return
    diffs = record.diff_surface(record.load_surface(), surface)
    assert not diffs, f"{len(diffs)} difference(s):\n" + "\n".join(diffs[:100])


def test_recording_has_no_crashed_scenarios(observations: dict[str, Any]) -> None:
    crashed = [k for k in observations["observations"] if k.endswith("/<scenario crashed>")]
    assert not crashed, crashed
