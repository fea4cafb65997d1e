"""ExecutionConfig: PyFlink's rules, kept as Flink options in the store it is given."""

from __future__ import annotations

import warnings

import pytest
from py4j.protocol import Py4JError, Py4JJavaError

from pyflink_compat.common.execution_config import ExecutionConfig
from pyflink_compat.common._execution_options import DictOptions, SessionOptions
from pyflink_compat.common.restart_strategy import RestartStrategies
from pyflink_compat.missing import NotSupportedError


@pytest.fixture
def store() -> DictOptions:
    return DictOptions(default_parallelism=4)


@pytest.fixture
def config(store: DictOptions) -> ExecutionConfig:
    return ExecutionConfig(store)


def test_a_fresh_config_reports_pyflinks_defaults(config):
    assert config.get_parallelism() == 4
    assert config.get_max_parallelism() == -1
    assert config.get_auto_watermark_interval() == 200
    assert config.get_latency_tracking_interval() == 0
    assert config.get_task_cancellation_interval() == 30000
    assert config.get_task_cancellation_timeout() == 180000
    assert config.is_closure_cleaner_enabled() is True
    assert config.is_object_reuse_enabled() is False
    assert config.get_global_job_parameters() == {}
    assert config.get_restart_strategy() == RestartStrategies.fall_back_restart()
    assert config.get_execution_mode().name == "PIPELINED"


def test_setters_write_flinks_option_keys_and_return_the_config(config, store):
    assert config.set_parallelism(3) is config
    assert config.set_max_parallelism(128) is config
    assert config.set_auto_watermark_interval(50) is config
    assert config.set_latency_tracking_interval(1000) is config
    assert config.enable_object_reuse() is config
    assert config.disable_closure_cleaner() is config
    assert store.options == {
        "parallelism.default": "3",
        "pipeline.max-parallelism": "128",
        "pipeline.auto-watermark-interval": "50 ms",
        "metrics.latency.interval": "1000 ms",
        "pipeline.object-reuse": "true",
        "pipeline.closure-cleaner-level": "NONE",
    }
    assert config.get_parallelism() == 3
    assert config.get_auto_watermark_interval() == 50


def test_parallelism_zero_is_refused_with_pyflinks_message_and_changes_nothing(config):
    config.set_parallelism(5)
    with pytest.raises(Py4JJavaError) as raised:
        config.set_parallelism(0)
    assert raised.value.java_exception.getMessage() == (
        "Parallelism must be at least one, or ExecutionConfig.PARALLELISM_DEFAULT "
        "(use system default).")
    assert config.get_parallelism() == 5


def test_parallelism_default_is_stored_and_unknown_changes_nothing(config):
    config.set_parallelism(ExecutionConfig.PARALLELISM_DEFAULT)
    assert config.get_parallelism() == -1
    config.set_parallelism(ExecutionConfig.PARALLELISM_UNKNOWN)
    assert config.get_parallelism() == -1


def test_a_non_int_parallelism_is_refused_as_py4j_refuses_it(config):
    with pytest.raises(Py4JError, match=r"setParallelism\(\[class java.lang.String\]\)"):
        config.set_parallelism("4")


def test_max_parallelism_must_be_positive_but_has_no_upper_bound_here(config):
    with pytest.raises(Py4JJavaError):
        config.set_max_parallelism(0)
    config.set_max_parallelism(32769)
    assert config.get_max_parallelism() == 32769


def test_negative_watermark_interval_and_cancellation_timeout_are_refused(config):
    with pytest.raises(Py4JJavaError):
        config.set_auto_watermark_interval(-1)
    with pytest.raises(Py4JJavaError):
        config.set_task_cancellation_timeout(-1)
    assert config.get_auto_watermark_interval() == 200
    assert config.get_task_cancellation_timeout() == 180000


def test_global_job_parameters_are_replaced_and_turned_into_text(config):
    config.set_global_job_parameters({"a": "1", "b": 2, "c": True, "url": "http://x:1/a,b"})
    assert config.get_global_job_parameters() == {
        "a": "1", "b": "2", "c": "True", "url": "http://x:1/a,b"}
    config.set_global_job_parameters({"z": "it's"})
    assert config.get_global_job_parameters() == {"z": "it's"}


def test_a_non_text_parameter_name_is_refused_and_keeps_the_parameters(config):
    config.set_global_job_parameters({"k": "v"})
    with pytest.raises(Py4JError):
        config.set_global_job_parameters({1: "x"})
    assert config.get_global_job_parameters() == {"k": "v"}


