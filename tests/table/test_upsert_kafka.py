"""``'connector' = 'upsert-kafka'`` as a sink: Flink's options mapped to Spark's Kafka sink
options (checked against the validation Spark performs, since neither Spark's Kafka connector
nor a broker is installed where the tests run), and each change encoded as Flink's upsert-kafka
sink writes it, computed by Spark on a batch of changes."""

from __future__ import annotations

import warnings
from typing import Any, Dict, List, Tuple

import pyspark
import pytest

from pyflink_compat.connectors import upsert_kafka
from pyflink_compat.connectors.options import ConnectorOptionWarning
from pyflink_compat.divergences import RUNTIME_DIVERGENCES
from pyflink_compat.missing import NotSupportedError
from pyflink_compat.sql.statements import CreateTable, parse_statements

from tests._helpers.kafka_validation import passes_spark_sink_validation, passes_spark_source_validation

SPARK_MAJOR = int(pyspark.__version__.split(".")[0])
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


def test_a_read_maps_to_spark_kafka_source_options_from_the_earliest_offsets() -> None:
    table = _table("name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED",
                   _OPTIONS + ", 'properties.group.id' = 'g', 'properties.auto.offset.reset' = 'latest', "
                   "'sink.buffer-flush.max-rows' = '10', 'value.json.ignore-parse-errors' = 'true'")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        options, formats = upsert_kafka.source_options(table)
    # Flink's upsert-kafka source reads a topic from its start, whatever the group
    assert options == {"kafka.bootstrap.servers": "b:9092", "kafka.group.id": "g", "subscribe": "totals",
                       "startingOffsets": "earliest"}
    assert passes_spark_source_validation(options)
    assert formats.ignore_value_errors and not formats.ignore_key_errors
    dropped = {str(w.message).split("'")[1] for w in caught if issubclass(w.category, ConnectorOptionWarning)}
    assert dropped == {"properties.auto.offset.reset", "sink.buffer-flush.max-rows"}


#: Records as Spark's Kafka source gives them (the columns the table's changes are made of).
_RECORDS = "key binary, value binary, topic string, partition int, offset bigint"


def _changes_of(spark: Any, tmp_path: Any, table: CreateTable, batches: List[List[Tuple[str, Any, int]]]
                ) -> List[List[Tuple[Any, ...]]]:
    """The changes :func:`upsert_kafka.changes` gives for the micro-batches of records
    ``batches`` (key text, value text or None for a tombstone, partition), offsets counted per
    partition, each batch's changes as the micro-batch holds them."""
    from pyflink_compat.checkpoints.layout import PROVIDER_CLASS, ROCKSDB_PROVIDER

    _, formats = upsert_kafka.source_options(table)
    schema = spark.createDataFrame([], ", ".join("`{}` {}".format(c.name, c.data_type.sql("spark"))
                                                 for c in table.physical_columns)).schema
    topic = tmp_path / "topic"
    offsets: Dict[int, int] = {}
    received: List[List[Tuple[Any, ...]]] = []
    before = spark.conf.get(PROVIDER_CLASS, None)
    spark.conf.set(PROVIDER_CLASS, ROCKSDB_PROVIDER)
    query = None
    try:
        for batch in batches:
            rows = []
            for key, value, partition in batch:
                offsets[partition] = offsets.get(partition, -1) + 1
                rows.append((key.encode(), None if value is None else value.encode(), "totals", partition,
                             offsets[partition]))
            spark.createDataFrame(rows, _RECORDS).coalesce(1).write.mode("append").parquet(str(topic))
            if query is None:
                records = spark.readStream.schema(_RECORDS).parquet(str(topic))
                query = upsert_kafka.changes(records, formats, schema).writeStream \
                    .foreachBatch(lambda frame, _: received.append([tuple(r) for r in frame.collect()])) \
                    .option("checkpointLocation", str(tmp_path / "cp")).start()
            query.processAllAvailable()
    finally:
        if query is not None:
            query.stop()
        if before is None:
            spark.conf.unset(PROVIDER_CLASS)
        else:
            spark.conf.set(PROVIDER_CLASS, before)
    return [batch for batch in received if batch]


def _by_key(changes: List[Tuple[Any, ...]]) -> Dict[Any, List[Tuple[Any, ...]]]:
    """Each key's changes in order (the order between keys is not Flink's either)."""
    keyed: Dict[Any, List[Tuple[Any, ...]]] = {}
    for change in changes:
        keyed.setdefault(change[0], []).append(change)
    return keyed


