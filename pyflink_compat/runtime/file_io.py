"""Files read and written by DataStream jobs: ``FileSource`` and ``read_text_file`` as Spark
file streams, ``FileSink`` as part files written from the job's sink writer.

A text source is Spark's binary file stream (each file whole), so that each file's lines
keep their order and Flink's line ends apply: a ``mapInArrow`` splits each file's bytes into lines, decoded
from the format's charset, each record ordered by (file, line). Flink's text line format ends
a line at ``\\n``, ``\\r`` or ``\\r\\n``; ``read_text_file`` at ``\\n``, dropping one ``\\r``
before it. Directories are read recursively, leaving out files whose names start with ``.``
or ``_`` (as both Flink and Spark do). A bounded source ends with the end-of-input record of
:mod:`pyflink_compat.runtime.plan`.

A file sink receives each micro-batch's records on the driver, in order, and writes their
lines (the record's JVM text for ``Encoder.simple_string_encoder()``) into new part files of
the batch's bucket: ``<prefix>-<sink id>-<batch>-<n><suffix>``, written under a hidden
in-progress name and renamed when complete, so that only finished files are visible (as
Flink's). A micro-batch written again by a restarted query of the same job run writes the same
names; a micro-batch that was being written when the driver itself died is written again
under the new run's names (a registered divergence). Files roll at
the rolling policy's part size and at every micro-batch: Spark commits each micro-batch (a
registered divergence for the default rolling policy's time intervals).
"""

from __future__ import annotations

import datetime
import os
import re
import uuid
import zlib
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional, Tuple

from pyflink_compat.missing import NotSupportedError, not_supported

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["FileSourceReader", "FileSinkBatch", "check_sink_path", "check_date_time_pattern",
           "split_lines", "bucket_name", "encoded_text", "text_lines", "FilePartWriter"]

_ANY_LINE_END = re.compile("\r\n|\r|\n")
#: Spark's binary file source: each file whole (its text source splits lines its own way).
_BINARY_FILE_SCHEMA = "path string, modificationTime timestamp, length bigint, content binary"


def split_lines(text: str, mode: str) -> List[str]:
    """The lines of a file's text: ``text-line`` ends lines at ``\\n``, ``\\r`` or ``\\r\\n``
    (Flink's text line format); ``text-file`` at ``\\n``, dropping a ``\\r`` before it (Flink's
    ``read_text_file``). A final line end starts no further line."""
    if mode == "text-line":
        lines = _ANY_LINE_END.split(text)
    else:
        lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _local(path: str) -> str:
    local = path[len("file://"):] if path.startswith("file://") else path
    if local.startswith("file:"):
        local = local[len("file:"):]
    return os.path.abspath(local)


class FileSourceReader(object):
    """The records of a file source as a streaming DataFrame of the plan's record schema.

    :param paths: Files or directories.
    :param mode: ``text-line`` (``StreamFormat.text_line_format``) or ``text-file``
        (``read_text_file``).
    :param charset: The files' character set.
    :param bounded: Whether the files are read once (else new files are read as they appear).
    """

    def __init__(self, paths: List[str], mode: str, charset: str, bounded: bool):
        if not paths:
            raise ValueError("A file source needs at least one path.")
        for path in paths:
            if "://" in path and not path.startswith("file://"):
                raise not_supported("FileSource.for_record_stream_format")
        "".encode(charset)  # an unknown charset fails here, at the call
        self.paths = [_local(p) for p in paths]
        self.mode = mode
        self.charset = charset
        self.bounded = bounded

    def frame(self, spark: "SparkSession") -> "DataFrame":
        """The records, in the plan's record schema (each line pickled, ordered by file and
        line), ended by the end-of-input record when the source is bounded."""
        from pyflink_compat.runtime.plan import RECORD_SCHEMA, end_of_input

        records = self._files(spark).mapInArrow(_lines_of(self.mode, self.charset), RECORD_SCHEMA)
        if self.bounded:
            records = records.unionByName(end_of_input(spark))
        return records

    def lines(self, spark: "SparkSession") -> "DataFrame":
        """The same lines as a plain streaming DataFrame of one ``value STRING`` column (what
        a job written in PySpark reads)."""
        return self._files(spark).mapInArrow(_text_of(self.mode, self.charset), "value string")

    def _files(self, spark: "SparkSession") -> "DataFrame":
        """Each file whole: its bytes (``data``) and its ``path``."""
        from pyspark.sql import functions as F

        frames = []
        for path in self.paths:
            reader = spark.readStream.schema(_BINARY_FILE_SCHEMA).format("binaryFile")
            if os.path.isfile(path):
                # Spark's file stream reads directories: a single file is its directory,
                # filtered to the file's name.
                from pyflink_compat.connectors.filesystem import glob_escape

                directory, name = os.path.split(path)
                raw = reader.option("pathGlobFilter", glob_escape(name)).load(directory)
            else:
                raw = reader.option("recursiveFileLookup", "true").load(path)
            frames.append(raw.select(F.col("content").alias("data"), "path"))
        files = frames[0]
        for other in frames[1:]:
            files = files.unionByName(other)
        return files


