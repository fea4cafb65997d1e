"""Savepoints, restores and the checkpoint tools on a non-local file system, through Hadoop.

The storage is Hadoop's ``viewfs://`` (``ViewFileSystem``, part of the Hadoop client Spark
ships): a real non-local scheme whose mount table, set on the running session's Hadoop
configuration, links ``viewfs://<table>/ckpt`` to a temporary directory. Spark checkpoints
through it, and the tools reach it only through Hadoop's ``FileSystem`` in the JVM; the local
directory behind the mount is read only to check what landed where.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
import uuid
from typing import Any, Dict, Iterator, List

import pytest

from pyflink_compat.checkpoints import (
    CheckpointFileError, dispose_savepoint, list_storage, restore_query, show, verify)
from pyflink_compat.checkpoints.access import file_access_for
from pyflink_compat.checkpoints.file_access_hadoop import HadoopFileAccess
from pyflink_compat.common import Configuration, JobStatus
from pyflink_compat.datastream import StreamExecutionEnvironment

from tests._helpers.files import digest, log_ids, write_input
from tests._helpers.jobs import SCHEMA
from tests._helpers.waiting import wait_until
from tests.savepoints._counting_jobs import INTERVAL_MS, Counts, expected, write_files
from tests.savepoints._queries import run_until_idle, start_counts

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")



class Mount:
    """``viewfs://<table>/ckpt`` linked to a local directory."""

    def __init__(self, table: str, local: str):
        self.table = table
        self.local = local
        self.uri = "viewfs://{}/ckpt".format(table)
        self.key = "fs.viewfs.mounttable.{}.link./ckpt".format(table)

    def on_disk(self, uri: str) -> str:
        assert uri.startswith(self.uri + "/"), uri
        return os.path.join(self.local, uri[len(self.uri) + 1:])


def mount(spark: Any, local: str) -> Mount:
    os.makedirs(local, exist_ok=True)
    made = Mount("t" + uuid.uuid4().hex[:10], local)
    spark.sparkContext._jsc.hadoopConfiguration().set(made.key, "file://" + local)
    return made


@pytest.fixture(scope="module")
def viewfs(spark: Any, tmp_path_factory: Any) -> Iterator[Mount]:
    made = mount(spark, str(tmp_path_factory.mktemp("viewfs_mount")))
    yield made
    spark.sparkContext._jsc.hadoopConfiguration().unset(made.key)


def new_env(options: Dict[str, str]) -> StreamExecutionEnvironment:
    conf = Configuration()
    for key, value in options.items():
        conf.set_string(key, value)
    env = StreamExecutionEnvironment.get_execution_environment(conf)
    env.enable_checkpointing(INTERVAL_MS)
    return env


def add_counts(env: StreamExecutionEnvironment, source: Any, storage: str, bounded: bool = False) -> Counts:
    env.get_checkpoint_config().set_checkpoint_storage_dir(storage)
    counts = Counts()
    frame = env.spark_session.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(source))
    writer = frame.groupBy("key").count().writeStream.outputMode("complete").foreachBatch(counts)
    env.add_sink(writer, "counts", bounded=bounded)
    return counts


@pytest.fixture(scope="module")
def saved(viewfs: Mount, tmp_path_factory: Any) -> Dict[str, Any]:
    """A job checkpointing to viewfs (checkpoints retained), a savepoint taken to viewfs while it
    ran, and two more input files."""
    source = tmp_path_factory.mktemp("viewfs_in")
    rows = write_files(source, 0, 2)
    env = new_env({"execution.checkpointing.externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION"})
    add_counts(env, source, viewfs.uri + "/storage")
    client = env.execute_async("first")
    job_dir = viewfs.uri + "/storage/first"
    try:
        wait_until(lambda: len(log_ids(viewfs.on_disk(job_dir + "/counts"), "commits")) >= 2, what="two commits")
        path = client.trigger_savepoint(viewfs.uri + "/savepoints").result(60)
        assert client.get_job_status().result() is JobStatus.RUNNING
    finally:
        client.cancel().result(60)
        env.close()
    rows += write_files(source, 2, 2)
    return {"source": source, "rows": rows, "savepoint": path, "job_dir": job_dir,
            "digest": digest(viewfs.on_disk(path))}


def test_the_tools_reach_a_viewfs_uri_through_hadoop_and_keep_it_a_uri(viewfs: Mount) -> None:
    fs, path = file_access_for(viewfs.uri + "/storage/")
    assert isinstance(fs, HadoopFileAccess) and path == viewfs.uri + "/storage"


