"""Checkpoint configuration snippets as Flink's documentation shows them, run unchanged.

Each scenario imports the names the way a user's module does (``from <root>.datastream
import ...``), runs the documented configuration code as written, then reads back every
value it touched.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .defaults import CONFIG_GETTERS

if TYPE_CHECKING:
    from ..battery import Api, Recorder


def _names(api: Api, *names: str) -> Any:
    datastream = importlib.import_module(api.root + ".datastream")
    return [getattr(datastream, name) for name in names]


def _read_back(rec: Recorder, env: Any) -> None:
    config = env.get_checkpoint_config()
    for getter in CONFIG_GETTERS:
        rec.step(f"read.{getter}", getattr(config, getter))
    rec.step("read.env_interval", env.get_checkpoint_interval)
    rec.step("read.env_mode", env.get_checkpointing_mode)


def scenario_docs_checkpointing_snippet(api: Api, rec: Recorder) -> None:
    StreamExecutionEnvironment, CheckpointingMode, ExternalizedCheckpointCleanup = _names(
        api, "StreamExecutionEnvironment", "CheckpointingMode", "ExternalizedCheckpointCleanup")

    def snippet() -> Any:
        env = StreamExecutionEnvironment.get_execution_environment()

        # start a checkpoint every 1000 ms
        env.enable_checkpointing(1000)

        # advanced options:

        # set mode to exactly-once (this is the default)
        env.get_checkpoint_config().set_checkpointing_mode(CheckpointingMode.EXACTLY_ONCE)

        # make sure 500 ms of progress happen between checkpoints
        env.get_checkpoint_config().set_min_pause_between_checkpoints(500)

        # checkpoints have to complete within one minute, or are discarded
        env.get_checkpoint_config().set_checkpoint_timeout(60000)

        # only two consecutive checkpoint failures are tolerated
        env.get_checkpoint_config().set_tolerable_checkpoint_failure_number(2)

        # allow only one checkpoint to be in progress at the same time
        env.get_checkpoint_config().set_max_concurrent_checkpoints(1)

        # enable externalized checkpoints which are retained after job cancellation
        env.get_checkpoint_config().enable_externalized_checkpoints(
            ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)

        # enables the unaligned checkpoints
        env.get_checkpoint_config().enable_unaligned_checkpoints()
        return env

    env = rec.step("run", snippet)
    _read_back(rec, env)


def scenario_docs_state_backend_snippets(api: Api, rec: Recorder) -> None:
    StreamExecutionEnvironment, HashMapStateBackend, EmbeddedRocksDBStateBackend = _names(
        api, "StreamExecutionEnvironment", "HashMapStateBackend", "EmbeddedRocksDBStateBackend")
    JobManagerCheckpointStorage, FileSystemCheckpointStorage = _names(
        api, "JobManagerCheckpointStorage", "FileSystemCheckpointStorage")
    Configuration = importlib.import_module(api.root + ".common").Configuration

    def from_configuration() -> Any:
        config = Configuration()
        config.set_string('state.backend.type', 'hashmap')
        config.set_string('execution.checkpointing.dir', 'file:///checkpoint-dir')
        return StreamExecutionEnvironment.get_execution_environment(config)

    env = rec.step("configuration.run", from_configuration)
    rec.step("configuration.backend", lambda: env.get_state_backend())
    rec.step("configuration.storage_path",
             lambda: env.get_checkpoint_config().get_checkpoint_storage().get_checkpoint_path())

    def heap_and_jobmanager() -> Any:
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_state_backend(HashMapStateBackend())
        env.get_checkpoint_config().set_checkpoint_storage(JobManagerCheckpointStorage())
        return env

    env2 = rec.step("jobmanager.run", heap_and_jobmanager)
    rec.step("jobmanager.backend_type", lambda: type(env2.get_state_backend()).__name__)
    rec.step("jobmanager.max_state_size",
             lambda: env2.get_checkpoint_config().get_checkpoint_storage().get_max_state_size())

    def rocksdb_and_filesystem() -> Any:
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_state_backend(EmbeddedRocksDBStateBackend())
        env.get_checkpoint_config().set_checkpoint_storage_dir("hdfs://namenode:40010/flink/checkpoints")
        env.get_checkpoint_config().set_checkpoint_storage(
            FileSystemCheckpointStorage("hdfs://namenode:40010/flink/checkpoints"))
        return env

    env3 = rec.step("filesystem.run", rocksdb_and_filesystem)
    rec.step("filesystem.backend_type", lambda: type(env3.get_state_backend()).__name__)
    rec.step("filesystem.incremental", lambda: env3.get_state_backend().is_incremental_checkpoints_enabled())
    rec.step("filesystem.storage_path",
             lambda: env3.get_checkpoint_config().get_checkpoint_storage().get_checkpoint_path())
