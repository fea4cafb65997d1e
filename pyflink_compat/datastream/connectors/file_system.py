"""PyFlink's ``pyflink.datastream.connectors.file_system``: files as sources and sinks.

``FileSource.for_record_stream_format(StreamFormat.text_line_format(), *paths)`` reads text
lines (bounded, or watching the paths for new files after ``monitor_continuously``), and
``FileSink.for_row_format(base_path, Encoder.simple_string_encoder())`` writes each record's
text as a line of part files, with the output file configuration, rolling policy and bucket
assigner as far as Spark allows (``pyflink_compat.runtime.file_io`` says how). Each builder
holds a plain description (a dict) of what it configured. ``StreamingFileSink`` (for
``add_sink``) writes as ``FileSink`` does. Bulk formats and compaction are declared only: using
one raises
:class:`~pyflink_compat.missing.NotSupportedError`.
"""
from typing import Any, Dict, Optional

from pyflink_compat.common.serialization import Encoder
from pyflink_compat.datastream.connectors.base import Sink, Source, StreamTransformer, SupportsPreprocessing
from pyflink_compat.datastream.functions import SinkFunction
from pyflink_compat.missing import not_supported
from pyflink_compat.missing.declared import Declared

_MODULE = 'pyflink.datastream.connectors.file_system'

__all__ = ['FileCompactor', 'FileCompactStrategy', 'OutputFileConfig', 'FileSource',
    'FileSourceBuilder', 'FileSink', 'StreamingFileSink', 'StreamFormat', 'BulkFormat',
    'FileEnumeratorProvider', 'FileSplitAssignerProvider', 'RollingPolicy', 'BucketAssigner']

#: Flink's ``DefaultRollingPolicy`` defaults: 128 MiB, 60 s, 60 s.
_PART_SIZE = 1024 * 1024 * 128
_INTERVAL_MS = 60 * 1000


def _millis(duration: Any) -> int:
    if hasattr(duration, "_j_duration"):  # a Duration
        return int(duration._j_duration.toMillis())
    if hasattr(duration, "to_milliseconds"):  # a Time
        return int(duration.to_milliseconds())
    return int(duration)


class StreamFormat(object):
    """How a file source reads records from a file, one after another.

    :param j_stream_format: The description of the format.
    """

    def __init__(self, j_stream_format: Any):
        self._j_stream_format = j_stream_format

    @staticmethod
    def text_line_format(charset_name: str = "UTF-8") -> 'StreamFormat':
        """Each line of the files is a record (a ``STRING``); lines end at ``\\n``, ``\\r``
        or ``\\r\\n``, decoded from ``charset_name``."""
        return StreamFormat({"kind": "text-line", "charset": charset_name})


class FileSourceBuilder(object):
    """Configures a :class:`FileSource`: bounded (the default) or watching for new files.

    :param j_file_source_builder: The description of the source being built.
    """

    def __init__(self, j_file_source_builder: Dict[str, Any]):
        self._j_file_source_builder = j_file_source_builder

    def monitor_continuously(self, discovery_interval: Any) -> 'FileSourceBuilder':
        """Keep reading: new files under the paths are read as they appear (an unbounded
        source); Spark lists the paths at each micro-batch."""
        self._j_file_source_builder["monitor_interval_ms"] = _millis(discovery_interval)
        return self

    def process_static_file_set(self) -> 'FileSourceBuilder':
        """Read the files present when the job starts, once (a bounded source)."""
        self._j_file_source_builder["monitor_interval_ms"] = None
        return self

    def set_file_enumerator(self, file_enumerator: 'FileEnumeratorProvider') -> 'FileSourceBuilder':
        raise not_supported("FileSourceBuilder.set_file_enumerator", _MODULE)

    def set_split_assigner(self, split_assigner: 'FileSplitAssignerProvider') -> 'FileSourceBuilder':
        raise not_supported("FileSourceBuilder.set_split_assigner", _MODULE)

    def build(self) -> 'FileSource':
        return FileSource(dict(self._j_file_source_builder))


class FileSource(Source):
    """A source of the records of files, for ``env.from_source``.

    :param j_file_source: The description of the source.
    """

    def __init__(self, j_file_source: Dict[str, Any]):
        super(FileSource, self).__init__(source=j_file_source)

    @staticmethod
    def for_record_stream_format(stream_format: StreamFormat, *paths: str) -> FileSourceBuilder:
        """A builder of a source reading ``paths`` (files or directories, read recursively)
        with ``stream_format``."""
        if not isinstance(stream_format, StreamFormat):
            raise not_supported("FileSource.for_record_stream_format", _MODULE)
        return FileSourceBuilder({"format": stream_format._j_stream_format, "paths": list(paths),
                                  "monitor_interval_ms": None})

    @staticmethod
    def for_bulk_file_format(bulk_format: 'BulkFormat', *paths: str) -> FileSourceBuilder:
        raise not_supported("FileSource.for_bulk_file_format", _MODULE)


