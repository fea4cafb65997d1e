"""Reading one Spark streaming query's checkpoint directory.

A query checkpoint holds ``metadata`` (the query id), the write-ahead log ``offsets/<batch>``,
the commit log ``commits/<batch>``, one log per source under ``sources/<i>/`` and the state of
each stateful operator under ``state/<operator>/<partition>/``. State version ``v`` is written
by batch ``v - 1``, so restarting after committed batch ``N`` needs state version ``N + 1``.
Every file Spark writes there is written once (a temporary file renamed into place) and never
changed afterwards; files may disappear when Spark's retention removes old batches.

:func:`files_for_restart` lists exactly the files a restart after batch ``N`` needs, for the
HDFS-backed state store (newest ``.snapshot`` plus later ``.delta`` files) and the RocksDB one
(newest ``.zip`` plus later ``.changelog`` files, and every SST file the zip names), and
:func:`check_checkpoint_files` checks listed files without a manifest (their ``.crc`` files,
Spark's version line at the start of a log entry, readable RocksDB zips).

The names Spark and this package give to things in a checkpoint are defined here once: the
state store provider classes, the SQL confs Spark pins in the offset log, and the name of a
job's ownership marker.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from typing import Any, Dict, List, Optional, Sequence, Tuple

import attrs

from pyflink_compat.checkpoints.crc import crc_name, hadoop_crc_problem
from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.file_access import FileAccess
from pyflink_compat.checkpoints.marker import MARKER_NAME

__all__ = [
    "HDFS_PROVIDER", "ROCKSDB_PROVIDER", "PROVIDER_CLASS", "SHUFFLE_PARTITIONS", "MARKER_NAME", "REGISTRY_NAME",
    "METADATA", "BROADCAST_SEED", "OperatorInfo", "QueryCheckpoint", "is_query_checkpoint", "check_checkpoint_files",
    "query_problems",
]

#: Spark's state store that keeps state on the JVM heap and writes deltas and snapshots.
HDFS_PROVIDER = "org.apache.spark.sql.execution.streaming.state.HDFSBackedStateStoreProvider"
#: Spark's state store kept in RocksDB.
ROCKSDB_PROVIDER = "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
#: The SQL conf choosing the state store provider, pinned in the offset log.
PROVIDER_CLASS = "spark.sql.streaming.stateStore.providerClass"
#: The SQL conf giving the number of state partitions, pinned in the offset log.
SHUFFLE_PARTITIONS = "spark.sql.shuffle.partitions"
#: The ownership marker of a job directory (see :mod:`pyflink_compat.spark.ownership`).
#: The directory of a storage directory where its jobs record themselves (see
#: :mod:`pyflink_compat.spark.job_registry`): a name no job directory can have, since job
#: directory names never start with a dot.
REGISTRY_NAME = ".pyflink_compat_jobs"
#: Spark's file holding a query's id, at the top of its checkpoint.
METADATA = "metadata"
#: This package's file, at the top of a restored query's checkpoint, holding the saved broadcast
#: state its state partitions have not yet been seeded with (see
#: :meth:`QueryCheckpoint.pending_broadcast_seed`).
BROADCAST_SEED = "_pyflink_compat_broadcast_seed"

#: ``<version>.<kind>`` or, with checkpoint format v2, ``<version>_<unique id>.<kind>``
_STATE_FILE = re.compile(r"^(\d+)(?:_([0-9A-Za-z-]+))?\.(delta|snapshot|zip|changelog)$")
_SNAPSHOT_KINDS = ("snapshot", "zip")
_BATCH_FILE = re.compile(r"^(\d+)(\.compact)?$")


def is_query_checkpoint(fs: FileAccess, path: str) -> bool:
    """Whether ``path`` looks like a Spark query checkpoint (``metadata`` and ``offsets/``)."""
    return fs.isfile(path + "/" + METADATA) and fs.isdir(path + "/offsets")


@attrs.frozen
class OperatorInfo:
    """One stateful operator of a checkpoint.

    :param operator_id: The operator's number (its directory under ``state/``).
    :param name: The operator name from Spark 4's operator metadata, or None.
    :param partitions: The state partitions found on disk.
    :param stores: The state store names (``default`` unless the operator has several).
    """

    operator_id: int
    name: Optional[str]
    partitions: Tuple[int, ...]
    stores: Tuple[str, ...]

    def to_json(self) -> Dict[str, Any]:
        return {"operator_id": self.operator_id, "name": self.name,
                "partitions": list(self.partitions), "stores": list(self.stores)}


class QueryCheckpoint:
    """One query's checkpoint directory, read through a :class:`FileAccess`.

    :param fs: The file access.
    :param root: The checkpoint directory.
    """

    def __init__(self, fs: FileAccess, root: str):
        self.fs = fs
        self.root = root.rstrip("/")

    def _p(self, relative: str) -> str:
        return self.root + "/" + relative

    # -- logs ---------------------------------------------------------------------------------
    def log_batches(self, log: str) -> List[int]:
        """Batch ids with an entry in a log (``offsets``, ``commits`` or ``sources/<i>``)."""
        found = []
        for name in self.fs.listdir(self._p(log)):
            match = _BATCH_FILE.match(name)
            if match and not match.group(2):
                found.append(int(match.group(1)))
        return sorted(found)

    def committed_batches(self) -> List[int]:
        return self.log_batches("commits")

    def has_commit(self, batch: int) -> bool:
        """Whether ``commits/<batch>`` exists (one file check, where listing the log takes more).

        :raises OSError: when the file system cannot tell.
        """
        return self.fs.exists(self._p("commits/{}".format(batch)))

    def has_metadata(self) -> bool:
        """Whether Spark's ``metadata`` file (the query id) exists.

        :raises OSError: when the file system cannot tell.
        """
        return self.fs.exists(self._p(METADATA))

    def commit_time(self, batch: int) -> float:
        """When ``commits/<batch>`` was written, in epoch seconds.

        :raises OSError: when it cannot be read.
        """
        return self.fs.mtime(self._p("commits/{}".format(batch)))

    def latest_committed(self) -> Optional[int]:
        """The newest batch whose ``commits/<batch>`` exists, or None before the first commit."""
        batches = self.committed_batches()
        return batches[-1] if batches else None

    def pending_broadcast_seed(self, batch: int) -> Optional[Dict[str, Any]]:
        """The broadcast seed a restore gave this query, while its state is still the one
        restored at ``batch``: a restore at another number of state partitions seeds them when
        the query's first batch runs, so a checkpoint or savepoint taken before then holds the
        broadcast state as it was saved, and the seed with it.

        :return: ``{"batch": ..., "partitions": ..., "seed": ...}`` (the batch restored at, the
            state partitions then, the seed's text), or ``None`` when there is none or a later
            batch committed (which seeded every partition).
        """
        path = self._p(BROADCAST_SEED)
        if not self.fs.isfile(path):
            return None
        try:
            record = json.loads(self.fs.read_text(path))
        except ValueError as error:
            raise CheckpointFileError(path, "unreadable: {}".format(error)) from None
        if not isinstance(record, dict) or record.get("batch") != batch:
            return None
        return record

    def read_log_entry(self, log: str, batch: int) -> List[str]:
        """The lines of one log entry; the first one is Spark's log version (``v1``)."""
        path = self._p("{}/{}".format(log, batch))
        try:
            return self.fs.read_text(path).splitlines()
        except FileNotFoundError:
            raise CheckpointFileError(path, "the log entry is missing") from None
        except UnicodeDecodeError:
            raise CheckpointFileError(path, "the log entry is not text") from None

    def recorded_query_id(self) -> Optional[str]:
        """The query id in Spark's ``metadata`` file, or None when there is no such file.

        :raises CheckpointFileError: when the file is not Spark's metadata (its cause starts with
            ``corrupt``).
        :raises OSError: when it cannot be read.
        """
        path = self._p(METADATA)
        try:
            data = self.fs.read_bytes(path)
        except FileNotFoundError:
            return None
        try:
            return str(json.loads(data.decode("utf-8").splitlines()[0])["id"])
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise CheckpointFileError(path, "corrupt ({}: {})".format(type(e).__name__, e)) from None

    def query_id(self) -> Optional[str]:
        """The query id in Spark's ``metadata`` file, or None when it cannot be read."""
        try:
            return self.recorded_query_id()
        except (OSError, CheckpointFileError):
            return None

    def log_entry(self, log: str, batch: int) -> Tuple[List[str], Any]:
        """The lines of a log entry and its metadata line (the second), as JSON.

        :raises CheckpointFileError: when the entry is missing, or has no version line and JSON
            metadata (then its cause starts with ``corrupt``).
        """
        lines = self.read_log_entry(log, batch)
        if len(lines) < 2 or not lines[0].startswith("v"):
            raise CheckpointFileError(self._p("{}/{}".format(log, batch)), "corrupt (no version line and metadata)")
        try:
            return lines, json.loads(lines[1])
        except ValueError as e:
            raise CheckpointFileError(self._p("{}/{}".format(log, batch)), "corrupt ({})".format(e)) from None

    def newest_entry(self, log: str) -> Optional[List[str]]:
        """The lines of the newest entry of a log, checked as :meth:`log_entry` does (None:
        the log is empty)."""
        batches = self.log_batches(log)
        return self.log_entry(log, batches[-1])[0] if batches else None

    def offsets_entry(self, batch: int) -> Tuple[Dict[str, Any], List[Any]]:
        """The batch metadata (watermark, timestamp, pinned conf) and the source positions."""
        lines, meta = self.log_entry("offsets", batch)
        if not isinstance(meta, dict):
            meta = {}
        positions: List[Any] = []
        for line in lines[2:]:
            try:
                positions.append(json.loads(line))
            except ValueError:
                positions.append(None if line == "-" else line)
        return meta, positions

    def pinned_conf(self, batch: Optional[int] = None) -> Dict[str, str]:
        """The SQL confs Spark pinned in the offset log (the newest entry by default)."""
        if batch is None:
            batches = self.log_batches("offsets")
            if not batches:
                return {}
            batch = batches[-1]
        meta, _ = self.offsets_entry(batch)
        conf = meta.get("conf")
        return {str(k): str(v) for k, v in conf.items()} if isinstance(conf, dict) else {}

    def state_store_provider(self, conf: Optional[Dict[str, str]] = None) -> str:
        conf = self.pinned_conf() if conf is None else conf
        return conf.get(PROVIDER_CLASS, HDFS_PROVIDER)

    def shuffle_partitions(self, conf: Optional[Dict[str, str]] = None) -> Optional[int]:
        conf = self.pinned_conf() if conf is None else conf
        value = conf.get(SHUFFLE_PARTITIONS)
        return int(value) if value and value.isdigit() else None

    def source_ids(self) -> List[str]:
        return [name for name in self.fs.listdir(self._p("sources")) if self.fs.isdir(self._p("sources/" + name))]

    # -- state --------------------------------------------------------------------------------
    def operator_ids(self) -> List[int]:
        """The stateful operators the checkpoint holds state for (its ``state/`` directories)."""
        return sorted(int(name) for name in self.fs.listdir(self._p("state")) if name.isdigit())

    def operators(self) -> List[OperatorInfo]:
        """The stateful operators, from the ``state/`` directories (and Spark 4's metadata)."""
        found = []
        for op_id in self.operator_ids():
            op_name = str(op_id)
            op_dir = "state/" + op_name
            partitions = tuple(sorted(int(p) for p in self.fs.listdir(self._p(op_dir)) if p.isdigit()))
            stores = {"default"}
            name = None
            try:
                lines = self.fs.read_text(self._p(op_dir + "/_metadata/metadata")).splitlines()
                meta = json.loads(lines[1])
                name = meta.get("operatorInfo", {}).get("operatorName")
                stores = {str(s.get("storeName")) for s in meta.get("stateStoreInfo", [])} or stores
            except (OSError, ValueError, IndexError, AttributeError):
                pass
            for p in partitions:
                for sub in self.fs.listdir(self._p("{}/{}".format(op_dir, p))):
                    if sub not in ("_metadata", "SSTs") and self.fs.isdir(self._p("{}/{}/{}".format(op_dir, p, sub))):
                        stores.add(sub)
            found.append(OperatorInfo(int(op_name), name, partitions, tuple(sorted(stores))))
        return sorted(found, key=lambda o: o.operator_id)

    def _store_dirs(self, partition_dir: str) -> List[str]:
        dirs = [partition_dir]
        for sub in self.fs.listdir(self._p(partition_dir)):
            if sub not in ("_metadata", "SSTs") and self.fs.isdir(self._p(partition_dir + "/" + sub)):
                dirs.append(partition_dir + "/" + sub)
        return dirs

    def _state_version_files(self, store_dir: str, version: int) -> List[str]:
        """The files of one store directory that rebuild ``version``."""
        by_version: Dict[int, Dict[str, List[str]]] = {}
        for name in self.fs.listdir(self._p(store_dir)):
            match = _STATE_FILE.match(name)
            if match:
                v = int(match.group(1))
                by_version.setdefault(v, {}).setdefault(match.group(3), []).append(name)
        if not by_version:
            # Every batch writes every store partition, so a store directory without state
            # files (a lone .crc is all a lost file leaves behind) cannot rebuild any version.
            raise CheckpointFileError(
                self._p(store_dir),
                "needed to restart after batch {} but holds no state files (state version {} "
                "cannot be rebuilt)".format(version - 1, version))
        snapshots = [v for v, kinds in by_version.items() if v <= version and any(k in kinds for k in _SNAPSHOT_KINDS)]
        start = max(snapshots) if snapshots else 0
        files: List[str] = []
        if snapshots:
            for kind in _SNAPSHOT_KINDS:
                for name in by_version[start].get(kind, []):
                    files.append(store_dir + "/" + name)
                    if kind == "zip":
                        files.extend(self._zip_ssts(store_dir, name))
        log_kind = "changelog" if any("changelog" in kinds for kinds in by_version.values()) else "delta"
        for v in range(start + 1, version + 1):
            names = by_version.get(v, {}).get("delta", []) + by_version.get(v, {}).get("changelog", [])
            if not names:
                raise CheckpointFileError(
                    self._p("{}/{}.{}".format(store_dir, v, log_kind)),
                    "needed to restart after batch {} but missing (no snapshot of state version {} or later "
                    "replaces it)".format(version - 1, v))
            files.extend(store_dir + "/" + name for name in names)
        return files

    def _zip_ssts(self, store_dir: str, zip_name: str) -> List[str]:
        """The SST files a RocksDB snapshot zip names (relative to the partition directory)."""
        path = self._p(store_dir + "/" + zip_name)
        try:
            with zipfile.ZipFile(io.BytesIO(self.fs.read_bytes(path))) as archive:
                text = archive.read("metadata").decode("utf-8")
        except FileNotFoundError:
            raise
        except (zipfile.BadZipFile, KeyError, UnicodeDecodeError) as error:
            raise CheckpointFileError(path, "unreadable RocksDB snapshot ({})".format(error)) from None
        lines = text.splitlines()
        try:
            meta = json.loads(lines[1] if lines and lines[0].startswith("v") else text)
            names = [str(f["dfsSstFileName"]) for f in meta.get("sstFiles", [])]
        except (ValueError, KeyError, IndexError, TypeError):
            raise CheckpointFileError(path, "the snapshot's metadata is not readable") from None
        return [store_dir + "/SSTs/" + name for name in names]

    def _metadata_files(self, op_dir: str, batch: int) -> List[str]:
        """Operator metadata and state schema files written up to ``batch``."""
        files = []
        stack = [op_dir + "/_metadata", op_dir + "/_stateSchema"]
        while stack:
            current = stack.pop()
            for name in self.fs.listdir(self._p(current)):
                rel = current + "/" + name
                if self.fs.isdir(self._p(rel)):
                    stack.append(rel)
                    continue
                if name.startswith("."):
                    continue
                versioned = re.match(r"^(\d+)(?:_|$)", name)
                if versioned and ("/_metadata/v" in rel or "/_stateSchema/" in rel) and int(versioned.group(1)) > batch:
                    continue
                files.append(rel)
        return files

    # -- what a restart needs -------------------------------------------------------------------
    def files_for_restart(self, batch: int) -> List[str]:
        """The relative paths of the files a restart after committed ``batch`` needs.

        Hadoop ``.crc`` files are listed next to their files when they exist. An
        ``offsets/<batch + 1>`` on disk (a planned batch, or a later committed one) is kept with
        the source log entries it refers to, so that a restart re-runs that batch with the same
        input; ``offsets/<batch - 1>`` is then not needed.

        :raises CheckpointFileError: when ``batch`` is not committed or a needed file is missing.
        """
        if not self.fs.isfile(self._p("commits/{}".format(batch))):
            raise CheckpointFileError(self._p("commits/{}".format(batch)), "batch {} is not committed".format(batch))
        wanted = ["metadata", "commits/{}".format(batch), "offsets/{}".format(batch)]
        last_source_batch = batch
        # Spark restarts from the newest offset entry and reads the one before it: N and the
        # planned N + 1 when N + 1 is kept, else N - 1 and N. Spark purges N - 1 as soon as it
        # plans N + 1 when it retains one batch, so N - 1 is never asked for beside N + 1.
        if self.fs.isfile(self._p("offsets/{}".format(batch + 1))):
            wanted.append("offsets/{}".format(batch + 1))
            last_source_batch = batch + 1
        elif batch > 0:
            wanted.append("offsets/{}".format(batch - 1))
        for source in self.source_ids():
            wanted.extend(self._source_log_files("sources/" + source, last_source_batch))
        for op in self.operators():
            op_dir = "state/{}".format(op.operator_id)
            wanted.extend(self._metadata_files(op_dir, batch))
            for p in op.partitions:
                partition_dir = "{}/{}".format(op_dir, p)
                for store_dir in self._store_dirs(partition_dir):
                    if self.fs.isfile(self._p(store_dir + "/_metadata/schema")):
                        wanted.append(store_dir + "/_metadata/schema")
                    wanted.extend(self._state_version_files(store_dir, batch + 1))
        if self.pending_broadcast_seed(batch) is not None:
            wanted.append(BROADCAST_SEED)
        for rel in wanted:
            if not self.fs.isfile(self._p(rel)):
                raise CheckpointFileError(self._p(rel), "needed to restart after batch {} but missing".format(batch))
        with_crc = []
        for rel in dict.fromkeys(wanted):
            with_crc.append(rel)
            head, _, name = rel.rpartition("/")
            crc = (head + "/" if head else "") + crc_name(name)
            if self.fs.isfile(self._p(crc)):
                with_crc.append(crc)
        return with_crc

    def _source_log_files(self, log: str, last_batch: int) -> List[str]:
        """A source log up to ``last_batch``: from its newest compaction on, or all of it."""
        entries: List[Tuple[int, bool]] = []
        for name in self.fs.listdir(self._p(log)):
            match = _BATCH_FILE.match(name)
            if match and int(match.group(1)) <= last_batch:
                entries.append((int(match.group(1)), bool(match.group(2))))
        compacts = [b for b, compact in entries if compact]
        start = max(compacts) if compacts else -1
        names = []
        for b, compact in sorted(entries):
            if b > start or (compact and b == start):
                names.append("{}/{}{}".format(log, b, ".compact" if compact else ""))
        return names

    def uses_absolute_schema_paths(self) -> List[str]:
        """Operator metadata v2 files (transformWithState on Spark 4) naming absolute paths."""
        found = []
        for op in self.operators():
            for name in self.fs.listdir(self._p("state/{}/_metadata/v2".format(op.operator_id))):
                if name.isdigit():
                    found.append("state/{}/_metadata/v2/{}".format(op.operator_id, name))
        return found


    def unreadable_files(self, folder: str, limit: int) -> List[Tuple[str, OSError]]:
        """The files under ``folder`` that cannot be read back through the file access (with
        its checks), each with the error; ``.crc`` files are not read, and at most ``limit``
        files are."""
        found: List[Tuple[str, OSError]] = []
        pending, read = [self._p(folder)], 0
        while pending and read < limit:
            directory, folders = pending.pop(), []
            for name in self.fs.listdir(directory):
                path = directory + "/" + name
                if self.fs.isdir(path):
                    folders.append(path)
                elif not name.endswith(".crc") and read < limit:
                    read += 1
                    try:
                        self.fs.read_bytes(path)
                    except OSError as error:
                        found.append((path, error))
            pending.extend(reversed(folders))
        return found


def relative_files_size(fs: FileAccess, root: str, files: Sequence[str]) -> int:
    """Total size of ``files`` under ``root``."""
    return sum(fs.size(root.rstrip("/") + "/" + rel) for rel in files)


def check_checkpoint_files(fs: FileAccess, root: str, files: Sequence[str]) -> List[str]:
    """Problems found in the listed files of a checkpoint (empty when none): a file that does
    not match its listed ``.crc`` file, a log entry without Spark's version line, a RocksDB
    zip that cannot be read."""
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


#: How often a live query's check starts again when Spark moved on and removed a file meanwhile.
_CHECK_ATTEMPTS = 3


def query_problems(fs: FileAccess, path: str, stateful: Optional[bool] = None
                   ) -> Tuple[List[str], List[str], Optional[int]]:
    """What keeps a query checkpoint from restarting after its newest committed batch.

    Checks that every file the restart needs is present and intact (against its Hadoop
    checksum), that every stateful operator has every state partition the checkpoint's pinned
    shuffle partitions call for, and, when ``stateful`` says the query keeps state (as the job
    marker records), that the checkpoint holds state at all. A query that commits another batch
    while it is checked is checked again at its new batch.

    :return: The problems (empty when the checkpoint is restorable), the relative files a
             restart needs, and the batch they were checked at (``None`` before the first commit).
    """
    problems: List[str] = []
    files: List[str] = []
    checkpoint = QueryCheckpoint(fs, path)
    for _ in range(_CHECK_ATTEMPTS):
        newest = checkpoint.latest_committed()
        if newest is None:
            return ["{}: no committed batch".format(path)], [], None
        try:
            files = checkpoint.files_for_restart(newest)
            problems = check_checkpoint_files(fs, path, files)
        except CheckpointFileError as error:
            files, problems = [], [str(error)]
        if problems and checkpoint.latest_committed() != newest:
            continue  # Spark moved on and removed what the older batch needed
        break
    if problems:
        return problems, files, newest
    operators = checkpoint.operators()
    if stateful and not operators:
        problems.append("{}/state: the job marker records state for this query, but the checkpoint holds "
                        "none".format(path))
    partitions = checkpoint.shuffle_partitions(checkpoint.pinned_conf(newest))
    for op in operators:
        missing = sorted(set(range(partitions or 0)) - set(op.partitions))
        if missing:
            problems.append("{}/state/{}: state partitions {} are missing (the checkpoint has {} "
                            "partitions)".format(path, op.operator_id, ", ".join(map(str, missing)), partitions))
    return problems, files, newest

