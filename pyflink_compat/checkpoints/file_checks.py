"""Integrity checks of checkpoint files that need no manifest.

Spark writes checkpoints on the local file system through Hadoop's checksummed file system,
which keeps a ``.<name>.crc`` file next to every file: a header (``crc\\0`` and the number of
bytes per checksum, big-endian) followed by one CRC-32 per chunk. Those are checked when
present; log entries must start with Spark's version line, and RocksDB zips must be readable.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from typing import BinaryIO, List, Optional, Sequence

from pyflink_compat.checkpoints.fs import FileAccess
from pyflink_compat.checkpoints.layout import crc_name

__all__ = ["check_checkpoint_files", "hadoop_crc", "hadoop_crc_problem"]


def hadoop_crc(data: bytes, chunk: int = 512) -> bytes:
    """The Hadoop ``.crc`` file of ``data``, byte for byte what Hadoop's local file system
    writes next to a file it creates (``chunk``: its ``file.bytes-per-checksum``)."""
    sums = (struct.pack(">I", zlib.crc32(data[at:at + chunk])) for at in range(0, len(data), chunk))
    return b"crc\x00" + struct.pack(">i", chunk) + b"".join(sums)


def hadoop_crc_problem(data: BinaryIO, crc: bytes) -> Optional[str]:
    """Why the stream ``data`` does not match a Hadoop ``.crc`` file, or None when it does."""
    if len(crc) < 8 or crc[:4] != b"crc\x00":
        return "its .crc file is not a Hadoop checksum file"
    chunk = struct.unpack(">i", crc[4:8])[0]
    if chunk <= 0:
        return "its .crc file has an invalid chunk size"
    sums = crc[8:]
    offset = 0
    while True:
        piece = data.read(chunk)
        if not piece:
            break
        index = 4 * (offset // chunk)
        if index + 4 > len(sums):
            return "its length does not match its .crc file"
        if zlib.crc32(piece) != struct.unpack(">I", sums[index:index + 4])[0]:
            return "checksum mismatch with its .crc file at byte {} (the file is corrupt)".format(offset)
        offset += len(piece)
    if len(sums) != 4 * ((offset + chunk - 1) // chunk):
        return "its length does not match its .crc file"
    return None


def check_checkpoint_files(fs: FileAccess, root: str, files: Sequence[str]) -> List[str]:
    """Problems found in the listed files of a checkpoint (empty when none)."""
    problems = []
    listed = set(files)
    for rel in files:
        head, _, name = rel.rpartition("/")
        if name.startswith(".") and name.endswith(".crc"):
            continue
        path = root + "/" + rel
        crc_rel = (head + "/" if head else "") + crc_name(name)
        try:
            if crc_rel in listed:
                with fs.open_read(path) as stream:
                    problem = hadoop_crc_problem(stream, fs.read_bytes(root + "/" + crc_rel))
                if problem:
                    problems.append("{}: {}".format(path, problem))
                    continue
            with fs.open_read(path) as stream:
                start = stream.read(1)
        except FileNotFoundError as error:
            problems.append("{}: missing".format(error.filename or path))
            continue
        top = rel.split("/")[0]
        if top in ("offsets", "commits", "sources") and start != b"v":
            problems.append("{}: not a Spark log entry".format(path))
        elif name.endswith(".zip"):
            try:
                with zipfile.ZipFile(io.BytesIO(fs.read_bytes(path))) as archive:
                    bad = archive.testzip()
                if bad:
                    problems.append("{}: member {} is corrupt".format(path, bad))
            except zipfile.BadZipFile:
                problems.append("{}: not a readable zip".format(path))
    return problems
