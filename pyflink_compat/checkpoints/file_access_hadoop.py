"""Checkpoint files on any file system Hadoop knows, through the Spark JVM.

:class:`HadoopFileAccess` implements :class:`~pyflink_compat.checkpoints.file_access.FileAccess` on
Hadoop's ``org.apache.hadoop.fs.FileSystem``, reached through py4j from a Spark session: HDFS,
object stores (``s3a://``, ``gs://``, ``abfs://``), ``viewfs://`` and every other scheme the
session's Hadoop configuration can open. Paths stay full URIs; a plain local path handed to it
(a restore from HDFS into a local directory, say) is opened as a ``file:`` path.

Each file system is a private instance (``FileSystem.newInstance``) made from the session's
Hadoop configuration when a scheme and authority are first used, so that Spark's own cached
instances are never changed. On checksummed file systems (Hadoop's local one, also behind
``viewfs://``) the private instance neither verifies nor writes ``.crc`` files by itself: the
tools copy the checkpoint's ``.crc`` files as they are and check them themselves, exactly as on
the local file system, so a corrupt file is reported by name instead of failing the read.

What a write gives:

* :meth:`HadoopFileAccess.copy_file` always copies (there are no hard links across a Hadoop
  file system), so a savepoint on such storage costs a full copy of the restart files.
* :meth:`HadoopFileAccess.write_atomic` writes a hidden temporary file in the same directory
  and renames it into place. The rename is atomic on HDFS, on Hadoop's local file system and on
  object stores with a real directory tree (ABFS with hierarchical namespace, GCS with
  hierarchical namespace). On plain object stores (S3 through ``s3a://``) a rename is a copy and
  a delete: a reader never sees a half-written file (an object appears whole once written), but
  may briefly see the temporary file next to the final one. The savepoint manifest is written
  this way, last, so a savepoint without a complete manifest is never taken for one.
"""

from __future__ import annotations

import io
import os
import threading
from typing import TYPE_CHECKING, Any, BinaryIO, Dict, List, Optional, Tuple
from urllib.parse import urlsplit

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.file_access import FileAccess, local_path

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["HadoopFileAccess", "hadoop_file_access", "NO_JVM"]

#: Bytes moved through py4j per read call.
_CHUNK = 1 << 20

#: Why a non-local path cannot be used (completed with the path).
NO_JVM = ("reaching this file system needs Hadoop's FileSystem in a Spark JVM, and no Spark session is "
          "running in this process: start a SparkSession first (its Hadoop configuration must know the "
          "scheme). Local paths and file: URIs need no JVM; the pyflink-compat command starts a local "
          "session by itself for other paths")

_CHECKSUM_FS = "org.apache.hadoop.fs.ChecksumFileSystem"


def _java_classes(error: BaseException) -> List[str]:
    """The class names of a Java exception (its class and superclasses), or []."""
    throwable = getattr(error, "java_exception", None)
    if throwable is None:
        return []
    names = []
    cls = throwable.getClass()
    while cls is not None:
        names.append(str(cls.getName()))
        cls = cls.getSuperclass()
    return names


def _os_error(error: BaseException, path: str) -> OSError:
    """A Java I/O failure as the Python error the tools expect."""
    throwable = getattr(error, "java_exception", None)
    message = str(throwable.toString()) if throwable is not None else str(error)
    if "java.io.FileNotFoundException" in _java_classes(error):
        return FileNotFoundError(2, message, path)
    return OSError(5, message, path)


def _is_java(error: BaseException) -> bool:
    return hasattr(error, "java_exception")


class _HadoopInput(io.RawIOBase):
    """A Hadoop input stream as a Python raw stream, read a chunk per py4j call."""

    def __init__(self, j_stream: Any, path: str):
        super().__init__()
        self._j_stream = j_stream
        self._path = path

    def readable(self) -> bool:
        return True

    def _read(self, size: int) -> bytes:
        try:
            data = self._j_stream.readNBytes(size)
        except Exception as e:  # a Java I/O failure
            if _is_java(e):
                raise _os_error(e, self._path) from e
            raise
        return bytes(data) if data else b""

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        data = self._read(min(len(view), _CHUNK))
        view[:len(data)] = data
        return len(data)

    def readall(self) -> bytes:
        parts: List[bytes] = []
        while True:
            data = self._read(_CHUNK)
            if not data:
                return b"".join(parts)
            parts.append(data)

    def close(self) -> None:
        if not self.closed:
            try:
                self._j_stream.close()
            finally:
                super().close()