def text_lines(spark: "SparkSession", paths: List[str], mode: str = "text-line", charset: str = "UTF-8",
               bounded: bool = True) -> "DataFrame":
    """The lines of files as a streaming DataFrame of one ``value STRING`` column, read as the
    DataStream runtime reads a ``FileSource`` (``mode`` ``text-line``) or ``read_text_file``
    (``text-file``): see :class:`FileSourceReader`."""
    return FileSourceReader(list(paths), mode, charset, bounded).lines(spark)


def _file_lines(batch: Any, mode: str, charset: str) -> Iterator[Tuple[int, int, str]]:
    """(file order, line number, line) of each line of each file of an Arrow batch."""
    from pyflink_compat.runtime.file_io import split_lines

    columns = batch.to_pydict()
    for data, path in zip(columns["data"], columns["path"]):
        file_order = zlib.crc32(path.encode("utf-8"))
        for index, line in enumerate(split_lines(bytes(data).decode(charset), mode)):
            yield file_order, index, line


def _text_of(mode: str, charset: str) -> Callable[[Iterator[Any]], Iterator[Any]]:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa  # type: ignore[import-untyped]

        from pyflink_compat.runtime.file_io import _file_lines

        for batch in batches:
            lines = [line for _, _, line in _file_lines(batch, mode, charset)]
            yield pa.RecordBatch.from_arrays([pa.array(lines, pa.string())], names=["value"])

    return run


def _lines_of(mode: str, charset: str) -> Callable[[Iterator[Any]], Iterator[Any]]:
    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        from pyflink_compat.runtime.file_io import _file_lines
        from pyflink_compat.runtime.records import arrow_schema, dumps

        schema = arrow_schema()
        for batch in batches:
            values: List[bytes] = []
            seqs: List[List[int]] = []
            for file_order, index, line in _file_lines(batch, mode, charset):
                values.append(dumps(line))
                seqs.append([file_order, index])
            yield pa.RecordBatch.from_arrays(
                [pa.array(values, pa.binary()), pa.array([None] * len(values), pa.int64()),
                 pa.array(seqs, pa.list_(pa.int64())), pa.array([None] * len(values), pa.binary())],
                schema=schema)

    return run


def check_sink_path(base_path: str) -> None:
    """Fail at the call for a base path this sink cannot write (it writes on the driver's
    local file system)."""
    if not isinstance(base_path, str) or not base_path:
        raise ValueError("A file sink needs a base path.")
    if "://" in base_path and not base_path.startswith("file://"):
        raise NotSupportedError(
            "FileSink.for_row_format", "Part files are written to the driver's local file system "
            "here; write to {} with PySpark: df.writeStream.format('text').option('path', ...)."
            .format(base_path.split("://")[0] + "://"))


