"""Savepoints of running jobs and jobs restored from them, through the job API on real Spark.

Each job counts rows per key over JSON files (one file per micro-batch) and writes the complete
counts of every batch; a restored job that continues exactly once ends with the counts of all
the input, neither fewer (lost state) nor more (rows counted twice).
"""

from __future__ import annotations

import os
import shutil
from typing import Any, Dict, Optional

import pytest

from pyflink_compat.checkpoints import CheckpointFileError
from pyflink_compat.common import JobStatus
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.spark.restore_at_start import RestoreWarning

from tests._helpers.files import digest, log_ids
from tests._helpers.waiting import wait_until
from tests._helpers.jobs import SCHEMA
from tests.savepoints._counting_jobs import (
    Counts, add_counts, expected, restore_options, save_counting_job, write_files)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

def ask_parallelism(env: StreamExecutionEnvironment, parallelism: Optional[int]) -> None:
    """Ask for state partitions as ``spark-submit --conf spark.flink.parallelism.default=n`` does."""
    if parallelism is not None:
        env.spark_session.conf.set("spark.flink.parallelism.default", str(parallelism))


def run_restored(jobs: Any, source: Any, storage: Any, options: Dict[str, str], job: str,
                 sink: str = "counts", parallelism: Optional[int] = None) -> Counts:
    """Run a restored job until its bounded input is consumed; return its counts."""
    env = jobs(options)
    ask_parallelism(env, parallelism)
    counts = add_counts(env, source, storage, sink=sink, bounded=True)
    client = env.execute_async(job)
    client.get_job_execution_result().result(120)
    assert client.get_job_status().result() is JobStatus.FINISHED
    return counts


@pytest.fixture(scope="module")
def saved(tmp_path_factory: Any) -> Dict[str, Any]:
    """One job that consumed two files, a savepoint taken while it ran, and two more files."""
    return save_counting_job(tmp_path_factory.mktemp("saved"))


def test_a_savepoint_restored_twice_into_two_jobs_continues_exactly_once_in_each(jobs, saved, tmp_path):
    options = restore_options(saved["savepoint"])
    first = run_restored(jobs, saved["source"], tmp_path / "s1", options, "restored-1")
    second = run_restored(jobs, saved["source"], tmp_path / "s2", options, "restored-2")
    assert first.latest() == expected(saved["rows"])
    assert second.latest() == expected(saved["rows"])
    assert min(first.batches) > 0  # resumed after the saved batches, not from the start
    assert digest(saved["savepoint"]) == saved["digest"]


def test_the_deprecated_savepoint_path_key_restores_too(jobs, saved, tmp_path):
    counts = run_restored(jobs, saved["source"], tmp_path / "s", {"execution.savepoint.path": saved["savepoint"]},
                          "restored-old-key")
    assert counts.latest() == expected(saved["rows"])


def test_stop_with_savepoint_finishes_the_job_after_writing_and_the_savepoint_restores(jobs, tmp_path):
    source = tmp_path / "in"
    rows = write_files(source, 0, 2)
    env = jobs({"execution.checkpointing.savepoint-dir": str(tmp_path / "sp")})
    add_counts(env, source, tmp_path / "storage")
    client = env.execute_async("stopped")
    wait_until(lambda: len(log_ids(tmp_path / "storage" / "stopped" / "counts", "commits")) >= 2, what="two commits")
    path = client.stop_with_savepoint(False).result(60)
    client.get_job_execution_result().result(60)
    assert client.get_job_status().result() is JobStatus.FINISHED
    assert os.path.dirname(path) == str(tmp_path / "sp")
    # retention (NO_EXTERNALIZED_CHECKPOINTS) removed the checkpoints, after the savepoint
    assert not os.path.exists(tmp_path / "storage" / "stopped" / "counts")
    rows += write_files(source, 2, 1)
    counts = run_restored(jobs, source, tmp_path / "s2", restore_options(path), "after-stop")
    assert counts.latest() == expected(rows)


