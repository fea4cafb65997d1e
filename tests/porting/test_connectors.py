"""What PyFlink's Kafka, file, datagen and print configurations become: Spark's option names."""

from __future__ import annotations

import re
import textwrap

from pyflink_compat.porting import sql
from pyflink_compat.porting.command import port_text
from pyflink_compat.porting.report import Outcome

KAFKA_JOB = textwrap.dedent('''\
    from pyflink.common import WatermarkStrategy
    from pyflink.common.serialization import SimpleStringSchema
    from pyflink.datastream import StreamExecutionEnvironment
    from pyflink.datastream.connectors.kafka import (
        FlinkKafkaConsumer, FlinkKafkaProducer, KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
        KafkaSink, KafkaSource)
    from pyflink.table import StreamTableEnvironment

    SERVERS = "broker:9092"
    env = StreamExecutionEnvironment.get_execution_environment()
    source = KafkaSource.builder().set_bootstrap_servers(SERVERS).set_topic_pattern("in-.*") \\
        .set_group_id("g").set_starting_offsets(KafkaOffsetsInitializer.latest()) \\
        .set_property("security.protocol", "SSL").set_value_only_deserializer(SimpleStringSchema()).build()
    events = env.from_source(source, WatermarkStrategy.no_watermarks(), "events")
    consumer = FlinkKafkaConsumer(topics=["a", "b"], deserialization_schema=SimpleStringSchema(),
                                  properties={"bootstrap.servers": SERVERS, "group.id": "old"})
    legacy = env.add_source(consumer)
    sink = KafkaSink.builder().set_bootstrap_servers(SERVERS).set_record_serializer(
        KafkaRecordSerializationSchema.builder().set_topic("out")
        .set_value_serialization_schema(SimpleStringSchema()).build()).build()
    events.sink_to(sink)
    legacy.add_sink(FlinkKafkaProducer("copy", SimpleStringSchema(), {"bootstrap.servers": SERVERS}))
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql("""CREATE TABLE clicks (user_id STRING, n INT) WITH ('connector' = 'kafka',
        'topic' = 'clicks', 'properties.bootstrap.servers' = 'broker:9092',
        'properties.group.id' = 'tg', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')""")
    t_env.execute_sql("""CREATE TABLE totals (user_id STRING, total INT) WITH ('connector' = 'kafka',
        'topic' = 'totals', 'properties.bootstrap.servers' = 'broker:9092', 'format' = 'json')""")
    t_env.execute_sql("INSERT INTO totals SELECT user_id, n * 2 FROM clicks WHERE n > 0")
    ''')


def _options(code: str) -> list:

    return re.findall(r"\.option\('([^']+)'", code)


def test_kafka_tables_are_kept_for_the_table_runtime_to_map():
    ported, report = port_text(KAFKA_JOB)
    # the Kafka options are mapped at run time (pyflink_compat.connectors.kafka)
    assert "'connector' = 'kafka'" in ported and 't_env.execute_sql("INSERT INTO totals' in ported
    assert [f.outcome for f in report.findings if f.line >= 23] == [Outcome.PORTED] * 4


def test_an_updating_insert_into_a_kafka_table_is_left_with_flinks_refusal():
    job = KAFKA_JOB.replace("SELECT user_id, n * 2 FROM clicks WHERE n > 0",
                            "SELECT user_id, SUM(n) FROM clicks GROUP BY user_id")
    _, report = port_text(job)
    left = [f for f in report.findings if f.outcome is Outcome.LEFT]
    assert len(left) == 1 and "doesn't support consuming update changes" in str(left[0])


def test_with_to_pyspark_kafka_tables_become_spark_kafka_readers_and_writers():
    ported, report = port_text(KAFKA_JOB, to_pyspark=True)
    assert report.left == 0, [f for f in report.findings if f.outcome is Outcome.LEFT]
    assert "execute_sql" not in ported and ".option('startingOffsets', 'earliest')" in ported


def test_a_second_run_over_generated_code_changes_nothing():
    once, _ = port_text(KAFKA_JOB, to_pyspark=True)
    twice, report = port_text(once, to_pyspark=True)
    assert twice == once and report.left == 0


def test_with_to_pyspark_a_kafka_table_gets_the_runtimes_options_and_a_note_for_what_spark_refuses():
    job = KAFKA_JOB.replace("'properties.group.id' = 'tg', 'scan.startup.mode' = 'earliest-offset',",
                            "'properties.group.id' = 'tg', 'properties.auto.offset.reset' = 'latest',")
    ported, report = port_text(job, to_pyspark=True)
    reader = ported[ported.index("readStream.format('kafka')\n    .option('kafka.bootstrap.servers'"):]
    reader = reader[:reader.index("createOrReplaceTempView")]
    # Flink's default start (group offsets: where auto.offset.reset says for a new group) written
    # explicitly; the property Spark refuses left out, with a note
    assert ".option('startingOffsets', 'latest')" in reader and "auto.offset.reset" not in reader
    assert any("'properties.auto.offset.reset' = 'latest'" in note and "not passed to Spark" in note
               for note in report.notes)


