"""What a job owns among its checkpoints, and the decision to delete or keep them when it ends.

Layout of a durable job: ``<storage dir>/<job directory name>/<sink name>`` is one query's
Spark checkpoint, and ``<storage dir>/<job directory name>/_pyflink_compat_job.json`` (the
marker) records the job's name, its runs (each under its job id, with the sink directories it
created, those it restored from, and the Spark query ids it found in them), and for each sink directory which run
created it, the Spark query id found in it and the shape of the pipeline that wrote it. A run
started with ``execution.state-recovery.path`` records that source (``restored_from``) in its
run record and in the records of the directories it created as restored copies.

Ownership follows Flink's default restore mode, ``NO_CLAIM``. When a run ends, each sink
directory has an :class:`Origin` relative to that run:

* :attr:`Origin.CREATED`: the directory did not exist as the run started;
* :attr:`Origin.CLAIMED`: it existed, no run of the job had created it, and the run took it
  over under ``CLAIM`` (``execution.state-recovery.claim-mode``, set when a job resumes its own
  checkpoints in place);
* :attr:`Origin.RESTORED`: an earlier run of the same job created it (same name, same pipeline
  shape) and this run resumed it;
* :attr:`Origin.FOREIGN`: it existed and no run of this job created it (another query wrote
  it, or no marker records it).

:func:`kept_because` is the whole decision, from the retention mode, how the job ended
(:class:`Ending`) and the origin: Flink's retention rules apply to what the run created or
claimed; a restored directory is deleted when the run finishes or is cancelled under a
retention that deletes, and kept when it fails (a failing run never destroys the checkpoint it
restored from); a foreign directory is never deleted. On top of it, a directory is deleted only
when the marker names this job and Spark's ``metadata`` file in it still has the recorded query
id: never the storage directory or anything outside the job directory, the job directory only
when left empty. When in doubt, the data is kept and the reason logged.

A run that restores from a savepoint or checkpoint (``execution.state-recovery.path``) while
the job directory still holds a checkpoint of the same sink that does not continue from that
source (a driver was killed, or a cancelled job retained its checkpoints) sets that checkpoint
aside before it starts (:meth:`JobOwnership.set_aside`): it is moved, unchanged, to
``<job directory>/_replaced/<run id>/<sink name>`` with a marker of its own, so that it stays
restorable (``run -s <job directory>/_replaced/<run id>``) and is never deleted by a job. The
sink's place then holds the newest run's checkpoint, which a plain run resumes.

Files are reached through a :class:`~pyflink_compat.checkpoints.file_access.FileAccess` (on
local storage in Python, with Hadoop's ``.crc`` files) and Spark's files read with
:class:`~pyflink_compat.checkpoints.layout.QueryCheckpoint`. Every read that can fail raises
:class:`CheckpointError` naming the file and the cause; the supervisor turns it into the job's
error. The job directory's name is derived from the job's name here (:func:`job_directory_name`).
"""

from __future__ import annotations

import contextlib
import enum
import hashlib
import json
import logging
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence

from pyflink_compat.checkpoints.access import file_access_for
from pyflink_compat.checkpoints.crc import ChecksumError
from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.file_access import FileAccess
from pyflink_compat.checkpoints.layout import QueryCheckpoint
from pyflink_compat.checkpoints.marker import MARKER_FORMAT, MARKER_NAME, JobMarker, read_marker
from pyflink_compat.common.job_status import JobStatus
from pyflink_compat.settings.registry import Retention

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["JobOwnership", "CheckpointError", "Ending", "Origin", "kept_because", "NO_CLAIM", "CLAIM",
           "REPLACED_DIR", "job_directory_name"]

LOG = logging.getLogger("pyflink_compat.checkpoints")

#: Flink's default restore mode: a restored checkpoint is never deleted by the new run.
NO_CLAIM = "NO_CLAIM"
#: The restore mode that makes a restored checkpoint the job's own.
CLAIM = "CLAIM"
#: The folder of a job directory that holds, per run, the checkpoints its restore replaced.
REPLACED_DIR = "_replaced"


class CheckpointError(Exception):
    """A checkpoint directory or file that cannot be used, with its path and the cause."""


