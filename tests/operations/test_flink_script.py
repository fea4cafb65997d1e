"""A runbook script written for Flink's command line (``scripts/flink_runbook.sh``) run unchanged
with ``pyflink-compat`` in place of ``flink``: it reads the job ids and savepoint paths from the
lines Flink's CLI prints (``Job has been submitted with JobID <id>``, ``Savepoint completed.
Path: file:...``, ``flink list``'s job lines, ``Cancelled job <id>.``) and checks Flink's exit
codes (0, 1 for a request to a job that no longer runs, 31 for a missing configuration
directory)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests._helpers.commands import ORDERS_JOB as JOB, REPO, Commands, kill_group, output_ids
from tests._helpers.files import write_json_files

_SCRIPT = os.path.join(REPO, "tests", "operations", "scripts", "flink_runbook.sh")
#: A short-lived local driver: two threads, no UI; C1-only JIT and serial GC start faster.
_SPARK = ("--master local[2] --conf spark.ui.enabled=false --conf spark.ui.showConsoleProgress=false "
          "--conf spark.sql.shuffle.partitions=2 "
          "--conf 'spark.driver.extraJavaOptions=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' pyspark-shell")


@pytest.mark.slow
def test_a_runbook_script_written_for_flinks_command_line_runs_unchanged_with_pyflink_compat(tmp_path):
    cli = Commands(tmp_path, extra={"PYSPARK_SUBMIT_ARGS": _SPARK})
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    command = bin_dir / "pyflink-compat"  # the command as installed, with this Python
    command.write_text("#!/bin/sh\nexec {} -m pyflink_compat.cli \"$@\"\n".format(sys.executable))
    command.chmod(0o755)
    env = dict(cli.env, FLINK="pyflink-compat", PATH=os.pathsep.join((str(bin_dir), os.environ["PATH"])))
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=3)
    done = subprocess.run(["bash", _SCRIPT, JOB, str(tmp_path / "in"), str(tmp_path / "out"), str(tmp_path / "sp")],
                          env=env, capture_output=True, text=True, timeout=300)
    steps = done.stdout.splitlines()
    try:
        assert done.returncode == 0, (done.stdout, done.stderr)
    finally:  # a driver the script left running when a step failed
        for job in cli.json("list")["jobs"]:
            if job.get("pid"):
                kill_group(job["pid"])
    assert [step.split()[1] for step in steps] == [
        "submitted", "listed", "savepoint", "stopped", "cancel", "resumed", "cancelled", "missing"]
    savepoint, stopped = steps[2].split()[-1], steps[3].split()[-1]
    assert re.fullmatch("file:{}/savepoint-[0-9a-f]{{6}}-[0-9a-f]{{12}}".format(re.escape(str(tmp_path / "sp"))),
                        savepoint), savepoint
    assert os.path.isdir(stopped[len("file:"):])
    ids = output_ids(tmp_path / "out")
    assert len(ids) == len(set(ids))  # no record written twice across the stop and the resume
