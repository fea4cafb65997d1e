"""Retained checkpoints and state backends: what reaches Spark's session conf and what Spark
then writes."""

from __future__ import annotations

import logging
import warnings

import pytest

from pyflink_compat.datastream import (EmbeddedRocksDBStateBackend, ExternalizedCheckpointRetention,
                                       HashMapStateBackend)
from pyflink_compat.spark.start_checks import StateStoreMismatchWarning

from tests._helpers.files import file_uri, files_under, log_ids, write_json_files
from tests._helpers.jobs import INTERVAL_MS, BatchFiles, json_stream, run_to_end

HDFS = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"
ROCKSDB = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
CHANGELOG = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"
RETAIN = ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION


def _stateful_job(env, source, root, out, job="state-job", bounded=True):
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(root))
    env.get_checkpoint_config().set_externalized_checkpoint_retention(RETAIN)
    counts = json_stream(env, source).groupBy("key").count()
    env.add_sink(counts.writeStream.outputMode("update").foreachBatch(BatchFiles(out)), "counts",
                 bounded=bounded)
    client = env.execute_async(job)
    result = run_to_end(client)
    assert not isinstance(result, Exception), result
    return client


def test_num_retained_sets_min_batches_to_retain_and_old_offsets_are_purged(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=5, rows_per_file=2)
    env = make_env({"execution.checkpointing.num-retained": "2"})
    assert env.spark_session.conf.get("spark.sql.streaming.minBatchesToRetain") == "3"
    env.enable_checkpointing(INTERVAL_MS)
    env.get_checkpoint_config().set_checkpoint_storage_dir(file_uri(tmp_path / "cp"))
    env.get_checkpoint_config().set_externalized_checkpoint_retention(RETAIN)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "rows", bounded=True)
    result = run_to_end(env.execute_async("retain-job"))
    assert not isinstance(result, Exception), result
    checkpoint = tmp_path / "cp" / "retain-job" / "rows"
    commits = log_ids(checkpoint, "commits")
    offsets = log_ids(checkpoint, "offsets")
    assert max(commits) == 4
    assert 4 in offsets
    # Spark's default (100) would keep all five; with 2 retained (3 batches for Spark, one more
    # for the batch that runs) the oldest are purged.
    assert 0 not in offsets and 0 not in commits
    assert len(offsets) <= 4 and len(commits) <= 4


@pytest.mark.parametrize("how", ["set_state_backend", "state.backend.type"])
def test_hashmap_backend_uses_the_hdfs_backed_state_store(make_env, tmp_path, how):
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=4)
    env = make_env({"state.backend.type": "hashmap"} if how != "set_state_backend" else None)
    if how == "set_state_backend":
        env.set_state_backend(HashMapStateBackend())
    assert env.spark_session.conf.get("spark.sql.streaming.stateStore.providerClass") == HDFS
    _stateful_job(env, tmp_path / "in", tmp_path / "cp", tmp_path / "out")
    state = files_under(tmp_path / "cp" / "state-job" / "counts" / "state")
    assert any(name.endswith(".delta") for name in state), state
    assert not any(name.endswith(".zip") or name.endswith(".changelog") for name in state), state


@pytest.mark.parametrize("backend", ["rocksdb", "rocksdb-incremental", "rocksdb-changelog",
                                     "state.backend.type=rocksdb"])
def test_rocksdb_backends_use_the_rocksdb_state_store_and_incremental_means_changelog(
        make_env, tmp_path, backend):
    write_json_files(tmp_path / "in", n_files=2, rows_per_file=4)
    if backend == "state.backend.type=rocksdb":
        env = make_env({"state.backend.type": "rocksdb", "execution.checkpointing.incremental": "true"})
    else:
        env = make_env()
        env.set_state_backend(EmbeddedRocksDBStateBackend(backend == "rocksdb-incremental"))
    if backend == "rocksdb-changelog":
        env.enable_changelog_state_backend(True)
    changelog = backend != "rocksdb"
    conf = env.spark_session.conf
    assert conf.get("spark.sql.streaming.stateStore.providerClass") == ROCKSDB
    assert conf.get(CHANGELOG) == ("true" if changelog else "false")
    _stateful_job(env, tmp_path / "in", tmp_path / "cp", tmp_path / "out")
    state = files_under(tmp_path / "cp" / "state-job" / "counts" / "state")
    assert not any(name.endswith(".delta") for name in state), state
    if changelog:
        assert any(name.endswith(".changelog") for name in state), state
    else:
        assert any(name.endswith(".zip") for name in state), state
        assert not any(name.endswith(".changelog") for name in state), state


def test_changing_the_backend_of_an_existing_checkpoint_warns_naming_both_state_stores(
        make_env, tmp_path, caplog):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=4)
    first = make_env()
    first.set_state_backend(HashMapStateBackend())
    _stateful_job(first, tmp_path / "in", tmp_path / "cp", tmp_path / "out1")

    write_json_files(tmp_path / "in", n_files=1, rows_per_file=4, start_file=1)
    second = make_env()
    second.set_state_backend(EmbeddedRocksDBStateBackend())
    caplog.set_level(logging.WARNING, logger="pyflink_compat.job")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _stateful_job(second, tmp_path / "in", tmp_path / "cp", tmp_path / "out2")
    mismatch = [w for w in caught if issubclass(w.category, StateStoreMismatchWarning)]
    assert len(mismatch) == 1
    text = str(mismatch[0].message)
    assert "HDFSBackedStateStoreProvider" in text and "RocksDBStateStoreProvider" in text
    assert "HDFSBackedStateStoreProvider" in caplog.text
    # Spark indeed kept the pinned HDFS-backed store for the resumed query.
    state = files_under(tmp_path / "cp" / "state-job" / "counts" / "state")
    assert any(name.startswith("0/") and name.endswith("2.delta") for name in state), state
    assert not any(name.endswith(".zip") for name in state), state
