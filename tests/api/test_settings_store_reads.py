"""The session conf stays the one store of the settings: getters see every way of writing it."""

from __future__ import annotations

from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.settings.registry import CONF_PREFIX


def test_a_value_set_with_sql_set_is_what_the_getter_reads():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(1000)
    env.spark_session.sql("SET {}execution.checkpointing.interval=9 s".format(CONF_PREFIX))
    assert env.get_checkpoint_interval() == 9000


def test_a_value_unset_in_the_session_conf_reads_back_as_the_default():
    env = StreamExecutionEnvironment.get_execution_environment()
    config = env.get_checkpoint_config().set_checkpoint_timeout(4000)
    env.spark_session.conf.unset(CONF_PREFIX + "execution.checkpointing.timeout")
    assert config.get_checkpoint_timeout() == 10 * 60 * 1000


def test_a_sync_after_the_backend_type_changed_in_the_session_conf_rewrites_the_store_key():
    env = StreamExecutionEnvironment.get_execution_environment()
    provider = "spark.sql.streaming.stateStore.providerClass"
    assert env.spark_session.conf.get(provider).endswith("HDFSBackedStateStoreProvider")
    env.spark_session.conf.set(CONF_PREFIX + "state.backend.type", "rocksdb")
    env._store.sync_spark_conf()
    assert env.spark_session.conf.get(provider).endswith("RocksDBStateStoreProvider")
