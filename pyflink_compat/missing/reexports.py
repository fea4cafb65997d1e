"""Names PyFlink 1.20.5 modules hold besides their ``__all__``, resolved where they are defined.

Real jobs import some names from a module that only imports them (``DeliveryGuarantee`` from
the Kafka connector, ``FileSink`` from the connectors package, which PyFlink keeps for older
jobs). Each entry maps such a name to the mirrored module that defines it, so the import gives
the same object as the defining module. The table is recorded from live PyFlink 1.20.5
(public names only: a name is listed when some mirrored module has it in its ``__all__``).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable, Dict, Optional

__all__ = ["REEXPORTS", "with_reexports"]

#: Module -> name -> the module whose object it is.
REEXPORTS: Dict[str, Dict[str, str]] = {
    'pyflink_compat.common': {
        'AvroRowDeserializationSchema': 'pyflink_compat.datastream.formats.avro',
        'AvroRowSerializationSchema': 'pyflink_compat.datastream.formats.avro',
        'CsvRowDeserializationSchema': 'pyflink_compat.datastream.formats.csv',
        'CsvRowSerializationSchema': 'pyflink_compat.datastream.formats.csv',
        'JsonRowDeserializationSchema': 'pyflink_compat.datastream.formats.json',
        'JsonRowSerializationSchema': 'pyflink_compat.datastream.formats.json',
    },
    'pyflink_compat.common.execution_config': {
        'ExecutionMode': 'pyflink_compat.common.execution_mode',
        'InputDependencyConstraint': 'pyflink_compat.common.input_dependency_constraint',
        'RestartStrategies': 'pyflink_compat.common.restart_strategy',
        'RestartStrategyConfiguration': 'pyflink_compat.common.restart_strategy',
    },
    'pyflink_compat.common.job_client': {
        'CompletableFuture': 'pyflink_compat.common.completable_future',
        'JobExecutionResult': 'pyflink_compat.common.job_execution_result',
        'JobID': 'pyflink_compat.common.job_id',
        'JobStatus': 'pyflink_compat.common.job_status',
    },
    'pyflink_compat.common.job_execution_result': {
        'JobID': 'pyflink_compat.common.job_id',
    },
    'pyflink_compat.common.watermark_strategy': {
        'Duration': 'pyflink_compat.common.time',
    },
    'pyflink_compat.datastream.checkpoint_config': {
        'CheckpointStorage': 'pyflink_compat.datastream.checkpoint_storage',
        'CheckpointingMode': 'pyflink_compat.datastream.checkpointing_mode',
        'Duration': 'pyflink_compat.common.time',
        'ExternalizedCheckpointRetention': 'pyflink_compat.datastream.externalized_checkpoint_retention',
    },
    'pyflink_compat.datastream.connectors': {
        'BucketAssigner': 'pyflink_compat.datastream.connectors.file_system',
        'FileEnumeratorProvider': 'pyflink_compat.datastream.connectors.file_system',
        'FileSink': 'pyflink_compat.datastream.connectors.file_system',
        'FileSource': 'pyflink_compat.datastream.connectors.file_system',
        'FileSourceBuilder': 'pyflink_compat.datastream.connectors.file_system',
        'FileSplitAssignerProvider': 'pyflink_compat.datastream.connectors.file_system',
        'FlinkKafkaConsumer': 'pyflink_compat.datastream.connectors.kafka',
        'FlinkKafkaProducer': 'pyflink_compat.datastream.connectors.kafka',
        'JdbcConnectionOptions': 'pyflink_compat.datastream.connectors.jdbc',
        'JdbcExecutionOptions': 'pyflink_compat.datastream.connectors.jdbc',
        'JdbcSink': 'pyflink_compat.datastream.connectors.jdbc',
        'KafkaSource': 'pyflink_compat.datastream.connectors.kafka',
        'NumberSequenceSource': 'pyflink_compat.datastream.connectors.number_seq',
        'OutputFileConfig': 'pyflink_compat.datastream.connectors.file_system',
        'PulsarSource': 'pyflink_compat.datastream.connectors.pulsar',
        'PulsarSourceBuilder': 'pyflink_compat.datastream.connectors.pulsar',
        'RMQConnectionConfig': 'pyflink_compat.datastream.connectors.rabbitmq',
        'RMQSink': 'pyflink_compat.datastream.connectors.rabbitmq',
        'RMQSource': 'pyflink_compat.datastream.connectors.rabbitmq',
        'RollingPolicy': 'pyflink_compat.datastream.connectors.file_system',
        'Semantic': 'pyflink_compat.datastream.connectors.kafka',
        'StartCursor': 'pyflink_compat.datastream.connectors.pulsar',
        'StopCursor': 'pyflink_compat.datastream.connectors.pulsar',
        'StreamFormat': 'pyflink_compat.datastream.connectors.file_system',
        'StreamingFileSink': 'pyflink_compat.datastream.connectors.file_system',
    },
    'pyflink_compat.datastream.connectors.cassandra': {
        'Duration': 'pyflink_compat.common.time',
    },
    'pyflink_compat.datastream.connectors.elasticsearch': {
        'DeliveryGuarantee': 'pyflink_compat.datastream.connectors',
        'Sink': 'pyflink_compat.datastream.connectors',
    },
    'pyflink_compat.datastream.connectors.file_system': {
        'BulkWriterFactory': 'pyflink_compat.common.serialization',
        'Duration': 'pyflink_compat.common.time',
        'Encoder': 'pyflink_compat.common.serialization',
        'Sink': 'pyflink_compat.datastream.connectors',
        'SinkFunction': 'pyflink_compat.datastream.functions',
        'Source': 'pyflink_compat.datastream.connectors',
    },
    'pyflink_compat.datastream.connectors.hybrid_source': {
        'Source': 'pyflink_compat.datastream.connectors',
    },
    'pyflink_compat.datastream.connectors.jdbc': {
        'SinkFunction': 'pyflink_compat.datastream.functions',
    },
    'pyflink_compat.datastream.connectors.kafka': {
        'DeliveryGuarantee': 'pyflink_compat.datastream.connectors',
        'DeserializationSchema': 'pyflink_compat.common.serialization',
        'Row': 'pyflink_compat.common.types',
        'SerializationSchema': 'pyflink_compat.common.serialization',
        'Sink': 'pyflink_compat.datastream.connectors',
        'SinkFunction': 'pyflink_compat.datastream.functions',
        'Source': 'pyflink_compat.datastream.connectors',
        'SourceFunction': 'pyflink_compat.datastream.functions',
        'TypeInformation': 'pyflink_compat.common.typeinfo',
        'Types': 'pyflink_compat.common.typeinfo',
    },
    'pyflink_compat.datastream.connectors.kinesis': {
        'AssignerWithPeriodicWatermarksWrapper': 'pyflink_compat.common',
        'DeserializationSchema': 'pyflink_compat.common.serialization',
        'SerializationSchema': 'pyflink_compat.common.serialization',
        'Sink': 'pyflink_compat.datastream.connectors',
        'SourceFunction': 'pyflink_compat.datastream.functions',
    },
    'pyflink_compat.datastream.connectors.number_seq': {
        'Source': 'pyflink_compat.datastream.connectors',
    },
    'pyflink_compat.datastream.connectors.pulsar': {
        'ConfigOption': 'pyflink_compat.common.config_options',
        'ConfigOptions': 'pyflink_compat.common.config_options',
        'DeliveryGuarantee': 'pyflink_compat.datastream.connectors',
        'DeserializationSchema': 'pyflink_compat.common.serialization',
        'Duration': 'pyflink_compat.common.time',
        'SerializationSchema': 'pyflink_compat.common.serialization',
        'Sink': 'pyflink_compat.datastream.connectors',
        'Source': 'pyflink_compat.datastream.connectors',
    },
    'pyflink_compat.datastream.connectors.rabbitmq': {
        'DeserializationSchema': 'pyflink_compat.common.serialization',
        'SerializationSchema': 'pyflink_compat.common.serialization',
        'SinkFunction': 'pyflink_compat.datastream.functions',
        'SourceFunction': 'pyflink_compat.datastream.functions',
    },
    'pyflink_compat.datastream.data_stream': {
        'AggregateFunction': 'pyflink_compat.datastream.functions',
        'AggregatingStateDescriptor': 'pyflink_compat.datastream.state',
        'AllWindowFunction': 'pyflink_compat.datastream.functions',
        'BroadcastProcessFunction': 'pyflink_compat.datastream.functions',
        'CoFlatMapFunction': 'pyflink_compat.datastream.functions',
        'CoMapFunction': 'pyflink_compat.datastream.functions',
        'CoProcessFunction': 'pyflink_compat.datastream.functions',
        'CountSlidingWindowAssigner': 'pyflink_compat.datastream.window',
        'CountTumblingWindowAssigner': 'pyflink_compat.datastream.window',
        'CountWindowSerializer': 'pyflink_compat.datastream.window',
        'ExecutionConfig': 'pyflink_compat.common.execution_config',
        'FilterFunction': 'pyflink_compat.datastream.functions',
        'FlatMapFunction': 'pyflink_compat.datastream.functions',
        'GlobalWindowSerializer': 'pyflink_compat.datastream.window',
        'KeySelector': 'pyflink_compat.datastream.functions',
        'KeyedBroadcastProcessFunction': 'pyflink_compat.datastream.functions',
        'KeyedCoProcessFunction': 'pyflink_compat.datastream.functions',
        'KeyedProcessFunction': 'pyflink_compat.datastream.functions',
        'ListStateDescriptor': 'pyflink_compat.datastream.state',
        'MapFunction': 'pyflink_compat.datastream.functions',
        'MapStateDescriptor': 'pyflink_compat.datastream.state',
        'MergingWindowAssigner': 'pyflink_compat.datastream.window',
        'OutputTag': 'pyflink_compat.datastream',
        'Partitioner': 'pyflink_compat.datastream.functions',
        'ProcessAllWindowFunction': 'pyflink_compat.datastream.functions',
        'ProcessFunction': 'pyflink_compat.datastream.functions',
        'ProcessWindowFunction': 'pyflink_compat.datastream.functions',
        'ReduceFunction': 'pyflink_compat.datastream.functions',
        'ReducingState': 'pyflink_compat.datastream.state',
        'ReducingStateDescriptor': 'pyflink_compat.datastream.state',
        'Row': 'pyflink_compat.common.types',
        'RuntimeContext': 'pyflink_compat.datastream.functions',
        'Sink': 'pyflink_compat.datastream.connectors',
        'SinkFunction': 'pyflink_compat.datastream.functions',
        'SlotSharingGroup': 'pyflink_compat.datastream.slot_sharing_group',
        'TimeWindowSerializer': 'pyflink_compat.datastream.window',
        'Trigger': 'pyflink_compat.datastream.window',
        'TypeInformation': 'pyflink_compat.common.typeinfo',
        'Types': 'pyflink_compat.common.typeinfo',
        'WatermarkStrategy': 'pyflink_compat.common',
        'WindowAssigner': 'pyflink_compat.datastream.window',
        'WindowFunction': 'pyflink_compat.datastream.functions',
    },
    'pyflink_compat.datastream.formats.avro': {
        'BulkWriterFactory': 'pyflink_compat.common.serialization',
        'DeserializationSchema': 'pyflink_compat.common.serialization',
        'InputFormat': 'pyflink_compat.common.io',
        'SerializationSchema': 'pyflink_compat.common.serialization',
        'TypeInformation': 'pyflink_compat.common.typeinfo',
    },
    'pyflink_compat.datastream.formats.csv': {
        'BulkWriterFactory': 'pyflink_compat.common.serialization',
        'DeserializationSchema': 'pyflink_compat.common.serialization',
        'SerializationSchema': 'pyflink_compat.common.serialization',
        'StreamFormat': 'pyflink_compat.datastream.connectors.file_system',
        'TypeInformation': 'pyflink_compat.common.typeinfo',
    },
    'pyflink_compat.datastream.formats.json': {
        'DeserializationSchema': 'pyflink_compat.common.serialization',
        'SerializationSchema': 'pyflink_compat.common.serialization',
        'TypeInformation': 'pyflink_compat.common.typeinfo',
    },
    'pyflink_compat.datastream.formats.orc': {
        'BulkWriterFactory': 'pyflink_compat.common.serialization',
        'Configuration': 'pyflink_compat.common',
    },
    'pyflink_compat.datastream.formats.parquet': {
        'AvroSchema': 'pyflink_compat.datastream.formats.avro',
        'BulkFormat': 'pyflink_compat.datastream.connectors.file_system',
        'BulkWriterFactory': 'pyflink_compat.common.serialization',
        'Configuration': 'pyflink_compat.common',
        'StreamFormat': 'pyflink_compat.datastream.connectors.file_system',
    },
    'pyflink_compat.datastream.functions': {
        'AggregatingState': 'pyflink_compat.datastream.state',
        'AggregatingStateDescriptor': 'pyflink_compat.datastream.state',
        'BroadcastState': 'pyflink_compat.datastream.state',
        'ListState': 'pyflink_compat.datastream.state',
        'ListStateDescriptor': 'pyflink_compat.datastream.state',
        'MapState': 'pyflink_compat.datastream.state',
        'MapStateDescriptor': 'pyflink_compat.datastream.state',
        'ReadOnlyBroadcastState': 'pyflink_compat.datastream.state',
        'ReducingState': 'pyflink_compat.datastream.state',
        'ReducingStateDescriptor': 'pyflink_compat.datastream.state',
        'TimeDomain': 'pyflink_compat.datastream',
        'ValueState': 'pyflink_compat.datastream.state',
        'ValueStateDescriptor': 'pyflink_compat.datastream.state',
    },
    'pyflink_compat.datastream.output_tag': {
        'TypeInformation': 'pyflink_compat.common.typeinfo',
        'Types': 'pyflink_compat.common.typeinfo',
    },
    'pyflink_compat.datastream.state': {
        'Duration': 'pyflink_compat.common.time',
        'Time': 'pyflink_compat.common.time',
        'TypeInformation': 'pyflink_compat.common.typeinfo',
        'Types': 'pyflink_compat.common.typeinfo',
    },
    'pyflink_compat.datastream.stream_execution_environment': {
        'CheckpointConfig': 'pyflink_compat.datastream.checkpoint_config',
        'CheckpointingMode': 'pyflink_compat.datastream.checkpointing_mode',
        'Configuration': 'pyflink_compat.common',
        'DataStream': 'pyflink_compat.datastream.data_stream',
        'ExecutionConfig': 'pyflink_compat.common.execution_config',
        'InputFormat': 'pyflink_compat.common.io',
        'JobClient': 'pyflink_compat.common.job_client',
        'JobExecutionResult': 'pyflink_compat.common.job_execution_result',
        'RestartStrategies': 'pyflink_compat.common.restart_strategy',
        'RestartStrategyConfiguration': 'pyflink_compat.common.restart_strategy',
        'RuntimeExecutionMode': 'pyflink_compat.datastream.execution_mode',
        'SlotSharingGroup': 'pyflink_compat.datastream.slot_sharing_group',
        'Source': 'pyflink_compat.datastream.connectors',
        'SourceFunction': 'pyflink_compat.datastream.functions',
        'StateBackend': 'pyflink_compat.datastream.state_backend',
        'TimeCharacteristic': 'pyflink_compat.datastream.time_characteristic',
        'TypeInformation': 'pyflink_compat.common.typeinfo',
        'Types': 'pyflink_compat.common.typeinfo',
        'WatermarkStrategy': 'pyflink_compat.common',
    },
    'pyflink_compat.datastream.window': {
        'OutputTag': 'pyflink_compat.datastream',
        'ReduceFunction': 'pyflink_compat.datastream.functions',
        'ReducingState': 'pyflink_compat.datastream.state',
        'ReducingStateDescriptor': 'pyflink_compat.datastream.state',
        'RuntimeContext': 'pyflink_compat.datastream.functions',
        'Time': 'pyflink_compat.common.time',
        'TypeSerializer': 'pyflink_compat.common.serializer',
        'Types': 'pyflink_compat.common.typeinfo',
        'ValueStateDescriptor': 'pyflink_compat.datastream.state',
    },
    'pyflink_compat.table.catalog': {
        'Schema': 'pyflink_compat.table.schema',
        'TableSchema': 'pyflink_compat.table.table_schema',
    },
    'pyflink_compat.table.descriptors': {
        'TableSchema': 'pyflink_compat.table.table_schema',
    },
    'pyflink_compat.table.environment_settings': {
        'Configuration': 'pyflink_compat.common',
    },
    'pyflink_compat.table.expression': {
        'DataTypes': 'pyflink_compat.table.types',
    },
    'pyflink_compat.table.expressions': {
        'Expression': 'pyflink_compat.table.expression',
        'TimePointUnit': 'pyflink_compat.table.expression',
    },
    'pyflink_compat.table.functions': {
        'AggregateFunction': 'pyflink_compat.table.udf',
        'ListView': 'pyflink_compat.table.data_view',
        'MapView': 'pyflink_compat.table.data_view',
    },
    'pyflink_compat.table.schema': {
        'Expression': 'pyflink_compat.table.expression',
    },
    'pyflink_compat.table.statement_set': {
        'ExplainDetail': 'pyflink_compat.table.explain_detail',
        'TableDescriptor': 'pyflink_compat.table.table_descriptor',
        'TableResult': 'pyflink_compat.table.table_result',
    },
    'pyflink_compat.table.table': {
        'ExplainDetail': 'pyflink_compat.table.explain_detail',
        'Expression': 'pyflink_compat.table.expression',
        'GroupWindow': 'pyflink_compat.table.window',
        'OverWindow': 'pyflink_compat.table.window',
        'TableDescriptor': 'pyflink_compat.table.table_descriptor',
        'TableResult': 'pyflink_compat.table.table_result',
        'TableSchema': 'pyflink_compat.table.table_schema',
        'col': 'pyflink_compat.table.expressions',
        'with_columns': 'pyflink_compat.table.expressions',
        'without_columns': 'pyflink_compat.table.expressions',
    },
    'pyflink_compat.table.table_config': {
        'Configuration': 'pyflink_compat.common',
        'SqlDialect': 'pyflink_compat.table.sql_dialect',
    },
    'pyflink_compat.table.table_descriptor': {
        'ConfigOption': 'pyflink_compat.common.config_options',
        'Schema': 'pyflink_compat.table.schema',
    },
    'pyflink_compat.table.table_environment': {
        'AggregateFunction': 'pyflink_compat.table.udf',
        'Catalog': 'pyflink_compat.table.catalog',
        'ChangelogMode': 'pyflink_compat.table.changelog_mode',
        'Configuration': 'pyflink_compat.common',
        'DataStream': 'pyflink_compat.datastream.data_stream',
        'EnvironmentSettings': 'pyflink_compat.table.environment_settings',
        'ExplainDetail': 'pyflink_compat.table.explain_detail',
        'Expression': 'pyflink_compat.table.expression',
        'Module': 'pyflink_compat.table.module',
        'ModuleEntry': 'pyflink_compat.table.module',
        'Schema': 'pyflink_compat.table.schema',
        'StatementSet': 'pyflink_compat.table.statement_set',
        'StreamExecutionEnvironment': 'pyflink_compat.datastream.stream_execution_environment',
        'Table': 'pyflink_compat.table.table',
        'TableAggregateFunction': 'pyflink_compat.table.udf',
        'TableConfig': 'pyflink_compat.table.table_config',
        'TableDescriptor': 'pyflink_compat.table.table_descriptor',
        'TableResult': 'pyflink_compat.table.table_result',
        'TableSink': 'pyflink_compat.table.sinks',
        'TableSource': 'pyflink_compat.table.sources',
        'TypeInformation': 'pyflink_compat.common.typeinfo',
        'udaf': 'pyflink_compat.table.udf',
        'udtaf': 'pyflink_compat.table.udf',
    },
    'pyflink_compat.table.table_result': {
        'JobClient': 'pyflink_compat.common.job_client',
        'ResultKind': 'pyflink_compat.table.result_kind',
        'Row': 'pyflink_compat.common.types',
        'RowKind': 'pyflink_compat.common.types',
        'TableSchema': 'pyflink_compat.table.table_schema',
    },
    'pyflink_compat.table.udf': {
        'Expression': 'pyflink_compat.table.expression',
    },
    'pyflink_compat.table.window': {
        'Expression': 'pyflink_compat.table.expression',
    },
}


def with_reexports(module: str, inner: Optional[Callable[[str], Any]] = None) -> Callable[[str], Any]:
    """A module ``__getattr__`` that resolves the names :data:`REEXPORTS` lists for ``module``.

    :param module: The mirrored module's ``__name__``.
    :param inner: The module's own ``__getattr__`` (lazy exports), tried first.
    """
    names = REEXPORTS.get(module, {})

    def __getattr__(name: str) -> Any:
        if inner is not None and name not in names:
            return inner(name)
        home = names.get(name)
        if home is None:
            raise AttributeError("module {!r} has no attribute {!r}".format(module, name))
        return getattr(importlib.import_module(home), name)

    return __getattr__
