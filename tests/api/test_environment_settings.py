"""The environment's job-wide settings: where they go in Spark and what the job plan says."""

from __future__ import annotations

import pytest

from pyflink_compat.common import Configuration
from pyflink_compat.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink_compat.spark.plan import no_effect_message


def _configured(entries: dict) -> StreamExecutionEnvironment:
    env = StreamExecutionEnvironment.get_execution_environment()
    conf = Configuration()
    for key, value in entries.items():
        conf.set_string(key, value)
    env.configure(conf)
    return env


def test_the_parallelism_becomes_the_sessions_shuffle_partitions():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(7)
    assert env.spark_session.conf.get("spark.sql.shuffle.partitions") == "7"
    assert _configured({"parallelism.default": "4"}).spark_session.conf.get(
        "spark.sql.shuffle.partitions") == "4"


def test_a_misspelled_key_is_kept_and_the_plan_and_start_warning_name_the_intended_one():
    env = _configured({"execution.checkpointing.intervall": "5 s"})
    assert env.spark_session.conf.get("spark.flink.execution.checkpointing.intervall") == "5 s"
    plan = env.get_job_plan("typo-job")
    assert "did you mean 'execution.checkpointing.interval'?" in str(plan)
    message = no_effect_message(plan)
    assert message is not None and "execution.checkpointing.intervall" in message


def test_jars_and_python_dependencies_are_reported_with_how_to_give_them_to_spark():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.add_jars("file:///opt/a.jar")
    env.add_python_file("/opt/udfs.py")
    env.set_python_executable("venv/bin/python")
    text = str(env.get_job_plan())
    assert "spark-submit --jars file:///opt/a.jar" in text
    assert "python file: /opt/udfs.py (SparkContext.addPyFile at job start)" in text
    assert "spark.pyspark.python" in text


@pytest.mark.parametrize("mode, expected", [
    (RuntimeExecutionMode.BATCH, "BATCH"), (RuntimeExecutionMode.AUTOMATIC, "AUTOMATIC"),
    (RuntimeExecutionMode.STREAMING, "STREAMING")])
def test_the_runtime_mode_is_stored_under_its_flink_key(mode, expected):
    env = StreamExecutionEnvironment.get_execution_environment()
    assert env.set_runtime_mode(mode) is env
    assert env.spark_session.conf.get("spark.flink.execution.runtime-mode") == expected


@pytest.mark.parametrize("call", [
    lambda e: e.from_source(None, None, "src"), lambda e: e.add_source(None),
    lambda e: e.create_input(None), lambda e: e.get_execution_plan(),
    lambda e: e.register_cached_file("/tmp/f", "f"), lambda e: e.register_slot_sharing_group(None)])
def test_pipeline_methods_raise_not_supported_naming_the_pyspark_way(call):
    from pyflink_compat.missing import NotSupportedError

    env = StreamExecutionEnvironment.get_execution_environment()
    with pytest.raises(NotSupportedError, match="StreamExecutionEnvironment\\."):
        call(env)
