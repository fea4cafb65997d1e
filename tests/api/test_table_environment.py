"""Table environments share one set of settings with the StreamExecutionEnvironment."""

from __future__ import annotations

import datetime

import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import CheckpointingMode, StreamExecutionEnvironment
from pyflink_compat.missing import NotSupportedError
from pyflink_compat.table import (
    EnvironmentSettings, StreamTableEnvironment, TableConfig, TableEnvironment)
from pyflink_compat.settings import values
from pyflink_compat.table._table_options import TABLE_OPTIONS, flink_text, table_option
from pyflink_compat.util.exceptions import JavaIllegalArgumentError

_NOT_PIPELINE = {"create", "get_config", "stream_execution_environment"}


def _pipeline_methods(cls: type) -> list[str]:
    return sorted(name for name, value in vars(cls).items()
                  if callable(value) and not name.startswith("_") and name not in _NOT_PIPELINE)


def _fresh():
    env = StreamExecutionEnvironment.get_execution_environment()
    return env, StreamTableEnvironment.create(env)


def test_a_checkpoint_option_set_on_the_table_config_leaves_the_environment_getters_as_pyflink_does():
    env, t_env = _fresh()
    env.enable_checkpointing(1000)
    t_env.get_config().set("execution.checkpointing.interval", "2 s")
    assert env.get_checkpoint_interval() == 1000
    assert t_env.get_config().get("execution.checkpointing.interval", None) == "2 s"


def test_the_job_plan_applies_the_table_config_through_the_environment():
    env, t_env = _fresh()
    env.enable_checkpointing(1000)
    config = t_env.get_config()
    config.set("execution.checkpointing.interval", "2 s")
    config.set("execution.checkpointing.mode", "AT_LEAST_ONCE")
    config.set("restart-strategy.type", "fixed-delay")
    plan = env.get_job_plan("table-job")
    assert plan.settings.checkpoint_interval == 2_000_000_000
    assert plan.settings.checkpointing_mode == "AT_LEAST_ONCE"
    assert plan.settings.restart_strategy == "fixed-delay"
    assert "execution.checkpointing.interval = 2000 ms" in str(plan)
    # as after Flink's planner configured the environment with the table config
    assert env.get_checkpoint_interval() == 2000
    assert env.get_checkpointing_mode() is CheckpointingMode.AT_LEAST_ONCE


def test_a_value_the_environment_rejects_fails_the_job_plan_and_changes_nothing():
    env, t_env = _fresh()
    env.enable_checkpointing(1000)
    t_env.get_config().set("execution.checkpointing.timeout", "5 min")
    t_env.get_config().set("execution.checkpointing.interval", "abc")
    with pytest.raises(JavaIllegalArgumentError) as failure:
        env.get_job_plan()
    assert str(failure.value.java_exception.getMessage()) == (
        "Could not parse value 'abc' for key 'execution.checkpointing.interval'.")
    assert env.get_checkpoint_interval() == 1000
    assert env.get_checkpoint_config().get_checkpoint_timeout() == 600000


def test_the_table_config_reads_options_it_does_not_hold_from_the_environment_as_flink_writes_them():
    env, t_env = _fresh()
    config = t_env.get_config()
    assert config.get("execution.checkpointing.interval", "none") == "none"
    env.enable_checkpointing(60000, CheckpointingMode.AT_LEAST_ONCE)
    env.get_checkpoint_config().set_checkpoint_timeout(1500)
    assert config.get("execution.checkpointing.interval", None) == "1 min"
    assert config.get("execution.checkpointing.mode", None) == "AT_LEAST_ONCE"
    assert config.get("execution.checkpointing.timeout", None) == "1500 ms"
    assert config.to_map()["execution.checkpointing.interval"] == "1 min"


def test_options_given_with_configuration_reach_the_job_plan_too():
    env, t_env = _fresh()
    t_env.get_config().get_configuration().set_string("execution.checkpointing.interval", "3 s")
    added = Configuration()
    added.set_string("execution.checkpointing.tolerable-failed-checkpoints", "4")
    t_env.get_config().add_configuration(added)
    settings = env.get_job_plan().settings
    assert settings.checkpoint_interval == 3_000_000_000
    assert settings.tolerable_failed_checkpoints == 4


