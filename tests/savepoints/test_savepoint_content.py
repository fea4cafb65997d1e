"""Savepoints and checkpoints are judged by what they hold: copies that belong to the user, an
incomplete savepoint left by a killed writer, checkpoints missing state."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from typing import Any, Dict, List, Tuple

import pytest

from pyflink_compat.checkpoints import (
    CheckpointFileError, dispose_savepoint, list_storage, restore_query, verify, write_savepoint)
from pyflink_compat.cli import main
from tests._helpers.files import digest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _command(capsys: Any, *argv: str) -> Tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def _state_file(savepoint: str) -> str:
    for root, _, names in os.walk(os.path.join(savepoint, "counts", "state")):
        for name in names:
            if name.endswith(".delta"):
                return os.path.join(root, name)
    raise AssertionError("no state file in " + savepoint)


def test_a_savepoint_owns_its_files_so_a_flipped_byte_changes_nothing_else(
        saved_job: Dict[str, str], tmp_path: Any) -> None:
    job_dir = saved_job["job_dir"]
    live_before = digest(job_dir)
    first = write_savepoint(job_dir, str(tmp_path / "sps"))
    second = write_savepoint(job_dir, str(tmp_path / "sps"))
    victim = _state_file(first)
    relative = os.path.relpath(victim, first)
    assert os.stat(victim).st_nlink == 1
    assert os.stat(victim).st_ino != os.stat(os.path.join(job_dir, relative)).st_ino
    second_before = digest(second)
    with open(victim, "r+b") as stream:
        byte = stream.read(1)
        stream.seek(0)
        stream.write(bytes([byte[0] ^ 0xFF]))
    assert digest(job_dir) == live_before and digest(second) == second_before
    assert verify(second)["ok"] and verify(job_dir)["ok"]
    checked = verify(first)
    assert not checked["ok"] and checked["problems"] == [victim + ": checksum mismatch (the file was changed or "
                                                          "is corrupt)"]
    with pytest.raises(CheckpointFileError, match="damaged"):
        restore_query(first, str(tmp_path / "restored"), sink="counts")
    assert not os.path.exists(tmp_path / "restored")


def test_hard_links_are_an_explicit_choice(saved_job: Dict[str, str], tmp_path: Any) -> None:
    linked = write_savepoint(saved_job["job_dir"], str(tmp_path / "sps"), link=True)
    assert os.stat(_state_file(linked)).st_nlink > 1
    with open(os.path.join(linked, "_metadata")) as stream:
        manifest = json.load(stream)
    assert manifest["job_name"] == "job-a"  # from the job directory's marker
    assert all(q["linked_files"] == len(q["files"]) for q in manifest["queries"])


_KILLED_WRITER = textwrap.dedent("""
    import os, signal, sys
    from pyflink_compat.checkpoints import write_savepoint
    from pyflink_compat.checkpoints.file_access import LocalFileAccess

    class DiesMidway(LocalFileAccess):
        copied = 0

        def copy_file(self, src, dst, link):
            DiesMidway.copied += 1
            if DiesMidway.copied == 12:
                os.kill(os.getpid(), signal.SIGKILL)
            return super().copy_file(src, dst, link)

    write_savepoint(sys.argv[1], sys.argv[2], fs=DiesMidway())
