"""The one table of PyFlink APIs that are declared but not supported, with the PySpark way.

Keys are PyFlink names: a class (``Types``), a method (``StreamExecutionEnvironment.from_source``),
a function or class qualified by its module (``pyflink.table.udf.udf``) or a module path
(``pyflink.datastream.connectors.kafka``). A lookup tries the exact name, then the name in its
module, then its class (and the classes it inherits from, :data:`BASES`), then the longest
matching module prefix, and falls back to :data:`DEFAULT_HINT`.
"""

from __future__ import annotations

from typing import Dict, Iterator, Optional

__all__ = ["HINTS", "BASES", "hint_for", "DEFAULT_HINT"]

DEFAULT_HINT = ("Write this part of the pipeline with PySpark (Structured Streaming) from "
                "env.spark_session.")

_KAFKA = ('spark.readStream.format("kafka") with the spark-sql-kafka-0-10 package, and '
          'writeStream.format("kafka") to write')
_SINK = ('Write the result with DataFrame.writeStream: a built-in format (writeStream.format(...)), '
         'or DataFrame.foreachBatch / writeStream.foreachBatch(fn) to write each micro-batch with '
         'the batch writer of any store.')
_UDF = ("Wrap Python code with pyspark.sql.functions.udf or pandas_udf (pyspark.sql.functions.udtf "
        "for table functions) and register it for SQL with spark.udf.register.")
_WINDOWS = ("Group by pyspark.sql.functions.window (tumbling or sliding) or session_window on the "
            "event-time column, after DataFrame.withWatermark.")
_STATE = ("Keep per-key state with GroupedData.applyInPandasWithState or "
          "transformWithStateInPandas (a pyspark.sql.streaming.StatefulProcessor).")

#: Class name to the classes whose hints it inherits (``StreamTableEnvironment.execute_sql``
#: reads ``TableEnvironment.execute_sql``).
BASES: Dict[str, str] = {
    "StreamTableEnvironment": "TableEnvironment",
}

