"""Every job of the differential corpus, run under pyflink_compat on Spark, gives the records
recorded from live PyFlink 1.20.5; a job the corpus marks ``not-supported`` fails with
``NotSupportedError`` before any of its sinks received a record."""

from __future__ import annotations

import pytest

from tests._helpers.compat_runs import compat_run
from tests._helpers.differential import Job, differences, load_corpus, load_golden

JOBS = load_corpus()


def test_the_corpus_has_a_recording_for_every_job() -> None:
    assert [job.name for job in JOBS if not job.golden_path.is_file()] == []


def test_a_divergence_a_job_names_is_registered() -> None:
    from pyflink_compat.divergences import DIVERGENCES, RUNTIME_DIVERGENCES

    registered = {d.id for d in DIVERGENCES + RUNTIME_DIVERGENCES}
    assert [d for job in JOBS for d in job.divergences if d not in registered] == []


@pytest.mark.parametrize("job", JOBS, ids=[job.name for job in JOBS])
def test_the_job_gives_pyflinks_records(job: Job, tmp_path_factory: pytest.TempPathFactory) -> None:
    # the run is shared with the porting tool's tests of the same job (tests/porting/test_check_runs.py)
    actual = compat_run(job, tmp_path_factory.getbasetemp()).records
    if job.expect == "not-supported":
        assert actual.error is not None and "NotSupportedError" in actual.error.split(":")[0], actual.error
        assert all(lines == () for lines in actual.files.values())
        return
    assert differences(job, load_golden(job), actual) == []