# Java DateTimeFormatter letters and the strftime directive of each count of them.
_PATTERN_LETTERS: Dict[str, Dict[int, str]] = {
    "y": {2: "%y", 4: "%Y"}, "u": {2: "%y", 4: "%Y"}, "M": {1: "{month}", 2: "%m"},
    "d": {1: "{day}", 2: "%d"}, "H": {1: "{hour}", 2: "%H"}, "m": {2: "%M"}, "s": {2: "%S"},
    "S": {3: "{millis}"},
}


def _compile_pattern(pattern: str) -> List[Tuple[str, str]]:
    parts: List[Tuple[str, str]] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "'":
            end = pattern.find("'", index + 1)
            if end < 0:
                raise ValueError("Unterminated quote in date-time pattern %r" % pattern)
            parts.append(("text", pattern[index + 1:end] or "'"))
            index = end + 1
        elif char.isalpha():
            end = index
            while end < len(pattern) and pattern[end] == char:
                end += 1
            directive = _PATTERN_LETTERS.get(char, {}).get(end - index)
            if directive is None:
                raise NotSupportedError(
                    "BucketAssigner.date_time_bucket_assigner",
                    "The pattern letters written here are yyyy, yy, MM, M, dd, d, HH, H, mm, ss and "
                    "SSS; '{}' is not. Assign buckets with your own directory in PySpark "
                    "(df.writeStream.partitionBy(...)).".format(pattern[index:end]))
            parts.append(("field", directive))
            index = end
        else:
            parts.append(("text", char))
            index += 1
    return parts


def _zone(timezone_id: Optional[str]) -> Any:
    if timezone_id is None:
        return None
    from zoneinfo import ZoneInfo

    match = re.fullmatch(r"(?:GMT|UTC)?([+-])(\d{1,2}):?(\d{2})?", timezone_id)
    if match:
        sign = 1 if match.group(1) == "+" else -1
        offset = datetime.timedelta(hours=int(match.group(2)), minutes=int(match.group(3) or 0))
        return datetime.timezone(sign * offset)
    if timezone_id in ("UTC", "GMT", "Z"):
        return datetime.timezone.utc
    return ZoneInfo(timezone_id)


def check_date_time_pattern(pattern: str, timezone_id: Optional[str]) -> None:
    """Fail at the call for a bucket pattern or time zone that cannot be written here."""
    _compile_pattern(pattern)
    _zone(timezone_id)


