"""The commands as an operations team uses them, each from a process of its own, on jobs that
``pyflink-compat run -d`` started as driver processes: list, info, the upgrade runbook of
docs/operations.rst (savepoint, stop, change the pipeline, run from the savepoint), and a driver
killed with SIGKILL. (Cancelling, and two jobs in one storage: ``test_requests.py``.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from typing import Any, Dict, List, Tuple

from tests._helpers.files import file_uri, read_batch_files, write_json_files
from tests._helpers.waiting import wait_until

_HERE = os.path.dirname(os.path.abspath(__file__))
JOB = os.path.join(_HERE, "drivers", "orders_job.py")
REPO = os.path.dirname(os.path.dirname(_HERE))
#: A short-lived local driver: two threads, no UI; C1-only JIT and serial GC start faster.
_SPARK = ("--master local[2] --conf spark.ui.enabled=false --conf spark.ui.showConsoleProgress=false "
          "--conf spark.sql.shuffle.partitions=2 "
          "--conf 'spark.driver.extraJavaOptions=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' pyspark-shell")


class Commands:
    """``pyflink-compat`` run as a separate process, with a configuration directory of its own."""

    def __init__(self, base: Any):
        self.base = base
        conf = base / "conf"
        conf.mkdir()
        # the cluster configuration every command reads, as FLINK_CONF_DIR gives it to flink
        (conf / "config.yaml").write_text(
            "execution:\n  checkpointing:\n    dir: {}\n    interval: 200 ms\n"
            "    savepoint-dir: {}\nclient.timeout: 60 s\n".format(file_uri(base / "cp"), base / "default-sp"))
        self.env = dict(os.environ, FLINK_CONF_DIR=str(conf), FLINK_LOG_DIR=str(base), PYSPARK_SUBMIT_ARGS=_SPARK,
                        PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable, TMPDIR=str(base),
                        PYTHONPATH=os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH")) if p))

    def start(self, *args: str) -> "subprocess.Popen[str]":
        return subprocess.Popen([sys.executable, "-m", "pyflink_compat.cli"] + list(args), env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def __call__(self, *args: str, timeout: float = 180) -> Tuple[int, str, str]:
        process = self.start(*args)
        out, err = process.communicate(timeout=timeout)
        return process.returncode, out, err

    def json(self, *args: str) -> Dict[str, Any]:
        code, out, err = self(*args, "--json")
        assert code == 0, (out, err)
        return json.loads(out)


def _finished(process: "subprocess.Popen[str]") -> Dict[str, Any]:
    out, err = process.communicate(timeout=240)
    assert process.returncode == 0, (out, err)
    return json.loads(out)


def _ids(out: Any) -> List[int]:
    return sorted(r["id"] for rows in read_batch_files(out).values() for r in rows)


def _kill_group(pid: int) -> None:
    """SIGKILL a detached driver and its JVM (its own process group), and wait until both are gone."""
    os.killpg(pid, signal.SIGKILL)
    wait_until(lambda: _group_gone(pid), timeout=30, what="the driver's process group gone")


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_job_started_with_run_is_listed_saved_stopped_resumed_exactly_once_and_shown_gone_when_killed(tmp_path):
    cli = Commands(tmp_path)
    write_json_files(tmp_path / "in", n_files=4, rows_per_file=3)
    # deploy
    orders_run = _finished(cli.start("run", "-d", "--json", "-py", JOB, str(tmp_path / "in"), str(tmp_path / "out1"),
                                     "orders"))
    listed = cli.json("list")["jobs"]
    assert [(j["name"], j["job_id"], j["shown_status"]) for j in listed] == [
        ("orders", orders_run["job_id"], "RUNNING")]
    wait_until(lambda: len(_ids(tmp_path / "out1")) == 12, timeout=120, what="the first input processed")

    # savepoint by a unique prefix of the job id, into the configured default directory
    code, out, err = cli("savepoint", orders_run["job_id"][:8])
    assert code == 0, err
    assert out.splitlines()[0] == "Triggering savepoint for job {}.".format(orders_run["job_id"])
    assert out.splitlines()[1].startswith("Savepoint completed. Path: {}/savepoint-".format(tmp_path / "default-sp"))

    info = cli.json("info", "orders")
    assert info["status"] == "RUNNING" and info["completed"] >= 4 and info["pid"] == orders_run["pid"]
    assert [c["sink"] for c in info["checkpoints"]] == ["rows"] * len(info["checkpoints"])

    # upgrade: stop with a savepoint, change the pipeline, run the new one from the savepoint
    stop = cli.json("stop", "--savepointPath", str(tmp_path / "sp"), "orders")
    assert stop["job_id"] == orders_run["job_id"] and stop["savepoint"].startswith(str(tmp_path / "sp"))
    assert [j["name"] for j in cli.json("list")["jobs"]] == []
    ended = [(j["job_id"], j["shown_status"]) for j in cli.json("list", "-a")["jobs"]]
    assert ended == [(orders_run["job_id"], "FINISHED")]
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=3, start_file=4)
    resumed = _finished(cli.start("run", "-d", "--json", "-s", stop["savepoint"], "-py", JOB, str(tmp_path / "in"),
                                  str(tmp_path / "out2"), "orders", "v2"))
    wait_until(lambda: len(_ids(tmp_path / "out2")) == 6, timeout=120, what="the new input processed")
    assert _ids(tmp_path / "out1") == list(range(12)) and _ids(tmp_path / "out2") == list(range(12, 18))
    assert all("key_upper" in row for rows in read_batch_files(tmp_path / "out2").values() for row in rows)

    # a driver killed with SIGKILL is gone, and a request to it fails at once
    _kill_group(resumed["pid"])
    (gone,) = [j for j in cli.json("list")["jobs"]]
    assert (gone["job_id"], gone["shown_status"]) == (resumed["job_id"], "GONE")
    assert "is gone" in gone["driver_gone"]
    started = time.monotonic()
    code, out, err = cli("savepoint", resumed["job_id"])
    assert code == 4 and "is not running: its driver (process {}".format(resumed["pid"]) in err, (out, err)
    assert time.monotonic() - started < 10
    code, _, err = cli("savepoint", "orders")  # the name: the earlier run ended, the newest is gone
    assert code == 3 and "Several jobs are named 'orders'" in err