def test_without_to_pyspark_the_datastream_kafka_connectors_stay_for_the_runtime():
    ported, report = port_text(KAFKA_JOB)
    # the DataStream runtime runs KafkaSource / KafkaSink (through the one Kafka mapping)
    assert [f.line for f in report.findings if f.outcome is Outcome.LEFT] == []
    assert {f.line for f in report.findings if f.outcome is Outcome.PORTED} >= {11, 14, 15, 17, 18, 21, 22}
    code = "\n".join(line for line in ported.splitlines() if not line.lstrip().startswith("#"))
    assert "readStream" not in code and "writeStream" not in code


def test_queries_spark_does_not_run_as_flink_does_are_left():
    assert sql.spark_query("SELECT a, COUNT(*) FROM t WHERE b > 1 GROUP BY a")
    assert not sql.spark_query("SELECT TUMBLE_START(ts, INTERVAL '1' MINUTE) FROM t "
                               "GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)")
    assert not sql.spark_query("SELECT my_udf(a) FROM t")
    assert not sql.spark_query("SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTES))")


def test_tables_with_time_attributes_or_unknown_types_are_not_translated():
    assert sql.create_table("CREATE TABLE t (a INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                            "WITH ('connector' = 'datagen')") is None
    assert sql.create_table("CREATE TABLE t (a INT, p AS PROCTIME()) WITH ('connector' = 'datagen')") is None
    table = sql.create_table("CREATE TEMPORARY TABLE IF NOT EXISTS `t` (a VARCHAR(10), b DECIMAL(10, 2)) "
                             "WITH ('connector' = 'print')")
    assert table is not None and table.columns == (("a", "STRING"), ("b", "DECIMAL(10,2)"))


def test_a_user_function_in_the_pipeline_is_left_whole_with_the_pyspark_way():
    job = textwrap.dedent('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        t_env.execute_sql("CREATE TABLE s (a INT) WITH ('connector' = 'datagen')")
        t_env.execute_sql("CREATE TABLE k (a INT) WITH ('connector' = 'print')")
        t_env.execute_sql("INSERT INTO k SELECT plus_one(a) FROM s").wait()
        ''')
    ported, report = port_text(job)
    # the runtime's translation has no such function, nor has Spark: the INSERT fails at run time
    left = [f for f in report.findings if f.outcome is Outcome.LEFT]
    assert [f.line for f in left] == [5]
    assert "No match found for function signature PLUS_ONE(...)" in left[0].note
    assert 't_env.execute_sql("INSERT INTO k SELECT plus_one(a) FROM s").wait()' in ported


def test_an_insert_in_a_comment_changes_nothing_of_a_sql_job_that_runs_as_it_is():
    job = textwrap.dedent('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        t_env.execute_sql("CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5')")
        t_env.execute_sql("CREATE TABLE out (a INT) WITH ('connector' = 'print')")
        # an earlier version also wrote back: t_env.execute_sql("INSERT INTO src SELECT a FROM out")
        QUERY = "INSERT INTO out SELECT a FROM src"
        t_env.execute_sql(QUERY).wait()
    ''')
    ported, report = port_text(job)
    # the SQL runs on Spark at run time: only the imports change, the comment stays as it was
    assert ported == job.replace("from pyflink.table", "from pyflink_compat.table")
    assert report.left == 0


INLINE_KAFKA_JOB = textwrap.dedent('''\
    from pyflink.common import WatermarkStrategy
    from pyflink.common.serialization import SimpleStringSchema
    from pyflink.datastream import StreamExecutionEnvironment
    from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer, KafkaOffsetsInitializer, KafkaSource
    env = StreamExecutionEnvironment.get_execution_environment()
    legacy = env.add_source(FlinkKafkaConsumer(topics=["a", "b"], deserialization_schema=SimpleStringSchema(),
                                               properties={"bootstrap.servers": "broker:9092", "group.id": "old"}))
    ended = env.from_source(KafkaSource.builder().set_bootstrap_servers("broker:9092").set_topics("t")
                            .set_bounded(KafkaOffsetsInitializer.latest())
                            .set_value_only_deserializer(SimpleStringSchema()).build(),
                            WatermarkStrategy.no_watermarks(), "ended")
    ''')


def test_with_to_pyspark_datastream_kafka_sources_get_the_runtimes_mapping_and_its_notes():
    ported, report = port_text(INLINE_KAFKA_JOB, to_pyspark=True)
    found = {f.line: f.outcome for f in report.findings}
    # the consumer starts from its group's offsets in Flink: Spark has none and starts at the
    # latest offsets, as the runtime's Kafka reader does, and says so
    assert found[6] is Outcome.REWRITTEN
    assert ".option('startingOffsets', 'latest')" in ported and ".option('subscribe', 'a,b')" in ported
    assert any("committed offsets of group 'old'" in note for note in report.notes)
    # the runtime refuses a bounded Kafka stream: the source is not written as PySpark
    assert found[8] is not Outcome.REWRITTEN and "ended = env.from_source(" in ported
