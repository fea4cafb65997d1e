"""Every real PyFlink job preamble of the corpus behaves under pyflink_compat as under PyFlink.

Each test runs one preamble with ``pyflink`` mapped to ``pyflink_compat`` and compares its
outcome with the recording made from live PyFlink 1.20.5 (``python -m tests.corpus.record``).
The whole job files of the porting corpus are ported with the porting tool (imports only), and
the preamble the classifier cuts from each (``whole_files.py``) is compared the same way. The
session ends with the lines ``corpus: N preambles, X match PyFlink, Y differ`` and
``whole job files: ...``.
"""
from __future__ import annotations

from typing import Any, Dict

import pytest

from . import compare
from .harness import preamble_names, run_preamble
from .record import load_recording, record_cuts, run_whole_file
from .whole_files import load_cuts, whole_file_names

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


CUTS = load_cuts()


def test_the_recording_covers_every_whole_job_file_and_the_classifier_still_cuts_them_there() -> None:
    assert sorted(RECORDING["whole_files"]["outcomes"]) == whole_file_names() == sorted(CUTS)
    assert record_cuts() == CUTS, "the classifier cuts differently: re-record (python -m tests.corpus.record --cuts)"


@pytest.mark.parametrize("name", sorted(RECORDING["whole_files"]["outcomes"]))
def test_the_ported_whole_job_file_preamble_runs_as_under_pyflink(name: str) -> None:
    recorded = RECORDING["whole_files"]["outcomes"][name]
    actual = run_whole_file(name, "pyflink_compat", CUTS[name])
    diffs = compare.differences(recorded, actual)
    compare.WHOLE_FILES.add(name, diffs)
    assert not diffs, "\n".join(diffs)
