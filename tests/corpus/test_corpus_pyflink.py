"""PyFlink itself still gives the recorded outcome for every preamble of the corpus.

Runs in the PyFlink environment (``python -m pytest tests/corpus/test_corpus_pyflink.py``); it
is skipped where pyflink is not installed. It also shows that the harness is deterministic.
"""
from __future__ import annotations

import pytest

pytest.importorskip("pyflink.datastream", reason="pyflink is not installed")

from .harness import run_preamble  # noqa: E402
from .record import load_recording  # noqa: E402

RECORDING = load_recording()


@pytest.mark.parametrize("name", sorted(RECORDING["outcomes"]))
def test_pyflink_gives_the_recorded_outcome(name: str) -> None:
    assert run_preamble(name, "pyflink") == RECORDING["outcomes"][name]