def bucket_name(pattern: str, timezone_id: Optional[str], when: datetime.datetime) -> str:
    """The bucket directory of a record written at ``when`` (a UTC-aware time)."""
    zone = _zone(timezone_id)
    local = when.astimezone(zone) if zone is not None else when.astimezone()
    out = []
    for kind, value in _compile_pattern(pattern):
        if kind == "text":
            out.append(value)
        else:
            out.append(local.strftime(value) if value.startswith("%") else value.format(
                month=local.month, day=local.day, hour=local.hour,
                millis="%03d" % (local.microsecond // 1000)))
    return "".join(out)


def encoded_text(value: Any, type_info: Any) -> str:
    """The text ``Encoder.simple_string_encoder()`` writes for a record: the JVM's
    ``toString`` of the value, rows as ``+I[a, 1, 0.5, true]`` (fields joined by ``", "``)."""
    from pyflink_compat.common.typeinfo import RowTypeInfo
    from pyflink_compat.runtime.records import conform, java_text, print_text

    if isinstance(type_info, RowTypeInfo):
        row = conform(value, type_info)
        kinds: List[Any] = list(type_info.get_field_types())
        fields = list(row._values)
        kinds += [None] * (len(fields) - len(kinds))
        return "{}[{}]".format(row.get_row_kind(), ", ".join(
            encoded_text(field, kind) if isinstance(kind, RowTypeInfo) else java_text(field, kind)
            for field, kind in zip(fields, kinds)))
    return print_text(value, type_info)


class FileSinkBatch(object):
    """Writes each micro-batch's records into part files (see the module's description).

    :param spec: The file sink's description (see
        :class:`pyflink_compat.datastream.connectors.file_system.FileSink`).
    :param type_info: The stream's declared type (decides each record's text).
    """

    def __init__(self, spec: Dict[str, Any], type_info: Any):
        kind, charset = spec["encoder"]
        if kind != "simple-string":
            raise not_supported("FileSink.for_row_format")
        self.charset = charset
        self.base_path = _local(spec["base_path"])
        self.prefix = spec["part_prefix"]
        self.suffix = spec["part_suffix"]
        self.bucket_assigner = spec["bucket_assigner"]
        policy = spec["rolling_policy"]
        self.part_size = int(policy["part_size"]) if policy["kind"] == "default" else None
        from pyflink_compat.common.typeinfo import PickledBytesTypeInfo

        if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
            raise NotSupportedError(
                "FileSink of a stream without a declared type",
                "PyFlink writes the JVM's text of each record's pickled bytes ('[B@1b6d3586'), "
                "not the record: declare the stream's type with output_type (for example "
                "map(str, output_type=Types.STRING())) before sink_to.")
        self.type_info = type_info
        self.sink_id = str(uuid.uuid4())

    def _bucket(self) -> str:
        assigner = self.bucket_assigner
        if assigner["kind"] == "base-path":
            return self.base_path
        now = datetime.datetime.now(datetime.timezone.utc)
        return os.path.join(self.base_path, bucket_name(assigner["format"], assigner["timezone"], now))

    def __call__(self, rows: List[Any], batch_id: int) -> None:
        from pyflink_compat.runtime.sinks import ordered_values

        self.write(ordered_values(rows), batch_id)

    def write(self, values: List[Any], batch_id: int) -> None:
        """Write one micro-batch's records, in order."""
        if not values:
            return
        bucket = self._bucket()
        os.makedirs(bucket, exist_ok=True)
        parts: List[List[bytes]] = [[]]
        size = 0
        for value in values:
            line = (encoded_text(value, self.type_info) + "\n").encode(self.charset)
            if self.part_size is not None and parts[-1] and size + len(line) > self.part_size:
                parts.append([])
                size = 0
            parts[-1].append(line)
            size += len(line)
        for index, lines in enumerate(parts):
            name = "%s-%s-%d-%d%s" % (self.prefix, self.sink_id, batch_id, index, self.suffix)
            hidden = os.path.join(bucket, ".%s.inprogress" % name)
            with open(hidden, "wb") as out:
                out.writelines(lines)
            os.replace(hidden, os.path.join(bucket, name))


#: Spark's simple type names (``DataType.typeName()``) as the basic ``Types`` whose text the
#: file sink writes.
_SPARK_BASIC_TYPES = {"string": "STRING", "integer": "INT", "long": "LONG", "double": "DOUBLE",
                      "float": "FLOAT", "boolean": "BOOLEAN", "short": "SHORT", "byte": "BYTE"}


class FilePartWriter(object):
    """The ``foreachBatch`` function of a job written in PySpark that writes a DataFrame's
    ``value`` column as a ``FileSink`` does under the DataStream runtime: the same
    :class:`FileSinkBatch`, so the same part files, buckets and lines.

    :param spec: The file sink's description (as the sink's ``get_java_function()`` gives it).
    """

    def __init__(self, spec: Dict[str, Any]):
        self.spec = spec
        self.batch: Optional[FileSinkBatch] = None

    def __call__(self, frame: "DataFrame", batch_id: int) -> None:
        if self.batch is None:
            from pyflink_compat.common.typeinfo import Types

            kind = frame.schema["value"].dataType.typeName()
            if kind not in _SPARK_BASIC_TYPES:
                raise not_supported("FileSink of a column of type " + kind)
            self.batch = FileSinkBatch(self.spec, getattr(Types, _SPARK_BASIC_TYPES[kind])())
        self.batch.write([row[0] for row in frame.select("value").collect()], batch_id)
