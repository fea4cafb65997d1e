"""The file operations checkpoints are read and written with, and their local implementation.

:class:`FileAccess` is the one interface through which checkpoints, savepoints and a job's
ownership marker are reached. :class:`LocalFileAccess` serves local paths in plain Python, with
no JVM; with ``checksums`` it also reads and writes Hadoop's ``.crc`` files as Hadoop's local
file system does, so that a job reads its checkpoint files as Spark wrote them. Every other
scheme goes through Hadoop (:mod:`pyflink_compat.checkpoints.file_access_hadoop`), and
:mod:`pyflink_compat.checkpoints.access` picks one for a path. Paths handed to the interface
are ``/``-joined strings: absolute local paths, or full URIs.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from typing import BinaryIO, List, Optional

from pyflink_compat.checkpoints.crc import check_read, crc_name, hadoop_crc

__all__ = ["FileAccess", "LocalFileAccess", "local_path"]


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

    def make_private_dir(self, path: str) -> None:
        """Create a directory (and its missing parents) that only its owner may enter, list or
        write in (``0700``), or make an existing one so; everything below it is then reachable
        by its owner alone, whatever the files' own permissions."""
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

    def remove_dir(self, path: str) -> None:
        """Remove a directory that is empty; :class:`OSError` when it is not."""
        raise NotImplementedError

    def rename_dir(self, src: str, dst: str) -> None:
        """Rename a directory in one step; :class:`OSError` when ``dst`` exists or the file
        system refuses."""
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
    """The local file system, through :mod:`os` and :mod:`shutil`.

    :param checksums: Whether files are read and written with their Hadoop ``.crc`` files, as
        Hadoop's local file system does: a read that does not match raises
        :class:`~pyflink_compat.checkpoints.crc.ChecksumError`, and a write or removal keeps the
        ``.crc`` file in step. Without it, ``.crc`` files are files like any other.
    """

    checksums = False

    def __init__(self, checksums: bool = False):
        self.checksums = checksums

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

    def read_bytes(self, path: str) -> bytes:
        with open(path, "rb") as stream:
            data = stream.read()
        if self.checksums:
            try:
                with open(_crc_path(path), "rb") as stream:
                    crc = stream.read()
            except FileNotFoundError:
                return data
            check_read(path, data, crc, "file:" + path)
        return data

    def makedirs(self, path: str) -> None:
        os.makedirs(path, exist_ok=True)

    def make_private_dir(self, path: str) -> None:
        os.makedirs(path, mode=_PRIVATE, exist_ok=True)
        os.chmod(path, _PRIVATE)  # makedirs leaves an existing directory as it was, and applies the umask

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
        """Write a hidden temporary file next to ``path`` (and its ``.crc`` file, with
        ``checksums``), then rename it into place. The old ``.crc`` file goes before the
        rename and the new one follows it, so that a process killed in between leaves the old
        or the new file, at worst without a ``.crc`` file, never one that does not match."""
        directory = os.path.dirname(path) or "."
        handle, temp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", dir=directory)
        temp_crc = _crc_path(temp) if self.checksums else None
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            if temp_crc is not None:
                with open(temp_crc, "wb") as stream:
                    stream.write(hadoop_crc(data))
                _unlink_if_there(_crc_path(path))
            os.replace(temp, path)
            if temp_crc is not None:
                os.replace(temp_crc, _crc_path(path))
        except BaseException:
            _unlink_if_there(temp)
            if temp_crc is not None:
                _unlink_if_there(temp_crc)
            raise

    def remove_tree(self, path: str) -> None:
        shutil.rmtree(path)

    def remove_file(self, path: str) -> None:
        os.unlink(path)
        if self.checksums:
            _unlink_if_there(_crc_path(path))

    def remove_dir(self, path: str) -> None:
        os.rmdir(path)

    def rename_dir(self, src: str, dst: str) -> None:
        if os.path.lexists(dst):  # os.rename replaces an empty directory silently
            raise FileExistsError(errno.EEXIST, "already exists", dst)
        os.rename(src, dst)


#: Why a file system refuses a hard link or a clone: another device, or no support for it.
_NO_SHARING = (errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EACCES,
               errno.EINVAL, errno.ENOTTY, errno.EBADF)
#: Permission bits of a directory only its owner may use.
_PRIVATE = 0o700
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


def _crc_path(path: str) -> str:
    head, name = os.path.split(path)
    return os.path.join(head, crc_name(name))


def _unlink_if_there(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
