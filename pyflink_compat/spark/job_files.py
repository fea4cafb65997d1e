"""The files under one job directory, reached the cheapest way that gives the same answer.

Hadoop's file system API in the Spark JVM reaches every storage Spark can checkpoint to, and its
local file system checks each file against its ``.crc`` checksum when reading it. On local
storage (``file:`` URIs), questions that involve no file content (does it exist, which names
are in a folder) are answered from Python instead, in microseconds rather than a JVM round trip
each; file contents are still read through Hadoop so that its checksum checks apply. The Hadoop
file system itself is looked up only when first needed on local storage, and at once on any
other, so that storage that cannot be reached fails a job before it starts.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, List, Optional, Tuple

from pyflink_compat.checkpoints.fs import local_path
from pyflink_compat.util.java_classes import java_class, java_static

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["CheckpointError", "JobFiles", "java_cause", "IO_UTILS"]

_PATH = "org.apache.hadoop.fs.Path"
IO_UTILS = "org.apache.commons.io.IOUtils"


class CheckpointError(Exception):
    """A checkpoint directory or file that cannot be used, with its path and the cause."""


def java_cause(error: BaseException) -> str:
    """The first line of what the JVM said about ``error`` (or of the error itself)."""
    text = str(getattr(error, "java_exception", None) or error)
    return text.strip().splitlines()[0] if text.strip() else type(error).__name__


def _text_of(stream: Any) -> str:
    """What a JVM input stream holds, as UTF-8 text, in one call on Java 9 and later."""
    from py4j.protocol import Py4JError, Py4JJavaError

    try:
        data = stream.readAllBytes()
    except Py4JJavaError:
        raise
    except Py4JError:  # Java 8: no such method
        return str(java_static(IO_UTILS, "toString")(stream, "UTF-8"))
    return bytes(data).decode("utf-8", errors="replace")


class JobFiles:
    """The files under a job directory; every path is given as parts below it.

    :param spark: The job's Spark session (for its Hadoop configuration).
    :param job_dir: The job directory, a URI.
    :raises CheckpointError: when the storage is not local and cannot be reached.
    """

    def __init__(self, spark: "SparkSession", job_dir: str):
        self.job_dir = job_dir.rstrip("/")
        #: The job directory as a local path when the storage is local, else ``None``.
        self.local: Optional[str] = local_path(self.job_dir) if self.job_dir.startswith("file:") else None
        self._spark = spark
        self._hadoop: Optional[Tuple[Any, Any]] = None
        if self.local is None:
            self._connect()

    def _connect(self) -> Tuple[Any, Any]:
        if self._hadoop is None:
            j_job_dir = java_class(_PATH)(self.job_dir)
            hadoop_conf = self._spark._jsparkSession.sessionState().newHadoopConf()
            try:
                self._hadoop = (j_job_dir, j_job_dir.getFileSystem(hadoop_conf))
            except Exception as e:  # an unknown scheme, an unreachable file system
                raise CheckpointError("The checkpoint storage {} cannot be reached: {}".format(
                    self.job_dir, java_cause(e))) from e
        return self._hadoop

    @property
    def fs(self) -> Any:
        """The Hadoop ``FileSystem`` of the job directory."""
        return self._connect()[1]

    @property
    def j_job_dir(self) -> Any:
        """The job directory as a Hadoop ``Path``."""
        return self._connect()[0]

    def location(self, *parts: str) -> str:
        """The URI of a path below the job directory."""
        return "/".join((self.job_dir,) + parts)

    def path(self, *parts: str) -> Any:
        """A path below the job directory as a Hadoop ``Path``."""
        return java_class(_PATH)(self.location(*parts))

    def _local_file(self, parts: Tuple[str, ...]) -> str:
        return os.path.join(str(self.local), *parts)

    def exists(self, *parts: str) -> bool:
        if self.local is not None:
            return os.path.exists(self._local_file(parts))
        return bool(self.fs.exists(self.path(*parts)))

    def is_file(self, *parts: str) -> bool:
        """Whether a file is there (through Hadoop: whether anything is)."""
        if self.local is not None:
            return os.path.isfile(self._local_file(parts))
        return bool(self.fs.exists(self.path(*parts)))

    def names(self, *parts: str) -> List[str]:
        """The names in a folder, without Hadoop's checksum files (none: no such folder)."""
        if self.local is not None:
            folder = self._local_file(parts)
            if not os.path.isdir(folder):
                return [os.path.basename(folder)] if os.path.exists(folder) else []
            return [n for n in os.listdir(folder) if not (n.startswith(".") and n.endswith(".crc"))]
        j_path = self.path(*parts)
        if not self.fs.exists(j_path):
            return []
        return [str(s.getPath().getName()) for s in self.fs.listStatus(j_path)]

    def read(self, *parts: str) -> Optional[str]:
        """A file's text (``None``: no such file), read through Hadoop so that a checksum that
        does not match is noticed.

        :raises CheckpointError: when it cannot be read or does not match its checksum.
        """
        if self.local is not None and not os.path.exists(self._local_file(parts)):
            return None
        j_path = self.path(*parts)
        try:
            if not self.fs.exists(j_path):
                return None
            stream = self.fs.open(j_path)
            try:
                return _text_of(stream)
            finally:
                stream.close()
        except Exception as e:  # unreadable: a directory, no permission, bad checksum
            cause = java_cause(e)
            if "ChecksumException" in cause:
                raise CheckpointError("{} is corrupt (its content does not match its checksum file: "
                                      "{})".format(j_path.toString(), cause)) from e
            raise CheckpointError("{} cannot be read: {}".format(j_path.toString(), cause)) from e

    def write(self, text: str, *parts: str) -> None:
        """Write (or replace) a file through Hadoop.

        :raises CheckpointError: when it cannot be written.
        """
        j_path = self.path(*parts)
        try:
            stream = self.fs.create(j_path, True)
            try:
                stream.write(bytearray(text.encode("utf-8")))
            finally:
                stream.close()
        except Exception as e:
            raise CheckpointError("{} cannot be written: {}".format(j_path.toString(), java_cause(e))) from e
