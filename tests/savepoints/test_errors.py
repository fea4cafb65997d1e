"""Every refusal of the savepoint tools names the path and the cause, and changes nothing."""

from __future__ import annotations

import collections
import json
import os
import re
import shutil
from typing import Any, Dict

import pytest

from pyflink_compat.checkpoints import (
    CheckpointFileError, dispose_savepoint, list_storage, restore_job, restore_query, show, verify, write_savepoint)
from tests._helpers.files import digest, write_input
from tests.savepoints._queries import counts_table, rows_of, run_until_idle, start_counts


def copy_of(source: str, tmp_path: Any, name: str) -> str:
    target = str(tmp_path / name)
    shutil.copytree(source, target)
    return target


def flip_a_byte(path: str) -> None:
    with open(path, "r+b") as stream:
        data = bytearray(stream.read())
        data[len(data) // 2] ^= 0x01
        stream.seek(0)
        stream.write(bytes(data))


def a_state_file(query_dir: str) -> str:
    partition = os.path.join(query_dir, "state", "0", "0")
    return os.path.join(partition, sorted(n for n in os.listdir(partition) if n.endswith(".delta"))[-1])


def test_the_savepoint_is_named_after_the_job_id_and_its_manifest_holds_relative_paths_and_checksums(
        saved_job: Dict[str, str]) -> None:
    savepoint = saved_job["savepoint"]
    assert re.fullmatch(r"savepoint-012345-[0-9a-f]{12}", os.path.basename(savepoint))
    with open(os.path.join(savepoint, "_metadata")) as stream:
        manifest = json.load(stream)
    assert manifest["job_name"] == "job-a"
    queries = {q["sink"]: q for q in manifest["queries"]}
    assert sorted(queries) == ["counts", "rows"]
    counts = queries["counts"]
    assert counts["batch_id"] == 1
    assert counts["state_store_provider"].endswith("HDFSBackedStateStoreProvider")
    assert counts["pinned_conf"]["spark.sql.shuffle.partitions"] == "2"
    assert counts["operators"][0]["partitions"] == [0, 1]
    assert queries["rows"]["operators"] == [] and queries["rows"]["state_store_provider"] is None
    paths = [f["path"] for q in manifest["queries"] for f in q["files"]]
    assert all(not p.startswith("/") and ".." not in p.split("/") for p in paths)
    assert {"metadata", "offsets/0", "offsets/1", "commits/1", "state/0/0/2.delta"} <= {
        f["path"] for f in counts["files"]}
    assert "commits/0" not in {f["path"] for f in counts["files"]}
    assert saved_job["base"] not in json.dumps(manifest)


def test_savepoint_files_and_restored_files_are_copies(saved_job: Dict[str, str], tmp_path: Any) -> None:
    saved = os.path.join(saved_job["savepoint"], "counts", "offsets", "1")
    original = os.path.join(saved_job["job_dir"], "counts", "offsets", "1")
    assert os.stat(saved).st_ino != os.stat(original).st_ino and os.stat(saved).st_nlink == 1
    restored = restore_query(saved_job["savepoint"], str(tmp_path / "fresh"), sink="counts")
    assert os.stat(os.path.join(restored.location, "offsets", "1")).st_ino != os.stat(saved).st_ino


def test_a_retained_job_checkpoint_restores_and_continues_with_the_same_counts(
        spark: Any, saved_job: Dict[str, str], tmp_path: Any) -> None:
    restored = restore_query(saved_job["job_dir"], str(tmp_path / "fresh"), sink="counts")
    assert restored.batch_id == 1
    write_input(saved_job["input"], "retained.json", rows_of("ce", 50))
    query = start_counts(spark, saved_job["input"], restored.location, "from_retained")
    try:
        run_until_idle(query)
        result = counts_table(spark, "from_retained")
    finally:
        query.stop()
    expected: Dict[str, int] = collections.Counter()
    for name in os.listdir(saved_job["input"]):
        with open(os.path.join(saved_job["input"], name)) as stream:
            expected.update(json.loads(line)["k"] for line in stream)
    assert result == dict(expected)


def test_a_missing_path_is_refused_by_every_tool(tmp_path: Any) -> None:
    missing = str(tmp_path / "nowhere")
    for call in (lambda: restore_query(missing, str(tmp_path / "t")), lambda: verify(missing),
                 lambda: show(missing), lambda: dispose_savepoint(missing), lambda: list_storage(missing),
                 lambda: write_savepoint(missing, str(tmp_path / "sp"), "job")):
        with pytest.raises(CheckpointFileError, match="nowhere.*does not exist"):
            call()
    assert not os.path.exists(str(tmp_path / "t")) and not os.path.exists(str(tmp_path / "sp"))


def test_a_directory_that_is_neither_savepoint_nor_checkpoint_is_refused_and_kept(tmp_path: Any) -> None:
    other = tmp_path / "photos"
    other.mkdir()
    (other / "cat.jpg").write_bytes(b"meow")
    for call in (lambda: restore_query(str(other), str(tmp_path / "t")), lambda: verify(str(other)),
                 lambda: show(str(other))):
        with pytest.raises(CheckpointFileError, match="photos: neither a savepoint"):
            call()
    with pytest.raises(CheckpointFileError, match="photos: no _metadata manifest"):
        dispose_savepoint(str(other))
    assert (other / "cat.jpg").read_bytes() == b"meow"


def test_a_savepoint_without_its_manifest_is_judged_by_its_content_and_neither_restored_nor_disposed(
        saved_job: Dict[str, str], tmp_path: Any) -> None:
    partial = copy_of(saved_job["savepoint"], tmp_path, "savepoint-012345-000000000000")
    os.unlink(os.path.join(partial, "_metadata"))
    before = digest(partial)
    with pytest.raises(CheckpointFileError, match="savepoint-012345-000000000000: holds query checkpoints but neither "
                       "a _metadata savepoint manifest nor a job marker"):
        restore_query(partial, str(tmp_path / "t"))
    with pytest.raises(CheckpointFileError, match="no _metadata manifest"):
        dispose_savepoint(partial, force=True)  # not a savepoint: no in-progress file either
    assert digest(partial) == before
    listed = list_storage(str(tmp_path))
    assert [(job["path"], job["marker"]) for job in listed["jobs"]] == [(partial, False)]
    assert listed["incomplete_savepoints"] == [] and listed["savepoints"] == []
    assert not verify(partial)["ok"]


def test_a_corrupt_savepoint_file_is_named_as_a_checksum_mismatch(saved_job: Dict[str, str], tmp_path: Any) -> None:
    damaged = copy_of(saved_job["savepoint"], tmp_path, "damaged")
    state_file = a_state_file(os.path.join(damaged, "counts"))
    flip_a_byte(state_file)
    with pytest.raises(CheckpointFileError) as raised:
        restore_query(damaged, str(tmp_path / "t"), sink="counts")
    assert state_file + ": checksum mismatch" in str(raised.value)
    assert not os.path.exists(str(tmp_path / "t"))
    report = verify(damaged)
    assert not report["ok"] and any(state_file in p for p in report["problems"])
    os.unlink(os.path.join(damaged, "counts", "offsets", "0"))
    with pytest.raises(CheckpointFileError, match=(
            re.escape(os.path.join(damaged, "counts", "offsets", "0")) + ": missing")):
        restore_query(os.path.join(damaged, "counts"), str(tmp_path / "t"))


def test_a_corrupt_or_missing_checkpoint_file_is_named(saved_job: Dict[str, str], tmp_path: Any) -> None:
    damaged = copy_of(os.path.join(saved_job["job_dir"], "counts"), tmp_path, "counts")
    state_file = a_state_file(damaged)
    flip_a_byte(state_file)
    with pytest.raises(CheckpointFileError, match=re.escape(state_file) + ": checksum mismatch with its .crc file"):
        restore_query(damaged, str(tmp_path / "t"))
    assert not verify(damaged)["ok"]
    os.unlink(state_file)
    with pytest.raises(CheckpointFileError, match=(
            re.escape(state_file) + ": needed to restart after batch 1 but missing")):
        restore_query(damaged, str(tmp_path / "t"))
    assert not os.path.exists(str(tmp_path / "t"))


def test_a_state_partition_that_lost_all_its_files_fails_verification_and_restore(
        saved_job: Dict[str, str], tmp_path: Any) -> None:
    damaged = copy_of(os.path.join(saved_job["job_dir"], "counts"), tmp_path, "counts")
    partition = os.path.join(damaged, "state", "0", "1")
    for name in os.listdir(partition):
        if name.endswith(".delta") or name.endswith(".snapshot"):
            os.unlink(os.path.join(partition, name))  # the .crc files stay, as a lost file leaves them
    report = verify(damaged)
    assert not report["ok"]
    assert any(partition in problem and "holds no state files" in problem for problem in report["problems"]), report
    with pytest.raises(CheckpointFileError, match=(
            re.escape(partition) + ": needed to restart after batch 1 but holds no")):
        restore_query(damaged, str(tmp_path / "t"))
    assert not os.path.exists(str(tmp_path / "t"))


def test_a_job_directory_holding_its_own_savepoints_lists_both(saved_job: Dict[str, str], tmp_path: Any) -> None:
    job_dir = copy_of(saved_job["job_dir"], tmp_path, "job-a")
    savepoint = write_savepoint(job_dir, os.path.join(job_dir, "savepoints"), "job-a")
    listed = list_storage(job_dir)
    assert [job["path"] for job in listed["jobs"]] == [job_dir]
    assert sorted(q["sink"] for q in listed["jobs"][0]["queries"]) == ["counts", "rows"]
    assert [sp["path"] for sp in listed["savepoints"]] == [savepoint]


def test_a_non_empty_target_is_refused_and_left_alone(saved_job: Dict[str, str], tmp_path: Any) -> None:
    target = tmp_path / "busy"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    with pytest.raises(CheckpointFileError, match="busy: the new checkpoint location is not empty"):
        restore_query(saved_job["savepoint"], str(target), sink="counts")
    assert os.listdir(str(target)) == ["keep.txt"]


def test_a_savepoint_of_several_queries_needs_the_sink_named(saved_job: Dict[str, str], tmp_path: Any) -> None:
    with pytest.raises(CheckpointFileError, match=r"holds several queries \(counts, rows\): name the sink"):
        restore_query(saved_job["savepoint"], str(tmp_path / "t"))
    with pytest.raises(CheckpointFileError, match="has no query for sink 'nope'"):
        restore_query(saved_job["savepoint"], str(tmp_path / "t"), sink="nope")


def test_dispose_refuses_checkpoints_and_savepoints_with_foreign_entries_and_deletes_a_valid_one(
        saved_job: Dict[str, str], tmp_path: Any) -> None:
    job_before = digest(saved_job["job_dir"])
    for path in (saved_job["job_dir"], os.path.join(saved_job["job_dir"], "counts"),
                 os.path.join(saved_job["savepoint"], "counts")):
        with pytest.raises(CheckpointFileError, match="no _metadata manifest"):
            dispose_savepoint(path)
    assert digest(saved_job["job_dir"]) == job_before
    copy = copy_of(saved_job["savepoint"], tmp_path, "copy")
    (tmp_path / "copy" / "notes.txt").write_text("not part of it")
    with pytest.raises(CheckpointFileError, match=r"entries the savepoint manifest does not list \(notes.txt\)"):
        dispose_savepoint(copy)
    assert os.path.exists(os.path.join(copy, "_metadata"))
    os.unlink(os.path.join(copy, "notes.txt"))
    dispose_savepoint(copy)
    assert not os.path.exists(copy)
    assert os.path.exists(saved_job["savepoint"])


def test_a_job_restores_the_sinks_it_has_and_refuses_to_drop_saved_state_unless_allowed(
        saved_job: Dict[str, str], tmp_path: Any) -> None:
    job_dir = str(tmp_path / "storage" / "job-b")
    with pytest.raises(CheckpointFileError, match="holds the state of rows that this job has no sink for"):
        restore_job(saved_job["savepoint"], job_dir, ["counts", "new_sink"])
    assert not os.path.exists(job_dir)
    restored = restore_job(saved_job["savepoint"], job_dir, ["counts", "new_sink"], allow_non_restored_state=True)
    assert sorted(restored) == ["counts"] and restored["counts"].batch_id == 1
    assert sorted(os.listdir(job_dir)) == ["counts"]
    with pytest.raises(CheckpointFileError, match="counts: the sink already has a checkpoint"):
        restore_job(saved_job["savepoint"], job_dir, ["counts", "rows"])
    assert sorted(os.listdir(job_dir)) == ["counts"]


def test_the_former_name_savepoint_error_is_the_same_class_and_catches_it():
    from pyflink_compat.checkpoints import SavepointError
    from pyflink_compat.checkpoints.errors import SavepointError as from_module

    assert SavepointError is CheckpointFileError is from_module
    with pytest.raises(SavepointError, match="^/sp: does not exist$"):
        raise CheckpointFileError("/sp", "does not exist")
