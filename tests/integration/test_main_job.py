"""The main job (``examples/ported_job.py``) run twice, as a user would, in its own processes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any, Iterator

import pytest

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_JOB = os.path.join(_ROOT, "examples", "ported_job.py")
_SUMMARY = re.compile(r"orders added: (\d+), processed by this run: (\d+), archived: (\d+) of (\d+), "
                      r"each exactly once: (True|False)")


@pytest.fixture(scope="session")
def spark() -> Iterator[None]:
    """No Spark session in the test process: the job runs in processes of its own."""
    yield None


@pytest.fixture(scope="session")
def warm_jvm() -> None:
    """Nothing to warm up in the test process (see :func:`spark`)."""


def run_job(checkpoint_dir: str) -> str:
    env = dict(os.environ, PYTHONPATH=_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable,
               # a short-lived JVM: quick compilation and a simple collector start it faster
               PORTED_JOB_JAVA_OPTIONS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
    done = subprocess.run([sys.executable, _JOB, "--checkpoint-dir", checkpoint_dir,
                           "--files", "1", "--per-file", "10"],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=600)
    assert done.returncode == 0, done.stdout
    return done.stdout


def summary(output: str) -> Any:
    found = _SUMMARY.search(output)
    assert found, output
    added, processed, archived, total, once = found.groups()
    return int(added), int(processed), int(archived), int(total), once == "True"


def test_a_second_run_with_the_same_checkpoint_dir_resumes_and_processes_only_the_new_orders(tmp_path: Any) -> None:
    checkpoint_dir = str(tmp_path / "checkpoints")

    first = run_job(checkpoint_dir)
    assert summary(first) == (10, 10, 10, 10, True)
    assert "checkpoint 1 of 'archive' (batch 0)" in first

    second = run_job(checkpoint_dir)
    assert summary(second) == (10, 10, 20, 20, True)
    # the checkpoint numbering continues from the retained checkpoints: nothing was replayed
    assert "checkpoint 2 of 'archive' (batch 1)" in second
    assert "checkpoint 1 of 'archive'" not in second
    assert sorted(os.listdir(str(tmp_path / "data" / "orders"))) == ["orders-0000.json", "orders-0001.json"]