def test_every_file_operation_works_on_viewfs_and_lands_in_the_mounted_directory(viewfs: Mount) -> None:
    fs, root = file_access_for(viewfs.uri + "/ops")
    data = os.urandom((3 << 20) + 17)  # several read chunks
    fs.write_atomic(root + "/a/big", data)
    assert open(viewfs.on_disk(root + "/a/big"), "rb").read() == data
    assert fs.read_bytes(root + "/a/big") == data and fs.size(root + "/a/big") == len(data)
    with fs.open_read(root + "/a/big") as stream:
        assert stream.read(5) == data[:5] and stream.read(1 << 21) == data[5:5 + (1 << 21)]
    assert abs(fs.mtime(root + "/a/big") - os.path.getmtime(viewfs.on_disk(root + "/a/big"))) < 1
    assert fs.copy_file(root + "/a/big", root + "/b/c/copy", link=True) is False
    assert fs.read_bytes(root + "/b/c/copy") == data
    assert fs.isdir(root + "/b") and fs.isfile(root + "/b/c/copy") and not fs.isfile(root + "/b")
    assert fs.listdir(root) == ["a", "b"] and fs.listdir(root + "/nothing") == [] and fs.listdir(root + "/a/big") == []
    fs.write_atomic(root + "/a/big", b"replaced")
    assert fs.read_text(root + "/a/big") == "replaced" and fs.listdir(root + "/a") == ["big"]
    with pytest.raises(FileNotFoundError):
        fs.copy_file(root + "/a/gone", root + "/b/gone", link=False)
    with pytest.raises(FileNotFoundError):
        fs.open_read(root + "/a/gone")
    fs.remove_file(root + "/a/big")
    assert not os.path.exists(viewfs.on_disk(root + "/a/big")) and fs.isdir(root + "/a")
    fs.remove_tree(root + "/b")
    assert fs.listdir(root) == ["a"] and not fs.exists(root + "/b")


def test_a_savepoint_of_a_job_on_viewfs_is_written_there_as_copies_with_their_crc_files(
        viewfs: Mount, saved: Dict[str, Any]) -> None:
    path = saved["savepoint"]
    assert path.startswith(viewfs.uri + "/savepoints/savepoint-")
    manifest = json.loads(open(os.path.join(viewfs.on_disk(path), "_metadata")).read())
    (query,) = manifest["queries"]
    assert query["linked_files"] == 0 and query["batch_id"] >= 1
    listed = {f["path"] for f in query["files"]}
    assert "commits/.{}.crc".format(query["batch_id"]) in listed
    on_disk = set(digest(viewfs.on_disk(path + "/counts")))
    assert on_disk == listed  # exactly the listed files: no extra checksum files of the copy
    assert verify(path) == {"path": path, "kind": "savepoint", "ok": True, "problems": [], "files": len(listed)}


def test_a_viewfs_savepoint_restores_into_a_job_on_viewfs_exactly_once(
        viewfs: Mount, saved: Dict[str, Any]) -> None:
    env = new_env({"execution.state-recovery.path": saved["savepoint"]})
    try:
        counts = add_counts(env, saved["source"], viewfs.uri + "/restored", bounded=True)
        client = env.execute_async("again")
        client.get_job_execution_result().result(120)
        assert client.get_job_status().result() is JobStatus.FINISHED
    finally:
        env.close()
    assert counts.latest() == expected(saved["rows"])
    assert min(counts.batches) > 0  # resumed after the saved batches
    assert digest(viewfs.on_disk(saved["savepoint"])) == saved["digest"]


def test_stop_with_savepoint_to_viewfs_finishes_the_job_and_restores_into_local_storage(
        viewfs: Mount, tmp_path: Any) -> None:
    source = tmp_path / "in"
    rows = write_files(source, 0, 2)
    env = new_env({"execution.checkpointing.savepoint-dir": viewfs.uri + "/stop-sp"})
    try:
        add_counts(env, source, viewfs.uri + "/stop-storage")
        client = env.execute_async("stopped")
        checkpoint = viewfs.uri + "/stop-storage/stopped/counts"
        wait_until(lambda: len(log_ids(viewfs.on_disk(checkpoint), "commits")) >= 2, what="two commits")
        path = client.stop_with_savepoint(False).result(60)
        client.get_job_execution_result().result(60)
        assert client.get_job_status().result() is JobStatus.FINISHED
    finally:
        env.close()
    assert path.startswith(viewfs.uri + "/stop-sp/savepoint-")
    # retention (NO_EXTERNALIZED_CHECKPOINTS) removed the checkpoints through Hadoop, after the savepoint
    assert not os.path.exists(viewfs.on_disk(checkpoint))
    rows += write_files(source, 2, 1)
    env = new_env({"execution.state-recovery.path": path})
    try:
        counts = add_counts(env, source, "file://" + str(tmp_path / "local-storage"), bounded=True)
        client = env.execute_async("after-stop")
        client.get_job_execution_result().result(120)
    finally:
        env.close()
    assert counts.latest() == expected(rows) and min(counts.batches) > 0
    assert verify(path)["ok"] is True


