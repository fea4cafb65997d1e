"""Settings live in the JVM conf of each environment's own Spark session."""

from __future__ import annotations

import pytest

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import (
    CheckpointingMode,
    CustomCheckpointStorage,
    EmbeddedRocksDBStateBackend,
    FileSystemCheckpointStorage,
    HashMapStateBackend,
    StreamExecutionEnvironment,
)
from pyflink_compat.java_gateway import get_gateway
from pyflink_compat.settings.store import store_of
from tests.api._conf import conf_of


def test_settings_are_stored_under_the_spark_flink_prefix_of_the_session_conf():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(2500, CheckpointingMode.AT_LEAST_ONCE)
    env.get_checkpoint_config().set_checkpoint_timeout(30000)
    conf = conf_of(env)
    assert conf["spark.flink.execution.checkpointing.interval"] == "2500 ms"
    assert conf["spark.flink.execution.checkpointing.mode"] == "AT_LEAST_ONCE"
    assert conf["spark.flink.execution.checkpointing.timeout"] == "30000 ms"


def test_a_value_written_to_the_session_conf_is_what_the_getter_reads_once_a_job_is_planned():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.spark_session.conf.set("spark.flink.execution.checkpointing.interval", "7 s")
    env.get_job_plan()
    assert env.get_checkpoint_interval() == 7000
    assert env.get_checkpoint_config().is_checkpointing_enabled()


def test_two_environments_have_independent_sessions_and_settings():
    first = StreamExecutionEnvironment.get_execution_environment()
    second = StreamExecutionEnvironment.get_execution_environment()
    first.enable_checkpointing(1000)
    assert second.get_checkpoint_interval() == -1
    assert first.spark_session is not second.spark_session
    assert first.spark_session.sparkContext is second.spark_session.sparkContext


def test_the_gateway_is_the_one_of_the_spark_context(spark):
    assert get_gateway() is spark.sparkContext._gateway


def test_num_retained_sets_min_batches_to_retain_one_more():
    env = StreamExecutionEnvironment.get_execution_environment()
    assert conf_of(env)["spark.sql.streaming.minBatchesToRetain"] == "2"
    env.configure(Configuration().set_string("state.checkpoints.num-retained", "4"))
    assert conf_of(env)["spark.sql.streaming.minBatchesToRetain"] == "5"


def test_state_backends_select_the_spark_state_store_provider():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_state_backend(EmbeddedRocksDBStateBackend())
    conf = conf_of(env)
    assert conf["spark.sql.streaming.stateStore.providerClass"].endswith("RocksDBStateStoreProvider")
    assert conf["spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"] == "false"
    env.set_state_backend(HashMapStateBackend())
    assert conf_of(env)["spark.sql.streaming.stateStore.providerClass"].endswith(
        "HDFSBackedStateStoreProvider")


def test_configured_backend_type_selects_the_provider_when_no_backend_object_is_set():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.configure(Configuration().set_string("state.backend.type", "rocksdb"))
    assert conf_of(env)["spark.sql.streaming.stateStore.providerClass"].endswith("RocksDBStateStoreProvider")


@pytest.mark.parametrize("enable", [
    lambda env: env.set_state_backend(EmbeddedRocksDBStateBackend(True)),
    lambda env: env.enable_changelog_state_backend(True),
    lambda env: env.configure(Configuration().set_string("execution.checkpointing.incremental", "true")),
])
def test_incremental_or_changelog_turns_on_rocksdb_changelog_checkpointing(enable):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.configure(Configuration().set_string("state.backend.type", "rocksdb"))
    assert conf_of(env)["spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"] == "false"
    enable(env)
    assert conf_of(env)["spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"] == "true"


def test_a_heap_backend_leaves_the_rocksdb_changelog_key_as_the_session_has_it():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_state_backend(EmbeddedRocksDBStateBackend(True))
    env.set_state_backend(HashMapStateBackend())
    env.enable_changelog_state_backend(False)
    assert conf_of(env)["spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"] == "true"
    assert "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled" not in (
        env.get_job_plan().spark_conf)


def test_going_back_to_a_configuration_seen_before_writes_its_spark_keys_again():
    env = StreamExecutionEnvironment.get_execution_environment()
    provider = "spark.sql.streaming.stateStore.providerClass"
    changelog = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"
    rocksdb, heap = EmbeddedRocksDBStateBackend(True), HashMapStateBackend()
    for parallelism in (3, 5):
        env.set_parallelism(parallelism)
        for backend, wanted, flag in ((rocksdb, "RocksDB", "true"), (heap, "HDFSBacked", "true"),
                                      (rocksdb, "RocksDB", "true")):
            env.set_state_backend(backend)
            conf = conf_of(env)
            assert conf[provider].endswith(wanted + "StateStoreProvider")
            assert conf[changelog] == flag
            assert conf["spark.sql.shuffle.partitions"] == str(parallelism)
        env.set_state_backend(EmbeddedRocksDBStateBackend(False))
        assert conf_of(env)[changelog] == "false"
        env.set_state_backend(rocksdb)
        assert conf_of(env)[changelog] == "true"


def test_custom_storage_names_the_checkpoint_file_manager_class():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.get_checkpoint_config().set_checkpoint_storage(CustomCheckpointStorage("com.example.MyManager"))
    assert conf_of(env)["spark.sql.streaming.checkpointFileManagerClass"] == "com.example.MyManager"
    env.get_checkpoint_config().set_checkpoint_storage(FileSystemCheckpointStorage("file:///tmp/x"))
    assert "spark.sql.streaming.checkpointFileManagerClass" not in conf_of(env)


def test_configure_with_a_checkpoint_dir_makes_a_file_system_storage():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.configure(Configuration().set_string("state.checkpoints.dir", "file:///tmp/ckpt/"))
    with pytest.warns(DeprecationWarning):
        storage = env.get_checkpoint_config().get_checkpoint_storage()
    assert isinstance(storage, FileSystemCheckpointStorage)
    assert storage.get_checkpoint_path() == "file:/tmp/ckpt"


_SUBMITTED = """
import sys
from pyspark.sql import SparkSession
(SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
    .config("spark.flink.execution.checkpointing.interval", "5 s")
    .config("spark.flink.state.checkpoints.num-retained", "3")
    .getOrCreate())
from pyflink_compat.datastream import StreamExecutionEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
conf = env.spark_session.conf
print(env.get_checkpoint_interval(), conf.get("spark.sql.streaming.minBatchesToRetain"),
      conf.get("spark.flink.execution.checkpointing.num-retained"))
"""


@pytest.mark.slow
def test_options_given_to_the_application_apply_to_every_environment():
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env_vars = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", _SUBMITTED], capture_output=True, text=True,
                         timeout=300, env=env_vars)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["5000", "4", "3"]


def test_a_bad_option_given_to_the_session_is_rejected_when_the_environment_is_made(spark):
    j_session = spark.newSession()._jsparkSession
    j_session.conf().set("spark.flink.execution.checkpointing.timeout", "soon")
    env = StreamExecutionEnvironment(j_session)
    with pytest.raises(ValueError) as raised:
        store_of(env).adopt_session_options("test")
    assert "Could not parse value 'soon'" in raised.value.java_exception.getMessage()
