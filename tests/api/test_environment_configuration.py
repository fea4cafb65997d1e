"""An environment's own configuration, reached as PyFlink jobs reach it, is the environment's.

``Configuration(j_configuration=get_j_env_configuration(env._j_stream_execution_environment))``
wraps the environment's settings: what is set there applies as ``env.configure`` applies it,
and what the environment sets reads back there (as on PyFlink 1.20.5, where the values below
were read from a live environment).
"""

from __future__ import annotations

from typing import Dict

import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import CheckpointingMode, StreamExecutionEnvironment
from pyflink_compat.settings.store import store_of
from pyflink_compat.util.exceptions import JavaIllegalArgumentError
from pyflink_compat.util.java_utils import get_j_env_configuration
from tests.api._conf import conf_of


def env_configuration(env: StreamExecutionEnvironment) -> Configuration:
    return Configuration(j_configuration=get_j_env_configuration(env._j_stream_execution_environment))


def settings_of(env: StreamExecutionEnvironment) -> Dict[str, str]:
    """The session conf entries the environment's settings put there (held records sent)."""
    store_of(env).refresh()
    return {k: v for k, v in conf_of(env).items() if k.startswith("spark.flink.")
            or k.startswith("spark.sql.streaming.")}


@pytest.fixture
def env() -> StreamExecutionEnvironment:
    return StreamExecutionEnvironment.get_execution_environment()


def test_options_set_in_the_environments_configuration_are_the_environments(env):
    config = env_configuration(env)
    config.set_integer("parallelism.default", 4)
    config.set_string("execution.checkpointing.interval", "5 s")
    config.set_string("execution.checkpointing.mode", "AT_LEAST_ONCE")
    config.set_integer("pipeline.max-parallelism", 64)

    assert env.get_parallelism() == env.get_config().get_parallelism() == 4
    assert env.get_checkpoint_interval() == env.get_checkpoint_config().get_checkpoint_interval() == 5000
    assert env.get_checkpointing_mode() is CheckpointingMode.AT_LEAST_ONCE
    assert env.get_max_parallelism() == 64
    assert config.get_integer("parallelism.default", 1) == 4
    assert config.get_string("execution.checkpointing.interval", "") == "5 s"


def test_what_the_environment_sets_reads_back_through_its_configuration(env):
    config = env_configuration(env)
    assert config.get_integer("parallelism.default", -1) == -1
    env.set_parallelism(7)
    env.enable_checkpointing(3000)
    assert config.get_integer("parallelism.default", 1) == 7
    assert config.get_string("parallelism.default", "") == "7"
    assert config.get_string("execution.checkpointing.interval", "-") == "3 s"  # Flink's text
    assert config.contains_key("execution.checkpointing.interval")
    assert {"parallelism.default", "execution.checkpointing.interval"} <= config.key_set()
    # every wrapper of it shows the same entries
    assert env_configuration(env) == config
    assert "parallelism.default=7" in str(config)


def test_an_option_set_through_the_configuration_takes_effect_as_if_configured(tmp_path):
    options = {"execution.checkpointing.interval": "2 min",
               "execution.checkpointing.dir": "file://" + str(tmp_path / "checkpoints"),
               "restart-strategy.type": "fixed-delay",
               "restart-strategy.fixed-delay.attempts": "3",
               "state.backend.type": "rocksdb",
               "a.key.only.the.job.reads": "kept"}
    configured = StreamExecutionEnvironment.get_execution_environment()
    configured.configure(Configuration().add_all(_configuration(options)))
    bridged = StreamExecutionEnvironment.get_execution_environment()
    config = env_configuration(bridged)
    for key, value in options.items():
        config.set_string(key, value)

    settings = settings_of(configured)
    # the options, the storage their directory makes, and the Spark keys that follow from them
    assert {"spark.flink.execution.checkpointing.interval", "spark.flink.object.checkpoint-storage",
            "spark.flink.a.key.only.the.job.reads", "spark.sql.streaming.stateStore.providerClass"} \
        <= set(settings)
    assert settings_of(bridged) == settings
    assert config.get_string("a.key.only.the.job.reads", "") == "kept"
    # a whole configuration added at once too
    added = StreamExecutionEnvironment.get_execution_environment()
    env_configuration(added).add_all(_configuration(options))
    assert settings_of(added) == settings_of(configured)