HINTS: Dict[str, str] = {
    # -- pyflink.common ----------------------------------------------------------------------
    "pyflink.common": DEFAULT_HINT,
    "TypeInformation.get_java_type_info": ("Types have no JVM counterpart: declare Spark schemas "
                                           "with pyspark.sql.types (StructType, StringType, ...)."),
    "RowKind": ("Spark rows carry no change kind: use DataFrame.writeStream.outputMode("
                              "'append', 'update' or 'complete') to choose how results are emitted."),
    "WatermarkStrategy.with_watermark_alignment": ("Spark has one watermark per query: use "
                                                   "DataFrame.withWatermark(column, delay)."),
    "pyflink.common.watermark_strategy": "Use DataFrame.withWatermark(column, delay) on the streaming DataFrame.",
    "SimpleStringSchema": ('Read the Kafka value as binary and convert it with '
                           'pyspark.sql.functions.col("value").cast("string").'),
    "pyflink.common.serialization": ("Decode and encode columns with pyspark.sql.functions "
                                     "(cast, from_json / to_json, from_csv / to_csv) or "
                                     "pyspark.sql.avro.functions."),
    "pyflink.common.serializer": "Spark serializes rows itself: declare the schema with pyspark.sql.types.",
    "pyflink.common.config_options": ("Set options with SparkSession.builder.config(key, value) or "
                                      "spark.conf.set(key, value)."),
    "pyflink.common.io": "Read input with spark.readStream.format(...) (text, csv, json, parquet, ...).",
    "ExecutionConfig": "Set Spark options with spark.conf.set(key, value).",
    # -- pyflink.datastream: streams and functions ---------------------------------------------
    "pyflink.datastream": DEFAULT_HINT,
    "DataStream": ("Use a streaming DataFrame: select / withColumn / filter for map and filter, "
                   "explode for flat_map, DataFrame.mapInPandas for arbitrary Python code."),
    "DataStream.window_all": _WINDOWS,
    "KeyedStream.window": _WINDOWS,
    "WindowedStream.allowed_lateness": _WINDOWS,
    "WindowedStream.side_output_late_data": _WINDOWS,
    "KeyedStream.count_window": ("Number the rows of each key in a GroupedData.transformWithState "
                                 "processor and emit every n-th group."),
    "DataStream.connect": ("Join or union the streaming DataFrames (DataFrame.join / unionByName), "
                           "then process them together with GroupedData.transformWithState."),
    "KeyedStream.connect": ("Join or union the streaming DataFrames (DataFrame.join / unionByName), "
                            "then process them together with GroupedData.transformWithState."),
    "DataStream.broadcast": ("Join the stream with a small DataFrame (pyspark.sql.functions.broadcast); "
                             "broadcast(MapStateDescriptor(...)) runs, keeping the rules of a broadcast "
                             "stream in broadcast state."),
    "DataStream.partition_custom": "Repartition with DataFrame.repartition(n, column).",
    "DataStream.add_sink": _SINK,
    "DataStream.sink_to": _SINK,
    "DataStream.get_side_output": ("Split a stream with DataFrame.filter into several DataFrames, one "
                                   "per output."),
    "DataStream.cache": "Cache a bounded DataFrame with DataFrame.cache() (batch reads only).",
    "RuntimeContext.get_metrics_group": ("Report metrics with a pyspark.sql.streaming.StreamingQueryListener "
                                         "or an Observation (DataFrame.observe)."),
    "pyflink.datastream.data_stream": ("Use a streaming DataFrame: DataFrame.groupBy for key_by, "
                                       "DataFrame.union / join to combine streams."),
    "DataStreamSink": _SINK,
    # the sinks of a stream: hints about writing, not about map and filter
    "DataStream.print": ("Print every row of each micro-batch from DataFrame.writeStream.foreachBatch "
                         "(Spark's console sink shows 20 rows a batch, cut at 20 characters, unless "
                         "given numRows and truncate=false)."),
    "KeyedStream.print": ("Print every row of each micro-batch from DataFrame.writeStream.foreachBatch "
                          "(Spark's console sink shows 20 rows a batch, cut at 20 characters, unless "
                          "given numRows and truncate=false)."),
    "KeyedStream.add_sink": _SINK,
    "KeyedStream.sink_to": _SINK,
    "pyflink.datastream.functions": ("Express the function with pyspark.sql.functions columns, "
                                     "a pyspark.sql.functions.udf / pandas_udf, or "
                                     "DataFrame.mapInPandas."),
    "pyflink.datastream.state": _STATE,
    "pyflink.datastream.window": ("Group by pyspark.sql.functions.window (tumbling or sliding) or "
                                  "session_window on the event-time column, after "
                                  "DataFrame.withWatermark."),
    "WindowFunction": "Group by pyspark.sql.functions.window(...) and aggregate with DataFrame.groupBy(...).agg(...).",
    "ProcessWindowFunction": ("Group by pyspark.sql.functions.window(...) and apply Python code per "
                              "group with GroupedData.applyInPandas."),
    "SourceFunction": "Read with spark.readStream, or write a source with the pyspark.sql.datasource API.",
    "SinkFunction": _SINK,
    "pyflink.datastream.output_tag": "Split a stream with DataFrame.filter into several DataFrames, one per output.",
    "OutputTag": "Split a stream with DataFrame.filter into several DataFrames, one per output.",
    "pyflink.datastream.slot_sharing_group": ("Spark schedules tasks itself; size executors with "
                                              "spark.executor.* options."),
    # -- StreamExecutionEnvironment's pipeline methods -----------------------------------------
    "StreamExecutionEnvironment.from_source":
        "Read the source with spark.readStream (for example spark.readStream.format(\"kafka\")).",
    "StreamExecutionEnvironment.add_source":
        "Read the source with spark.readStream.format(...), or a pyspark.sql.datasource reader.",
    "StreamExecutionEnvironment.read_text_file":
        "Read the files with spark.readStream.text(path) (or spark.read.text for a bounded run).",
    "StreamExecutionEnvironment.create_input":
        "Read the input with spark.readStream.format(...).load(), or spark.read for a bounded run.",
    "StreamExecutionEnvironment.get_execution_plan":
        "Print the Spark plan of a DataFrame with DataFrame.explain().",
    "StreamExecutionEnvironment.register_cached_file":
        "Ship the file to the executors with spark.sparkContext.addFile(path).",
    "StreamExecutionEnvironment.register_slot_sharing_group":
        "Spark schedules tasks itself; size executors with spark.executor.* options.",
    # -- connectors and formats --------------------------------------------------------------
    "pyflink.datastream.connectors": DEFAULT_HINT,
    "pyflink.datastream.connectors.kafka": "Use " + _KAFKA + ".",
    "KafkaSource": "Read Kafka with " + _KAFKA + ".",
    "KafkaSink": ('Write Kafka with DataFrame.writeStream.format("kafka") (a "value" column, '
                  'optional "key" and "topic" columns).'),
    "FlinkKafkaConsumer": "Read Kafka with " + _KAFKA + ".",
    "FlinkKafkaProducer": 'Write Kafka with DataFrame.writeStream.format("kafka").',
    "pyflink.datastream.connectors.file_system":
        ('Read files with spark.readStream.format("text" / "csv" / "json" / "parquet" / "orc") and '
         'write them with writeStream.format(...).option("path", ...).'),
    "pyflink.datastream.connectors.jdbc":
        "Write each micro-batch with DataFrame.writeStream.foreachBatch(fn), fn calling "
        "batch_df.write.jdbc(url, table, properties=...).",
    "pyflink.datastream.connectors.kinesis":
        "Spark has no built-in Kinesis stream source: use a Kinesis connector for Structured "
        "Streaming, or write one with the pyspark.sql.datasource API.",
    "pyflink.datastream.connectors.pulsar":
        "Use the Pulsar connector for Spark (spark.readStream.format(\"pulsar\") once it is on "
        "the class path).",
    "pyflink.datastream.connectors.rabbitmq":
        "Spark has no RabbitMQ connector: write a source with the pyspark.sql.datasource API and "
        "write results with writeStream.foreachBatch(fn).",
    "pyflink.datastream.connectors.elasticsearch":
        "Write each micro-batch with writeStream.foreachBatch(fn), fn using the elasticsearch-spark "
        "connector (batch_df.write.format(\"es\")).",
    "pyflink.datastream.connectors.cassandra":
        "Write each micro-batch with writeStream.foreachBatch(fn), fn using the Spark Cassandra "
        "connector (batch_df.write.format(\"org.apache.spark.sql.cassandra\")).",
    "pyflink.datastream.connectors.hybrid_source":
        "Process the history with spark.read in a batch run, then start the streaming query "
        "with spark.readStream.",
    "pyflink.datastream.connectors.number_seq":
        "Use spark.range(start, end) for a bounded sequence, spark.readStream.format(\"rate\") "
        "for an unbounded one.",
    "pyflink.datastream.connectors.base": _SINK,
    "pyflink.datastream.formats": DEFAULT_HINT,
    "pyflink.datastream.formats.json": "Parse and write JSON with pyspark.sql.functions.from_json / to_json, "
                                       "or the \"json\" file format.",
    "pyflink.datastream.formats.csv": "Parse and write CSV with pyspark.sql.functions.from_csv / to_csv, "
                                      "or the \"csv\" file format.",
    "pyflink.datastream.formats.avro": "Use pyspark.sql.avro.functions.from_avro / to_avro (spark-avro package).",
    "pyflink.datastream.formats.parquet": ("Read and write Parquet with spark.readStream.parquet(path) and "
                                           "writeStream.format(\"parquet\")."),
    "pyflink.datastream.formats.orc": ("Read and write ORC with spark.readStream.orc(path) and "
                                       "writeStream.format(\"orc\")."),
    # -- pyflink.table -----------------------------------------------------------------------
    "pyflink.table": "Use Spark SQL and DataFrames from env.spark_session (spark.sql, spark.table).",
    "TableEnvironment": "Use the SparkSession (env.spark_session): spark.sql, spark.table, spark.catalog.",
    "Table": "Use a pyspark.sql.DataFrame.",
    "pyflink.table.table": "Use a pyspark.sql.DataFrame (DataFrame.groupBy, join, select, ...).",
    "TableResult": "Results of execute_sql run; spark.sql(...) returns a DataFrame: use collect() on it.",
    "StatementSet": "Inserts into declared tables run as one job; otherwise start one streaming "
    "query per sink with DataFrame.writeStream.",
    "DataTypes": "Declare the schema with pyspark.sql.types (StructType, StringType, ...).",
    "pyflink.table.types": "Declare the schema with pyspark.sql.types (StructType, StringType, ...).",
    "Schema": "Declare the schema with pyspark.sql.types.StructType.",
    "TableSchema": "Declare the schema with pyspark.sql.types.StructType.",
    "pyflink.table.table_descriptor": ("Describe sources and sinks with spark.readStream.format(...)"
                                       ".option(...) and DataFrame.writeStream.format(...)."),
    "pyflink.table.descriptors": ("Describe sources and sinks with spark.readStream.format(...)"
                                  ".option(...) and DataFrame.writeStream.format(...)."),
    "pyflink.table.expressions": "Use pyspark.sql.functions (col, lit, when, expr, ...).",
    "pyflink.table.expression": "Use pyspark.sql.Column expressions built with pyspark.sql.functions.",
    "pyflink.table.window": ("Group by pyspark.sql.functions.window / session_window, or use "
                             "pyspark.sql.Window for over windows."),
    "pyflink.table.udf": _UDF,
    "pyflink.table.functions": "Use Spark's built-in aggregates in pyspark.sql.functions (sum, count, avg, ...).",
    "pyflink.table.data_view": _STATE,
    "pyflink.table.catalog": "Use spark.catalog (listTables, listDatabases, setCurrentDatabase, ...).",
    "pyflink.table.module": "Spark's functions are built in; register more with spark.udf.register.",
    "pyflink.table.sources": "Read with spark.readStream.format(...).",
    "pyflink.table.sinks": _SINK,
    "pyflink.table.changelog_mode": "Choose the output mode with DataFrame.writeStream.outputMode(...).",
    "pyflink.table.result_kind": "spark.sql(...) returns a DataFrame.",
    "pyflink.table.explain_detail": "Print a plan with DataFrame.explain(mode).",
    "pyflink.table.sql_dialect": "Spark SQL has one dialect.",
    # -- TableEnvironment's pipeline methods -------------------------------------------------
    "TableEnvironment.execute_sql":
        "CREATE/DROP TABLE and VIEW, INSERT INTO, queries and SET/RESET run; for other statements "
        "use spark.sql(...) on views of streaming DataFrames.",
    "TableEnvironment.sql_query":
        "Queries over the tables and views of the environment run; for others use spark.sql(...).",
    "TableEnvironment.explain_sql": "Run spark.sql(\"EXPLAIN ...\"), or DataFrame.explain() on the query.",
    "TableEnvironment.from_path":
        "Tables and views of the environment run; read others with spark.readStream.table(name).",
    "TableEnvironment.from_elements":
        "Rows with column names run (types inferred); with a DataType schema build the data with "
        "spark.createDataFrame(rows, schema).",
    "TableEnvironment.from_pandas": "Build the data with spark.createDataFrame(pandas_df).",
    "TableEnvironment.from_descriptor": "Read with spark.readStream.format(...).option(...).load().",
    "TableEnvironment.from_table_source": "Read with spark.readStream.format(...).load().",
    "TableEnvironment.scan": "Read a table or view with spark.table(name).",
    "TableEnvironment.create_temporary_view":
        "Views of a Table run; name a DataFrame for SQL with DataFrame.createOrReplaceTempView(name).",
    "TableEnvironment.create_table":
        "Create a table with spark.sql(\"CREATE TABLE ...\") or spark.catalog.createTable.",
    "TableEnvironment.create_temporary_table":
        "Name a source DataFrame for SQL with DataFrame.createOrReplaceTempView(name).",
    "TableEnvironment.register_table": "Name a DataFrame for SQL with DataFrame.createOrReplaceTempView(name).",
    "TableEnvironment.register_table_source": "Name a source DataFrame with DataFrame.createOrReplaceTempView(name).",
    "TableEnvironment.register_table_sink": _SINK,
    "TableEnvironment.create_temporary_function": _UDF,
    "TableEnvironment.create_temporary_system_function": _UDF,
    "TableEnvironment.create_java_temporary_function":
        "Register a Java UDF with spark.udf.registerJavaFunction(name, class_name).",
    "TableEnvironment.create_java_temporary_system_function":
        "Register a Java UDF with spark.udf.registerJavaFunction(name, class_name).",
    "TableEnvironment.create_java_function":
        "Register a Java UDF with spark.udf.registerJavaFunction(name, class_name).",
    "TableEnvironment.register_function": _UDF,
    "TableEnvironment.register_java_function":
        "Register a Java UDF with spark.udf.registerJavaFunction(name, class_name).",
    "TableEnvironment.drop_temporary_view": "Drop a view with spark.catalog.dropTempView(name).",
    "TableEnvironment.drop_temporary_table": "Drop a view with spark.catalog.dropTempView(name).",
    "TableEnvironment.list_tables": "List tables and views with spark.catalog.listTables().",
    "TableEnvironment.list_views": "List tables and views with spark.catalog.listTables().",
    "TableEnvironment.list_temporary_views": "List tables and views with spark.catalog.listTables().",
    "TableEnvironment.list_databases": "List databases with spark.catalog.listDatabases().",
    "TableEnvironment.list_catalogs": "List catalogs with spark.catalog.listCatalogs().",
    "TableEnvironment.list_functions": "List functions with spark.catalog.listFunctions().",
    "TableEnvironment.use_catalog": "Switch catalog with spark.catalog.setCurrentCatalog(name).",
    "TableEnvironment.use_database": "Switch database with spark.catalog.setCurrentDatabase(name).",
    "TableEnvironment.add_python_file":
        "Ship Python code to the executors with spark.sparkContext.addPyFile(path).",
    "TableEnvironment.add_python_archive": "Ship the archive with spark.sparkContext.addArchive(path).",
    "StreamTableEnvironment.from_data_stream":
        "A streaming DataFrame is already a table: query it with DataFrame methods, or name it with "
        "createOrReplaceTempView for spark.sql.",
    "StreamTableEnvironment.from_changelog_stream": "Spark has no changelog streams: aggregate the DataFrame and "
                                                    "choose writeStream.outputMode('update').",
    "StreamTableEnvironment.to_data_stream": "spark.sql(...) already returns a (streaming) DataFrame.",
    "StreamTableEnvironment.to_changelog_stream": "spark.sql(...) already returns a (streaming) DataFrame; "
                                                  "emit changes with writeStream.outputMode('update').",
    "StreamTableEnvironment.to_append_stream": "spark.sql(...) already returns a (streaming) DataFrame.",
    "StreamTableEnvironment.to_retract_stream": "spark.sql(...) already returns a (streaming) DataFrame; "
                                                "emit changes with writeStream.outputMode('update').",
    "pyflink.table.utils": ("Convert between pandas and Spark with spark.createDataFrame(pandas_df) "
                            "and DataFrame.toPandas() (Arrow-backed when "
                            "spark.sql.execution.arrow.pyspark.enabled is true)."),
    "pyflink.table.serializers": ("Spark moves pandas data through Arrow itself: use "
                                  "spark.createDataFrame(pandas_df), DataFrame.toPandas() or "
                                  "pyspark.sql.functions.pandas_udf."),
    # -- pyflink.metrics ---------------------------------------------------------------------
    "pyflink.metrics": ("Spark reports each streaming query's progress itself (StreamingQuery.lastProgress, "
                        "a pyspark.sql.streaming.StreamingQueryListener added with "
                        "spark.streams.addListener); count rows of your own with DataFrame.observe."),
    # -- PyFlink's gateway, serializers and helpers --------------------------------------------
    "pyflink.java_gateway": ("The JVM is the Spark session's: reach it with "
                             "pyflink_compat.java_gateway.get_gateway() or spark._jvm; Spark "
                             "launches it, so there is nothing to launch or import into it."),
    "pyflink.serializers": "Spark serializes rows itself: declare the schema with pyspark.sql.types.",
    "pyflink.common.utils": "Reach JVM objects through the Spark session (spark._jvm).",
    "pyflink.datastream.utils": ("Declare the schema with pyspark.sql.types, and pass options to "
                                 "spark.readStream.option(key, value)."),
    # -- pyflink.util ------------------------------------------------------------------------
    "pyflink.util.java_utils": ("Reach the JVM through the Spark session (spark._jvm), as pyflink_compat "
                                "does; its Java helpers have no Spark equivalent."),
}


def _candidates(api: str, module: Optional[str]) -> Iterator[str]:
    yield api
    if module is not None:
        yield module + "." + api
    if "." in api:
        owner, member = api.rsplit(".", 1)
        while True:
            yield owner
            if module is not None:
                yield module + "." + owner
            base = BASES.get(owner)
            if base is None:
                break
            yield base + "." + member
            owner = base
    if module is not None:
        yield module
    for path in (module, api):
        while path is not None and "." in path:
            path = path.rsplit(".", 1)[0]
            yield path


def hint_for(api: str, module: Optional[str] = None) -> str:
    """The PySpark way for ``api``, or :data:`DEFAULT_HINT`.

    :param api: The PyFlink name (``Types``, ``Types.STRING``, ``TableEnvironment.execute_sql``).
    :param module: The PyFlink module defining it, when known.
    """
    for key in _candidates(api, module):
        if key in HINTS:
            return HINTS[key]
    return DEFAULT_HINT
