"""The job commands on the standalone cluster: ``pyflink-compat run -d -m <master>`` submits a job
program through ``spark-submit``, and other processes list it, take a savepoint of it, see a
second deploy of it refused, stop it with a savepoint, resume it from that savepoint on the
cluster, roll back to the first savepoint after that run's driver is killed, and cancel it."""

from __future__ import annotations

from typing import Any, List

from tests._helpers.commands import ORDERS_JOB, Commands, finished, group_gone, kill_group, output_ids
from tests._helpers.files import write_json_files
from tests._helpers.waiting import wait_until
from tests.cluster._standalone import QUICK_JVM, Cluster

NAME = "cluster-orders"


def _spark_defaults(base: Any) -> str:
    """A Spark configuration directory for the submissions: small JVMs on the loopback
    address, as a cluster's ``spark-defaults.conf`` would give them."""
    conf = base / "spark-conf"
    conf.mkdir()
    (conf / "spark-defaults.conf").write_text("\n".join([
        "spark.driver.host 127.0.0.1", "spark.driver.memory 512m", "spark.executor.memory 512m",
        "spark.driver.extraJavaOptions " + QUICK_JVM, "spark.executor.extraJavaOptions " + QUICK_JVM,
        "spark.ui.enabled false", "spark.sql.shuffle.partitions 2",
        "spark.local.dir " + str(base / "driver-local")]) + "\n")
    return str(conf)


def test_a_job_run_on_the_cluster_is_listed_saved_stopped_resumed_exactly_once_and_cancelled(
        cluster: Cluster, tmp_path: Any, drivers: List[int]) -> None:
    cli = Commands(tmp_path, cluster.env, {"SPARK_CONF_DIR": _spark_defaults(tmp_path)})
    write_json_files(tmp_path / "in", n_files=4, rows_per_file=3)
    first = finished(cli.start("run", "-d", "--json", "-m", cluster.url, "-py", ORDERS_JOB,
                               str(tmp_path / "in"), str(tmp_path / "out1"), NAME))
    drivers.append(first["pid"])
    (listed,) = cli.json("list")["jobs"]
    assert (listed["job_id"], listed["shown_status"], listed["master"]) == (first["job_id"], "RUNNING",
                                                                           cluster.url)
    assert listed["app_id"] in {app["id"] for app in cluster.applications()}
    wait_until(lambda: len(output_ids(tmp_path / "out1")) == 12, timeout=60, what="the first input processed")

    code, out, err = cli("savepoint", first["job_id"])
    assert code == 0, err
    assert out.splitlines()[:2] == ["Triggering savepoint for job {}.".format(first["job_id"]),
                                    "Waiting for response..."]
    assert out.splitlines()[2].startswith("Savepoint completed. Path: file:{}/savepoint-".format(
        tmp_path / "default-sp"))
    rollback_point = out.splitlines()[2][len("Savepoint completed. Path: "):]

    # a double deploy: refused before it touches a file; the first job runs on with its state
    code, _, err = cli("run", "-d", "-m", cluster.url, "-py", ORDERS_JOB, str(tmp_path / "in"),
                       str(tmp_path / "out1"), NAME)
    assert code == 1 and "Job '{}' could not start: a job of this name is already running on its checkpoint " \
        "directory".format(NAME) in err and first["job_id"] in err, err
    assert [(j["job_id"], j["shown_status"]) for j in cli.json("list", "-a")["jobs"]] == [
        (first["job_id"], "RUNNING")]
    code, out, err = cli("stop", "--savepointPath", str(tmp_path / "sp"), NAME)
    assert code == 0, err
    stopped_at = out.splitlines()[-1][len("Savepoint completed. Path: "):]
    assert out.splitlines() == ["Suspending job \"{}\" with a CANONICAL savepoint.".format(first["job_id"]),
                                "Triggering stop-with-savepoint for job {}.".format(first["job_id"]),
                                "Waiting for response...", "Savepoint completed. Path: " + stopped_at]
    assert stopped_at.startswith("file:" + str(tmp_path / "sp"))  # as Flink prints it, and run -s takes it
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=3, start_file=4)
    # the new run's driver starts while the stopped one ends and frees the worker's one core
    resuming = cli.start("run", "-d", "--json", "-m", cluster.url, "-s", stopped_at, "-py", ORDERS_JOB,
                         str(tmp_path / "in"), str(tmp_path / "out2"), NAME)
    wait_until(lambda: group_gone(first["pid"]), timeout=30, what="the stopped driver's end")
    assert [j["shown_status"] for j in cli.json("list", "-a")["jobs"] if j["job_id"] == first["job_id"]] == [
        "FINISHED"]
    resumed = finished(resuming)
    drivers.append(resumed["pid"])
    wait_until(lambda: len(output_ids(tmp_path / "out2")) >= 6, timeout=60, what="the new input processed")
    # exactly once across the two runs: the resumed one starts after the savepoint's batches
    assert output_ids(tmp_path / "out1") == list(range(12))
    assert output_ids(tmp_path / "out2") == list(range(12, 18))

    # the resumed run's driver killed; rollback to the savepoint taken before the stop
    kill_group(resumed["pid"])
    rolled = finished(cli.start("run", "-d", "--json", "-m", cluster.url, "-s", rollback_point, "-py", ORDERS_JOB,
                                str(tmp_path / "in"), str(tmp_path / "out3"), NAME))
    drivers.append(rolled["pid"])
    wait_until(lambda: len(output_ids(tmp_path / "out3")) >= 6, timeout=60, what="the rollback's records")
    assert output_ids(tmp_path / "out3") == list(range(12, 18))  # every record after the savepoint, once
    assert {run.name for run in (tmp_path / "cp" / NAME / "_replaced").iterdir()} == {rolled["job_id"]}

    code, out, err = cli("cancel", NAME)
    assert code == 0, err
    assert out.splitlines() == ["Cancelling job {}.".format(rolled["job_id"]),
                                "Cancelled job {}.".format(rolled["job_id"])]
    wait_until(lambda: group_gone(rolled["pid"]), timeout=30, what="the cancelled driver's end")
    assert {j["job_id"]: j["shown_status"] for j in cli.json("list", "-a")["jobs"]} == {
        first["job_id"]: "FINISHED", resumed["job_id"]: "GONE", rolled["job_id"]: "CANCELED"}
    code, _, err = cli("savepoint", rolled["job_id"])
    assert code == 1 and "has ended: CANCELED" in err