""")


def _killed_savepoint(job_dir: str, target: str) -> str:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", _KILLED_WRITER, job_dir, target], env=env, timeout=120)
    assert done.returncode == -signal.SIGKILL
    (name,) = os.listdir(target)
    return os.path.join(target, name)


def test_a_savepoint_whose_writer_was_killed_is_listed_once_fails_verify_is_never_restored_and_is_disposed_with_force(
        saved_job: Dict[str, str], tmp_path: Any, capsys: Any) -> None:
    storage = str(tmp_path / "storage")
    incomplete = _killed_savepoint(saved_job["job_dir"], os.path.join(storage, "savepoints"))
    assert not os.path.exists(os.path.join(incomplete, "_metadata"))
    listed = list_storage(storage)
    assert listed["jobs"] == [] and listed["savepoints"] == [] and listed["incomplete_savepoints"] == [incomplete]
    assert list_storage(incomplete)["incomplete_savepoints"] == [incomplete]
    code, out = _command(capsys, "checkpoints", "verify", incomplete)
    assert code == 1 and "DAMAGED" in out and "writer stopped" in out
    renamed = os.path.join(storage, "renamed-copy")
    shutil.copytree(incomplete, renamed)
    for source in (incomplete, renamed, os.path.join(renamed, "counts")):
        with pytest.raises(CheckpointFileError, match="incomplete savepoint|neither"):
            restore_query(source, str(tmp_path / "restored"), sink="counts")
    assert not os.path.exists(tmp_path / "restored")
    with pytest.raises(CheckpointFileError, match="with force"):
        dispose_savepoint(incomplete)
    code, _ = _command(capsys, "checkpoints", "savepoint", "dispose", incomplete, "--force")
    assert code == 0 and not os.path.exists(incomplete)
    with pytest.raises(CheckpointFileError, match="no _metadata manifest"):
        dispose_savepoint(saved_job["job_dir"], force=True)
    assert os.path.isdir(os.path.join(saved_job["job_dir"], "counts"))


def _copy_job(saved_job: Dict[str, str], tmp_path: Any) -> str:
    copy = str(tmp_path / "job-copy")
    shutil.copytree(saved_job["job_dir"], copy)
    return copy


def test_a_checkpoint_missing_a_state_partition_fails_verify_and_restore(
        saved_job: Dict[str, str], tmp_path: Any) -> None:
    copy = _copy_job(saved_job, tmp_path)
    shutil.rmtree(os.path.join(copy, "counts", "state", "0", "1"))
    checked = verify(copy)
    assert not checked["ok"]
    assert checked["problems"] == [os.path.join(copy, "counts", "state", "0") + ": state partitions 1 are missing "
                                   "(the checkpoint has 2 partitions)"]
    with pytest.raises(CheckpointFileError, match="partitions 1 are missing"):
        restore_query(copy, str(tmp_path / "restored"), sink="counts")
    assert not os.path.exists(tmp_path / "restored")


def test_a_stateful_query_whose_state_is_gone_fails_verify(saved_job: Dict[str, str], tmp_path: Any) -> None:
    copy = _copy_job(saved_job, tmp_path)
    marker_path = os.path.join(copy, "_pyflink_compat_job.json")
    with open(marker_path) as stream:
        marker = json.load(stream)
    # the fixture's marker has the first format, which records no pipeline: write the current one
    marker.update(format=2, runs=[{"run": "r1"}])
    marker["sinks"]["counts"] = {"created_by": "r1", "query_id": None, "pipeline": {"stateful": True}}
    with open(marker_path, "w") as stream:
        json.dump(marker, stream)
    shutil.rmtree(os.path.join(copy, "counts", "state"))
    checked = verify(copy)
    assert not checked["ok"] and "records state for this query" in checked["problems"][0]
    with pytest.raises(CheckpointFileError, match="records state"):
        restore_query(copy, str(tmp_path / "restored"), sink="counts")


def test_query_checkpoints_without_a_marker_or_a_manifest_are_not_verified_as_a_whole(
        saved_job: Dict[str, str], tmp_path: Any) -> None:
    copy = _copy_job(saved_job, tmp_path)
    os.unlink(os.path.join(copy, "_pyflink_compat_job.json"))
    checked = verify(copy)
    assert checked["kind"] == "unknown" and not checked["ok"]
    assert verify(os.path.join(copy, "counts"))["ok"]


def test_show_prints_a_table_and_survives_a_closed_pipe(saved_job: Dict[str, str]) -> None:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    argv: List[str] = [sys.executable, "-m", "pyflink_compat.cli", "checkpoints", "show", saved_job["job_dir"]]
    shown = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("job job-a (") and lines[1].split() == ["checkpoint", "batch"]
    assert ["chk-2", "1"] in [line.split() for line in lines]
    assert not shown.stdout.lstrip().startswith("{")
    head = subprocess.run(" ".join(argv) + " | head -1", shell=True, env=env, capture_output=True, text=True,
                          timeout=60)
    assert head.returncode == 0 and head.stdout.startswith("job job-a") and "Traceback" not in head.stderr


def test_a_savepoint_before_the_first_checkpoint_says_to_wait(tmp_path: Any) -> None:
    with pytest.raises(CheckpointFileError, match="not completed its first checkpoint yet"):
        write_savepoint([str(tmp_path / "job" / "counts")], str(tmp_path / "sps"), "job")