def test_every_table_environment_over_one_environment_applies_its_options_in_creation_order():
    env, first = _fresh()
    second = StreamTableEnvironment.create(env)
    first.get_config().set("execution.checkpointing.interval", "2 s")
    first.get_config().set("execution.checkpointing.timeout", "1 min")
    second.get_config().set("execution.checkpointing.interval", "5 s")
    settings = env.get_job_plan().settings
    assert settings.checkpoint_interval == 5_000_000_000
    assert settings.checkpoint_timeout == 60_000_000_000


def test_settings_options_go_to_the_table_config_not_to_the_environment():
    env = StreamExecutionEnvironment.get_execution_environment()
    options = Configuration().set_string("execution.checkpointing.interval", "4 s")
    settings = EnvironmentSettings.new_instance().with_configuration(options).build()
    t_env = StreamTableEnvironment.create(env, settings)
    assert t_env.get_config().get("execution.checkpointing.interval", None) == "4 s"
    assert env.get_checkpoint_interval() == -1
    assert env.get_job_plan().settings.checkpoint_interval == 4_000_000_000


@pytest.mark.parametrize("make", [
    lambda: TableEnvironment.create(EnvironmentSettings.in_streaming_mode()),
    lambda: TableEnvironment.create(Configuration()),
    lambda: StreamTableEnvironment.create(environment_settings=EnvironmentSettings.in_streaming_mode()),
], ids=["table-settings", "table-configuration", "stream-settings-only"])
def test_a_table_environment_created_without_an_environment_makes_one_that_runs_its_options(make):
    t_env = make()
    env = t_env.stream_execution_environment
    assert isinstance(env, StreamExecutionEnvironment)
    t_env.get_config().set("execution.checkpointing.interval", "7 s")
    assert env.get_job_plan().settings.checkpoint_interval == 7_000_000_000


def test_a_table_environment_created_from_an_environment_exposes_that_environment():
    env, t_env = _fresh()
    assert t_env.stream_execution_environment is env


def test_the_local_time_zone_sets_the_spark_session_time_zone_at_once():
    env, t_env = _fresh()
    config = t_env.get_config()
    config.set_local_timezone("America/Los_Angeles")
    assert env.spark_session.conf.get("spark.sql.session.timeZone") == "America/Los_Angeles"
    config.set_local_timezone("+02:00")
    assert config.get_local_timezone() == "GMT+02:00"
    assert env.spark_session.conf.get("spark.sql.session.timeZone") == "GMT+02:00"
    config.set("table.local-time-zone", "Asia/Tokyo")
    assert env.spark_session.conf.get("spark.sql.session.timeZone") == "Asia/Tokyo"


def test_default_local_time_zone_gives_spark_its_own_default_back():
    env, t_env = _fresh()
    spark_default = env.spark_session.conf.get("spark.sql.session.timeZone")
    t_env.get_config().set_local_timezone("Asia/Tokyo")
    t_env.get_config().set("table.local-time-zone", "default")
    assert env.spark_session.conf.get("spark.sql.session.timeZone") == spark_default


def test_an_invalid_time_zone_set_by_key_is_not_given_to_spark_and_fails_the_job_plan():
    env, t_env = _fresh()
    t_env.get_config().set_local_timezone("Asia/Tokyo")
    t_env.get_config().set("table.local-time-zone", "UTC+8")
    assert env.spark_session.conf.get("spark.sql.session.timeZone") == "Asia/Tokyo"
    with pytest.raises(JavaIllegalArgumentError, match="Invalid time zone"):
        t_env.get_config().get_local_timezone()
    with pytest.raises(JavaIllegalArgumentError, match="Invalid time zone"):
        env.get_job_plan()


def test_a_rejected_time_zone_changes_nothing():
    config = TableConfig()
    config.set_local_timezone("Europe/Paris")
    with pytest.raises(Py4JJavaError, match="ZoneId.of"):
        config.set_local_timezone("PST")
    with pytest.raises(JavaIllegalArgumentError, match="Invalid time zone"):
        config.set_local_timezone("UTC+8")
    assert config.get_local_timezone() == "Europe/Paris"


