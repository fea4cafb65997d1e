"""Spark's Kafka connector: the package that holds it, and whether a session's JVM has it.

Spark's Kafka source and sink are not part of Spark's own jars: they come in the package
``org.apache.spark:spark-sql-kafka-0-10_<Scala binary version>:<Spark version>``, which a
session loads when it starts with ``spark.jars.packages`` (or ``spark-submit --packages``).
Without it a Kafka writer is built without complaint and fails only when its query starts,
with Spark's ``KAFKA_DATA_SOURCE_NOT_ENABLED``; a job plan says so beforehand
(:func:`missing_kafka_connector`) and the job refuses to start with the same words.

A Kafka reader cannot be built without the package at all (``load()`` fails in Spark), so only
what a query writes is checked here.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["KAFKA_FORMAT", "KAFKA_PROVIDER", "kafka_package", "installed_kafka_package",
           "running_kafka_package", "missing_kafka_connector"]

#: The ``format`` of Spark's Kafka source and sink.
KAFKA_FORMAT = "kafka"
#: The class Spark looks up for that format.
KAFKA_PROVIDER = "org.apache.spark.sql.kafka010.KafkaSourceProvider"


def kafka_package(spark_version: str, scala_binary_version: str) -> str:
    """The Maven coordinates of Spark's Kafka connector for a Spark and Scala version.

    >>> kafka_package("4.3.0", "2.13")
    'org.apache.spark:spark-sql-kafka-0-10_2.13:4.3.0'
    """
    return "org.apache.spark:spark-sql-kafka-0-10_{}:{}".format(scala_binary_version, spark_version)


def installed_kafka_package() -> str:
    """The coordinates for the installed pyspark, without a JVM: the pyspark distribution is
    built with Scala 2.12 up to Spark 3.5 and with Scala 2.13 from Spark 4."""
    from importlib import metadata

    try:
        version = metadata.version("pyspark")
    except metadata.PackageNotFoundError:  # pragma: no cover - pyspark is a dependency
        return kafka_package("<spark version>", "<scala version>")
    return kafka_package(version, "2.12" if version.startswith(("2.", "3.")) else "2.13")


def running_kafka_package() -> str:
    """The coordinates for the Spark and Scala versions of the running JVM."""
    from pyflink_compat.util.java_classes import java_static

    spark_version = str(java_static("org.apache.spark.package", "SPARK_VERSION")())
    scala = str(java_static("scala.util.Properties", "versionNumberString")())
    return kafka_package(spark_version, ".".join(scala.split(".")[:2]))


def missing_kafka_connector(query: str, sink_format: Optional[str]) -> Optional[str]:
    """What keeps query ``query`` from writing to Kafka, with how to fix it, or ``None`` when
    it writes elsewhere or the session's JVM loads Spark's Kafka connector."""
    from pyflink_compat.util.java_classes import class_loadable

    if sink_format != KAFKA_FORMAT or class_loadable(KAFKA_PROVIDER):
        return None
    package = running_kafka_package()
    return ("query '{}' writes to Kafka, but Spark's Kafka connector ({}) is not on the class "
            "path: start Spark with spark.jars.packages={} (or spark-submit --packages {})").format(
                query, KAFKA_PROVIDER, package, package)