# -- the decision -------------------------------------------------------------------------------
class Ending(enum.Enum):
    """How a job ended, by the status it ended in."""

    CANCEL = "CANCELED"
    FAIL = "FAILED"
    FINISH = "FINISHED"
    #: The queries stopped without the job ending (an interrupted ``execute``); the job may
    #: resume. A stop with a savepoint ends the job ``FINISHED``.
    SUSPEND = "SUSPENDED"

    @classmethod
    def of(cls, status: JobStatus) -> "Ending":
        """The ending of a job that ended in ``status``."""
        return cls(status.name)


class Origin(enum.Enum):
    """Where a sink directory came from, relative to the run that is ending."""

    CREATED = "created"
    CLAIMED = "claimed"
    RESTORED = "restored"
    FOREIGN = "foreign"


def kept_because(retention: Retention, ending: Ending, origin: Origin) -> Optional[str]:
    """Why a job that ended this way keeps a sink directory of this origin, or ``None`` when
    it deletes it (see the module's text)."""
    if origin is Origin.FOREIGN:
        return "not created by this job (it existed before the run that restored from it)"
    if ending is Ending.SUSPEND:
        return "the job was suspended, so it may resume"
    if retention is Retention.RETAIN_ON_CANCELLATION:
        return "retention {} keeps it".format(retention)
    if ending is Ending.FAIL:
        if retention is not Retention.NO_EXTERNALIZED_CHECKPOINTS:
            return "retention {} keeps the checkpoints of a failed job".format(retention)
        if origin is Origin.RESTORED:
            return ("restored by this run from an earlier run of the job, and a failed run never "
                    "deletes the checkpoint it restored from")
    return None


# -- the job directory ------------------------------------------------------------------------------
#: Longest directory name (in bytes) most file systems allow.
_MAX_NAME_BYTES = 255
_KEEP_BYTES = 200


def job_directory_name(job_name: str) -> str:
    """The directory a job's checkpoints go in, derived from its name so that two names
    never share one.

    Letters, digits, ``-``, ``_``, ``.`` and inner spaces are kept; every other character
    (separators, ``%``, ``~``, a leading dot, leading or trailing spaces, non-ASCII) is
    percent-encoded as UTF-8 bytes, so the result is never ``.`` or ``..`` and has no separator.
    A name whose encoding is longer than 255 bytes keeps its first 200 and ends in ``~`` and a
    hash of the whole name. The empty name is ``%empty``.
    """
    if job_name == "":
        return "%empty"
    encoded = "".join(_encode_char(c, i, len(job_name)) for i, c in enumerate(job_name))
    if len(encoded) > _MAX_NAME_BYTES:
        cut = encoded[:_KEEP_BYTES]
        tail = cut.rfind("%")
        if tail > _KEEP_BYTES - 3:
            cut = cut[:tail]
        encoded = "{}~{}".format(cut, hashlib.sha256(job_name.encode("utf-8")).hexdigest()[:32])
    return encoded


def _encode_char(char: str, index: int, length: int) -> str:
    keep = char.isascii() and (char.isalnum() or char in "-_") or \
        (char == "." and index > 0) or (char == " " and 0 < index < length - 1)
    if keep:
        return char
    return "".join("%{:02X}".format(b) for b in char.encode("utf-8", "surrogatepass"))


def _first_line(text: str) -> str:
    text = text.strip()
    return text.splitlines()[0] if text else ""


def _cause(error: OSError) -> str:
    return _first_line(str(error.strerror or error)) or type(error).__name__


