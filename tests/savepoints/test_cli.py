"""The pyflink-compat command on a real checkpoint directory, a savepoint and a damaged copy."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from typing import Any, Dict, List, Tuple

from pyflink_compat.cli import main


def run(capsys: Any, *argv: str) -> Tuple[int, Any]:
    code = main(list(argv) + ["--json"])
    return code, json.loads(capsys.readouterr().out)


def test_list_shows_the_job_its_queries_checkpoints_and_the_savepoint(capsys: Any, saved_job: Dict[str, str]) -> None:
    code, result = run(capsys, "checkpoints", "list", saved_job["storage"])
    assert code == 0
    (job,) = result["jobs"]
    assert job["name"] == "job-a" and job["marker"] is True
    assert {q["sink"]: q["newest_batch"] for q in job["queries"]} == {"counts": 1, "rows": 1}
    assert job["checkpoints"][-1] == {"id": "chk-2", "batch": 1}  # Flink numbers the checkpoint of batch 1 as 2
    counts = next(q for q in job["queries"] if q["sink"] == "counts")
    assert counts["operators"][0]["partitions"] == [0, 1] and counts["size"] > 0 and counts["time"].endswith("Z")
    (savepoint,) = result["savepoints"]
    assert savepoint["path"] == saved_job["savepoint"]
    assert sorted((q["sink"], q["batch_id"]) for q in savepoint["queries"]) == [("counts", 1), ("rows", 1)]


def test_show_and_verify_a_savepoint_and_a_checkpoint(capsys: Any, saved_job: Dict[str, str]) -> None:
    code, shown = run(capsys, "checkpoints", "show", saved_job["savepoint"])
    assert code == 0 and shown["kind"] == "savepoint" and shown["job_name"] == "job-a"
    code, checked = run(capsys, "checkpoints", "verify", saved_job["savepoint"])
    assert code == 0 and checked["ok"] is True and checked["files"] > 10
    checkpoint = os.path.join(saved_job["job_dir"], "counts")
    code, shown = run(capsys, "checkpoints", "show", checkpoint)
    assert code == 0 and shown["kind"] == "checkpoint" and shown["newest_batch"] == 1
    assert shown["pinned_conf"]["spark.sql.shuffle.partitions"] == "2"
    code, checked = run(capsys, "checkpoints", "verify", saved_job["job_dir"])
    assert code == 0 and checked["kind"] == "job" and checked["ok"] is True


def test_operators_are_found_from_the_state_directories_when_spark_wrote_no_operator_metadata(
        capsys: Any, spark: Any, saved_job: Dict[str, str]) -> None:
    checkpoint = os.path.join(saved_job["job_dir"], "counts")
    metadata = os.path.join(checkpoint, "state", "0", "_metadata", "metadata")
    spark_4 = int(spark.version.split(".")[0]) >= 4
    assert os.path.isfile(metadata) == spark_4  # Spark 3.5 writes no operator metadata
    code, shown = run(capsys, "checkpoints", "show", checkpoint)
    assert code == 0
    assert shown["operators"] == [{"operator_id": 0, "name": "stateStoreSave" if spark_4 else None,
                                   "partitions": [0, 1], "stores": ["default"]}]


def test_verify_names_the_corrupt_file_and_exits_with_1(capsys: Any, saved_job: Dict[str, str], tmp_path: Any) -> None:
    damaged = str(tmp_path / "damaged")
    shutil.copytree(saved_job["savepoint"], damaged)
    victim = os.path.join(damaged, "rows", "offsets", "1")
    with open(victim, "ab") as stream:
        stream.write(b"x")
    code, checked = run(capsys, "checkpoints", "verify", damaged)
    assert code == 1 and checked["ok"] is False
    assert checked["problems"] == ["{}: size {} instead of {}".format(victim, os.path.getsize(victim),
                                                                     os.path.getsize(victim) - 1)]


def test_dispose_of_a_checkpoint_is_refused_with_exit_code_1(capsys: Any, saved_job: Dict[str, str]) -> None:
    code, result = run(capsys, "checkpoints", "savepoint", "dispose", saved_job["job_dir"])
    assert code == 1 and "no _metadata manifest" in result["error"] and result["path"] == saved_job["job_dir"]
    assert result["exit_code"] == 1 and result["reason"] == "storage"
    assert os.path.isdir(os.path.join(saved_job["job_dir"], "counts"))


def test_create_restore_and_dispose_through_the_command(capsys: Any, saved_job: Dict[str, str], tmp_path: Any) -> None:
    code, created = run(capsys, "checkpoints", "savepoint", "create", os.path.join(saved_job["job_dir"], "counts"),
                        str(tmp_path / "sps"), "--job-name", "job-a")
    assert code == 0 and os.path.isfile(os.path.join(created["savepoint"], "_metadata"))
    code, restored = run(capsys, "checkpoints", "savepoint", "restore", created["savepoint"], str(tmp_path / "fresh"))
    assert code == 0 and restored["batch_id"] == 1 and restored["files"] > 0
    code, _ = run(capsys, "checkpoints", "savepoint", "dispose", created["savepoint"])
    assert code == 0 and not os.path.exists(created["savepoint"])


def test_the_module_runs_as_a_command_without_a_jvm(saved_job: Dict[str, str]) -> None:
    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    argv: List[str] = [sys.executable, "-m", "pyflink_compat.cli", "checkpoints", "verify", saved_job["savepoint"]]
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "intact" in done.stdout
    missing = subprocess.run(argv[:-1] + [saved_job["savepoint"] + "-nope"], env=env, capture_output=True,
                             text=True, timeout=60)
    assert missing.returncode == 1 and "does not exist" in missing.stderr
    assert "java" not in (done.stderr + missing.stderr).lower()
