"""A job's own modules beside its script reach Spark's Python workers: Python puts the script's
directory on the driver's path only, so they travel by value, and the job runs from any working
directory, as under PyFlink (live PyFlink 1.20.5 printed the same four records for this job).
What the job's own functions print reaches the job's standard output, as under PyFlink."""

from __future__ import annotations

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

READINGS = '''
class Reading(object):
    def __init__(self, sensor, level):
        self.sensor, self.level = sensor, level

    def __repr__(self):
        return "Reading(%s, %d)" % (self.sensor, self.level)


def higher(a, b):
    print("compared", a.sensor)
    return a if a.level >= b.level else b
'''

JOB = '''
from pyflink_compat.datastream import StreamExecutionEnvironment

from readings import Reading, higher

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.from_collection([Reading("s1", 3), Reading("s2", 5), Reading("s1", 7), Reading("s1", 2)]) \\
    .key_by(lambda r: r.sensor).reduce(higher).print()
env.execute("readings")
'''


def test_a_job_importing_a_module_beside_its_script_runs_from_another_directory(tmp_path):
    (tmp_path / "job").mkdir()
    (tmp_path / "job" / "readings.py").write_text(READINGS)
    (tmp_path / "job" / "job.py").write_text(JOB)
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, TMPDIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH")) if p))
    run = subprocess.run([sys.executable, str(tmp_path / "job" / "job.py")], cwd=str(tmp_path), env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert sorted(line for line in lines if line.startswith("Reading(")) == [
        "Reading(s1, 3)", "Reading(s1, 7)", "Reading(s1, 7)", "Reading(s2, 5)"]
    # the reduce function's own prints, on standard output as PyFlink's local run gives them
    assert sorted(line for line in lines if not line.startswith("Reading(")) == ["compared s1", "compared s1"]
