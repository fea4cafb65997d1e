"""The session conf stays the one store of the settings.

The environment reads it once and writes through to it; entries written to it by other means
(``spark.conf.set``, SQL ``SET``) are read when the next job is planned or started, and the
getters show them from then on.
"""

from __future__ import annotations

from pyflink_compat.datastream import CheckpointConfig, StreamExecutionEnvironment
from pyflink_compat.settings.store import read_all_entries, store_of
from pyflink_compat.settings.registry import CONF_PREFIX

from tests.api._conf import conf_of

INTERVAL = CONF_PREFIX + "execution.checkpointing.interval"
PROVIDER = "spark.sql.streaming.stateStore.providerClass"


def test_a_value_set_with_sql_set_is_what_the_next_plan_and_then_the_getter_read():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(1000)
    env.spark_session.sql("SET {}=9 s".format(INTERVAL))
    # not read yet: the environment shows what it last read or wrote
    assert env.get_checkpoint_interval() == 1000
    plan = env.get_job_plan()
    assert plan.settings.checkpoint_interval == 9 * 10**9  # nanoseconds
    assert env.get_checkpoint_interval() == 9000


def test_a_getter_reads_each_new_text_of_a_setting_however_it_was_written():
    import pytest

    from pyflink_compat.util.exceptions import JavaIllegalArgumentError

    env = StreamExecutionEnvironment.get_execution_environment()
    config = env.get_checkpoint_config()
    for millis in (1000, 2000, 1000, 2000):  # back and forth: each read decodes what is there
        config.set_checkpoint_interval(millis)
        assert config.get_checkpoint_interval() == millis
        assert env.get_checkpoint_interval() == millis
    env.spark_session.conf.set(INTERVAL, "1 min")
    env.get_job_plan()
    assert config.get_checkpoint_interval() == 60000
    env.spark_session.conf.set(INTERVAL, "soon")  # text that no longer parses
    with pytest.raises(JavaIllegalArgumentError, match="Could not parse value 'soon'"):
        env.get_job_plan()
    with pytest.raises(JavaIllegalArgumentError, match="Could not parse value 'soon'"):
        config.get_checkpoint_interval()
    env.spark_session.conf.set(INTERVAL, "1 min")
    env.get_job_plan()
    assert config.get_checkpoint_interval() == 60000


def test_a_value_unset_in_the_session_conf_reads_back_as_the_default_once_a_job_is_planned():
    env = StreamExecutionEnvironment.get_execution_environment()
    config = env.get_checkpoint_config().set_checkpoint_timeout(4000)
    env.spark_session.conf.unset(CONF_PREFIX + "execution.checkpointing.timeout")
    env.get_job_plan()
    assert config.get_checkpoint_timeout() == 10 * 60 * 1000


def test_a_backend_type_changed_in_the_session_conf_selects_its_state_store_when_planned():
    env = StreamExecutionEnvironment.get_execution_environment()
    assert env.spark_session.conf.get(PROVIDER).endswith("HDFSBackedStateStoreProvider")
    env.spark_session.conf.set(CONF_PREFIX + "state.backend.type", "rocksdb")
    plan = env.get_job_plan()
    assert env.spark_session.conf.get(PROVIDER).endswith("RocksDBStateStoreProvider")
    assert plan.spark_conf[PROVIDER].endswith("RocksDBStateStoreProvider")


def test_after_any_mix_of_api_calls_the_view_holds_exactly_the_session_conf():
    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import (
        CheckpointingMode,
        EmbeddedRocksDBStateBackend,
        FileSystemCheckpointStorage,
        HashMapStateBackend,
    )

    env = StreamExecutionEnvironment.get_execution_environment()
    config = env.get_checkpoint_config()
    env.enable_checkpointing(2000, CheckpointingMode.AT_LEAST_ONCE)
    env.set_state_backend(EmbeddedRocksDBStateBackend(True))
    config.set_checkpoint_storage(FileSystemCheckpointStorage("file:///tmp/view-check"))
    config.set_checkpoint_storage_dir("file:///tmp/view-check-2")
    env.set_parallelism(3)
    env.get_config().set_max_parallelism(64)
    env.configure(Configuration().set_string("state.backend.type", "hashmap")
                  .set_string("execution.checkpointing.timeout", "1 min"))
    env.set_state_backend(HashMapStateBackend())
    config.set_tolerable_checkpoint_failure_number(3)
    env.configure(Configuration().set_string("state.checkpoints.num-retained", "5"))
    view = store_of(env).view
    # every entry but the held records of API objects is in the JVM conf at once
    jvm = conf_of(env)
    assert {k: v for k, v in view.entries().items() if not k.startswith("spark.flink.object.")} == {
        k: v for k, v in jvm.items() if not k.startswith("spark.flink.object.")}
    _assert_index_in_step(view)
    # and those are there once the conf is read from the JVM again (a job planned)
    env.get_job_plan()
    assert dict(view.entries()) == conf_of(env)
    _assert_index_in_step(view)


