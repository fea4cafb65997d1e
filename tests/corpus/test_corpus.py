"""Every real PyFlink job preamble of the corpus behaves under pyflink_compat as under PyFlink.

Each test runs one preamble with ``pyflink`` mapped to ``pyflink_compat`` and compares its
outcome with the recording made from live PyFlink 1.20.5 (``python -m tests.corpus.record``).
The session ends with the line ``corpus: N preambles, X match PyFlink, Y differ``.
"""
from __future__ import annotations

from typing import Any, Dict

import pytest

from . import compare
from .harness import preamble_names, run_preamble
from .record import load_recording

RECORDING: Dict[str, Any] = load_recording()


def test_the_recording_covers_every_preamble_of_the_corpus() -> None:
    assert sorted(RECORDING["outcomes"]) == preamble_names()


@pytest.mark.parametrize("name", sorted(RECORDING["outcomes"]))
def test_the_preamble_runs_under_pyflink_compat_as_under_pyflink(name: str) -> None:
    recorded = RECORDING["outcomes"][name]
    actual = run_preamble(name, "pyflink_compat")
    diffs = compare.differences(recorded, actual)
    compare.SESSION.add(name, diffs)
    assert not diffs, "\n".join(diffs)