def test_a_retained_checkpoint_restores_into_a_new_job_and_is_left_unchanged(jobs, tmp_path):
    source = tmp_path / "in"
    rows = write_files(source, 0, 2)
    env = jobs({"execution.checkpointing.externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION"})
    add_counts(env, source, tmp_path / "storage")
    client = env.execute_async("retained")
    job_dir = tmp_path / "storage" / "retained"
    wait_until(lambda: len(log_ids(job_dir / "counts", "commits")) >= 2, what="two commits")
    client.cancel().result(60)
    before = digest(job_dir)
    rows += write_files(source, 2, 1)
    counts = run_restored(jobs, source, tmp_path / "other", restore_options(str(job_dir)), "from-checkpoint")
    assert counts.latest() == expected(rows)
    assert digest(job_dir) == before
    # NO_CLAIM of the job's own checkpoints (here a copy of them): they are set aside unchanged, then copied back
    shutil.copytree(job_dir, tmp_path / "copy" / "retained")
    counts = run_restored(jobs, source, tmp_path / "copy", restore_options(str(tmp_path / "copy" / "retained")),
                          "retained")
    assert counts.latest() == expected(rows) and min(counts.batches) > 0
    [aside] = (tmp_path / "copy" / "retained" / "_replaced").iterdir()
    assert digest(aside / "counts") == digest(job_dir / "counts")
    # CLAIM of the job's own checkpoints resumes them in place
    counts = run_restored(jobs, source, tmp_path / "storage",
                          restore_options(str(job_dir), **{"execution.state-recovery.claim-mode": "CLAIM"}),
                          "retained")
    assert counts.latest() == expected(rows)
    # claimed, they were the job's own: its retention (NO_EXTERNALIZED_CHECKPOINTS) removed them
    assert not os.path.exists(job_dir / "counts")


def test_a_saved_query_without_a_sink_is_refused_like_flink_unless_unclaimed_state_is_ignored(jobs, saved, tmp_path):
    from pyflink_compat.util.exceptions import JavaIllegalStateError

    env = jobs(restore_options(saved["savepoint"]))
    add_counts(env, saved["source"], tmp_path / "s", sink="renamed", bounded=True)
    with pytest.raises(JavaIllegalStateError, match="Cannot map checkpoint/savepoint state for operator counts "
                       "to the new program, because the operator is not available in the new program.*"
                       "set execution.state-recovery.ignore-unclaimed-state to true"):
        env.execute_async("renamed")
    assert not os.path.exists(tmp_path / "s" / "renamed" / "renamed")
    with pytest.warns(RestoreWarning, match="Sink 'renamed' has no saved state in .*: it starts empty and reads "
                      "its source from the start") as caught:
        counts = run_restored(jobs, saved["source"], tmp_path / "s2",
                              restore_options(saved["savepoint"], **{
                                  "execution.state-recovery.ignore-unclaimed-state": "true"}),
                              "renamed", sink="renamed")
    text = str([w for w in caught if w.category is RestoreWarning][0].message)
    assert "startingOffsets" in text and "maxFileAge" in text and "latestFirst" in text
    assert counts.latest() == expected(saved["rows"])  # a new sink starts empty: it reads everything
    assert min(counts.batches) == 0


def _refused(jobs: Any, saved: Dict[str, Any], storage: Any, path: str, parallelism: Optional[int] = None,
             **extra: str) -> str:
    env = jobs(restore_options(path, **extra))
    ask_parallelism(env, parallelism)
    add_counts(env, saved["source"], storage, bounded=True)
    with pytest.raises(CheckpointFileError) as info:
        env.execute_async("refused")
    assert not os.path.exists(os.path.join(str(storage), "refused", "counts"))
    return str(info.value)