class HadoopFileAccess(FileAccess):
    """Files on Hadoop file systems, through the JVM of a Spark session.

    :param spark: The session whose Hadoop configuration opens the file systems.
    """

    def __init__(self, spark: "SparkSession"):
        self._spark = spark
        self._jvm: Any = spark.sparkContext._jvm
        self._path_class: Any = None
        self._file_systems: Dict[Tuple[str, str], Any] = {}
        self._checksummed: Dict[Tuple[str, str], bool] = {}
        self._lock = threading.Lock()

    # -- paths and file systems -----------------------------------------------------------------
    def _new_path(self, *args: Any) -> Any:
        if self._path_class is None:  # looked up once: each lookup is a round trip per name
            self._path_class = self._jvm.org.apache.hadoop.fs.Path
        return self._path_class(*args)

    def _j_path(self, path: str) -> Any:
        local = local_path(path)
        return self._new_path("file:" + os.path.abspath(local) if local is not None else path)

    @staticmethod
    def _text_key(path: str) -> Tuple[str, str]:
        """The scheme and authority of ``path``, read in Python (as :meth:`_key` reads them
        from a Hadoop ``Path``)."""
        if local_path(path) is not None:
            return "file", ""
        parts = urlsplit(path)
        return parts.scheme, parts.netloc

    def _hadoop_conf(self) -> Any:
        return self._spark._jsparkSession.sessionState().newHadoopConf()

    @staticmethod
    def _key(j_path: Any) -> Tuple[str, str]:
        uri = j_path.toUri()
        return str(uri.getScheme() or ""), str(uri.getAuthority() or "")

    def _fs(self, j_path: Any, key: Optional[Tuple[str, str]] = None) -> Any:
        key = key or self._key(j_path)
        with self._lock:
            fs = self._file_systems.get(key)
            if fs is None:
                fs = self._jvm.org.apache.hadoop.fs.FileSystem.newInstance(j_path.toUri(), self._hadoop_conf())
                self._checksummed[key] = self._skip_checksum_files(fs)
                self._file_systems[key] = fs
        return fs

    def _skip_checksum_files(self, fs: Any) -> bool:
        """Turn off automatic ``.crc`` handling on the checksummed file systems under ``fs``;
        whether there was one."""
        found = False
        pending, seen = [fs], set()
        while pending:
            current = pending.pop()
            if current is None or current.hashCode() in seen:
                continue
            seen.add(current.hashCode())
            if _CHECKSUM_FS in self._class_names(current):
                current.setVerifyChecksum(False)
                current.setWriteChecksum(False)
                found = True
            children = current.getChildFileSystems()
            if children is not None:
                pending.extend(children[i] for i in range(len(children)))
        return found

    @staticmethod
    def _class_names(j_object: Any) -> List[str]:
        names, cls = [], j_object.getClass()
        while cls is not None:
            names.append(str(cls.getName()))
            cls = cls.getSuperclass()
        return names

    def qualify(self, path: str) -> str:
        """``path`` as a full, normalised URI of its file system (a local path stays as it is).

        :raises CheckpointFileError: when the file system cannot be opened.
        """
        local = local_path(path)
        if local is not None:
            return os.path.abspath(local)
        try:
            j_path = self._j_path(path)
            return str(self._fs(j_path, self._text_key(path)).makeQualified(j_path).toString())
        except Exception as e:  # an unknown scheme, an unreachable file system
            if not _is_java(e):
                raise
            cause = str(getattr(e, "java_exception", e)).strip().splitlines()[0]
            raise CheckpointFileError(path, "Hadoop cannot open this file system: " + cause) from e

    def _status(self, path: str) -> Optional[Any]:
        j_path = self._j_path(path)
        try:
            return self._fs(j_path, self._text_key(path)).getFileStatus(j_path)
        except Exception as e:
            if not _is_java(e):
                raise
            error = _os_error(e, path)
            if isinstance(error, FileNotFoundError):
                return None
            raise error from e

    def _target(self, path: str, raw: bool) -> Tuple[Any, Any]:
        """The file system and Java path to work on ``path`` with. With ``raw``, a path behind a
        checksummed file system (also behind a viewfs mount) is given on the raw file system
        under it, which neither adds, removes nor hides ``.crc`` files (its parent must exist)."""
        j_path, key = self._j_path(path), self._text_key(path)
        fs = self._fs(j_path, key)
        if not raw or not self._checksummed.get(key) or j_path.isRoot():
            return fs, j_path
        parent = fs.resolvePath(j_path.getParent())
        target_fs = self._fs(parent)
        if _CHECKSUM_FS not in self._class_names(target_fs):
            return fs, j_path
        return target_fs.getRawFileSystem(), self._new_path(parent, j_path.getName())

    def _call(self, path: str, method: str, *args: Any, raw: bool = False) -> Any:
        """``method`` of the file system of ``path``, with Java I/O failures as :class:`OSError`
        (``raw``: see :meth:`_target`; a :class:`str` argument is a second path, taken alike)."""
        try:
            fs, j_path = self._target(path, raw)
            j_args = [self._target(a, raw)[1] if isinstance(a, str) else a for a in args]
            return getattr(fs, method)(j_path, *j_args)
        except Exception as e:
            if not _is_java(e):
                raise
            raise _os_error(e, path) from e

    # -- FileAccess -----------------------------------------------------------------------------
    def exists(self, path: str) -> bool:
        return self._status(path) is not None

    def isdir(self, path: str) -> bool:
        status = self._status(path)
        return status is not None and bool(status.isDirectory())

    def isfile(self, path: str) -> bool:
        status = self._status(path)
        return status is not None and bool(status.isFile())

    def listdir(self, path: str) -> List[str]:
        if not self.isdir(path):
            return []
        try:
            # raw, because a checksummed file system hides its .crc files from listings
            fs, j_child = self._target(path.rstrip("/") + "/_", raw=True)
            statuses = fs.listStatus(j_child.getParent())
        except Exception as e:
            if not _is_java(e):
                raise
            if isinstance(_os_error(e, path), FileNotFoundError):
                return []
            raise _os_error(e, path) from e
        return sorted(str(statuses[i].getPath().getName()) for i in range(len(statuses)))

    def size(self, path: str) -> int:
        status = self._status(path)
        if status is None:
            raise FileNotFoundError(2, "no such file", path)
        return int(status.getLen())

    def mtime(self, path: str) -> float:
        status = self._status(path)
        if status is None:
            raise FileNotFoundError(2, "no such file", path)
        return int(status.getModificationTime()) / 1000.0

    def open_read(self, path: str) -> BinaryIO:
        raw = _HadoopInput(self._call(path, "open"), path)
        return io.BufferedReader(raw, buffer_size=_CHUNK)

    def makedirs(self, path: str) -> None:
        self._call(path, "mkdirs")

    def make_private_dir(self, path: str) -> None:
        permission = self._jvm.org.apache.hadoop.fs.permission.FsPermission("700")
        self._call(path, "mkdirs")
        # mkdirs with a permission applies the umask; setting it afterwards does not
        self._call(path, "setPermission", permission)

    def copy_file(self, src: str, dst: str, link: bool) -> bool:
        """Copy one file; never a link (``link`` is ignored), so this always returns False."""
        parent = dst.rstrip("/").rpartition("/")[0]
        if parent:
            self.makedirs(parent)
        source = self._call(src, "open")
        try:
            target = self._call(dst, "create", True, raw=True)
            try:
                self._jvm.org.apache.hadoop.io.IOUtils.copyBytes(source, target, _CHUNK, False)
            except Exception as e:
                if not _is_java(e):
                    raise
                raise _os_error(e, src) from e
            finally:
                target.close()
        finally:
            source.close()
        return False

    def write_atomic(self, path: str, data: bytes) -> None:
        """Write a hidden temporary file next to ``path``, then rename it into place (see the
        module's notes for what each store makes of the rename)."""
        parent, _, name = path.rstrip("/").rpartition("/")
        temp = "{}/.{}.{}.tmp".format(parent, name, os.urandom(6).hex())
        self.makedirs(parent)
        stream = self._call(temp, "create", False, raw=True)
        try:
            try:
                stream.write(bytearray(data))
            finally:
                stream.close()
            if not self._call(temp, "rename", path, raw=True):
                if not self.exists(path):
                    raise OSError(5, "the file system refused to rename {} to {}".format(temp, path), path)
                # replacing a file: Hadoop's public rename never overwrites, so delete first (not
                # atomic; the tools only ever write files that do not exist yet)
                self._call(path, "delete", False, raw=True)
                if not self._call(temp, "rename", path, raw=True):
                    raise OSError(5, "the file system refused to rename {} to {}".format(temp, path), path)
        except BaseException:
            if self.exists(temp):
                self._call(temp, "delete", False, raw=True)
            raise

    def remove_tree(self, path: str) -> None:
        if not self._call(path, "delete", True) and self.exists(path):
            raise OSError(5, "the file system did not delete it", path)

    def remove_file(self, path: str) -> None:
        if self.isdir(path):
            raise IsADirectoryError(21, "is a directory", path)
        if not self._call(path, "delete", False, raw=True):
            raise FileNotFoundError(2, "no such file", path)

    def remove_dir(self, path: str) -> None:
        if not self._call(path, "delete", False) and self.exists(path):
            raise OSError(5, "the file system did not delete it", path)

    def rename_dir(self, src: str, dst: str) -> None:
        """Rename a directory: atomic on HDFS and on stores with a directory tree; on plain
        object stores a copy and a delete (see the module's notes)."""
        if self.exists(dst):
            raise FileExistsError(17, "already exists", dst)
        if not self._call(src, "rename", dst):
            raise OSError(5, "the file system refused to rename {} to {}".format(src, dst), dst)


_ACCESS: Dict[int, HadoopFileAccess] = {}
_ACCESS_LOCK = threading.Lock()


def _running_session() -> "Optional[SparkSession]":
    """The Spark session of this process, if one runs (no session is started here)."""
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        return None
    for session in (SparkSession._activeSession, SparkSession._instantiatedSession):
        if session is not None and session.sparkContext._jsc is not None:
            return session
    return None


def hadoop_file_access(path: str, spark: "Optional[SparkSession]" = None) -> HadoopFileAccess:
    """The Hadoop file access of a Spark session (by default, of the one this process runs),
    for a non-local ``path``; one per session, so that each file system is opened once.

    :raises CheckpointFileError: when no Spark session runs.
    """
    spark = spark or _running_session()
    if spark is None:
        raise CheckpointFileError(path, NO_JVM)
    key = id(spark._jsparkSession)
    with _ACCESS_LOCK:
        access = _ACCESS.get(key)
        if access is None or access._spark is not spark:
            access = _ACCESS[key] = HadoopFileAccess(spark)
    return access