def test_list_show_and_verify_read_the_job_and_its_savepoint_on_viewfs(viewfs: Mount, saved: Dict[str, Any]) -> None:
    listed = list_storage(viewfs.uri + "/storage")
    (job,) = listed["jobs"]
    assert job["name"] == "first" and job["path"] == saved["job_dir"] and job["marker"] is True
    (query,) = job["queries"]
    assert query["sink"] == "counts" and query["newest_batch"] >= 1 and query["size"] > 0
    assert query["path"] == saved["job_dir"] + "/counts"
    assert job["checkpoints"][-1]["id"] == "chk-{}".format(query["newest_batch"] + 1)
    found = {sp["path"]: sp for sp in list_storage(viewfs.uri)["savepoints"]}  # in <uri>/savepoints
    assert found[saved["savepoint"]]["job_name"] == "first"
    shown = show(saved["savepoint"])
    assert shown["kind"] == "savepoint" and shown["queries"][0]["source_positions"]
    checkpoint = show(saved["job_dir"] + "/counts")
    assert checkpoint["kind"] == "checkpoint" and checkpoint["time"].endswith("Z")
    checked = verify(saved["job_dir"])
    assert checked["kind"] == "job" and checked["ok"] is True and checked["files"] > 5


def copy_on_viewfs(viewfs: Mount, source: str, name: str) -> str:
    """A copy of a savepoint under another name, made through Hadoop (as a user would)."""
    fs, root = file_access_for(source)
    target = viewfs.uri + "/copies/" + name
    stack = [""]
    while stack:
        rel = stack.pop()
        for child in fs.listdir(root + rel):
            if fs.isdir(root + rel + "/" + child):
                stack.append(rel + "/" + child)
            else:
                fs.copy_file(root + rel + "/" + child, target + rel + "/" + child, link=True)
    return target


def test_verify_on_viewfs_names_a_corrupt_file_by_its_uri(viewfs: Mount, saved: Dict[str, Any]) -> None:
    damaged = copy_on_viewfs(viewfs, saved["savepoint"], "damaged")
    assert verify(damaged)["problems"] == []
    victim = damaged + "/counts/offsets/1"
    with open(viewfs.on_disk(victim), "r+b") as stream:
        first = stream.read(1)
        stream.seek(0)
        stream.write(b"w" if first != b"w" else b"x")  # same size, other bytes
    checked = verify(damaged)
    assert checked["ok"] is False
    assert checked["problems"] == [victim + ": checksum mismatch (the file was changed or is corrupt)"]
    with pytest.raises(CheckpointFileError, match="the savepoint is damaged: " + victim):
        restore_query(damaged, viewfs.uri + "/from-damaged")


def test_verify_on_viewfs_checks_a_checkpoint_file_against_its_crc_file(viewfs: Mount, saved: Dict[str, Any]) -> None:
    checkpoint = copy_on_viewfs(viewfs, saved["job_dir"] + "/counts", "checkpoint")
    newest = max(log_ids(viewfs.on_disk(checkpoint), "commits"))
    victim = checkpoint + "/offsets/{}".format(newest)
    with open(viewfs.on_disk(victim), "r+b") as stream:
        stream.seek(3)
        stream.write(b"#")
    checked = verify(checkpoint)
    assert checked["ok"] is False and len(checked["problems"]) == 1
    assert checked["problems"][0].startswith(victim + ": checksum mismatch with its .crc file")
    # showing it still works, and names the damage
    shown = show(checkpoint)
    assert shown["kind"] == "checkpoint" and shown["problem"].startswith(victim + ": ")


