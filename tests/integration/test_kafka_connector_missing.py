"""A job writing to Kafka on a session without Spark's Kafka connector says so before it
starts: its plan names the missing class and the package to add for the running Spark and
Scala versions, and the job refuses to start with those words instead of Spark's own error.
The test session has no Kafka connector and no broker is needed: nothing is ever sent."""

from __future__ import annotations

import pytest

from pyflink_compat.spark.connector_packages import (
    KAFKA_PROVIDER, installed_kafka_package, kafka_package, running_kafka_package)
from pyflink_compat.util.exceptions import JobExecutionError
from pyflink_compat.util.java_classes import class_loadable


def _kafka_writer(env):
    frame = env.spark_session.readStream.format("rate").load().selectExpr("CAST(value AS STRING) AS value")
    return (frame.writeStream.format("kafka").option("kafka.bootstrap.servers", "localhost:9")
            .option("topic", "numbers"))


def test_the_package_is_the_one_for_the_running_spark_and_scala_versions(spark):
    scala = spark.sparkContext._jvm.scala.util.Properties.versionNumberString()
    expected = kafka_package(spark.version, ".".join(scala.split(".")[:2]))
    assert running_kafka_package() == expected == installed_kafka_package()
    assert expected.startswith("org.apache.spark:spark-sql-kafka-0-10_2.1")


def test_a_kafka_sink_without_the_connector_shows_in_the_plan_and_the_job_refuses_to_start(make_env, tmp_path):
    assert not class_loadable(KAFKA_PROVIDER)
    env = make_env()
    env.add_sink(_kafka_writer(env), name="to_kafka")
    env.add_sink(env.spark_session.readStream.format("rate").load().writeStream.format("noop"), name="to_noop")
    plan = str(env.get_job_plan())
    line = ("  missing connector: query 'to_kafka' writes to Kafka, but Spark's Kafka connector ({}) is "
            "not on the class path: start Spark with spark.jars.packages={} (or spark-submit --packages {})"
            ).format(KAFKA_PROVIDER, running_kafka_package(), running_kafka_package())
    assert line in plan.splitlines()
    assert "to_noop" not in "".join(p for p in plan.splitlines() if "missing connector" in p)
    with pytest.raises(JobExecutionError) as refused:
        env.execute("kafka-job")
    message = str(refused.value)
    assert "Job 'kafka-job' could not start: query 'to_kafka' writes to Kafka" in message
    assert "spark.jars.packages=" + running_kafka_package() in message
    assert "KAFKA_DATA_SOURCE_NOT_ENABLED" not in message


def test_a_job_without_kafka_has_no_missing_connector_line(make_env):
    env = make_env()
    env.add_sink(env.spark_session.readStream.format("rate").load().writeStream.format("noop"), name="to_noop")
    assert "missing connector" not in str(env.get_job_plan())
