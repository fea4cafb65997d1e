"""The job registry: where every job records itself, in its checkpoint storage directory.

A job whose checkpoint storage has a directory keeps one record of itself, as JSON, in
``<storage dir>/.pyflink_compat_jobs/<job id>/job.json`` (a name no job directory can have):
its job id (the one its log prints), name, status and the times it changed, the host and pid of
its driver, the Spark application id and UI address, where it checkpoints, its newest completed
and failed checkpoints, its newest savepoint, and a heartbeat. The running job rewrites the
record as it runs and when it ends (:mod:`pyflink_compat.spark.job_presence`); any process that
can read the storage reads it, which is how ``pyflink-compat list`` and ``info`` find jobs on
any file system (through :mod:`pyflink_compat.checkpoints.access`) without a network port.

The registry and each job's directory in it are created ``0700``: only the account the jobs run
as reads their records or sends them requests (:mod:`pyflink_compat.spark.control_channel`).

A driver can die without writing its end (``SIGKILL``, a lost machine). A record that says the
job runs is therefore read together with :func:`driver_gone`: on the driver's host, its process
decides; from another host (or where the process cannot be told apart from one that reused its
pid), its heartbeat must be recent.
"""

from __future__ import annotations

import json
import os
import socket
import time
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Sequence, Set, Tuple

import attrs

from pyflink_compat.checkpoints.access import file_access_for
from pyflink_compat.checkpoints.file_access import local_path
from pyflink_compat.checkpoints.layout import REGISTRY_NAME

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = [
    "RECORD_NAME", "HEARTBEAT_SECONDS", "EXPIRATION_SECONDS", "StorageCadence", "LOCAL_CADENCE", "REMOTE_CADENCE",
    "cadence_for", "StatusChange", "JobRecord", "JobRegistry",
    "JobNotFound", "NO_PROGRESS_AFTER_SECONDS", "no_progress",
    "driver_gone", "gone_reason", "process_alive", "shown_status", "find_job", "running_namesake",
    "this_host", "process_start", "TERMINAL", "GONE",
]

#: The record's file in a job's registry directory.
RECORD_NAME = "job.json"


@attrs.frozen
class StorageCadence:
    """How often job control reads and writes the files of one kind of storage.

    A local disk takes a listing or a small write in microseconds; an object store or HDFS
    takes a round trip, and may bill it. A running job therefore looks for requests and
    rewrites its record at local-disk rates only on local storage.

    :param heartbeat_seconds: How often a running job rewrites its record.
    :param shortest_poll_seconds: How often it looks for requests at most.
    :param poll_seconds: How often it looks for requests at least.
    :param answer_poll_seconds: How often a waiting sender reads the job's answer.
    :param record_every_seconds: How often a waiting sender reads the job's record.
    """

    heartbeat_seconds: float
    shortest_poll_seconds: float
    poll_seconds: float
    answer_poll_seconds: float
    record_every_seconds: float


#: Local storage (a plain path or ``file:``): requests are taken within a batch interval.
LOCAL_CADENCE = StorageCadence(1.0, 0.1, 0.2, 0.05, 0.5)
#: Any other scheme (HDFS, object stores): a listing a second at most, a record write every 5 s.
REMOTE_CADENCE = StorageCadence(5.0, 1.0, 2.0, 1.0, 5.0)
#: How often a running job rewrites its record on local storage, in seconds.
HEARTBEAT_SECONDS = LOCAL_CADENCE.heartbeat_seconds


def cadence_for(storage_dir: str) -> StorageCadence:
    """The cadence of job control on the storage of ``storage_dir``."""
    return LOCAL_CADENCE if local_path(storage_dir) is not None else REMOTE_CADENCE

#: How long the record of a job that ended stays listed, in seconds (Flink's default
#: ``jobstore.expiration-time``, one hour): a job starting in the same storage removes older ones.
EXPIRATION_SECONDS = 3600.0
#: Heartbeats a running job may miss before a reader on another host takes its driver as gone.
_MISSED_HEARTBEATS = 10
#: The shortest time without a heartbeat after which a driver is taken as gone, in seconds.
_STALE_AFTER_AT_LEAST = 15.0
#: Flink's terminal job statuses, by name.
TERMINAL = ("FINISHED", "CANCELED", "FAILED", "SUSPENDED")
#: The status shown for a job whose record says it runs while its driver is gone.
GONE = "GONE"
#: How many completed and failed checkpoints a record keeps (the newest).
_KEPT_CHECKPOINTS = 20