def test_restores_from_bad_sources_are_refused_and_nothing_is_deleted(jobs, saved, tmp_path):
    assert "does not exist" in _refused(jobs, saved, tmp_path / "a", str(tmp_path / "missing"))
    (tmp_path / "empty").mkdir()
    assert "neither a savepoint" in _refused(jobs, saved, tmp_path / "b", str(tmp_path / "empty"))
    damaged = tmp_path / "damaged"
    shutil.copytree(saved["savepoint"], damaged)
    offsets = sorted((damaged / "counts" / "offsets").iterdir())
    victim = [p for p in offsets if p.name.isdigit()][-1]
    victim.write_text("changed")
    text = _refused(jobs, saved, tmp_path / "c", str(damaged))
    assert "damaged" in text and "offsets/" + victim.name in text
    partial = tmp_path / ("savepoint-" + "0" * 6 + "-partial")
    shutil.copytree(saved["savepoint"], partial)
    os.remove(partial / "_metadata")
    assert "neither a _metadata savepoint manifest nor a job marker" in _refused(jobs, saved, tmp_path / "d",
                                                                                 str(partial))
    assert os.path.isdir(partial / "counts") and digest(saved["savepoint"]) == saved["digest"]


def test_a_savepoint_with_another_state_store_is_refused_naming_it(jobs, saved, tmp_path):
    text = _refused(jobs, saved, tmp_path / "s", saved["savepoint"], **{"state.backend.type": "rocksdb"})
    assert "HDFSBackedStateStoreProvider" in text and "RocksDBStateStoreProvider" in text


def test_a_checkpoint_no_run_of_the_job_created_is_set_aside_unchanged_by_a_restore(jobs, saved, tmp_path):
    target = tmp_path / "s" / "foreign" / "counts"
    shutil.copytree(os.path.join(saved["savepoint"], "counts"), target)
    before = digest(target)
    counts = run_restored(jobs, saved["source"], tmp_path / "s", restore_options(saved["savepoint"]), "foreign")
    assert counts.latest() == expected(saved["rows"])
    [aside] = (tmp_path / "s" / "foreign" / "_replaced").iterdir()
    assert digest(aside / "counts") == before
    # restorable from where it went, as a job directory
    again = run_restored(jobs, saved["source"], tmp_path / "t", restore_options(str(aside)), "foreign")
    assert again.latest() == expected(saved["rows"])
    assert digest(aside / "counts") == before


def test_legacy_claim_mode_warns_and_restores_as_no_claim(jobs, saved, tmp_path):
    with pytest.warns(RestoreWarning, match="LEGACY is treated as NO_CLAIM"):
        counts = run_restored(jobs, saved["source"], tmp_path / "s", restore_options(
            saved["savepoint"], **{"execution.savepoint-restore-mode": "LEGACY"}), "legacy")
    assert counts.latest() == expected(saved["rows"])
    assert digest(saved["savepoint"]) == saved["digest"]


def test_claim_of_a_savepoint_warns_that_it_is_copied_and_never_claimed(jobs, saved, tmp_path):
    with pytest.warns(RestoreWarning, match="a savepoint is never claimed: it belongs to the user.*CLAIM applies "
                      "only to the job's own retained checkpoints") as caught:
        counts = run_restored(jobs, saved["source"], tmp_path / "s", restore_options(
            saved["savepoint"], **{"execution.state-recovery.claim-mode": "CLAIM"}), "claimed")
    # given where the job was started, as the other start warnings
    assert {os.path.basename(w.filename) for w in caught if w.category is RestoreWarning} == {
        "stream_execution_environment.py"}
    assert counts.latest() == expected(saved["rows"])
    assert digest(saved["savepoint"]) == saved["digest"]


def test_savepoint_calls_fail_their_future_with_flinks_errors(jobs, tmp_path):
    from pyflink_compat.util.exceptions import JavaIllegalStateError

    source = tmp_path / "in"
    write_files(source, 0, 1)
    env = jobs()
    add_counts(env, source, tmp_path / "storage")
    client = env.execute_async("errors")
    with pytest.raises(JavaIllegalStateError, match="No savepoint directory configured. You can either specify "
                       "a directory while cancelling via -s :targetDirectory or configure a cluster-wide "
                       "default via key 'execution.checkpointing.savepoint-dir'. With pyflink_compat, pass the "
                       "savepoint_directory argument of JobClient.trigger_savepoint or stop_with_savepoint"):
        client.trigger_savepoint().result(10)
    with pytest.raises(JavaIllegalStateError, match="No savepoint directory configured"):
        client.stop_with_savepoint(False).result(10)
    with pytest.raises(Exception, match=r"advance_to_end_of_event_time=True\) is not supported"):
        client.stop_with_savepoint(True, str(tmp_path / "sp")).result(10)
    wait_until(lambda: client.get_job_status().result() is JobStatus.RUNNING, what="the job to run")
    client.cancel().result(60)
    assert client.get_job_status().result() is JobStatus.CANCELED  # the failed calls did not stop it
    with pytest.raises(JavaIllegalStateError, match="has ended"):
        client.trigger_savepoint(str(tmp_path / "sp")).result(10)