class BucketAssigner(object):
    """Which directory under the base path (its bucket) a record is written to.

    :param j_bucket_assigner: The description of the assigner.
    """

    def __init__(self, j_bucket_assigner: Dict[str, Any]):
        self._j_bucket_assigner = j_bucket_assigner

    @staticmethod
    def base_path_bucket_assigner() -> 'BucketAssigner':
        """Every record in the base path itself."""
        return BucketAssigner({"kind": "base-path"})

    @staticmethod
    def date_time_bucket_assigner(format_str: str = "yyyy-MM-dd--HH", timezone_id: str = None) \
            -> 'BucketAssigner':
        """Records in a directory named by the time they are written at, in ``format_str``
        (a Java ``DateTimeFormatter`` pattern), in ``timezone_id`` (the system's zone when
        omitted)."""
        from pyflink_compat.runtime.file_io import check_date_time_pattern

        check_date_time_pattern(format_str, timezone_id)
        return BucketAssigner({"kind": "date-time", "format": format_str, "timezone": timezone_id})


class RollingPolicy(object):
    """When a part file is finished and the next one started.

    :param j_rolling_policy: The description of the policy.
    """

    def __init__(self, j_rolling_policy: Dict[str, Any]):
        self._j_rolling_policy = j_rolling_policy

    @staticmethod
    def default_rolling_policy(part_size: int = _PART_SIZE, rollover_interval: int = _INTERVAL_MS,
                               inactivity_interval: int = _INTERVAL_MS) -> 'DefaultRollingPolicy':
        """Roll at ``part_size`` bytes, and (here) at every micro-batch: Spark commits each
        micro-batch's files with it (a registered divergence)."""
        return DefaultRollingPolicy({"kind": "default", "part_size": int(part_size),
                                     "rollover_interval": int(rollover_interval),
                                     "inactivity_interval": int(inactivity_interval)})

    @staticmethod
    def on_checkpoint_rolling_policy() -> 'OnCheckpointRollingPolicy':
        """Roll at every checkpoint: at every micro-batch on Spark."""
        return OnCheckpointRollingPolicy({"kind": "on-checkpoint"})


class DefaultRollingPolicy(RollingPolicy):
    """Rolls by part size, and by time (here at each micro-batch)."""

    def __init__(self, j_rolling_policy: Dict[str, Any]):
        super(DefaultRollingPolicy, self).__init__(j_rolling_policy)


class OnCheckpointRollingPolicy(RollingPolicy):
    """Rolls at every checkpoint (each micro-batch)."""

    def __init__(self, j_rolling_policy: Dict[str, Any]):
        super(OnCheckpointRollingPolicy, self).__init__(j_rolling_policy)


class OutputFileConfig(object):
    """The prefix and suffix of the part files' names.

    :param part_prefix: Starts every part file's name (``part`` by default).
    :param part_suffix: Ends it (empty by default).
    """

    def __init__(self, part_prefix: str, part_suffix: str):
        self._part_prefix = part_prefix
        self._part_suffix = part_suffix

    @staticmethod
    def builder() -> 'OutputFileConfig.OutputFileConfigBuilder':
        return OutputFileConfig.OutputFileConfigBuilder()

    def get_part_prefix(self) -> str:
        return self._part_prefix

    def get_part_suffix(self) -> str:
        return self._part_suffix

    class OutputFileConfigBuilder(object):
        """Builds an :class:`OutputFileConfig`."""

        def __init__(self) -> None:
            self.part_prefix = "part"
            self.part_suffix = ""

        def with_part_prefix(self, prefix: str) -> 'OutputFileConfig.OutputFileConfigBuilder':
            self.part_prefix = prefix
            return self

        def with_part_suffix(self, suffix: str) -> 'OutputFileConfig.OutputFileConfigBuilder':
            self.part_suffix = suffix
            return self

        def build(self) -> 'OutputFileConfig':
            return OutputFileConfig(self.part_prefix, self.part_suffix)


