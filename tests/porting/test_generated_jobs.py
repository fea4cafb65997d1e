"""The PySpark the porting tool writes runs on local Spark and writes what PyFlink 1.20.5 writes.

Each job of ``jobs/`` is PyFlink code; its outputs under live PyFlink are recorded in
``pyflink-1.20.5-port-records.json`` (``python -m tests.porting.record``). Here the job is
ported, nothing is left to a person, and the ported file runs on the local Spark session and
writes the same lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyflink_compat.porting.command import port_text
from pyflink_compat.porting.report import Outcome
from tests.porting.outputs import JOBS, job_names, read_outputs, write_inputs

RECORDING = Path(__file__).resolve().parent / "pyflink-1.20.5-port-records.json"


@pytest.mark.parametrize("name", job_names())
def test_the_ported_job_writes_what_pyflink_writes(name, tmp_path, monkeypatch):
    recorded = json.loads(RECORDING.read_text())["outputs"][name]
    # the jobs name their files relative to the working directory; Spark's JVM resolves a
    # relative path against its own, so the test hands the tool the absolute paths
    source = (JOBS / (name + ".py")).read_text()
    for quote in "'\"":
        for top in ("in/", "out/"):
            source = source.replace(quote + top, quote + str(tmp_path) + "/" + top)
    ported, report = port_text(source, name, to_pyspark=True)
    # with --to-pyspark, sources, sinks and SQL are written as PySpark
    assert report.left == 0 and report.count(Outcome.REWRITTEN) > 0
    write_inputs(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    exec(compile(ported, name + ".py", "exec"), {"__name__": "__main__"})
    assert read_outputs(str(tmp_path)) == recorded