def test_dispose_on_viewfs_removes_a_valid_savepoint_and_nothing_else(viewfs: Mount, saved: Dict[str, Any]) -> None:
    copy = copy_on_viewfs(viewfs, saved["savepoint"], "to-dispose")
    with pytest.raises(CheckpointFileError, match="no _metadata manifest"):
        dispose_savepoint(saved["job_dir"])
    assert os.path.isdir(viewfs.on_disk(saved["job_dir"] + "/counts/offsets"))
    stray = copy_on_viewfs(viewfs, saved["savepoint"], "with-stray")
    with open(os.path.join(viewfs.on_disk(stray), "notes.txt"), "w") as stream:
        stream.write("mine")
    with pytest.raises(CheckpointFileError, match=r"does not list \(notes.txt\); nothing was deleted"):
        dispose_savepoint(stray)
    assert os.path.isfile(os.path.join(viewfs.on_disk(stray), "_metadata"))
    dispose_savepoint(copy)
    assert not os.path.exists(viewfs.on_disk(copy))
    assert os.path.isdir(viewfs.on_disk(viewfs.uri + "/copies"))


def test_restores_cross_between_viewfs_and_the_local_file_system(
        spark: Any, viewfs: Mount, saved: Dict[str, Any], saved_job: Dict[str, str], tmp_path: Any) -> None:
    to_local = restore_query(saved["savepoint"], str(tmp_path / "local-copy"))
    assert to_local.location == str(tmp_path / "local-copy") and to_local.files > 5
    assert verify(str(tmp_path / "local-copy"))["ok"] is True
    # a local savepoint into a viewfs location, then a query resumes there without recounting
    target = viewfs.uri + "/from-local/counts"
    done = restore_query(saved_job["savepoint"], target, sink="counts")
    assert done.location == target and done.batch_id == 1
    # the shared input may hold files other tests added after the saved batches: all count once
    write_input(saved_job["input"], "f-viewfs.json", [{"k": "c", "v": 20}])
    try:
        query = start_counts(spark, saved_job["input"], target, "viewfs_resumed_counts")
        try:
            run_until_idle(query)
        finally:
            query.stop()
        every_row: Dict[str, int] = collections.Counter()
        for name in os.listdir(saved_job["input"]):
            with open(os.path.join(saved_job["input"], name)) as stream:
                every_row.update(json.loads(line)["k"] for line in stream if line.strip())
    finally:
        os.remove(os.path.join(saved_job["input"], "f-viewfs.json"))
    table = {row["k"]: row["count"] for row in spark.sql("SELECT * FROM viewfs_resumed_counts").collect()}
    assert table == dict(every_row) and every_row["c"] >= 2


def command(argv: List[str], env: Dict[str, str]) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([sys.executable, "-m", "pyflink_compat.cli"] + argv, env=env, capture_output=True,
                          text=True, timeout=240)


def test_the_command_on_a_viewfs_path_starts_a_local_session_and_prints_only_json(
        viewfs: Mount, saved: Dict[str, Any], tmp_path: Any) -> None:
    conf_dir = tmp_path / "hadoop-conf"
    conf_dir.mkdir()
    (conf_dir / "core-site.xml").write_text(
        "<?xml version=\"1.0\"?>\n<configuration>\n  <property><name>{}</name><value>file://{}</value></property>\n"
        "</configuration>\n".format(viewfs.key, viewfs.local))
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    env["HADOOP_CONF_DIR"] = str(conf_dir)
    checked = command(["checkpoints", "verify", saved["savepoint"], "--json"], env)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["ok"] is True  # stdout holds the JSON document and nothing else
    assert "starting a local Spark session" in checked.stderr
    listed = command(["checkpoints", "list", viewfs.uri + "/savepoints", "--json"], env)
    assert listed.returncode == 0, listed.stdout
    assert [sp["path"] for sp in json.loads(listed.stdout)["savepoints"]] == [saved["savepoint"]]
    missing = command(["checkpoints", "show", viewfs.uri + "/nothing-here", "--json"], env)
    assert missing.returncode == 1
    assert json.loads(missing.stdout)["error"] == viewfs.uri + "/nothing-here: does not exist"


def test_a_non_local_path_without_a_spark_session_says_how_to_reach_it(tmp_path: Any) -> None:
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    code = ("from pyflink_compat.checkpoints import CheckpointFileError, verify\n"
            "try:\n    verify('hdfs://namenode:8020/ckpt')\n"
            "except CheckpointFileError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("hdfs://namenode:8020/ckpt: reaching this file system needs Hadoop's FileSystem "
                                  "in a Spark JVM, and no Spark session is running in this process")
