"""PyFlink itself still gives the recorded outcome for every preamble of the corpus.

The preambles cut from the whole job files of the porting corpus are run from their original
text (PyFlink code), at the recorded cuts. Runs in the PyFlink environment
(``tox -e parity``); other runs do not collect it (``tests/conftest.py``). It also shows that
the harness is deterministic.
"""
from __future__ import annotations

import pytest

import pyflink.datastream  # noqa: F401  (plainly: a broken apache-flink install fails here)

from .harness import run_preamble  # noqa: E402
from .record import load_recording, run_whole_file  # noqa: E402
from .whole_files import load_cuts  # noqa: E402

RECORDING = load_recording()
CUTS = load_cuts()


@pytest.mark.parametrize("name", sorted(RECORDING["outcomes"]))
def test_pyflink_gives_the_recorded_outcome(name: str) -> None:
    assert run_preamble(name, "pyflink") == RECORDING["outcomes"][name]


@pytest.mark.parametrize("name", sorted(RECORDING["whole_files"]["outcomes"]))
def test_pyflink_gives_the_recorded_outcome_for_a_whole_job_file_preamble(name: str) -> None:
    assert run_whole_file(name, "pyflink", CUTS[name]) == RECORDING["whole_files"]["outcomes"][name]
