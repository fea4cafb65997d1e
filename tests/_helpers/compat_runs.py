"""Runs of the differential corpus's jobs under pyflink_compat, each made once per test session
and shared by the tests that read it: the records it gave and the lines of the job that called
pyflink_compat as it ran."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Dict, FrozenSet, Optional, Set, Tuple

from tests._helpers.differential import Job, SinkRecords, run_under_compat

__all__ = ["CompatRun", "compat_run"]


@dataclass(frozen=True)
class CompatRun:
    """One run of a job: what its sinks received, and the lines of the job file that called a
    public function, method or constructor of pyflink_compat."""

    records: SinkRecords
    calls: FrozenSet[int]


_RUNS: Dict[Tuple[str, Optional[str]], CompatRun] = {}


def compat_run(job: Job, root: Path, source: Optional[str] = None) -> CompatRun:
    """The run of ``job`` (of the ported ``source`` when given), made in a new directory under
    ``root`` the first time it is asked for."""
    key = (job.name, source)
    if key not in _RUNS:
        calls: Set[int] = set()
        workdir = root / "{}-{}".format(job.name, len(_RUNS))
        records = run_under_compat(job, workdir, source=source, calls=calls)
        _RUNS[key] = CompatRun(records, frozenset(calls))
    return _RUNS[key]
