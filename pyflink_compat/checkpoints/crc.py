"""Hadoop's ``.crc`` checksum files, written and checked in Python.

Hadoop's local file system keeps a ``.<name>.crc`` file next to every file it writes: a header
(``crc\\0`` and the number of bytes per checksum, big-endian) followed by one CRC-32 per chunk.
Spark's checkpoints on local storage carry them. This module writes such a file, says why a
file does not match its own (for the checkpoint tools' reports), and raises what Hadoop raises
when a read does not match (for the jobs, which read their checkpoint files as Hadoop would).
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import BinaryIO, Iterator, Optional, Tuple

__all__ = ["ChecksumError", "crc_name", "hadoop_crc", "hadoop_crc_problem", "check_read"]

_HEADER = b"crc\x00"


class ChecksumError(OSError):
    """A file read does not match its ``.crc`` file; the message is Hadoop's
    ``ChecksumException`` text for the same read."""


def crc_name(name: str) -> str:
    """The name of the Hadoop checksum file that sits next to ``name``."""
    return "." + name + ".crc"


def hadoop_crc(data: bytes, chunk: int = 512) -> bytes:
    """The Hadoop ``.crc`` file of ``data``, byte for byte what Hadoop's local file system
    writes next to a file it creates (``chunk``: its ``file.bytes-per-checksum``)."""
    sums = (struct.pack(">I", zlib.crc32(data[at:at + chunk])) for at in range(0, len(data), chunk))
    return _HEADER + struct.pack(">i", chunk) + b"".join(sums)


def _chunks(data: BinaryIO, crc: bytes) -> Iterator[Tuple[int, bytes, Optional[int]]]:
    """Each chunk of ``data`` with its offset and the checksum ``crc`` holds for it (None
    past the last one); ``crc`` must have a valid header."""
    chunk = struct.unpack(">i", crc[4:8])[0]
    sums = crc[8:]
    offset = 0
    while True:
        piece = data.read(chunk)
        if not piece:
            return
        index = 4 * (offset // chunk)
        expected = struct.unpack(">I", sums[index:index + 4])[0] if index + 4 <= len(sums) else None
        yield offset, piece, expected
        offset += len(piece)


def _valid_header(crc: bytes) -> bool:
    return len(crc) >= 8 and crc[:4] == _HEADER and struct.unpack(">i", crc[4:8])[0] > 0


def hadoop_crc_problem(data: BinaryIO, crc: bytes) -> Optional[str]:
    """Why the stream ``data`` does not match a Hadoop ``.crc`` file, or None when it does."""
    if len(crc) < 8 or crc[:4] != _HEADER:
        return "its .crc file is not a Hadoop checksum file"
    if not _valid_header(crc):
        return "its .crc file has an invalid chunk size"
    read = 0
    for offset, piece, expected in _chunks(data, crc):
        if expected is None:
            return "its length does not match its .crc file"
        if zlib.crc32(piece) != expected:
            return "checksum mismatch with its .crc file at byte {} (the file is corrupt)".format(offset)
        read = offset + len(piece)
    chunk = struct.unpack(">i", crc[4:8])[0]
    if len(crc) - 8 != 4 * ((read + chunk - 1) // chunk):
        return "its length does not match its .crc file"
    return None


def _signed(value: int) -> int:
    return value - (1 << 32) if value >= 1 << 31 else value


def check_read(path: str, data: bytes, crc: bytes, hadoop_path: str) -> None:
    """Check ``data``, just read from ``path``, against its ``.crc`` file as Hadoop's local
    file system checks a read: chunk by chunk, ignoring a ``.crc`` file that is not one.

    :param hadoop_path: The file as Hadoop names it (a ``file:`` path), for the message.
    :raises ChecksumError: with Hadoop's ``ChecksumException`` text, at the first chunk that
        does not match or that the ``.crc`` file has no checksum for.
    """
    if not _valid_header(crc):
        return
    for offset, piece, expected in _chunks(io.BytesIO(data), crc):
        text = "org.apache.hadoop.fs.ChecksumException: Checksum error: {} at {}".format(hadoop_path, offset)
        if expected is None:
            raise ChecksumError(5, text, path)
        got = zlib.crc32(piece)
        if got != expected:
            raise ChecksumError(5, "{} exp: {} got: {}".format(text, _signed(expected), _signed(got)), path)
