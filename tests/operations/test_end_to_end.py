"""The commands as an operations team uses them, each from a process of its own, on jobs that
``pyflink-compat run -d`` started as driver processes: list, info, the upgrade runbook of
docs/operations.rst (savepoint, stop, change the pipeline, run from the savepoint), and a driver
killed with SIGKILL; and an attached ``run`` (of a program that records its job as a driver does,
without Spark), which prints the job's id while the job runs and ends as the job did. (Two jobs
in one storage: ``test_requests.py``.)"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

from tests._helpers.commands import (
    ORDERS_JOB as JOB, Commands, collect_lines, finished, group_gone, kill_group, output_ids)
from tests._helpers.files import file_uri, read_batch_files, write_json_files
from tests._helpers.waiting import wait_until

#: A short-lived local driver: two threads, no UI; C1-only JIT and serial GC start faster.
_SPARK = ("--master local[2] --conf spark.ui.enabled=false --conf spark.ui.showConsoleProgress=false "
          "--conf spark.sql.shuffle.partitions=2 "
          "--conf 'spark.driver.extraJavaOptions=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' pyspark-shell")


def test_a_job_started_with_run_is_listed_saved_stopped_resumed_exactly_once_and_shown_gone_when_killed(
        tmp_path, drivers):
    cli = Commands(tmp_path, extra={"PYSPARK_SUBMIT_ARGS": _SPARK})
    write_json_files(tmp_path / "in", n_files=4, rows_per_file=3)
    # deploy
    orders_run = finished(cli.start("run", "-d", "--json", "-py", JOB, str(tmp_path / "in"), str(tmp_path / "out1"),
                                    "orders"))
    drivers.append(orders_run["pid"])
    listed = cli.json("list")["jobs"]
    assert [(j["name"], j["job_id"], j["shown_status"]) for j in listed] == [
        ("orders", orders_run["job_id"], "RUNNING")]
    wait_until(lambda: len(output_ids(tmp_path / "out1")) == 12, timeout=120, what="the first input processed")

    # savepoint by a unique prefix of the job id, into the configured default directory
    code, out, err = cli("savepoint", orders_run["job_id"][:8])
    assert code == 0, err
    assert out.splitlines()[:2] == ["Triggering savepoint for job {}.".format(orders_run["job_id"]),
                                    "Waiting for response..."]
    # the path as Flink prints it, with the file: scheme
    assert out.splitlines()[2].startswith("Savepoint completed. Path: file:{}/savepoint-".format(
        tmp_path / "default-sp"))

    info = cli.json("info", "orders")
    # four batches ran; one checkpoint is reported per 200 ms interval, so at least one
    assert info["status"] == "RUNNING" and info["completed"] >= 1 and info["pid"] == orders_run["pid"]
    assert [c["sink"] for c in info["checkpoints"]] == ["rows"] * len(info["checkpoints"])

    # upgrade: stop with a savepoint, change the pipeline, run the new one from the savepoint
    stop = cli.json("stop", "--savepointPath", str(tmp_path / "sp"), "orders")
    assert stop["job_id"] == orders_run["job_id"] and stop["savepoint"].startswith(str(tmp_path / "sp"))
    assert [j["name"] for j in cli.json("list")["jobs"]] == []
    ended = [(j["job_id"], j["shown_status"]) for j in cli.json("list", "-a")["jobs"]]
    assert ended == [(orders_run["job_id"], "FINISHED")]
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=3, start_file=4)
    resumed = finished(cli.start("run", "-d", "--json", "-s", stop["savepoint"], "-py", JOB, str(tmp_path / "in"),
                                 str(tmp_path / "out2"), "orders", "v2"))
    drivers.append(resumed["pid"])
    wait_until(lambda: len(output_ids(tmp_path / "out2")) == 6, timeout=120, what="the new input processed")
    assert output_ids(tmp_path / "out1") == list(range(12)) and output_ids(tmp_path / "out2") == list(range(12, 18))
    assert all("key_upper" in row for rows in read_batch_files(tmp_path / "out2").values() for row in rows)

    # a driver killed with SIGKILL is gone, and a request to it fails at once
    kill_group(resumed["pid"])
    (gone,) = [j for j in cli.json("list")["jobs"]]
    assert (gone["job_id"], gone["shown_status"]) == (resumed["job_id"], "GONE")
    assert "is gone" in gone["driver_gone"]
    started = time.monotonic()
    code, out, err = cli("savepoint", resumed["job_id"])
    assert code == 1 and "is not running: its driver (process {}".format(resumed["pid"]) in err, (out, err)
    assert time.monotonic() - started < 10
    code, _, err = cli("savepoint", "orders")  # the name: the earlier run ended, the newest is gone
    assert code == 1 and "Several jobs are named 'orders'" in err


RECORDED = os.path.join(os.path.dirname(JOB), "recorded_program.py")


@pytest.mark.parametrize("status, code, last", [
    ("FINISHED", 0, ["Program execution finished", "Job with JobID {} has finished."]),
    ("CANCELED", 1, ["Job {} (recorded) ended CANCELED."]),
])
def test_an_attached_run_prints_the_job_id_while_the_job_runs_and_exits_as_the_job_ended(
        tmp_path, drivers, status, code, last):
    cli = Commands(tmp_path)
    attached = cli.start("run", "-py", RECORDED, str(tmp_path), own_group=True)
    drivers.append(attached.pid)
    out, err = collect_lines(attached.stdout), collect_lines(attached.stderr)
    prefix = "Job has been submitted with JobID "
    (job_id,) = wait_until(lambda: [line[len(prefix):] for line in out if line.startswith(prefix)], timeout=30,
                           what="the attached run to print the job id")
    (listed,) = cli.json("list")["jobs"]
    assert (listed["job_id"], listed["shown_status"]) == (job_id, "RUNNING") and attached.poll() is None
    (tmp_path / "end").write_text(status)
    assert attached.wait(30) == code, (out, err)
    wait_until(lambda: len(out) >= 2 + len(last), timeout=5, what="the attached run's output")
    assert out[0] == prefix + job_id and out[1] == "PROGRAM DONE"
    assert out[2:2 + len(last)] == [line.format(job_id) for line in last], out


def test_run_detached_prints_why_the_job_program_refused_to_start(tmp_path):
    cli = Commands(tmp_path, extra={"PYSPARK_SUBMIT_ARGS": _SPARK})
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=1)
    job = ["-py", JOB, str(tmp_path / "in"), str(tmp_path / "out"), "orders"]
    code, _, err = cli("run", "-d", "-s", str(tmp_path / "nowhere"), *job)
    assert code == 1 and "CheckpointFileError: {}: does not exist (output in".format(tmp_path / "nowhere") in err, err
    code, out, _ = cli("run", "-d", "--json", "-D", "execution.checkpointing.interval=soon", *job)
    failure = json.loads(out)
    assert code == 1 and failure["reason"] == "failed" and os.path.isfile(failure["path"]), failure
    assert "Could not parse value 'soon' for key 'execution.checkpointing.interval'" in failure["error"], failure


def test_run_detached_prints_why_a_job_cannot_start_on_read_only_storage(tmp_path):
    cli = Commands(tmp_path, extra={"PYSPARK_SUBMIT_ARGS": _SPARK})
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=1)
    storage = tmp_path / "cp"
    storage.mkdir()
    storage.chmod(0o500)
    # as root, without the capabilities that let root write where permissions refuse it
    cli.prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"] if os.geteuid() == 0 else []
    try:
        code, _, err = cli("run", "-d", "-py", JOB, str(tmp_path / "in"), str(tmp_path / "out"), "orders")
    finally:
        storage.chmod(0o700)
    assert code == 1 and "Traceback" not in err, err
    assert "Job 'orders' could not start: The checkpoint directory {}/orders cannot be created: Permission " \
           "denied (output in".format(file_uri(storage)) in err, err


def test_a_cancel_in_the_middle_of_a_batch_ends_the_job_without_a_stack_overflow_in_its_log(tmp_path, drivers):
    cli = Commands(tmp_path, extra={"PYSPARK_SUBMIT_ARGS": _SPARK})
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=1)
    log = tmp_path / "job.log"
    started = finished(cli.start("run", "-d", "--json", "--log", str(log), "-py", JOB, str(tmp_path / "in"),
                                 str(tmp_path / "out"), "orders", "busy"))
    drivers.append(started["pid"])
    wait_until(lambda: (tmp_path / "out" / "busy").exists(), timeout=120, what="a batch running")
    assert cli.json("cancel", started["job_id"])["cancelled"]
    wait_until(lambda: group_gone(started["pid"]), timeout=60, what="the cancelled driver's end")
    text = log.read_text()
    assert "StackOverflowError" not in text and "terminated with error" not in text, text[-3000:]
    (job,) = cli.json("list", "-a")["jobs"]
    assert job["shown_status"] == "CANCELED"


def test_ctrl_c_on_an_attached_run_stops_the_job_with_its_end_recorded(tmp_path):
    cli = Commands(tmp_path, extra={"PYSPARK_SUBMIT_ARGS": _SPARK})
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=1)
    attached = cli.start("run", "-py", JOB, str(tmp_path / "in"), str(tmp_path / "out"), "orders", own_group=True)
    try:
        wait_until(lambda: [j["status"] for j in cli.json("list")["jobs"]] == ["RUNNING"], timeout=120,
                   what="the attached run's job running")
        os.killpg(attached.pid, signal.SIGINT)  # Ctrl-C in the terminal: the command and its program
        out, err = attached.communicate(timeout=120)
    finally:
        if attached.poll() is None:
            kill_group(attached.pid)
    (job,) = cli.json("list", "-a")["jobs"]
    assert attached.returncode == 1 and "Job {} (orders) ended SUSPENDED.".format(job["job_id"]) in out, (out, err)
    assert job["shown_status"] == "SUSPENDED" and job["ended"] is not None
    assert "Job 'orders' interrupted: its checkpoints are kept under" in err