def test_set_restart_strategy_warns_writes_options_and_reads_back(config, store):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        config.set_restart_strategy(RestartStrategies.fixed_delay_restart(3, 10000))
    assert [w.category for w in caught] == [DeprecationWarning]
    assert store.options["restart-strategy.type"] == "fixed-delay"
    assert store.options["restart-strategy.fixed-delay.delay"] == "10000 ms"
    assert config.get_restart_strategy() == RestartStrategies.fixed_delay_restart(3, 10000)


def test_the_api_view_survives_a_later_change_of_one_option(config, store):
    config.set_restart_strategy(RestartStrategies.fixed_delay_restart(5, 500))
    store.set_options({"restart-strategy.fixed-delay.attempts": "9"})
    assert config.get_restart_strategy() == RestartStrategies.fixed_delay_restart(5, 500)


def test_the_fall_back_removes_options_only_an_earlier_api_call_wrote(store):
    store.set_options({"restart-strategy.type": "none"})
    config = ExecutionConfig(store)
    config.set_restart_strategy(RestartStrategies.fall_back_restart())
    assert store.options["restart-strategy.type"] == "none"
    config.set_restart_strategy(RestartStrategies.fixed_delay_restart(1, 1))
    config.set_restart_strategy(RestartStrategies.fall_back_restart())
    assert "restart-strategy.type" not in store.options
    assert config.get_restart_strategy() == RestartStrategies.fall_back_restart()


def test_kryo_serializer_registration_is_declared_not_supported(config):
    with pytest.raises(NotSupportedError, match="ExecutionConfig.register_type_with_kryo_serializer"):
        config.register_type_with_kryo_serializer("a.B", "a.C")
    with pytest.raises(NotSupportedError, match="ExecutionConfig.add_default_kryo_serializer"):
        config.add_default_kryo_serializer("a.B", "a.C")


def test_kryo_and_pojo_types_of_existing_jvm_classes_are_stored(config):
    assert config.register_kryo_type("java.util.ArrayList") is config
    config.register_pojo_type("java.lang.String")
    assert config.get_registered_kryo_types() == ["java.util.ArrayList"]
    assert config.get_registered_pojo_types() == ["java.lang.String"]
    with pytest.raises(Py4JJavaError) as raised:
        config.register_kryo_type("com.nope.Missing")
    assert raised.value.java_exception.getClass().getName() == "java.lang.ClassNotFoundException"


def test_configs_over_the_same_store_are_equal(store):
    assert ExecutionConfig(store) == ExecutionConfig(store)
    assert ExecutionConfig(store) != ExecutionConfig(DictOptions())


def test_over_a_session_conf_options_live_under_the_flink_prefix(spark):
    j_conf = spark.newSession()._jsparkSession.conf()
    config = ExecutionConfig(j_conf)
    config.set_max_parallelism(64).set_restart_strategy(RestartStrategies.no_restart())
    assert j_conf.get("spark.flink.pipeline.max-parallelism") == "64"
    assert j_conf.get("spark.flink.restart-strategy.type") == "none"
    assert config.get_max_parallelism() == 64
    assert config.get_restart_strategy() == RestartStrategies.no_restart()
    assert ExecutionConfig(j_conf) == config
    assert isinstance(config._j_execution_config, SessionOptions)


def test_over_a_session_conf_a_fixed_delay_is_stored_as_registry_values(spark):
    j_conf = spark.newSession()._jsparkSession.conf()
    config = ExecutionConfig(j_conf)
    config.set_restart_strategy(RestartStrategies.fixed_delay_restart(3, 10000))
    assert j_conf.get("spark.flink.restart-strategy.fixed-delay.attempts") == "3"
    assert config.get_restart_strategy() == RestartStrategies.fixed_delay_restart(3, 10000)


def test_the_input_dependency_constraint_is_accepted_with_a_warning_and_stays_any(config):
    from pyflink_compat.common.input_dependency_constraint import InputDependencyConstraint

    with pytest.warns(DeprecationWarning, match="set_default_input_dependency_constraint"):
        assert config.set_default_input_dependency_constraint(InputDependencyConstraint.ALL) is config
    with pytest.warns(DeprecationWarning, match="get_default_input_dependency_constraint"):
        assert config.get_default_input_dependency_constraint() is InputDependencyConstraint.ANY


def test_the_execution_mode_is_stored_and_read_back(config):
    from pyflink_compat.common.execution_mode import ExecutionMode

    assert config.set_execution_mode(ExecutionMode.BATCH) is config
    assert config.get_execution_mode() is ExecutionMode.BATCH
