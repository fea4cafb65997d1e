"""``'connector' = 'upsert-kafka'`` as a sink: Flink's options mapped to Spark's Kafka sink
options (checked against the validation Spark performs, since neither Spark's Kafka connector
nor a broker is installed where the tests run), and each change encoded as Flink's upsert-kafka
sink writes it, computed by Spark on a batch of changes."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from pyflink_compat.connectors import upsert_kafka
from pyflink_compat.connectors.options import ConnectorOptionWarning
from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.statements import CreateTable, parse_statements

from tests._helpers.kafka_validation import passes_spark_sink_validation

_OPTIONS = ("'connector' = 'upsert-kafka', 'topic' = 'totals', 'properties.bootstrap.servers' = 'b:9092', "
            "'key.format' = 'json', 'value.format' = 'json'")


def _table(columns: str, options: str = _OPTIONS) -> CreateTable:
    (statement,) = parse_statements("CREATE TABLE totals ({}) WITH ({})".format(columns, options))
    assert isinstance(statement, CreateTable)
    return statement


def test_the_options_map_to_spark_kafka_sink_options_that_pass_its_validation() -> None:
    table = _table("name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED",
                   _OPTIONS + ", 'properties.key.serializer' = 'x', 'sink.buffer-flush.max-rows' = '10'")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options, formats = upsert_kafka.sink_options(table)
    assert options == {"kafka.bootstrap.servers": "b:9092", "topic": "totals"}
    assert passes_spark_sink_validation(options)
    assert formats.key_columns == ["name"] and formats.value_columns == ["name", "n"]
    dropped = {str(w.message).split("'")[1] for w in caught if issubclass(w.category, ConnectorOptionWarning)}
    assert dropped == {"properties.key.serializer", "sink.buffer-flush.max-rows"}


def test_a_table_without_primary_key_or_with_an_unknown_format_is_refused() -> None:
    with pytest.raises(NotSupportedError, match="PRIMARY KEY"):
        upsert_kafka.sink_options(_table("name STRING, n BIGINT"))
    with pytest.raises(NotSupportedError, match="value.format"):
        upsert_kafka.sink_options(_table("name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED",
                                         _OPTIONS.replace("'value.format' = 'json'", "'value.format' = 'avro'")))


def test_each_change_becomes_flinks_upsert_record_minus_u_none_minus_d_a_tombstone(spark: Any) -> None:
    table = _table("k_name STRING, n BIGINT, PRIMARY KEY (k_name) NOT ENFORCED",
                   _OPTIONS + ", 'key.fields-prefix' = 'k_', 'value.fields-include' = 'EXCEPT_KEY'")
    _, formats = upsert_kafka.sink_options(table)
    changes = spark.createDataFrame(
        [("a", 1, "+I"), ("a", 1, "-U"), ("a", 2, "+U"), ("b", None, "+I"), ("b", None, "-D")],
        "k_name string, n bigint, kind string").coalesce(1)
    records = [tuple(r) for r in upsert_kafka.upsert_records(changes, formats, "kind").collect()]
    assert records == [('{"name":"a"}', '{"n":1}'), ('{"name":"a"}', '{"n":2}'),
                       ('{"name":"b"}', '{"n":null}'), ('{"name":"b"}', None)]


def test_an_upsert_kafka_table_is_not_read(t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE totals (name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED) "
                      "WITH ({})".format(_OPTIONS))
    with pytest.raises(NotSupportedError, match="Reading connector 'upsert-kafka'"):
        t_env.execute_sql("SELECT * FROM totals")