class JobNotFound(LookupError):
    """No job, or more than one, matches what a command was given."""


@attrs.frozen
class StatusChange:
    """A status a job switched to, and when (epoch seconds)."""

    status: str
    time: float


@attrs.frozen
class JobRecord:
    """What the registry says about one job (one run of a job program, under one job id).

    :param job_id: The job id, 32 hex digits.
    :param name: The job's name.
    :param status: Its status when the record was written (a Flink ``JobStatus`` name).
    :param history: Every status it switched to, oldest first.
    :param host: The driver's host name.
    :param pid: The driver's process id.
    :param pid_start: When the driver's process started, as the host's process table counts
        (``None`` where it cannot be read): a process that reuses the pid has another.
    :param started: When the job started (epoch seconds).
    :param heartbeat: When the running job last wrote the record (epoch seconds).
    :param heartbeat_every: How often it writes it, in seconds.
    :param storage_dir: The checkpoint storage directory the record is in.
    :param job_dir: The job's checkpoint directory (``None``: temporary checkpoint locations).
    :param app_id: The Spark application id.
    :param ui_url: The Spark UI's address.
    :param master: The Spark master.
    :param submission: The id ``pyflink-compat run`` gave the submission that started the job.
    :param checkpoints: The newest completed checkpoints, oldest first, each with ``id``,
        ``sink``, ``batch``, ``time`` (epoch ms), ``duration_ms``, ``state_size``, ``records``.
    :param completed: How many checkpoints the job completed.
    :param failed_checkpoints: The newest failed checkpoints, each with ``sink``, ``time``
        (epoch seconds) and ``reason``.
    :param failed: How many checkpoints failed.
    :param savepoint: The newest savepoint the job wrote.
    :param savepoint_time: When it was written (epoch seconds).
    :param restarts: How often the restart strategy restarted the job.
    :param error: Why the job failed.
    :param ended: When it ended (epoch seconds).
    :param batch_running_since: When (epoch seconds) the oldest batch still running began;
        ``None`` when no batch runs (see :func:`no_progress`).
    """

    job_id: str
    name: str
    status: str
    history: Tuple[StatusChange, ...]
    host: str
    pid: int
    pid_start: Optional[str]
    started: float
    heartbeat: float
    heartbeat_every: float
    storage_dir: str
    job_dir: Optional[str] = None
    app_id: Optional[str] = None
    ui_url: Optional[str] = None
    master: Optional[str] = None
    submission: Optional[str] = None
    checkpoints: Tuple[Mapping[str, Any], ...] = ()
    completed: int = 0
    failed_checkpoints: Tuple[Mapping[str, Any], ...] = ()
    failed: int = 0
    savepoint: Optional[str] = None
    savepoint_time: Optional[float] = None
    restarts: int = 0
    error: Optional[str] = None
    ended: Optional[float] = None
    batch_running_since: Optional[float] = None

    @property
    def terminal(self) -> bool:
        """Whether the record says the job has ended."""
        return self.status in TERMINAL

    def with_checkpoints(self, completed: Sequence[Mapping[str, Any]], failed: Sequence[Mapping[str, Any]],
                         completed_count: int, failed_count: int) -> "JobRecord":
        """The record with the newest of these checkpoints."""
        return attrs.evolve(self, checkpoints=tuple(completed[-_KEPT_CHECKPOINTS:]), completed=completed_count,
                            failed_checkpoints=tuple(failed[-_KEPT_CHECKPOINTS:]), failed=failed_count)

    def to_json(self) -> Dict[str, Any]:
        data = attrs.asdict(self, recurse=True)
        data["history"] = [attrs.asdict(change) for change in self.history]
        data["checkpoints"] = [dict(c) for c in self.checkpoints]
        data["failed_checkpoints"] = [dict(c) for c in self.failed_checkpoints]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "JobRecord":
        """A record read back; keys it does not know are ignored.

        :raises ValueError: when a field is missing or of the wrong kind.
        """
        known = {field.name for field in attrs.fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        try:
            values["history"] = tuple(StatusChange(str(c["status"]), float(c["time"])) for c in data["history"])
            values["checkpoints"] = tuple(dict(c) for c in data.get("checkpoints", ()))
            values["failed_checkpoints"] = tuple(dict(c) for c in data.get("failed_checkpoints", ()))
            return cls(**values)
        except (KeyError, TypeError) as e:
            raise ValueError("not a job record: {}".format(e)) from e


# -- the driver's liveness -----------------------------------------------------------------------
def this_host() -> str:
    """This machine's name, as records give the driver's host."""
    return socket.gethostname()


def process_start(pid: int) -> Optional[str]:
    """When process ``pid`` started, from Linux's process table (``None`` elsewhere, or when
    it is gone); with the pid, it names one process even when pids are reused."""
    stat = _proc_stat(pid)
    return None if stat is None or len(stat) < 20 else stat[19]


def _proc_stat(pid: int) -> Optional[List[str]]:
    """The fields of ``/proc/<pid>/stat`` after the command name (state first)."""
    try:
        with open("/proc/{}/stat".format(pid), "rb") as stream:
            text = stream.read().decode("ascii", errors="replace")
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def process_alive(pid: int, start: Optional[str]) -> Optional[bool]:
    """Whether process ``pid`` of this host, started at ``start``, runs: ``False`` when there is
    no such process, it is a zombie, or another process got its pid; ``None`` when a process
    with that pid runs but whether it is the one cannot be told (no start time on either side)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another account
        pass
    stat = _proc_stat(pid)
    if stat is None:
        return None
    if stat[0] == "Z":
        return False
    if start is None or len(stat) <= 19:
        return None
    return stat[19] == start


def gone_reason(record: JobRecord, now: float, process: Optional[bool]) -> Optional[str]:
    """The liveness rule: why the driver of a job whose record says it runs is gone, or
    ``None`` when it may still be running (and for a job that has ended).

    :param process: What :func:`process_alive` says of the driver's process when the reader
        runs on the driver's host; ``None`` from another host. Where the process decides, the
        heartbeat does not: a driver whose record is not rewritten for a while (a long pause
        of its process, a slow storage) still runs. Otherwise a driver is gone when its
        heartbeat is older than ten heartbeat intervals (at least 15 s).
    """
    if record.terminal or process is True:
        return None
    if process is False:
        return "its driver (process {} on {}) is gone".format(record.pid, record.host)
    age = now - record.heartbeat
    if age > max(_MISSED_HEARTBEATS * record.heartbeat_every, _STALE_AFTER_AT_LEAST):
        return "its driver ({} on {}) has not written its record for {:.0f} s".format(
            record.pid, record.host, age)
    return None


def driver_gone(record: JobRecord, now: Optional[float] = None, host: Optional[str] = None) -> Optional[str]:
    """Why the driver of a job whose record says it runs is gone, or ``None`` when it may still
    be running (:func:`gone_reason`, with the driver's process looked up when this runs on the
    driver's host)."""
    if record.terminal:
        return None
    process = process_alive(record.pid, record.pid_start) if (host or this_host()) == record.host else None
    return gone_reason(record, time.time() if now is None else now, process)


#: How long a batch may run before ``list`` and ``info`` say that the job makes no progress.
NO_PROGRESS_AFTER_SECONDS = 30.0


def no_progress(record: JobRecord, now: Optional[float] = None) -> Optional[str]:
    """Why a job whose record says it runs makes no progress, or ``None``: a batch has been
    running for longer than :data:`NO_PROGRESS_AFTER_SECONDS` (its tasks wait for executors, or
    a task is stuck), with the time since its last batch completed."""
    since = record.batch_running_since
    if record.status != "RUNNING" or since is None:
        return None
    now = time.time() if now is None else now
    if now - since <= NO_PROGRESS_AFTER_SECONDS:
        return None
    last = [float(c["time"]) / 1000.0 + float(c.get("duration_ms") or 0) / 1000.0 for c in record.checkpoints
            if c.get("time") is not None]
    completed = ("its last batch completed {:.0f} s ago".format(now - max(last)) if last
                 else "no batch has completed since it started {:.0f} s ago".format(now - record.started))
    return ("no progress: a batch has been running for {:.0f} s (its tasks wait for executors, or one is "
            "stuck); {}".format(now - since, completed))


def shown_status(record: JobRecord, now: Optional[float] = None) -> str:
    """The status to show: the record's, or :data:`GONE` when the driver is gone."""
    return GONE if driver_gone(record, now) is not None else record.status


# -- the registry ----------------------------------------------------------------------------------
class JobRegistry:
    """The records of the jobs of one checkpoint storage directory.

    :param storage_dir: The storage directory (a path or URI).
    :param spark: The Spark session whose Hadoop configuration opens a non-local storage (by
        default, the one running in this process).
    :raises ~pyflink_compat.checkpoints.errors.CheckpointFileError: for a non-local storage when no
        Spark session runs.
    """

    def __init__(self, storage_dir: str, spark: "Optional[SparkSession]" = None):
        self.storage_dir = storage_dir.rstrip("/")
        self.access, root = file_access_for(self.storage_dir, spark)
        #: How often job control reads and writes this storage.
        self.cadence = cadence_for(self.storage_dir)
        self.root = "{}/{}".format(root.rstrip("/"), REGISTRY_NAME)
        self._made: Set[str] = set()

    def path(self, job_id: str, *parts: str) -> str:
        """A path in a job's directory of the registry."""
        return "/".join((self.root, job_id) + parts)

    def make_dir(self, path: str) -> None:
        """Create a private directory below the registry (once per registry object)."""
        if path in self._made:
            return
        if self.root not in self._made:
            self.access.make_private_dir(self.root)
            self._made.add(self.root)
        self.access.make_private_dir(path)
        self._made.add(path)

    def write(self, record: JobRecord) -> None:
        """Replace a job's record as one step.

        :raises OSError: when the storage cannot be written.
        """
        self.make_dir(self.path(record.job_id))
        data = json.dumps(record.to_json(), indent=1, sort_keys=True).encode("utf-8")
        self.access.write_atomic(self.path(record.job_id, RECORD_NAME), data)

    def read(self, job_id: str) -> Optional[JobRecord]:
        """A job's record; ``None`` when there is none or it cannot be read as one."""
        path = self.path(job_id, RECORD_NAME)
        for attempt in range(2):
            try:
                return JobRecord.from_json(json.loads(self.access.read_text(path)))
            except (FileNotFoundError, NotADirectoryError, ValueError):
                # replacing a file on Hadoop is a delete then a rename: look once more
                if attempt == 0 and self.access.isdir(self.path(job_id)):
                    time.sleep(0.05)
        return None

    def job_ids(self) -> List[str]:
        return [name for name in self.access.listdir(self.root) if not name.startswith(".")]

    def records(self) -> List[JobRecord]:
        """Every readable record, oldest job first."""
        found = [record for record in (self.read(job_id) for job_id in self.job_ids()) if record is not None]
        return sorted(found, key=lambda r: (r.started, r.job_id))

    def prune(self, now: Optional[float] = None) -> List[str]:
        """Remove the records of jobs that ended, or whose driver is gone, more than
        :data:`EXPIRATION_SECONDS` ago.

        :return: The job ids removed.
        """
        now = time.time() if now is None else now
        removed = []
        for record in self.records():
            last = record.ended if record.terminal else record.heartbeat
            if last is not None and now - last > EXPIRATION_SECONDS and \
                    (record.terminal or driver_gone(record, now) is not None):
                try:
                    self.access.remove_tree(self.path(record.job_id))
                except OSError:
                    continue
                removed.append(record.job_id)
        return removed


def running_namesake(records: Sequence[JobRecord], name: str, job_dir: Optional[str]) -> Optional[JobRecord]:
    """The job named ``name`` that checkpoints into ``job_dir`` and runs: its record says so
    and its driver is not gone (see :func:`driver_gone`); ``None`` when there is none."""
    for record in records:
        if record.name == name and record.job_dir == job_dir and not record.terminal and \
                driver_gone(record) is None:
            return record
    return None


def find_job(records: Sequence[JobRecord], reference: str) -> JobRecord:
    """The job a command names: by its id, a prefix of its id that only it has, or its name
    (the running job of that name when an earlier run of it is listed too).

    :raises JobNotFound: naming the candidates when none or several match.
    """
    by_id = [r for r in records if r.job_id == reference.lower()]
    if by_id:
        return by_id[0]
    prefixed = [r for r in records if r.job_id.startswith(reference.lower())] if reference else []
    if len(prefixed) == 1:
        return prefixed[0]
    if len(prefixed) > 1:
        raise JobNotFound("The job id prefix '{}' is not unique: it starts {}.".format(
            reference, ", ".join(r.job_id for r in prefixed)))
    named = [r for r in records if r.name == reference]
    running = [r for r in named if shown_status(r) not in TERMINAL + (GONE,)]
    if len(named) == 1:
        return named[0]
    if len(running) == 1:
        return running[0]
    if named:
        raise JobNotFound("Several jobs are named '{}' ({}): give the job id.".format(
            reference, ", ".join("{} {}".format(r.job_id, shown_status(r)) for r in named)))
    raise JobNotFound("No job with id or name '{}' is recorded.".format(reference))
