"""File access used by the checkpoint tools.

Everything in :mod:`pyflink_compat.checkpoints` reads and writes files through the small
:class:`FileAccess` interface below. Local paths and ``file:`` URIs are served by
:class:`LocalFileAccess`, in plain Python with no JVM (and with hard links where a savepoint
may use them). Every other scheme (``hdfs://``, ``s3a://``, ``viewfs://``, ...) goes through
Hadoop's ``FileSystem`` in the JVM of the running Spark session
(:class:`~pyflink_compat.checkpoints.hadoop_fs.HadoopFileAccess`), which copies instead of
linking; without a session such a path raises
:class:`~pyflink_compat.checkpoints.errors.SavepointError`. Paths handed to the interface are
always ``/``-joined strings: absolute local paths, or full URIs.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from typing import BinaryIO, List, Optional, Tuple

__all__ = ["FileAccess", "LocalFileAccess", "local_path", "file_access_for", "file_access_for_paths"]


class FileAccess:
    """The file operations the checkpoint tools need; subclasses implement one file system."""

    def exists(self, path: str) -> bool:
        raise NotImplementedError

    def isdir(self, path: str) -> bool:
        raise NotImplementedError

    def isfile(self, path: str) -> bool:
        raise NotImplementedError

    def listdir(self, path: str) -> List[str]:
        """Names in a directory, sorted; empty when it does not exist."""
        raise NotImplementedError

    def size(self, path: str) -> int:
        raise NotImplementedError

    def mtime(self, path: str) -> float:
        """Modification time in seconds since the epoch."""
        raise NotImplementedError

    def open_read(self, path: str) -> BinaryIO:
        """Open a file for reading; :class:`FileNotFoundError` when it is gone."""
        raise NotImplementedError

    def makedirs(self, path: str) -> None:
        raise NotImplementedError

    def copy_file(self, src: str, dst: str, link: bool) -> bool:
        """Copy one file, as a hard link when ``link`` is set and the file system allows (else
        as a copy-on-write clone where the file system has them, else byte by byte).

        :return: Whether a link was made. :class:`FileNotFoundError` when ``src`` is gone.
        """
        raise NotImplementedError

    def write_atomic(self, path: str, data: bytes) -> None:
        """Write a whole file so that readers see either nothing or all of it."""
        raise NotImplementedError

    def remove_tree(self, path: str) -> None:
        raise NotImplementedError

    def remove_file(self, path: str) -> None:
        raise NotImplementedError

    def read_bytes(self, path: str) -> bytes:
        with self.open_read(path) as stream:
            return stream.read()

    def read_text(self, path: str) -> str:
        return self.read_bytes(path).decode("utf-8")


def local_path(path: str) -> Optional[str]:
    """The local path of ``path`` (plain or ``file:`` URI), or None for another scheme."""
    if path.startswith("file://"):
        rest = path[len("file://"):]
        return rest if rest.startswith("/") else None
    if path.startswith("file:"):
        return path[len("file:"):]
    if "://" in path or (":" in path.split("/")[0] and len(path.split("/")[0]) > 1):
        return None
    return path


class LocalFileAccess(FileAccess):
    """The local file system, through :mod:`os` and :mod:`shutil`."""

    def exists(self, path: str) -> bool:
        return os.path.exists(path)

    def isdir(self, path: str) -> bool:
        return os.path.isdir(path)

    def isfile(self, path: str) -> bool:
        return os.path.isfile(path)

    def listdir(self, path: str) -> List[str]:
        try:
            return sorted(os.listdir(path))
        except (FileNotFoundError, NotADirectoryError):
            return []

    def size(self, path: str) -> int:
        return os.stat(path).st_size

    def mtime(self, path: str) -> float:
        return os.stat(path).st_mtime

    def open_read(self, path: str) -> BinaryIO:
        return open(path, "rb")

    def makedirs(self, path: str) -> None:
        os.makedirs(path, exist_ok=True)

    def copy_file(self, src: str, dst: str, link: bool) -> bool:
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if link:
            try:
                os.link(src, dst)
                return True
            except OSError as error:
                if error.errno not in _NO_SHARING:
                    raise
        if not _clone(src, dst):
            shutil.copyfile(src, dst)
        return False

    def write_atomic(self, path: str, data: bytes) -> None:
        directory = os.path.dirname(path) or "."
        handle, temp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=directory)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temp, path)
        except BaseException:
            if os.path.exists(temp):
                os.unlink(temp)
            raise

    def remove_tree(self, path: str) -> None:
        shutil.rmtree(path)

    def remove_file(self, path: str) -> None:
        os.unlink(path)


#: Why a file system refuses a hard link or a clone: another device, or no support for it.
_NO_SHARING = (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EACCES,
               errno.EINVAL, errno.ENOTTY, errno.EBADF)
#: Linux's ioctl that makes a file share another's blocks, copy-on-write (Btrfs, XFS, ...).
_FICLONE = 0x40049409


def _clone(src: str, dst: str) -> bool:
    """Make ``dst`` a copy-on-write clone of ``src`` where the file system offers one.

    A clone is a copy as far as either file's later writes go, at the cost of a link.
    :return: Whether the clone was made (otherwise ``dst`` does not exist).
    """
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        return False
    with open(src, "rb") as source, open(dst, "wb") as target:
        try:
            fcntl.ioctl(target.fileno(), _FICLONE, source.fileno())
            return True
        except OSError as error:
            if error.errno not in _NO_SHARING:
                raise
    os.unlink(dst)
    return False


def file_access_for(path: str) -> Tuple[FileAccess, str]:
    """The file access for ``path`` and the path in the form that access understands.

    :raises ~pyflink_compat.checkpoints.errors.SavepointError: for a non-local path when no
        Spark session runs in this process.
    """
    fs, (normalised,) = file_access_for_paths(path)
    return fs, normalised


def file_access_for_paths(*paths: str) -> Tuple[FileAccess, List[str]]:
    """One file access that reaches all of ``paths``, and the paths in its form.

    All local: the pure-Python local access (absolute paths). Any other scheme among them: the
    Hadoop access of the running Spark session, which opens local paths too (as ``file:``), so
    that a copy from one file system to another works.

    :raises ~pyflink_compat.checkpoints.errors.SavepointError: for a non-local path when no
        Spark session runs in this process.
    """
    locals_ = [local_path(p) for p in paths]
    if all(local is not None for local in locals_):
        return LocalFileAccess(), [os.path.abspath(str(local)) for local in locals_]
    from pyflink_compat.checkpoints.hadoop_fs import hadoop_file_access

    remote = next(p for p, local in zip(paths, locals_) if local is None)
    access = hadoop_file_access(remote)
    return access, [access.qualify(p) for p in paths]