def test_a_file_sink_whose_output_is_past_the_savepoint_is_refused(jobs, saved, tmp_path):
    out = tmp_path / "out"
    (out / "_spark_metadata").mkdir(parents=True)
    for batch in range(5):
        (out / "_spark_metadata" / str(batch)).write_text("v1\n")
    env = jobs(restore_options(saved["savepoint"]))
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(tmp_path / "s"))
    frame = env.spark_session.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(saved["source"]))
    env.add_sink(frame.writeStream.format("json").option("path", str(out)), "counts")
    with pytest.raises(CheckpointFileError, match="silently skip the new output"):
        env.execute_async("file-sink")


def _rocksdb_savepoint(jobs: Any, tmp_path: Any) -> Dict[str, Any]:
    source = tmp_path / "in"
    rows = write_files(source, 0, 2)
    env = jobs({"state.backend.type": "rocksdb"})
    add_counts(env, source, tmp_path / "storage")
    client = env.execute_async("rocks")
    wait_until(lambda: len(log_ids(tmp_path / "storage" / "rocks" / "counts", "commits")) >= 2, what="two commits")
    path = client.stop_with_savepoint(False, str(tmp_path / "sp")).result(60)
    rows += write_files(source, 2, 2)
    return {"source": source, "rows": rows, "savepoint": path, "digest": digest(path)}


def test_a_rocksdb_savepoint_rescaled_from_2_to_4_partitions_gives_the_same_results(jobs, tmp_path):
    import pyspark

    if tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 2):
        pytest.skip("offline state repartition needs Spark 4.2+")
    saved = _rocksdb_savepoint(jobs, tmp_path)
    options = restore_options(saved["savepoint"], **{
        "state.backend.type": "rocksdb",
        "execution.checkpointing.externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION"})
    counts = run_restored(jobs, saved["source"], tmp_path / "s", options, "rescaled", parallelism=4)
    assert counts.latest() == expected(saved["rows"])
    assert digest(saved["savepoint"]) == saved["digest"]
    state = tmp_path / "s" / "rescaled" / "counts" / "state" / "0"
    assert sorted(p.name for p in state.iterdir() if p.name.isdigit()) == ["0", "1", "2", "3"]


def test_rescaling_hashmap_state_is_refused_naming_what_allows_it(jobs, saved, tmp_path):
    import pyspark

    text = _refused(jobs, saved, tmp_path / "s", saved["savepoint"], parallelism=4)
    assert "rescaling state needs " in text and "the RocksDB state backend (state.backend.type: rocksdb)" in text
    old_spark = tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 2)
    assert ("Spark 4.2 or later (this is Spark {})".format(pyspark.__version__) in text) == old_spark


def test_rescaling_rocksdb_state_before_spark_4_2_is_refused_naming_the_version(jobs, tmp_path):
    import pyspark

    if tuple(int(p) for p in pyspark.__version__.split(".")[:2]) >= (4, 2):
        pytest.skip("Spark 4.2+ rescales RocksDB state (the test above)")
    saved = _rocksdb_savepoint(jobs, tmp_path)
    env = jobs(restore_options(saved["savepoint"], **{"state.backend.type": "rocksdb"}))
    ask_parallelism(env, 4)
    add_counts(env, saved["source"], tmp_path / "s", bounded=True)
    with pytest.raises(CheckpointFileError) as info:
        env.execute_async("refused")
    text = str(info.value)
    assert "rescaling state needs Spark 4.2 or later (this is Spark {})".format(pyspark.__version__) in text
    assert "RocksDB" not in text.partition("rescaling")[2]
    assert not os.path.exists(str(tmp_path / "s" / "refused" / "counts"))
    assert digest(saved["savepoint"]) == saved["digest"]


