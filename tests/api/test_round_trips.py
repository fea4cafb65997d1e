"""How many JVM round trips the configuration calls make (a count, not a timing).

Every setting lives in the session's JVM conf; the environment reads it once and writes
through to it, so a getter never reaches the JVM and a setter once per write. These tests pin
how often calls reach it, so that a change that adds round trips to a common call shows up
here. Each call is
made once before it is counted, so that the one-off look-ups of a gateway (classes, the JSON
writer, the session's ``SQLConf``) are not part of the count.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import (
    EmbeddedRocksDBStateBackend,
    FileSystemCheckpointStorage,
    HashMapStateBackend,
    StreamExecutionEnvironment,
)
from pyflink_compat.settings.store import store_of
from tests._helpers.py4j_commands import sent_commands

PROVIDER = "spark.sql.streaming.stateStore.providerClass"
CHANGELOG = "spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled"


def round_trips(call: Callable[[], Any]) -> int:
    """The py4j commands ``call`` sends from this thread (py4j's releases of JVM objects,
    which its finalizer thread sends, are not counted)."""
    with sent_commands() as sent:
        call()
    return len(sent)


@pytest.fixture
def env() -> StreamExecutionEnvironment:
    env = StreamExecutionEnvironment.get_execution_environment()
    # the one-off look-ups of the gateway and of this session; a heap backend, with the
    # changelog key (which a heap backend leaves as it is) at false
    env.set_state_backend(EmbeddedRocksDBStateBackend(False))
    env.set_state_backend(HashMapStateBackend())
    env.configure(Configuration())
    return env


@pytest.fixture
def conf_in_one_call(env: StreamExecutionEnvironment) -> StreamExecutionEnvironment:
    """An environment whose Spark exposes the ``SQLConf`` behind the session conf (Spark 4),
    so that the whole conf is read in one round trip and several keys set in two."""
    if store_of(env).view.settings_map() is False:
        pytest.skip("this Spark does not expose the session's SQLConf: the conf is read and "
                    "written with more round trips")
    return env


def three_options() -> Configuration:
    options = Configuration()
    options.set_string("execution.checkpointing.interval", "5 s")
    options.set_string("execution.checkpointing.mode", "AT_LEAST_ONCE")
    options.set_string("execution.checkpointing.timeout", "1 min")
    return options


def test_a_getter_reads_no_jvm_and_a_setter_writes_once(env):
    config = env.get_checkpoint_config()
    assert round_trips(config.get_checkpoint_interval) == 0
    assert round_trips(env.get_checkpoint_interval) == 0
    assert round_trips(lambda: env.get_config().get_parallelism()) == 0
    assert round_trips(lambda: config.set_checkpoint_timeout(60000)) == 1
    assert round_trips(lambda: env.enable_checkpointing(1000)) == 1


def test_setting_a_backend_made_here_writes_only_the_spark_keys_that_change(env):
    heap = HashMapStateBackend()
    env.set_state_backend(heap)
    backend = EmbeddedRocksDBStateBackend(True)
    # state store provider and changelog flag change; the backend's record is held (it
    # reaches the JVM conf before the conf is next read from there)
    assert round_trips(lambda: env.set_state_backend(backend)) == 2
    # the same backend again: nothing Spark reads changes
    assert round_trips(lambda: env.set_state_backend(backend)) == 0
    # back to the heap backend: the provider (the HDFS store reads no changelog key)
    assert round_trips(lambda: env.set_state_backend(heap)) == 1
    # and to RocksDB with changelog again: the changelog key is still true
    assert round_trips(lambda: env.set_state_backend(backend)) == 1
    assert env.spark_session.conf.get(CHANGELOG) == "true"
    # the held record is sent, once, when a job is planned
    with sent_commands() as sent:
        env.get_job_plan()
    assert sum("state-backend" in command for command in sent) == 1
    assert env.get_state_backend().is_incremental_checkpoints_enabled()


def test_a_backend_changed_after_it_was_made_is_read_from_the_jvm(env):
    backend = EmbeddedRocksDBStateBackend(True)
    backend.set_number_of_transfer_threads(3)
    # read back once (the change dropped the known record), then the two Spark keys written
    assert round_trips(lambda: env.set_state_backend(backend)) == 1 + 2
    assert env.get_state_backend().get_number_of_transfer_threads() == 3


def test_setting_a_checkpoint_storage_made_here_is_held_until_a_job_is_planned(env):
    storage = FileSystemCheckpointStorage("file:///tmp/round-trips")
    config = env.get_checkpoint_config()
    assert round_trips(lambda: config.set_checkpoint_storage(storage)) == 0
    assert round_trips(lambda: config.set_checkpoint_storage(storage)) == 0
    # a plain path is normalised here and no JVM storage object is needed
    assert round_trips(lambda: config.set_checkpoint_storage_dir("file:///tmp/round-trips/")) == 0
    assert env.get_job_plan().storage.path == "file:/tmp/round-trips"


def test_configure_reads_the_configuration_once_and_sets_its_keys_one_call_each(env):
    options = three_options()
    assert round_trips(lambda: env.configure(options)) == 1 + 3


def test_four_or_more_keys_are_set_in_two_calls(conf_in_one_call):
    view = store_of(conf_in_one_call).view
    view.write({"spark.flink.test.k{}".format(i): "-" for i in range(5)})  # the one-off look-ups
    writes = {"spark.flink.test.k{}".format(i): str(i) for i in range(5)}
    assert round_trips(lambda: view.write(writes)) == 2
    assert {k: view.entries()[k] for k in writes} == writes
    assert conf_in_one_call.spark_session.conf.get("spark.flink.test.k4") == "4"


def test_a_new_state_backend_is_one_round_trip():
    HashMapStateBackend()
    assert round_trips(HashMapStateBackend) == 1
    assert round_trips(lambda: EmbeddedRocksDBStateBackend(True)) == 1


def test_a_derived_key_changed_directly_in_the_session_conf_is_rewritten_when_a_job_is_planned(env):
    backend = HashMapStateBackend()
    env.set_state_backend(backend)
    env.spark_session.conf.set(PROVIDER, "some.other.Provider")
    env.spark_session.conf.set(CHANGELOG, "true")
    plan = env.get_job_plan()
    assert env.spark_session.conf.get(PROVIDER).endswith("HDFSBackedStateStoreProvider")
    assert plan.spark_conf[PROVIDER] == env.spark_session.conf.get(PROVIDER)
    # the HDFS-backed store reads no RocksDB key: the changelog key is not the plan's business
    assert CHANGELOG not in plan.spark_conf
    assert env.spark_session.conf.get(CHANGELOG) == "true"


def test_keys_set_together_are_all_in_the_session_conf(env):
    env.configure(three_options())
    conf = env.spark_session.conf
    assert conf.get("spark.flink.execution.checkpointing.interval") == "5000 ms"
    assert conf.get("spark.flink.execution.checkpointing.mode") == "AT_LEAST_ONCE"
    assert conf.get("spark.flink.execution.checkpointing.timeout") == "60000 ms"
    assert env.get_checkpoint_interval() == 5000


def test_without_the_sqlconf_the_conf_is_read_and_written_key_by_key_to_the_same_result():
    env = StreamExecutionEnvironment.get_execution_environment()
    store_of(env).view.hides_sql_conf()  # as on a Spark that hides the SQLConf
    store_of(env).refresh()
    env.set_state_backend(EmbeddedRocksDBStateBackend(True))
    env.configure(three_options())
    conf = env.spark_session.conf
    assert conf.get(PROVIDER).endswith("RocksDBStateStoreProvider")
    assert conf.get(CHANGELOG) == "true"
    assert env.get_checkpoint_interval() == 5000
    assert env.get_state_backend().is_incremental_checkpoints_enabled()


def test_a_configuration_holding_bytes_is_read_key_by_key():
    from pyflink_compat.util.java_maps import map_to_dict

    options = three_options()
    options.set_bytearray("some.bytes", bytearray(b"\x01\x02"))
    read = map_to_dict(options._j_configuration)
    assert read["execution.checkpointing.interval"] == "5 s"
    assert bytes(read["some.bytes"]) == b"\x01\x02"