def _configuration(options: Dict[str, str]) -> Configuration:
    config = Configuration()
    for key, value in options.items():
        config.set_string(key, value)
    return config


@pytest.mark.parametrize("key, bad, message", [
    ("execution.checkpointing.timeout", "soon",
     "Could not parse value 'soon' for key 'execution.checkpointing.timeout'."),
    ("parallelism.default", "four", "Could not parse value 'four' for key 'parallelism.default'."),
])
def test_a_rejected_value_raises_and_leaves_the_configuration_as_it_was(env, key, bad, message):
    config = env_configuration(env)
    config.set_string("execution.checkpointing.timeout", "1 min").set_integer("parallelism.default", 3)
    before = settings_of(env)
    with pytest.raises(JavaIllegalArgumentError) as raised:
        config.set_string(key, bad)
    assert isinstance(raised.value, Py4JJavaError)
    assert message in str(raised.value)
    assert settings_of(env) == before
    assert config.get_string("execution.checkpointing.timeout", "") == "1 min"
    assert env.get_checkpoint_config().get_checkpoint_timeout() == 60000
    assert env.get_parallelism() == 3


def test_a_value_out_of_range_is_rejected_as_configure_rejects_it(env):
    config = env_configuration(env)
    with pytest.raises(Py4JJavaError) as through_configuration:
        config.set_integer("execution.checkpointing.max-concurrent-checkpoints", 0)
    with pytest.raises(Py4JJavaError) as through_configure:
        env.configure(Configuration().set_integer("execution.checkpointing.max-concurrent-checkpoints", 0))
    assert type(through_configuration.value) is type(through_configure.value)
    assert str(through_configuration.value).split("\n", 1)[1] == str(through_configure.value).split("\n", 1)[1]
    assert not config.contains_key("execution.checkpointing.max-concurrent-checkpoints")


def test_removing_an_option_unsets_the_environments_setting(env):
    config = env_configuration(env)
    default = env.get_parallelism()
    config.set_integer("parallelism.default", 5).set_string("a.key.only.the.job.reads", "x")
    assert config.remove_config("parallelism.default") and config.remove_config("a.key.only.the.job.reads")
    assert not config.remove_config("parallelism.default")
    assert env.get_parallelism() == default
    assert config.key_set() == set()


def test_a_copy_of_the_environments_configuration_is_a_plain_one(env):
    env.set_parallelism(2)
    copy = Configuration(other=env_configuration(env))
    copy.set_integer("parallelism.default", 9)
    assert env.get_parallelism() == 2
    other = StreamExecutionEnvironment.get_execution_environment()
    other.configure(env_configuration(env))
    assert other.get_parallelism() == 2


def test_bytes_set_in_the_environments_configuration_read_back_as_the_same_bytes(env):
    config = env_configuration(env)
    assert config.set_bytearray("my.key", bytearray(b"\x01\x02ab")) is config
    assert config.get_bytearray("my.key", bytearray()) == bytearray(b"\x01\x02ab")
    # held as Flink's text for bytes, base64, so that a new view reads them back too
    assert env_configuration(env).get_bytearray("my.key", bytearray()) == bytearray(b"\x01\x02ab")


def test_text_reads_as_bytes_the_way_flink_decodes_it():
    # as PyFlink 1.20.5 does: base64 text is decoded, other text is refused by Flink's message
    config = Configuration()
    config.set_string("y", "YWI=")
    assert config.get_bytearray("y", bytearray()) == bytearray(b"ab")
    config.set_string("z", "not base64!")
    with pytest.raises(JavaIllegalArgumentError, match="Configuration cannot evaluate value not base64! as a "
                                                       "byte\\[\\] value"):
        config.get_bytearray("z", bytearray())