def test_jobs_with_temporary_checkpoint_locations_take_and_restore_savepoints(jobs, saved, tmp_path):
    source = tmp_path / "in"
    rows = write_files(source, 0, 2)
    env = jobs()  # no checkpoint directory: each query checkpoints in the job's temporary directory
    counts = Counts()
    frame = env.spark_session.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(source))
    env.add_sink(frame.groupBy("key").count().writeStream.outputMode("complete").foreachBatch(counts), "counts")
    env.set_default_savepoint_directory("file://" + str(tmp_path / "sp"))
    client = env.execute_async("temporary")
    wait_until(lambda: counts.latest() == expected(rows), what="both files counted")
    path = client.stop_with_savepoint(False).result(60)
    assert os.path.dirname(path) == str(tmp_path / "sp")
    assert client.get_job_status().result() is JobStatus.FINISHED
    rows += write_files(source, 2, 1)
    # configure() and a spark.flink.* session entry (spark-submit --conf) name the restore path too
    from pyflink_compat.common import Configuration as Conf

    env = jobs()
    env.configure(Conf().set_string("execution.state-recovery.path", path))
    restored = Counts()
    frame = env.spark_session.readStream.schema(SCHEMA).option("maxFilesPerTrigger", 1).json(str(source))
    env.add_sink(frame.groupBy("key").count().writeStream.outputMode("complete").foreachBatch(restored),
                 "counts", bounded=True)
    env.execute_async("temporary-restored").get_job_execution_result().result(120)
    assert restored.latest() == expected(rows) and min(restored.batches) > 0
    env = jobs()
    env.spark_session.conf.set("spark.flink.execution.state-recovery.path", saved["savepoint"])
    counts = add_counts(env, saved["source"], tmp_path / "s", bounded=True)
    env.execute_async("from-session-conf").get_job_execution_result().result(120)
    assert counts.latest() == expected(saved["rows"]) and min(counts.batches) > 0


def test_a_savepoint_that_cannot_be_written_fails_its_future_and_the_job_runs_on(jobs, tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    env = jobs()
    counts = add_counts(env, source, tmp_path / "storage")
    client = env.execute_async("runs-on")
    wait_until(lambda: client.get_job_status().result() is JobStatus.RUNNING, what="the job to run")
    with pytest.raises(CheckpointFileError, match="counts"):  # no batch committed yet: nothing to save
        client.trigger_savepoint(str(tmp_path / "sp")).result(60)
    rows = write_files(source, 0, 1)
    wait_until(lambda: counts.latest() == expected(rows), what="the first file counted")
    (tmp_path / "blocker").write_text("a file where the savepoint directory should go")
    with pytest.raises(OSError):
        client.stop_with_savepoint(False, str(tmp_path / "blocker" / "sp")).result(60)
    wait_until(lambda: client.get_job_status().result() is JobStatus.RUNNING, what="the job to run again")
    rows += write_files(source, 1, 1)
    wait_until(lambda: counts.latest() == expected(rows), what="the second file counted after the failed stop")
    path = client.stop_with_savepoint(False, str(tmp_path / "sp")).result(60)
    assert client.get_job_status().result() is JobStatus.FINISHED and os.path.isdir(path)


def test_a_savepoint_of_a_job_directory_names_the_job_and_its_newest_run_from_the_marker(jobs, tmp_path):
    from pyflink_compat.checkpoints import show, write_savepoint

    source = tmp_path / "in"
    write_files(source, 0, 2)
    env = jobs({"execution.checkpointing.externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION"})
    add_counts(env, source, tmp_path / "storage")
    client = env.execute_async("named")
    wait_until(lambda: log_ids(tmp_path / "storage" / "named" / "counts", "commits"), what="a commit")
    client.cancel().result(60)
    shown = show(write_savepoint(str(tmp_path / "storage" / "named"), str(tmp_path / "sp")))
    assert (shown["job_name"], shown["job_id"]) == ("named", client.get_job_id().to_hex_string())
