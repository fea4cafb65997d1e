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
from typing import List, Optional, Sequence

from pyflink_compat.checkpoints.fs import FileAccess
from pyflink_compat.checkpoints.layout import crc_name

__all__ = ["check_checkpoint_files", "hadoop_crc_problem"]


def hadoop_crc_problem(data: bytes, crc: bytes) -> Optional[str]:
    """Why ``data`` does not match a Hadoop ``.crc`` file, or None when it does."""
    if len(crc) < 8 or crc[:4] != b"crc\x00":
        return "its .crc file is not a Hadoop checksum file"
    chunk = struct.unpack(">i", crc[4:8])[0]
    if chunk <= 0:
        return "its .crc file has an invalid chunk size"
    sums = crc[8:]
    expected_chunks = (len(data) + chunk - 1) // chunk
    if len(sums) != 4 * expected_chunks:
        return "its length does not match its .crc file"
    for i in range(expected_chunks):
        if zlib.crc32(data[i * chunk:(i + 1) * chunk]) != struct.unpack(">I", sums[4 * i:4 * i + 4])[0]:
            return "checksum mismatch with its .crc file at byte {} (the file is corrupt)".format(i * chunk)
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
        try:
            data = fs.read_bytes(path)
        except FileNotFoundError:
            problems.append("{}: missing".format(path))
            continue
        crc_rel = (head + "/" if head else "") + crc_name(name)
        if crc_rel in listed:
            try:
                problem = hadoop_crc_problem(data, fs.read_bytes(root + "/" + crc_rel))
            except FileNotFoundError:
                problem = "its .crc file is missing"
            if problem:
                problems.append("{}: {}".format(path, problem))
                continue
        top = rel.split("/")[0]
        if top in ("offsets", "commits", "sources") and not data.startswith(b"v"):
            problems.append("{}: not a Spark log entry".format(path))
        elif name.endswith(".zip"):
            try:
                with zipfile.ZipFile(io.BytesIO(data)) as archive:
                    bad = archive.testzip()
                if bad:
                    problems.append("{}: member {} is corrupt".format(path, bad))
            except zipfile.BadZipFile:
                problems.append("{}: not a readable zip".format(path))
    return problems
