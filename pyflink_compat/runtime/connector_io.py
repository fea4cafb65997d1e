"""The connectors of DataStream jobs: the source node of ``from_source`` / ``add_source`` /
``read_text_file``, and the batch function of ``sink_to`` / ``add_sink``.

Sources are nodes of the job's graph holding a reader (:class:`~pyflink_compat.runtime.file_io.FileSourceReader`,
:class:`~pyflink_compat.runtime.kafka_io.KafkaSourceReader`) whose ``frame`` the plan calls; a
source that keeps reading marks the environment, so that its job's sink runs unbounded and
``AUTOMATIC`` mode is streaming. A watermark strategy with a timestamp assigner becomes the
same operator as ``assign_timestamps_and_watermarks``. Sinks are batch functions of the job's
one sink writer (:mod:`pyflink_compat.runtime.sinks`), so that the checkpoint configuration,
savepoints and the job's commands cover them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from pyflink_compat.missing import not_supported

if TYPE_CHECKING:
    from pyflink_compat.runtime.graph import Node

__all__ = ["source_node", "text_file_node", "sink_batch", "file_source_reader", "text_file_reader"]


def _source(env: Any, reader: Any, name: str, type_info: Any, watermark_strategy: Any) -> "Node":
    from pyflink_compat.runtime.graph import CHAIN, SOURCE, Node

    node = Node(env, SOURCE, (), reader, type_info, name=name)
    if not reader.bounded:
        env._unbounded_sources = True
    if watermark_strategy is not None and (watermark_strategy._timestamp_assigner is not None
                                           or getattr(reader, "has_timestamps", False)):
        node = Node(env, CHAIN, (node,), ("timestamps", watermark_strategy), type_info)
    return node


def source_node(env: Any, source: Any, watermark_strategy: Any, name: str,
                  type_info: Optional[Any], api: str) -> Any:
    """The graph node of the records of ``source`` (see the module's description); other
    sources fail here."""
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.datastream.connectors.file_system import FileSource

    if isinstance(source, FileSource):
        return _source(env, file_source_reader(source, api), name, type_info or Types.STRING(), watermark_strategy)
    from pyflink_compat.datastream.connectors.number_seq import NumberSequenceSource

    if isinstance(source, NumberSequenceSource):
        return _numbers(env, source, watermark_strategy, name, type_info)
    from pyflink_compat.datastream.connectors.kafka import FlinkKafkaConsumer, KafkaSource

    if isinstance(source, (KafkaSource, FlinkKafkaConsumer)):
        from pyflink_compat.runtime.kafka_io import KafkaSourceReader

        kafka = KafkaSourceReader(source)
        return _source(env, kafka, name, type_info or kafka.type_info, watermark_strategy)
    raise not_supported(api)


def file_source_reader(source: Any, api: str = "FileSource") -> Any:
    """The runtime's reader of a ``FileSource`` (of text lines; other formats fail here). The
    porting tool writes a job's PySpark from the same reader."""
    from pyflink_compat.runtime.file_io import FileSourceReader

    spec = source.get_java_function()
    fmt = spec["format"]
    if fmt.get("kind") != "text-line":
        raise not_supported(api)
    return FileSourceReader(spec["paths"], "text-line", fmt["charset"], spec["monitor_interval_ms"] is None)


def text_file_reader(file_path: str, charset_name: str) -> Any:
    """The runtime's reader of ``read_text_file``: the lines of the files, read once."""
    from pyflink_compat.runtime.file_io import FileSourceReader

    return FileSourceReader([file_path], "text-file", charset_name, True)


def _numbers(env: Any, source: Any, watermark_strategy: Any, name: str, type_info: Optional[Any]) -> "Node":
    """A NumberSequenceSource: its numbers from start to end, both included, in order, as PyFlink
    gives them at parallelism one (a bounded source, like a collection)."""
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.runtime.graph import CHAIN, SOURCE, Node

    info = type_info if type_info is not None else Types.LONG()
    node = Node(env, SOURCE, (), (list(range(source._start, source._end + 1)), info), info, name=name)
    if watermark_strategy is not None and watermark_strategy._timestamp_assigner is not None:
        node = Node(env, CHAIN, (node,), ("timestamps", watermark_strategy), info)
    return node


def text_file_node(env: Any, file_path: str, charset_name: str) -> Any:
    """``read_text_file``: the lines of the files, read once."""
    from pyflink_compat.common.typeinfo import Types

    return _source(env, text_file_reader(file_path, charset_name), "Custom File Source", Types.STRING(), None)


def sink_batch(sink: Any, type_info: Any, api: str) -> Any:
    """The batch function writing a stream of ``type_info`` to ``sink``."""
    from pyflink_compat.datastream.connectors.file_system import FileSink, StreamingFileSink

    if isinstance(sink, (FileSink, StreamingFileSink)):
        from pyflink_compat.runtime.file_io import FileSinkBatch

        return FileSinkBatch(sink.get_java_function(), type_info)
    from pyflink_compat.datastream.connectors.kafka import FlinkKafkaProducer, KafkaSink

    if isinstance(sink, (KafkaSink, FlinkKafkaProducer)):
        from pyflink_compat.runtime.kafka_io import KafkaSinkBatch

        return KafkaSinkBatch(sink, type_info)
    from pyflink_compat.datastream.connectors.jdbc import JdbcSink

    if isinstance(sink, JdbcSink):
        from pyflink_compat.runtime.jdbc_io import JdbcSinkBatch

        return JdbcSinkBatch(sink)
    raise not_supported(api)