def test_idle_state_retention_is_stored_and_read_back_with_no_spark_effect():
    env, t_env = _fresh()
    before = dict(env.spark_session.conf.getAll) if hasattr(env.spark_session.conf, "getAll") else None
    t_env.get_config().set_idle_state_retention(datetime.timedelta(hours=1))
    assert t_env.get_config().get_idle_state_retention() == datetime.timedelta(hours=1)
    assert t_env.get_config().get_max_idle_state_retention_time() == 5_400_000
    assert table_option("table.exec.state.ttl").spark_key is None
    if before is not None:
        assert dict(env.spark_session.conf.getAll) == before


def test_every_pipeline_method_raises_not_supported_naming_the_pyflink_class_that_defines_it():
    env, t_env = _fresh()
    names = _pipeline_methods(TableEnvironment) + _pipeline_methods(StreamTableEnvironment)
    assert "from_data_stream" in names and "create_temporary_function" in names
    # Flink SQL and the Table API's basic methods run (tests/table)
    running = {"create_statement_set", "execute_sql", "sql_query", "from_path", "from_elements",
               "create_temporary_view", "list_tables", "list_views", "list_temporary_tables",
               "list_temporary_views", "drop_temporary_table", "drop_temporary_view",
               "from_pandas", "create_temporary_table", "create_table", "from_descriptor",
               "register_table_source", "create_temporary_function",
               "create_temporary_system_function", "drop_temporary_function",
               "drop_temporary_system_function", "register_function", "from_data_stream",
               "to_data_stream", "to_changelog_stream", "to_append_stream", "explain_sql",
               "register_table_sink", "to_retract_stream", "from_changelog_stream"}
    for name in [n for n in names if n not in running]:
        owner = "StreamTableEnvironment" if name in vars(StreamTableEnvironment) else "TableEnvironment"
        method = getattr(t_env, name)
        with pytest.raises(NotSupportedError) as failure:
            method(*([None] * (method.__code__.co_argcount - 1)))
        assert failure.value.api == "{}.{}".format(owner, name)


def test_execute_sql_of_a_statement_that_does_not_run_names_it():
    with pytest.raises(NotSupportedError, match=r"CREATE FUNCTION"):
        TableEnvironment.create(EnvironmentSettings.in_streaming_mode()).execute_sql(
            "CREATE FUNCTION f AS 'a.B'")


def test_every_declared_table_option_names_a_spark_key_or_says_there_is_none():
    for option in TABLE_OPTIONS:
        assert option.effect
        assert (option.spark_key is None) == option.effect.startswith("none")
    assert table_option("execution.checkpointing.interval") is None
    assert table_option("state.backend.type") is None
    assert table_option("python.fn-execution.bundle.size").key == "python."
    # Read by the environment (the settings registry), as are these:
    for key in ("python.executable", "python.files", "parallelism.default",
                "execution.runtime-mode", "pipeline.jars", "pipeline.classpaths"):
        assert table_option(key) is None
    assert table_option("table.exec.mini-batch.enabled").key == "table."
    assert table_option("table.local-time-zone").spark_key == "spark.sql.session.timeZone"


@pytest.mark.parametrize("millis, text", [
    (0, "0 ms"), (1500, "1500 ms"), (1000, "1 s"), (60000, "1 min"), (129_600_000, "36 h"),
    (172_800_000, "2 d"), (-1000, "-1 s")])
def test_durations_are_written_in_their_largest_whole_unit_and_read_back(millis, text):
    assert values.format_duration(values.from_millis(millis)) == text
    assert values.to_millis(values.read_duration(text)) == millis
    assert flink_text("{} ms".format(millis)) == text


def test_environment_settings_builders_share_their_options_as_in_pyflink():
    builder = EnvironmentSettings.new_instance().in_batch_mode()
    built = builder.build()
    assert not built.is_streaming_mode()
    builder.in_streaming_mode()
    assert built.is_streaming_mode()


def test_an_empty_statement_set_cannot_be_executed_as_in_flink():
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    from pyflink_compat.util.exceptions import TableException

    statements = TableEnvironment.create(EnvironmentSettings.in_streaming_mode()).create_statement_set()
    with pytest.raises(TableException, match="No operators defined"):
        statements.execute()