class FileSink(Sink, SupportsPreprocessing):
    """A sink writing part files under a base path, for ``DataStream.sink_to``.

    :param j_file_sink: The description of the sink.
    :param transformer: Transforms the stream before it is written (none for row formats).
    """

    def __init__(self, j_file_sink: Dict[str, Any], transformer: Optional[StreamTransformer] = None):
        super(FileSink, self).__init__(sink=j_file_sink)
        self._transformer = transformer

    def get_transformer(self) -> Optional[StreamTransformer]:
        return self._transformer

    class BaseBuilder(object):
        """What every file sink builder configures."""

        def __init__(self, j_builder: Dict[str, Any]):
            self._j_builder = j_builder

        def with_bucket_check_interval(self, interval: int) -> Any:
            """Recorded: Spark checks the rolling policy at each micro-batch."""
            self._j_builder["bucket_check_interval"] = int(interval)
            return self

        def with_bucket_assigner(self, bucket_assigner: BucketAssigner) -> Any:
            if not isinstance(bucket_assigner, BucketAssigner):
                raise not_supported("FileSink.BaseBuilder.with_bucket_assigner", _MODULE)
            self._j_builder["bucket_assigner"] = bucket_assigner._j_bucket_assigner
            return self

        def with_output_file_config(self, output_file_config: OutputFileConfig) -> Any:
            self._j_builder["part_prefix"] = output_file_config.get_part_prefix()
            self._j_builder["part_suffix"] = output_file_config.get_part_suffix()
            return self

        def enable_compact(self, strategy: 'FileCompactStrategy', compactor: 'FileCompactor') -> Any:
            raise not_supported("FileSink.BaseBuilder.enable_compact", _MODULE)

        def disable_compact(self) -> Any:
            return self

        def with_rolling_policy(self, rolling_policy: RollingPolicy) -> Any:
            if not isinstance(rolling_policy, RollingPolicy):
                raise not_supported("FileSink.BaseBuilder.with_rolling_policy", _MODULE)
            self._j_builder["rolling_policy"] = rolling_policy._j_rolling_policy
            return self

        def build(self) -> 'FileSink':
            return FileSink(dict(self._j_builder))

    class RowFormatBuilder(BaseBuilder):
        """Builds a sink writing each record with an :class:`~pyflink_compat.common.Encoder`."""

        def __init__(self, j_row_format_builder: Dict[str, Any]):
            super().__init__(j_row_format_builder)

        def with_rolling_policy(self, rolling_policy: RollingPolicy) -> 'FileSink.RowFormatBuilder':
            return super().with_rolling_policy(rolling_policy)

    @staticmethod
    def for_row_format(base_path: str, encoder: Encoder) -> 'FileSink.RowFormatBuilder':
        """A builder of a sink writing each record under ``base_path`` with ``encoder``."""
        from pyflink_compat.runtime.file_io import check_sink_path

        if not isinstance(encoder, Encoder):
            raise not_supported("FileSink.for_row_format", _MODULE)
        check_sink_path(base_path)
        return FileSink.RowFormatBuilder({
            "base_path": base_path, "encoder": encoder._j_encoder, "part_prefix": "part",
            "part_suffix": "", "bucket_assigner": {"kind": "date-time", "format": "yyyy-MM-dd--HH",
                                                   "timezone": None},
            "rolling_policy": RollingPolicy.default_rolling_policy()._j_rolling_policy})

    @staticmethod
    def for_bulk_format(base_path: str, writer_factory: Any) -> Any:
        raise not_supported("FileSink.for_bulk_format", _MODULE)


class BulkFormat(Declared):
    pass


class FileCompactStrategy(Declared):
    pass


class FileCompactor(Declared):
    pass


class FileEnumeratorProvider(Declared):
    pass


class FileSplitAssignerProvider(Declared):
    pass


class StreamingFileSink(SinkFunction):
    """The legacy file sink function of ``DataStream.add_sink``: it writes as :class:`FileSink`
    does.

    :param j_obj: The description of the sink.
    """

    def __init__(self, j_obj: Dict[str, Any]):
        super(StreamingFileSink, self).__init__(sink_func=j_obj)

    class BaseBuilder(object):
        """What every legacy file sink builder configures."""

        def __init__(self, j_builder: 'FileSink.RowFormatBuilder'):
            self._j_builder = j_builder

        def with_bucket_check_interval(self, interval: int) -> Any:
            self._j_builder.with_bucket_check_interval(interval)
            return self

        def with_bucket_assigner(self, bucket_assigner: BucketAssigner) -> Any:
            self._j_builder.with_bucket_assigner(bucket_assigner)
            return self

        def with_rolling_policy(self, policy: RollingPolicy) -> Any:
            self._j_builder.with_rolling_policy(policy)
            return self

        def with_output_file_config(self, output_file_config: OutputFileConfig) -> Any:
            self._j_builder.with_output_file_config(output_file_config)
            return self

        def build(self) -> 'StreamingFileSink':
            return StreamingFileSink(self._j_builder.build().get_java_function())

    class DefaultRowFormatBuilder(BaseBuilder):
        """Builds a legacy sink writing each record with an encoder."""

        def __init__(self, j_default_row_format_builder: 'FileSink.RowFormatBuilder'):
            super().__init__(j_default_row_format_builder)

        def with_rolling_policy(self, policy: RollingPolicy) -> 'StreamingFileSink.DefaultRowFormatBuilder':
            self._j_builder.with_rolling_policy(policy)
            return self

    @staticmethod
    def for_row_format(base_path: str, encoder: Encoder) -> 'StreamingFileSink.DefaultRowFormatBuilder':
        """A builder of a legacy sink writing each record under ``base_path`` with ``encoder``."""
        return StreamingFileSink.DefaultRowFormatBuilder(FileSink.for_row_format(base_path, encoder))

    @staticmethod
    def for_bulk_format(base_path: str, writer_factory: Any) -> Any:
        raise not_supported("StreamingFileSink.for_bulk_format", _MODULE)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
