"""Python functions of a job started with a virtual environment's interpreter, that environment
not activated, run in that interpreter: the local session's workers use the job's own Python."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, Iterator

import pytest

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_JOB = """
from pyflink_compat.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([1, 2, 3]).map(lambda n: n * 10).print()
env.execute("worker-python")
"""


@pytest.fixture(scope="session")
def spark() -> Iterator[None]:
    """No Spark session in the test process: the job runs in a process of its own."""
    yield None


@pytest.fixture(scope="session")
def warm_jvm() -> None:
    """Nothing to warm up in the test process (see :func:`spark`)."""


def test_a_job_run_by_a_not_activated_environment_runs_its_functions_in_that_interpreter(tmp_path: Any) -> None:
    # the first python3 on PATH is not the job's: it cannot run anything
    decoy = tmp_path / "bin"
    decoy.mkdir()
    (decoy / "python3").write_text("#!/bin/sh\necho 'not the job interpreter' >&2\nexit 3\n")
    (decoy / "python3").chmod(0o755)
    (tmp_path / "job.py").write_text(_JOB)
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "VIRTUAL_ENV")}
    env.update(PATH=str(decoy) + os.pathsep + env.get("PATH", ""),
               PYTHONPATH=_ROOT + os.pathsep + env.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "job.py"], cwd=str(tmp_path), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert sorted(done.stdout.split()) == ["10", "20", "30"]