class JobOwnership:
    """The checkpoint directories of one job under one storage directory, and its marker.

    :param spark: The job's Spark session (its Hadoop configuration opens non-local storage).
    :param job_dir: ``<storage dir>/<job directory name>``, a URI.
    :param job_name: The job's name, recorded in the marker.
    :param access: The file access to use, which must understand ``job_dir`` as written (by
        default, the one for its scheme: on local storage, Python with Hadoop's ``.crc`` files).
    :raises CheckpointError: when the storage is not local and cannot be reached.
    """

    def __init__(self, spark: "Optional[SparkSession]", job_dir: str, job_name: str,
                 access: Optional[FileAccess] = None):
        self.job_dir = job_dir.rstrip("/")
        self.job_name = job_name
        self.run_id: Optional[str] = None
        if access is not None:
            self._access, self._root = access, self.job_dir
            return
        try:
            self._access, self._root = file_access_for(self.job_dir, spark, checksums=True)
        except CheckpointFileError as e:
            cause = getattr(e.__cause__, "java_exception", None) or e.__cause__ or e.cause
            raise CheckpointError("The checkpoint storage {} cannot be reached: {}".format(
                self.job_dir, _first_line(str(cause)))) from e

    # -- files ----------------------------------------------------------------------------
    def location(self, *parts: str) -> str:
        """The URI of a path below the job directory."""
        return "/".join((self.job_dir,) + parts)

    def _path(self, *parts: str) -> str:
        return "/".join((self._root,) + parts)

    def _location_of(self, path: str) -> str:
        return self.job_dir + path[len(self._root):] if path.startswith(self._root) else path

    def _unreadable(self, path: str, error: OSError) -> CheckpointError:
        location, cause = self._location_of(path), _cause(error)
        if isinstance(error, ChecksumError) or "ChecksumException" in cause:
            return CheckpointError("{} is corrupt (its content does not match its checksum file: {})".format(
                location, cause))
        return CheckpointError("{} cannot be read: {}".format(location, cause))

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """Failures to read a checkpoint file, as :class:`CheckpointError` naming the file."""
        try:
            yield
        except CheckpointFileError as e:
            cause = e.cause if e.cause.startswith("corrupt") else "corrupt ({})".format(e.cause)
            raise CheckpointError("The checkpoint file {} is {}".format(self._location_of(e.path), cause)) from e
        except OSError as e:
            raise self._unreadable(str(e.filename or self._root), e) from e

    def _checkpoint(self, sink: str) -> QueryCheckpoint:
        return QueryCheckpoint(self._access, self._path(sink))

    def exists(self, sink: str) -> bool:
        return self._access.exists(self._path(sink))

    def holds_commit(self, sink: str, batch_id: int) -> bool:
        """Whether a sink's checkpoint has Spark's ``metadata`` file and batch ``batch_id`` in its
        commit log (two file checks, where listing the log and reading the file take more)."""
        try:
            checkpoint = self._checkpoint(sink)
            return checkpoint.has_commit(batch_id) and checkpoint.has_metadata()
        except OSError as e:  # the file system failed: the full check says why
            LOG.debug("Checking commit %d of %s: %s", batch_id, sink, _cause(e))
            return False

    # -- what Spark keeps in a checkpoint --------------------------------------------------------
    def committed_batches(self, sink: str) -> List[int]:
        """The batch ids in a checkpoint's commit log, ascending."""
        with self._reading():
            return self._checkpoint(sink).committed_batches()

    def query_id(self, sink: str) -> Optional[str]:
        """The query id in Spark's ``metadata`` file of a sink's checkpoint (``None``: no file).

        :raises CheckpointError: when the file cannot be read or is not Spark's metadata.
        """
        with self._reading():
            try:
                return self._checkpoint(sink).recorded_query_id()
            except CheckpointFileError as e:
                raise CheckpointError("The checkpoint metadata {} is {}: it should hold the query id "
                                      "as JSON".format(self._location_of(e.path), e.cause)) from e

    def validate(self, sink: str) -> None:
        """Read what Spark reads first when a query resumes: its metadata and the newest
        entries of its offset and commit logs.

        :raises CheckpointError: naming the first file that cannot be used and why.
        """
        if not self.exists(sink):
            return
        self.query_id(sink)
        checkpoint = self._checkpoint(sink)
        with self._reading():
            checkpoint.newest_entry("offsets")
            checkpoint.newest_entry("commits")

    def source_count(self, sink: str) -> Optional[int]:
        """The sources recorded in a checkpoint's newest offset log entry (``None``: no entry)."""
        with self._reading():
            lines = self._checkpoint(sink).newest_entry("offsets")
        return None if lines is None else len(lines) - 2

    def state_operators(self, sink: str) -> List[int]:
        """The stateful operator ids a checkpoint holds state for."""
        with self._reading():
            return self._checkpoint(sink).operator_ids()

    def pinned_conf(self, sink: str) -> Dict[str, str]:
        """The session conf Spark recorded in the newest offset log entry of a checkpoint.

        Spark keeps using these values (state store provider, shuffle partitions) for an
        existing checkpoint, whatever the session now says.
        """
        with self._reading():
            return self._checkpoint(sink).pinned_conf()

    def unreadable_files(self, sink: str, folder: str = "state", limit: int = 5000) -> List[str]:
        """Files under a checkpoint folder that cannot be read back (a checksum that does not
        match, a file that cannot be opened), each with the cause; at most ``limit`` are read."""
        try:
            found = self._checkpoint(sink).unreadable_files(folder, limit)
        except OSError as e:  # the folder cannot be listed
            LOG.debug("Could not scan %s/%s: %s", self.location(sink), folder, e)
            return []
        return ["{} ({})".format(self._location_of(path), _cause(error)) for path, error in found]

    # -- the marker -------------------------------------------------------------------------
    def marker(self) -> Optional[JobMarker]:
        """The marker (a first-format one upgraded), or ``None`` when there is none.

        :raises CheckpointError: when the marker exists but cannot be read as one.
        """
        try:
            return read_marker(self._access, self._root)
        except CheckpointFileError as e:
            raise CheckpointError("The ownership marker {} is {}; it records which checkpoints job '{}' "
                                  "may delete, so nothing is started or deleted. Restore it or remove "
                                  "the job directory.".format(self.location(MARKER_NAME), e.cause,
                                                              self.job_name)) from e
        except OSError as e:
            raise self._unreadable(self._path(MARKER_NAME), e) from e

    def read_marker(self) -> Optional[Dict[str, Any]]:
        """The marker as JSON in the current format (a new object), or ``None``.

        :raises CheckpointError: when the marker exists but cannot be read as one.
        """
        marker = self.marker()
        return None if marker is None else marker.to_json()

    def _write_marker(self, marker: Mapping[str, Any]) -> None:
        """Replace the marker as one step (see
        :meth:`~pyflink_compat.checkpoints.file_access.FileAccess.write_atomic`), so that a
        process killed while writing leaves the old marker (or, at worst, none: then nothing is
        provably the job's, and nothing is deleted), never half of one."""
        text = json.dumps(marker, indent=1, sort_keys=True)
        try:
            self._access.write_atomic(self._path(MARKER_NAME), text.encode("utf-8"))
        except OSError as e:
            raise CheckpointError("{} cannot be written: {}".format(self.location(MARKER_NAME), _cause(e))) from e

    def _own_marker(self) -> Optional[Dict[str, Any]]:
        """The marker as JSON to change and write, after checking that it names this job."""
        marker = self.check_owner()
        return None if marker is None else marker.to_json()

    def check_owner(self) -> Optional[JobMarker]:
        """The marker, after checking that it names this job.

        :raises CheckpointError: when it names another job or is corrupt.
        """
        marker = self.marker()
        if marker is not None and marker.job_name != self.job_name:
            raise CheckpointError(
                "The checkpoint directory {} belongs to job '{}', not to '{}': give this job "
                "another name so that neither job's checkpoints are taken over.".format(
                    self.job_dir, marker.job_name, self.job_name))
        return marker

    def set_aside(self, sinks: Sequence[str], run_id: str) -> Dict[str, str]:
        """Move the checkpoints of ``sinks`` that the restore of run ``run_id`` replaces to
        ``<job directory>/_replaced/<run id>/<sink>``, unchanged, never to be deleted by a job.

        Their records move with them into a marker of their own there first (so the folder is a
        job directory that ``run -s`` restores and ``checkpoints verify`` reads), then each
        directory is renamed in one step, then the job's marker forgets them. A process killed
        in between leaves every checkpoint whole, in one place or the other.

        :return: Each moved directory's path (in the form of this job's file access) by its
            former path, to read a restore source that moved from its new place.
        :raises CheckpointError: when the marker names another job or a move fails.
        """
        marker = self._own_marker()
        present = [sink for sink in sinks if self.exists(sink)]
        if not present:
            return {}
        target = self._path(REPLACED_DIR, run_id)
        records = {sink: ((marker or {}).get("sinks", {}).get(sink)
                          or {"created_by": None, "query_id": None, "pipeline": None}) for sink in present}
        aside = {"format": MARKER_FORMAT, "job_name": self.job_name, "runs": [], "sinks": records}
        moved: Dict[str, str] = {}
        try:
            self._access.makedirs(target)
            self._access.write_atomic(target + "/" + MARKER_NAME,
                                      json.dumps(aside, indent=1, sort_keys=True).encode("utf-8"))
            for sink in present:
                self._access.rename_dir(self._path(sink), target + "/" + sink)
                moved[self._path(sink)] = target + "/" + sink
                LOG.warning("Job %s: the checkpoint %s, which the restore of run %s replaces, was moved unchanged "
                            "to %s (restorable from there; no job deletes it)", self.job_name,
                            self.location(sink), run_id, self.location(REPLACED_DIR, run_id, sink))
        except OSError as e:
            raise CheckpointError("The checkpoint {} could not be set aside under {}: {}".format(
                self.location(present[len(moved)]), self.location(REPLACED_DIR, run_id), _cause(e))) from e
        finally:
            if marker is not None and moved:
                for sink in present[:len(moved)]:
                    marker["sinks"].pop(sink, None)
                self._write_marker(marker)
        return moved

    def begin_run(self, run_id: str, pipelines: Mapping[str, Optional[Mapping[str, Any]]],
                  claim_mode: str = NO_CLAIM, restore_source: Optional[str] = None,
                  restored_sinks: Sequence[str] = (), replaced: Sequence[str] = ()) -> List[str]:
        """Record a new run and the sink directories it creates.

        :param run_id: The run's identifier: its job id, as the job's log prints it.
        :param pipelines: Per durable sink, the shape of its pipeline now (sources, stateful,
            sink format), recorded with the directories the run creates; ``None`` when it is
            recorded later (:meth:`record_pipeline`).
        :param claim_mode: :data:`NO_CLAIM` (Flink's default) or :data:`CLAIM`.
        :param restore_source: The savepoint or checkpoint the run restores from, recorded as
            the run's ``restored_from``.
        :param restored_sinks: The sinks whose directory the run creates as a copy of their saved
            query: their record keeps ``restored_from`` too, so that a later run with the same
            restore path can tell that they continue from it.
        :param replaced: The sinks whose earlier checkpoint the run set aside
            (:meth:`set_aside`), recorded in the run's record.
        :return: The sinks that resume from a directory no run of this job created (never
            deleted by this job under ``NO_CLAIM``).
        :raises CheckpointError: when the job directory cannot be created or written, or
            belongs to another job.
        """
        marker = self._own_marker() or {"format": MARKER_FORMAT, "job_name": self.job_name,
                                        "runs": [], "sinks": {}}
        sinks: Dict[str, Any] = marker["sinks"]
        created, restored, foreign = [], [], []
        for sink, shape in pipelines.items():
            pipeline = None if shape is None else dict(shape)
            record = sinks.get(sink)
            if not self.exists(sink):
                sinks[sink] = {"created_by": run_id, "query_id": None, "pipeline": pipeline}
                if sink in restored_sinks:
                    sinks[sink]["restored_from"] = restore_source
                created.append(sink)
                continue
            restored.append(sink)
            if record is None or record.get("created_by") is None:
                if claim_mode == CLAIM:
                    sinks[sink] = {"created_by": run_id, "claimed": True,
                                   "query_id": self.query_id(sink), "pipeline": pipeline}
                else:
                    sinks[sink] = {"created_by": None, "query_id": None, "pipeline": pipeline}
                    foreign.append(sink)
            elif record.get("pipeline") is None:
                record["pipeline"] = pipeline
        run: Dict[str, Any] = {"run": run_id, "claim_mode": claim_mode, "created": created, "restored": restored}
        if restore_source is not None:
            run["restored_from"] = restore_source
        if replaced:
            run["replaced"] = {sink: "/".join((REPLACED_DIR, run_id, sink)) for sink in replaced}
        marker["runs"] = list(marker.get("runs", []))[-19:] + [run]
        self._make_job_dir()
        self._write_marker(marker)
        self.run_id = run_id
        return foreign

    def _make_job_dir(self) -> None:
        try:
            self._access.makedirs(self._root)
        except OSError as e:
            raise CheckpointError("The checkpoint directory {} cannot be created: {}".format(
                self.job_dir, _cause(e))) from e
        if not self._access.isdir(self._root):
            raise CheckpointError("The checkpoint directory {} cannot be created (is the storage "
                                  "directory writable?)".format(self.job_dir))

    def recorded_pipeline(self, sink: str) -> Optional[Mapping[str, Any]]:
        """The pipeline shape recorded for a sink directory, if any."""
        marker = self.marker()
        record = None if marker is None else marker.sinks.get(sink)
        return None if record is None else record.pipeline

    def record_pipeline(self, sink: str, shape: Callable[[], Mapping[str, Any]]) -> None:
        """Record the pipeline shape of a sink directory whose record lacks one (``shape`` is
        called only then).

        :raises CheckpointError: when the marker cannot be read or written.
        """
        marker = self._own_marker()
        record = (marker or {}).get("sinks", {}).get(sink)
        if marker is None or record is None or record.get("pipeline") is not None:
            return
        record["pipeline"] = dict(shape())
        self._write_marker(marker)

    def record_query_ids(self, started: Optional[Mapping[str, Any]] = None) -> None:
        """Store the query id of every sink this job created, once Spark has written it.

        :param started: The queries just started (PySpark ``StreamingQuery``), by sink: their
            ``id`` is the one Spark keeps in their checkpoint's ``metadata``, which is read
            only for any other sink. Ids are asked for only when the marker lacks them.
        """
        marker = self._own_marker()
        if marker is None:
            return
        changed = False
        found: Dict[str, Optional[str]] = {}  # each id is looked up once

        def query_id(sink: str) -> Optional[str]:
            if sink not in found:
                query = (started or {}).get(sink)
                found[sink] = str(query.id) if query is not None else self.query_id(sink)
            return found[sink]

        for sink, record in marker["sinks"].items():
            if record.get("created_by") is not None and record.get("query_id") is None:
                record["query_id"] = query_id(sink)
                changed = record["query_id"] is not None or changed
        for run in marker.get("runs", []):
            if run.get("run") == self.run_id and not run.get("query_ids"):
                run["query_ids"] = {sink: query_id(sink)
                                    for sink in list(run.get("created", [])) + list(run.get("restored", []))}
                changed = True
        if changed:
            self._write_marker(marker)

    # -- the end of a run ---------------------------------------------------------------------
    def _origin(self, record: Mapping[str, Any]) -> Origin:
        """The origin of a sink directory from its record in the marker."""
        created_by = record.get("created_by")
        if created_by is None:
            return Origin.FOREIGN
        if created_by != self.run_id:
            return Origin.RESTORED
        return Origin.CLAIMED if record.get("claimed") else Origin.CREATED

    def end_run(self, retention: Retention, ending: Ending, sinks: Sequence[str]) -> List[str]:
        """Delete the checkpoints of ``sinks`` that :func:`kept_because` lets go and that runs
        of this job provably created; nothing is read when the retention keeps everything.

        :return: Why each directory that was considered and kept was kept (empty when all went).
        """
        if all(kept_because(retention, ending, origin) is not None for origin in Origin):
            LOG.info("Job %s ended %s: checkpoints kept under %s (retention %s)",
                     self.job_name, ending.value, self.job_dir, retention)
            return []
        kept: List[str] = []
        try:
            marker = self._own_marker()
        except CheckpointError as e:
            marker, reason = None, str(e)
        else:
            reason = "{}: no marker of job '{}', so nothing there is provably this job's".format(
                self.job_dir, self.job_name)
        if marker is None:
            kept.append(reason)
            LOG.warning("Kept checkpoints: %s", kept[-1])
            return kept
        owned: Dict[str, Any] = marker["sinks"]
        for sink in sinks:
            location = self.location(sink)
            record = owned.get(sink) or {}
            because = kept_because(retention, ending, self._origin(record))
            if because is not None:
                kept.append("{}: {}".format(location, because))
            else:
                try:
                    found = self.query_id(sink)
                except CheckpointError:
                    found = None
                if record.get("query_id") is None or found != record["query_id"]:
                    kept.append("{}: its Spark query metadata does not match the marker".format(location))
                else:
                    try:
                        self._access.remove_tree(self._path(sink))
                    except OSError as e:
                        kept.append("{}: it could not be deleted ({})".format(location, _cause(e)))
                    else:
                        owned.pop(sink)
                        LOG.info("Job %s ended %s: deleted its checkpoint %s (retention %s)",
                                 self.job_name, ending.value, location, retention)
                        continue
            LOG.warning("Kept checkpoint %s", kept[-1])
        if owned:
            self._write_marker(marker)
            return kept
        try:
            self._access.remove_file(self._path(MARKER_NAME))
            if not self._access.listdir(self._root):
                self._access.remove_dir(self._root)
        except OSError as e:  # something else appeared in the job directory: it stays
            LOG.debug("Job directory %s kept: %s", self.job_dir, _cause(e))
        return kept