@pytest.mark.skipif(SPARK_MAJOR < 4, reason="transformWithState exists from Spark 4.0 on")
def test_the_records_of_each_key_become_flinks_changes_and_a_tombstone_deletes_the_row_kept(
        spark: Any, tmp_path: Any) -> None:
    table = _table("k_name STRING, n BIGINT, PRIMARY KEY (k_name) NOT ENFORCED",
                   _OPTIONS + ", 'key.fields-prefix' = 'k_', 'value.fields-include' = 'EXCEPT_KEY'")
    first, second = _changes_of(spark, tmp_path, table, [
        [('{"name":"a"}', '{"n":1}', 0), ('{"name":"b"}', '{"n":5}', 1), ('{"name":"a"}', '{"n":2}', 0),
         ('{"name":"a"}', '{"n":2}', 0),  # the row the key has: nothing
         ('{"name":"c"}', None, 1)],  # a tombstone of a key without a row: nothing
        [('{"name":"b"}', None, 1), ('{"name":"a"}', '{"n":3}', 0), ('{"name":"b"}', '{"n":7}', 1)],
    ])
    assert _by_key(first) == {"a": [("a", 1, "+I"), ("a", 1, "-U"), ("a", 2, "+U")], "b": [("b", 5, "+I")]}
    # the state of the first batch decides the second's kinds; a deletion carries the whole row
    assert _by_key(second) == {"a": [("a", 2, "-U"), ("a", 3, "+U")], "b": [("b", 5, "-D"), ("b", 7, "+I")]}


@pytest.mark.skipif(SPARK_MAJOR < 4, reason="transformWithState exists from Spark 4.0 on")
def test_a_micro_batchs_changes_come_key_by_key_not_in_the_topics_order(spark: Any, tmp_path: Any) -> None:
    table = _table("name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED")
    (changes,) = _changes_of(spark, tmp_path, table, [
        [('{"name":"a"}', '{"name":"a","n":1}', 0), ('{"name":"b"}', '{"name":"b","n":2}', 0),
         ('{"name":"a"}', '{"name":"a","n":5}', 0)]])
    flink = [("a", 1, "+I"), ("b", 2, "+I"), ("a", 1, "-U"), ("a", 5, "+U")]  # the topic's order
    assert sorted(changes) == sorted(flink) and changes != flink
    where = [i for i, change in enumerate(changes) if change[0] == "a"]
    assert where == list(range(where[0], where[0] + 3))  # a's three changes together
    assert "table/upsert-kafka-changes-key-by-key" in [s for d in RUNTIME_DIVERGENCES for s in d.steps]


@pytest.mark.skipif(SPARK_MAJOR < 4, reason="transformWithState exists from Spark 4.0 on")
def test_with_all_fields_in_the_value_a_key_column_is_read_from_the_value_and_from_the_key_of_a_tombstone(
        spark: Any, tmp_path: Any) -> None:
    table = _table("name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED")
    (changes,) = _changes_of(spark, tmp_path, table, [
        [('{"name":"a"}', '{"name":"a","n":1}', 0), ('{"name":"a"}', None, 0)]])
    assert changes == [("a", 1, "+I"), ("a", 1, "-D")]


def test_queries_other_than_projections_filters_and_group_aggregations_of_the_table_are_refused(
        t_env: Any) -> None:
    t_env.execute_sql("CREATE TABLE totals (name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED) "
                      "WITH ({})".format(_OPTIONS))
    t_env.execute_sql("CREATE TABLE names (name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
    t_env.execute_sql("CREATE TABLE out (name STRING, n BIGINT) WITH ('connector' = 'print')")
    for query in ("SELECT t.name, t.n FROM totals AS t JOIN names AS s ON t.name = s.name",
                  "SELECT DISTINCT name, n FROM totals",
                  "SELECT name, n FROM (SELECT name, n FROM totals) UNION ALL (SELECT name, 1 FROM names)"):
        with pytest.raises(NotSupportedError, match="A query of the upsert-kafka table totals other than "
                                                    "projections and filters") as refused:
            t_env.execute_sql("INSERT INTO out " + query)
        assert "transformWithState or a foreachBatch MERGE" in str(refused.value)


def test_a_batch_job_cannot_read_the_table(make_env: Any) -> None:
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment

    batch_t_env = StreamTableEnvironment.create(make_env(), EnvironmentSettings.in_batch_mode())
    batch_t_env.execute_sql("CREATE TABLE totals (name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED) "
                            "WITH ({})".format(_OPTIONS))
    with pytest.raises(NotSupportedError, match="or in batch mode"):
        batch_t_env.execute_sql("SELECT name, n FROM totals WHERE n > 1")
