"""A ported job submitted to a standalone Spark cluster: it runs there, delivers records within
Flink-like latency although it checkpoints once a minute, and stays exactly-once when its
executor or its driver is killed with SIGKILL mid-stream."""

from __future__ import annotations

import collections
import json
import os
import statistics
import signal
import subprocess
import sys
import time
from typing import Any, Dict, List, Tuple

import pytest

from tests._helpers.files import log_ids, read_batch_files, write_input, write_json_files
from tests._helpers.waiting import wait_until
from tests.cluster._standalone import QUICK_JVM, Cluster, stop_group

DRIVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "drivers", "cluster_job.py")
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOB = "cluster-job"
ROWS_PER_FILE = 5
SHUFFLE_PARTITIONS = 3


class Submission:
    """One ``spark-submit`` of the driver to the cluster, in a process group of its own."""

    def __init__(self, cluster: Cluster, base: Any, mode: str, run: int):
        env = dict(cluster.env)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH")) if p)
        self.log = base / "submit-{}.log".format(run)
        with open(str(self.log), "w") as log:
            self.proc = subprocess.Popen(
                [os.path.join(cluster.home, "bin", "spark-submit"), "--master", cluster.url,
                 "--conf", "spark.sql.shuffle.partitions={}".format(SHUFFLE_PARTITIONS),
                 "--driver-memory", "512m", "--executor-memory", "512m",
                 "--conf", "spark.driver.host=127.0.0.1",
                 "--conf", "spark.driver.extraJavaOptions=" + QUICK_JVM,
                 "--conf", "spark.executor.extraJavaOptions=" + QUICK_JVM,
                 "--conf", "spark.ui.enabled=false",
                 "--conf", "spark.local.dir=" + str(base / "driver-local"),
                 DRIVER, str(base / "in"), str(base / "out"), str(base / "cp"), mode],
                stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def output(self) -> str:
        return self.log.read_text()

    def kill_group(self) -> None:
        """SIGKILL spark-submit's JVM and the Python driver it started, then reap them."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        stop_group(self.proc)

    def wait(self, timeout: float) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            stop_group(self.proc)
            pytest.fail("the job did not finish within {} s:\n{}".format(timeout, self.output()[-5000:]))
        raise AssertionError("unreachable")


def _printed(output: str, label: str) -> List[str]:
    """What the driver printed after ``label`` on each line starting with it."""
    return [line[len(label) + 1:] for line in output.splitlines() if line.startswith(label + " ")]


def _wait_for_new_commit(checkpoint: Any, after: int, job: Submission, cluster: Cluster) -> int:
    def committed() -> bool:
        if not job.alive():
            pytest.fail("the job ended early:\n{}\n{}".format(job.output()[-5000:], cluster.logs()))
        return max(log_ids(checkpoint, "commits"), default=-1) > after

    wait_until(committed, 120, "a commit after batch {} under {}".format(after, checkpoint), 0.05)
    return max(log_ids(checkpoint, "commits"))


def _wait_inside_a_batch(checkpoint: Any) -> bool:
    """Wait (briefly) until a batch's offsets are logged and its commit is not yet."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if max(log_ids(checkpoint, "offsets"), default=-1) > max(log_ids(checkpoint, "commits"), default=-1):
            return True
        time.sleep(0.01)
    return False


def _parquet_ids(spark: Any, base: Any) -> Tuple[List[int], int]:
    """The ids in the parquet sink, read through its ``_spark_metadata`` log, and how many of
    them are duplicates."""
    path = base / "out" / "parquet"
    assert (path / "_spark_metadata").is_dir()
    ids = sorted(row["id"] for row in spark.read.parquet(str(path)).select("id").collect())
    return ids, len(ids) - len(set(ids))


def _report(what: str, **figures: Any) -> None:
    sys.stdout.write("\n{}: {}\n".format(what, ", ".join("{}={}".format(k, v) for k, v in figures.items())))


EXECUTOR_KILLS = 1
EXECUTOR_FILES = 8
N_KEYS = 4


class ExecutorKillRun:
    """A ``both``-mode job whose executor was killed mid-stream, run to its end."""

    def __init__(self, base: Any, records: List[Dict[str, Any]], output: str, code: int,
                 killed: List[int], mid_batch: int):
        self.base = base
        self.records = records
        self.output = output
        self.code = code
        self.killed = killed
        self.mid_batch = mid_batch


@pytest.fixture(scope="module")
def executor_kill_run(cluster: Cluster, tmp_path_factory: Any) -> ExecutorKillRun:
    """Submit the job (parquet and running counts), SIGKILL its executor inside a batch once
    a batch has committed, and let it run to the end on the replacement executor."""
    base = tmp_path_factory.mktemp("executor_kill")
    records = write_json_files(base / "in", EXECUTOR_FILES, ROWS_PER_FILE, n_keys=N_KEYS)
    checkpoint = base / "cp" / JOB / "parquet"
    job = Submission(cluster, base, "both", 0)
    killed: List[int] = []
    mid_batch = 0
    try:
        seen = -1
        for _ in range(EXECUTOR_KILLS):
            seen = _wait_for_new_commit(checkpoint, seen, job, cluster)
            mid_batch += _wait_inside_a_batch(checkpoint)
            executors = wait_until(cluster.executors, 60, "an executor of the job")
            os.kill(executors[0], signal.SIGKILL)
            killed.append(executors[0])
            seen = max(log_ids(checkpoint, "commits"))
            # The worker starts a replacement for the application.
            wait_until(lambda: [pid for pid in cluster.executors() if pid not in killed], 90,
                       "a replacement executor")
        assert seen < EXECUTOR_FILES - 1, "the kills came after the input was consumed"
        code = job.wait(180)
    finally:
        if job.alive():
            stop_group(job.proc)
    return ExecutorKillRun(base, records, job.output(), code, killed, mid_batch)


def test_a_submitted_ported_job_runs_on_the_cluster_with_the_submitted_settings(cluster, executor_kill_run):
    run = executor_kill_run
    assert run.code == 0, run.output[-5000:]
    assert "FINISHED" in run.output
    assert _printed(run.output, "MASTER") == [cluster.url]
    assert _printed(run.output, "SHUFFLE_PARTITIONS") == [str(SHUFFLE_PARTITIONS)]
    app_id = _printed(run.output, "APP")[0]
    apps = {app["id"]: app for app in cluster.applications()}
    assert app_id in apps, apps
    assert apps[app_id]["name"] == "cluster_job.py"  # spark-submit's name, not the package's
    # The stateful operator really ran with the submitted partitions: one state store each.
    state = run.base / "cp" / JOB / "counts" / "state" / "0"
    assert sorted(n for n in os.listdir(str(state)) if n.isdigit()) == \
        [str(p) for p in range(SHUFFLE_PARTITIONS)]


def test_killing_the_executor_mid_stream_loses_and_duplicates_nothing(executor_kill_run, spark):
    run = executor_kill_run
    assert run.code == 0, run.output[-5000:]
    expected = sorted(r["id"] for r in run.records)
    ids, duplicates = _parquet_ids(spark, run.base)
    batches = read_batch_files(run.base / "out" / "counts")
    latest: Dict[str, int] = {}
    for batch_id in sorted(batches):
        for row in batches[batch_id]:
            latest[row["key"]] = row["count"]
    _report("executor kills", kills=len(run.killed), mid_batch=run.mid_batch,
            expected=len(expected), found=len(ids), duplicates=duplicates,
            counts=sum(latest.values()))
    assert len(run.killed) == EXECUTOR_KILLS
    assert duplicates == 0
    assert ids == expected
    # The running counts, whose state was restored on the new executor, are exact too.
    assert latest == dict(collections.Counter(r["key"] for r in run.records))
    for sink in ("parquet", "counts"):
        assert max(log_ids(run.base / "cp" / JOB / sink, "commits")) == EXECUTOR_FILES - 1


DRIVER_KILLS = 1
DRIVER_FILES = 8


def test_killing_the_driver_mid_stream_and_resubmitting_resumes_exactly_once(cluster, spark, tmp_path):
    records = write_json_files(tmp_path / "in", DRIVER_FILES, ROWS_PER_FILE)
    expected = sorted(r["id"] for r in records)
    checkpoint = tmp_path / "cp" / JOB / "parquet"
    kills = []
    seen = -1
    for run in range(DRIVER_KILLS):
        job = Submission(cluster, tmp_path, "stateless", run)
        try:
            seen = _wait_for_new_commit(checkpoint, seen, job, cluster)
            _wait_inside_a_batch(checkpoint)
        finally:
            if job.alive():
                job.kill_group()
        seen = max(log_ids(checkpoint, "commits"))
        kills.append((seen, max(log_ids(checkpoint, "offsets"))))
    assert max(c for c, _ in kills) < DRIVER_FILES - 1, kills  # input was left each time
    final = Submission(cluster, tmp_path, "stateless", DRIVER_KILLS)
    code = final.wait(180)
    output = final.output()
    assert code == 0, output[-5000:]
    assert "FINISHED" in output
    # The last run resumed from the checkpoint: its first batch is the one after the last
    # commit before the kill (a batch in flight at the kill is run again), not batch 0.
    resumed = [int(b) for b in _printed(output, "BATCHES parquet")[0].split()]
    assert resumed[0] == kills[-1][0] + 1, (kills, resumed)
    assert resumed == list(range(resumed[0], DRIVER_FILES)), resumed
    assert max(log_ids(checkpoint, "commits")) == DRIVER_FILES - 1
    ids, duplicates = _parquet_ids(spark, tmp_path)
    _report("driver kills", kills=len(kills), committed_and_logged_at_kills=kills,
            resumed_at=resumed[0], expected=len(expected),
            found=len(ids), duplicates=duplicates)
    assert duplicates == 0
    assert ids == expected


def test_with_a_60_s_interval_nine_in_ten_files_reach_the_sink_within_2_s_on_the_cluster(cluster, tmp_path):
    # a first file, so that the first batch (which compiles the query) runs before the timed ones
    write_input(tmp_path / "in", "seed.json", [{"id": -1, "key": "k"}])
    job = Submission(cluster, tmp_path, "latency", 0)
    written: Dict[str, float] = {}
    try:
        wait_until(lambda: (tmp_path / "out" / "READY").exists() or not job.alive(), 180,
                   "the job's first batch")
        assert job.alive(), job.output()[-5000:]
        for n in range(16):
            write_json_files(tmp_path / "in", 1, ROWS_PER_FILE, start_file=n)
            written["part-{:05d}.json".format(n)] = time.time()
            time.sleep(0.5)

        def seen() -> Dict[str, float]:
            found: Dict[str, float] = {}
            log = tmp_path / "out" / "seen.jsonl"
            for line in (log.read_text().splitlines() if log.exists() else []):
                entry = json.loads(line)
                found.setdefault(entry["file"], entry["at"])
            return found

        wait_until(lambda: set(written) <= set(seen()), 60, "every file delivered")
        arrived = seen()
        delays = sorted(arrived[name] - at for name, at in written.items())
        (tmp_path / "out" / "STOP").touch()
        assert job.wait(120) == 0, job.output()[-5000:]
    finally:
        if job.alive():
            job.kill_group()
    within = sum(1 for d in delays if d <= 2.0) / len(delays)
    _report("cluster delivery with a 60 s interval", files=len(delays), p50="{:.3f} s".format(
        statistics.median(delays)), max="{:.3f} s".format(delays[-1]), within_2s="{:.0%}".format(within))
    assert within >= 0.9, delays
