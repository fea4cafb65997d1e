"""Each deliberate difference from PyFlink 1.20.5 behaves as the divergence registry says."""

from __future__ import annotations

import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import (
    CheckpointingMode,
    ExternalizedCheckpointRetention,
    FileSystemCheckpointStorage,
    HashMapStateBackend,
    StreamExecutionEnvironment,
)
from pyflink_compat.divergences import DIVERGENCES
from tests.api._conf import conf_of


def test_every_divergence_has_a_reason_and_a_unique_id():
    ids = [d.id for d in DIVERGENCES]
    assert len(ids) == len(set(ids))
    assert all(d.reason and d.summary for d in DIVERGENCES)


def test_set_externalized_checkpoint_retention_stores_the_mode():
    config = StreamExecutionEnvironment.get_execution_environment().get_checkpoint_config()
    returned = config.set_externalized_checkpoint_retention(
        ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION)
    assert returned is config
    assert config.get_externalized_checkpoint_retention() is \
        ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION
    assert config.is_externalized_checkpoints_enabled()


def test_a_rejected_enable_checkpointing_changes_neither_interval_nor_mode():
    env = StreamExecutionEnvironment.get_execution_environment()
    with pytest.raises(ValueError) as raised:
        env.enable_checkpointing(9, CheckpointingMode.AT_LEAST_ONCE)
    assert isinstance(raised.value, Py4JJavaError)
    assert raised.value.java_exception.getClass().getName() == "java.lang.IllegalArgumentException"
    assert env.get_checkpointing_mode() is CheckpointingMode.EXACTLY_ONCE
    assert env.get_checkpoint_interval() == -1


@pytest.mark.parametrize("key, value", [
    ("execution.checkpointing.interval", "abc"),
    ("execution.checkpointing.interval", "9 ms"),
    ("execution.checkpointing.timeout", "5 ms"),
    ("execution.checkpointing.max-concurrent-checkpoints", "0"),
    ("execution.checkpointing.tolerable-failed-checkpoints", "-1"),
    ("state.checkpoints.dir", "relative/dir"),
])
def test_configure_with_a_bad_value_stores_nothing(key, value):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(1000)
    before = conf_of(env)
    bad = Configuration().set_string("execution.checkpointing.min-pause", "5 s").set_string(key, value)
    with pytest.raises(ValueError):
        env.configure(bad)
    assert conf_of(env) == before
    assert env.get_checkpoint_config().get_min_pause_between_checkpoints() == 0


def test_str_of_a_file_system_storage_describes_it():
    text = str(FileSystemCheckpointStorage("file:///tmp/x/", 1024, 8192))
    assert text == ("FileSystemCheckpointStorage (checkpoints to file:/tmp/x) "
                    "(fileStateThreshold: 1024, writeBufferSize: 8192)")


def test_str_of_a_hashmap_backend_read_back_is_the_same_description():
    env = StreamExecutionEnvironment.get_execution_environment()
    with pytest.warns(DeprecationWarning):
        env.set_state_backend(HashMapStateBackend())
    assert str(env.get_state_backend()) == str(HashMapStateBackend())
    assert "@" not in str(HashMapStateBackend())
