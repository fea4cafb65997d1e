"""Live PyFlink 1.20.5 still gives the records recorded for every job of the differential
corpus (run in the PyFlink environment: ``tox -e parity``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pyflink  # noqa: F401 - this env exists to run PyFlink: a broken install fails here
import pytest

from tests._helpers.differential import Job, differences, load_corpus, load_golden, run_under_pyflink

JOBS = load_corpus()


@pytest.mark.parametrize("job", JOBS, ids=[job.name for job in JOBS])
def test_pyflink_gives_the_recorded_records(job: Job, tmp_path: Path) -> None:
    actual = run_under_pyflink(job, tmp_path / "work", sys.executable)
    assert differences(job, load_golden(job), actual) == []
