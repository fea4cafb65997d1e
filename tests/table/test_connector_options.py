"""Connector options are mapped to Spark's as Flink means them, dropped with a warning, or
refused (no Spark needed).

Spark's Kafka connector jar is not installed where these tests run, and no broker runs: the
Kafka mapping is checked against the validation Spark's Kafka source and sink perform on their
options, as Spark documents it (``KafkaSourceProvider``: exactly one of ``subscribe``,
``subscribePattern``, ``assign``; ``kafka.bootstrap.servers`` required; the Kafka client
properties ``auto.offset.reset``, ``enable.auto.commit``, ``key.deserializer``,
``value.deserializer``, ``key.serializer``, ``value.serializer`` and ``interceptor.classes``
refused; ``startingOffsets`` ``earliest``, ``latest`` or per-partition JSON).
"""

from __future__ import annotations

import json
import warnings

import pytest

from pyflink_compat.connectors import kafka
from pyflink_compat.connectors.options import ConnectorOptionWarning
from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.statements import CreateTable, parse_statements
from pyflink_compat.sql.value_text import java_double_text, row_text
from pyflink_compat.sql.tableau import Tableau
from tests._helpers.kafka_validation import passes_spark_batch_source_validation
from tests._helpers.kafka_validation import passes_spark_source_validation as _passes_spark_validation


def _table(options: str) -> CreateTable:
    (statement,) = parse_statements("CREATE TABLE t (user_id STRING, n INT) WITH ({})".format(options))
    assert isinstance(statement, CreateTable)
    return statement


_BASE = ("'connector'='kafka','topic'='clicks','properties.bootstrap.servers'='broker:9092',"
         "'properties.group.id'='g','format'='json'")


def test_flinks_default_group_offsets_start_is_given_to_spark_explicitly_with_a_warning() -> None:
    with pytest.warns(ConnectorOptionWarning, match="committed offsets of group 'g'"):
        options, fmt = kafka.source_options(_table(_BASE))
    assert options["startingOffsets"] == "earliest" and fmt == "json"
    assert options["subscribe"] == "clicks" and options["kafka.group.id"] == "g"
    assert _passes_spark_validation(options)


@pytest.mark.parametrize("mode, extra, expected", [
    ("earliest-offset", "", ("startingOffsets", "earliest")),
    ("latest-offset", "", ("startingOffsets", "latest")),
    ("timestamp", ",'scan.startup.timestamp-millis'='1700000000000'", ("startingTimestamp", "1700000000000")),
    ("specific-offsets", ",'scan.startup.specific-offsets'='partition:0,offset:42;partition:1,offset:300'",
     ("startingOffsets", json.dumps({"clicks": {"0": 42, "1": 300}}))),
])
def test_each_startup_mode_maps_to_the_same_start_on_spark(mode: str, extra: str, expected: tuple) -> None:
    options, _ = kafka.source_options(_table(_BASE + ",'scan.startup.mode'='{}'{}".format(mode, extra)))
    assert options[expected[0]] == expected[1]
    assert _passes_spark_validation(options)


@pytest.mark.parametrize("extra, expected", [
    (",'scan.bounded.mode'='latest-offset'", ("endingOffsets", "latest")),
    (",'scan.bounded.mode'='timestamp','scan.bounded.timestamp-millis'='1700000000000'",
     ("endingTimestamp", "1700000000000")),
])
def test_a_bounded_table_maps_its_end_for_spark_s_batch_reader(extra: str, expected: tuple) -> None:
    options, _ = kafka.source_options(_table(_BASE + ",'scan.startup.mode'='earliest-offset'" + extra))
    assert options[expected[0]] == expected[1]
    # the streaming source refuses an end; the bounded table is read with spark.read
    assert not _passes_spark_validation(options)
    assert passes_spark_batch_source_validation(options)


def test_a_bounded_table_from_the_latest_offsets_is_refused_before_any_read() -> None:
    from pyflink_compat.missing import NotSupportedError

    table = _table(_BASE + ",'scan.startup.mode'='latest-offset','scan.bounded.mode'='latest-offset'")
    with pytest.raises(NotSupportedError, match="bounded table starting at the latest offsets"):
        kafka.source(table, None, None)  # refused before Spark is reached


def test_consumer_properties_spark_refuses_are_left_out_with_a_warning_saying_why() -> None:
    table = _table(_BASE + ",'properties.auto.offset.reset'='latest','properties.enable.auto.commit'='true',"
                   "'properties.key.deserializer'='x.Y','properties.security.protocol'='SSL'")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options, _ = kafka.source_options(table)
    texts = [str(w.message) for w in caught if issubclass(w.category, ConnectorOptionWarning)]
    assert any("'properties.auto.offset.reset'" in t and "scan.startup.mode" in t for t in texts)
    assert any("'properties.enable.auto.commit'" in t for t in texts)
    assert any("'properties.key.deserializer'" in t for t in texts)
    # group-offsets falls back to the reset strategy, as Flink does for a group without offsets
    assert options["startingOffsets"] == "latest"
    assert options["kafka.security.protocol"] == "SSL"
    assert _passes_spark_validation(options)


def test_format_options_are_mapped_or_dropped_with_a_warning_never_silently() -> None:
    table = _table(_BASE + ",'json.ignore-parse-errors'='true','json.map-null-key.mode'='DROP'")
    with pytest.warns(ConnectorOptionWarning, match="json.map-null-key.mode"):
        kafka.source_options(table)


def test_an_unknown_kafka_option_is_refused_naming_it_and_the_statement() -> None:
    with pytest.raises(NotSupportedError, match=r"Option 'scan.nothing' of connector 'kafka' \(in: CREATE TABLE t"):
        kafka.source_options(_table(_BASE + ",'scan.startup.mode'='earliest-offset','scan.nothing'='1'"))


def test_an_exactly_once_kafka_sink_is_refused_with_the_pyspark_way() -> None:
    with pytest.raises(NotSupportedError, match="at least once"):
        kafka.sink_options(_table(_BASE + ",'sink.delivery-guarantee'='exactly-once'"))


def test_print_rows_and_doubles_read_as_java_prints_them() -> None:
    assert row_text("+I", ("a", 1, None, 1e10, 0.5, True)) == "+I[a, 1, null, 1.0E10, 0.5, true]"
    assert [java_double_text(v) for v in (12345678.9, 1e-4, 100.0)] == ["1.23456789E7", "1.0E-4", "100.0"]


def test_an_empty_tableau_has_no_rows() -> None:
    from pyspark.sql.types import LongType

    tableau = Tableau(["n"], [LongType()])
    assert tableau.header()[1] == "| op |                    n |"
    assert tableau.footer()[-1] == "Empty set"