def _assert_index_in_step(view):
    """The view's entries by prefix are exactly its entries with that prefix."""
    assert dict(view.prefixed(CONF_PREFIX)) == {
        k: v for k, v in view.entries().items() if k.startswith(CONF_PREFIX)}


def test_a_held_record_reaches_the_jvm_conf_when_a_job_is_planned_or_the_view_is_dropped():
    import gc

    from pyflink_compat.datastream import EmbeddedRocksDBStateBackend

    key = "spark.flink.object.state-backend"
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_state_backend(EmbeddedRocksDBStateBackend(True))
    assert PROVIDER in conf_of(env) and key not in conf_of(env)
    env.get_job_plan()
    assert '"incremental": true' in conf_of(env)[key]

    env.set_state_backend(EmbeddedRocksDBStateBackend(False))
    j_conf = env.spark_session._jsparkSession.conf()
    del env
    gc.collect()
    assert '"incremental": false' in read_all_entries(j_conf)[key]


def test_every_api_object_over_one_session_conf_shares_what_it_knows():
    env = StreamExecutionEnvironment.get_execution_environment()
    direct = CheckpointConfig(env.spark_session._jsparkSession.conf())
    direct.set_checkpoint_interval(4321)
    assert env.get_checkpoint_interval() == 4321
    env.get_checkpoint_config().set_checkpoint_timeout(7000)
    assert direct.get_checkpoint_timeout() == 7000


def test_a_write_the_jvm_rejects_drops_the_view_and_the_next_read_fetches_the_conf():
    import pytest
    from py4j.protocol import Py4JJavaError

    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(1000)
    view = store_of(env).view
    env.spark_session.conf.set(INTERVAL, "3 s")  # not seen by the view yet
    with pytest.raises(Py4JJavaError):
        view.write({"spark.sql.shuffle.partitions": "not a number"})
    assert env.get_checkpoint_interval() == 3000
    assert dict(view.entries()) == conf_of(env)
    assert view.prefixed(CONF_PREFIX)[INTERVAL] == "3 s"
    _assert_index_in_step(view)


def test_after_the_conf_is_read_again_the_next_change_brings_the_derived_keys_in_line():
    import pytest
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.datastream import EmbeddedRocksDBStateBackend

    env = StreamExecutionEnvironment.get_execution_environment()
    backend = EmbeddedRocksDBStateBackend(True)
    env.set_state_backend(backend)
    env.spark_session.conf.set(PROVIDER, "some.other.Provider")
    with pytest.raises(Py4JJavaError):  # drops the copy: the next call reads the conf again
        store_of(env).view.write({"spark.sql.shuffle.partitions": "not a number"})
    env.set_state_backend(backend)  # the same backend: only the derived keys differ
    assert env.spark_session.conf.get(PROVIDER).endswith("RocksDBStateStoreProvider")


def test_a_view_collected_in_the_middle_of_a_py4j_call_leaves_that_call_alone(caplog):
    """The cyclic collector may run while a py4j call waits for the JVM's answer (any
    allocation can start it). A view it frees then must not talk to the JVM on that same
    connection; its held record still reaches the conf before the next read."""
    import gc
    import logging
    import socket
    import sys

    from pyflink_compat.settings.store import ConfView, conf_view

    env = StreamExecutionEnvironment.get_execution_environment()
    j_conf = env.spark_session._jsparkSession.conf()
    key = "spark.flink.object.collected-view"
    view = ConfView(j_conf)
    view.write({}, {key: '{"held": true}'})
    view.cycle = view  # only the cyclic collector frees it
    del view

    def collect_while_reading(frame, event, arg):
        if event == "call" and frame.f_code is socket.SocketIO.readinto.__code__:
            sys.setprofile(None)
            gc.collect()  # inside the read of the JVM's answer

    caplog.set_level(logging.INFO)  # py4j reports a failed exchange on the root logger
    sys.setprofile(collect_while_reading)
    try:
        name = j_conf.get("spark.app.name")
    finally:
        sys.setprofile(None)
    assert name == env.spark_session.conf.get("spark.app.name")
    assert not [r.getMessage() for r in caplog.records if "py4j" in r.pathname]
    assert conf_view(j_conf).refresh()[key] == '{"held": true}'
    assert read_all_entries(j_conf)[key] == '{"held": true}'
