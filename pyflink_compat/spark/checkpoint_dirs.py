"""Checkpoint directories of a job: who owns them, and what Spark keeps in them (the files are
reached through :mod:`pyflink_compat.spark.job_files`, the marker on local storage through
:mod:`pyflink_compat.spark.local_marker`).

Layout of a durable job: ``<storage dir>/<job directory name>/<sink name>`` is one query's
Spark checkpoint, and ``<storage dir>/<job directory name>/_pyflink_compat_job.json`` (the
marker) records the job's name, its runs (each with the sink directories it created, those it
restored from, and the Spark query ids it found in them), and for each sink directory which run
created it, the Spark query id found in it and the shape of the pipeline that wrote it. A run
started with ``execution.state-recovery.path`` records that source (``restored_from``) in its
run record and in the records of the directories it created as restored copies.

Ownership follows Flink's default restore mode, ``NO_CLAIM``:

* A run *creates* a sink directory when the directory did not exist as the run started.
  Flink's retention rules apply to it in full (a failed run deletes it under
  ``NO_EXTERNALIZED_CHECKPOINTS``).
* A directory an earlier run of the same job created (same name, same pipeline shape, the
  recorded Spark query id still in it) and this run resumed is the job's: it is deleted when
  the run *finishes or is cancelled* under a retention that deletes, so a ported job re-run
  with ``DELETE_ON_CANCELLATION`` still cleans up after itself. A run that *fails* keeps it,
  whatever the retention: as under Flink's ``NO_CLAIM``, a failing run never destroys the
  checkpoint it restored from (it may be why the run failed, and it is the only way back).
* A directory that existed before a run started and that no run of this job created (another
  query wrote it, or no marker records it) is restored from and never deleted.
* ``CLAIM`` (``execution.state-recovery.claim-mode``, for when savepoints arrive) is the one
  way a run takes over a restored directory: :meth:`CheckpointDirs.begin_run` takes the mode;
  under ``CLAIM`` a restored directory is recorded as created by the run that claimed it, and
  the rules for a directory the run created apply.

Clean-up deletes a sink directory only when the marker names this job, one of its runs created
(or claimed) the directory, and Spark's ``metadata`` file in it still has the recorded query
id: never the storage directory or anything outside the job directory, the job directory only
when left empty. When in doubt, it keeps the data and says why.

Every read of a checkpoint file that can fail raises :class:`CheckpointError` naming the file
and the cause; the supervisor turns it into the job's error.
"""

from __future__ import annotations

import json
import logging
import uuid
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence

from pyflink_compat.spark.job_files import IO_UTILS, CheckpointError, JobFiles, java_cause
from pyflink_compat.spark.local_marker import LocalMarker, MarkerFileError
from pyflink_compat.util.java_classes import java_static

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["CheckpointDirs", "CheckpointError", "MARKER_NAME", "NO_CLAIM", "CLAIM", "new_run_id"]

LOG = logging.getLogger("pyflink_compat.checkpoints")

MARKER_NAME = "_pyflink_compat_job.json"
#: Flink's default restore mode: a restored checkpoint is never deleted by the new run.
NO_CLAIM = "NO_CLAIM"
#: The restore mode that makes a restored checkpoint the job's own.
CLAIM = "CLAIM"
_FORMAT = 2
#: ``created_by`` of a directory recorded by a marker written before runs were recorded.
_EARLIER_RUN = "earlier-run"


def new_run_id() -> str:
    """A fresh identifier for one run of a job."""
    return uuid.uuid4().hex


class CheckpointDirs:
    """The checkpoint directories of one job under one storage directory.

    :param spark: The job's Spark session (for its Hadoop configuration).
    :param job_dir: ``<storage dir>/<job directory name>``.
    :param job_name: The job's name, recorded in the marker.
    """

    def __init__(self, spark: "SparkSession", job_dir: str, job_name: str):
        self._files = JobFiles(spark, job_dir)
        self.job_dir = self._files.job_dir
        self.job_name = job_name
        self.run_id: Optional[str] = None
        # on local storage the marker is read and written from Python (see local_marker)
        local = self._files.local
        self._local = LocalMarker(local, MARKER_NAME, self.job_dir) if local else None

    # -- files ----------------------------------------------------------------------------
    def location(self, *parts: str) -> str:
        return self._files.location(*parts)

    def exists(self, sink: str) -> bool:
        return self._files.exists(sink)

    def holds_commit(self, sink: str, batch_id: int) -> bool:
        """Whether a sink's checkpoint has Spark's ``metadata`` file and batch ``batch_id`` in its
        commit log (two file checks; listing the log and reading the file take a dozen)."""
        try:
            return self._files.is_file(sink, "commits", str(batch_id)) and \
                self._files.is_file(sink, "metadata")
        except Exception as e:  # the file system failed: the full check says why
            LOG.debug("Checking commit %d of %s: %s", batch_id, sink, java_cause(e))
            return False

    def batch_ids(self, sink: str, log: str) -> List[int]:
        """The batch ids in a checkpoint's ``offsets`` or ``commits`` log, ascending."""
        return sorted(int(n) for n in self._files.names(sink, log) if n.isdigit())

    # -- the marker -------------------------------------------------------------------------
    def read_marker(self) -> Optional[Dict[str, Any]]:
        """The marker, upgraded to the current format, or ``None`` when there is none.

        :raises CheckpointError: when the marker exists but cannot be read as one.
        """
        location = self.location(MARKER_NAME)
        text = self._marker_text()
        if text is None:
            return None
        try:
            marker = json.loads(text)
        except ValueError as e:
            raise CheckpointError("The ownership marker {} is corrupt ({}); it records which "
                                  "checkpoints job '{}' may delete, so nothing is started or "
                                  "deleted. Restore it or remove the job directory.".format(
                                      location, e, self.job_name)) from e
        if not isinstance(marker, dict) or not isinstance(marker.get("sinks"), dict):
            raise CheckpointError("The ownership marker {} is corrupt (not a JSON object with "
                                  "'sinks'); nothing is started or deleted. Restore it or remove "
                                  "the job directory.".format(location))
        if marker.get("format") != _FORMAT:  # the first format: sink -> query id
            marker = {"format": _FORMAT, "job_name": marker.get("job_name"), "runs": [],
                      "sinks": {s: {"created_by": _EARLIER_RUN, "query_id": q, "pipeline": None}
                                for s, q in marker["sinks"].items()}}
        return marker

    def _marker_text(self) -> Optional[str]:
        if self._local is None:
            return self._files.read(MARKER_NAME)
        try:
            data = self._local.read()
        except MarkerFileError as e:
            raise CheckpointError(str(e)) from e
        return None if data is None else data.decode("utf-8", errors="replace")

    def _write_marker(self, marker: Mapping[str, Any]) -> None:
        """Replace the marker as one step: written aside, then renamed over the old one, so that a
        process killed while writing leaves the old marker (or, at worst, none: then nothing is
        provably the job's, and nothing is deleted), never half of one."""
        text = json.dumps(marker, indent=1, sort_keys=True)
        if self._local is not None:
            try:
                return self._local.write(text.encode("utf-8"))
            except MarkerFileError as e:
                raise CheckpointError(str(e)) from e
        self._files.write(text, MARKER_NAME + ".new")
        aside, target = self._files.path(MARKER_NAME + ".new"), self._files.path(MARKER_NAME)
        try:
            if not self._files.fs.rename(aside, target):
                self._files.fs.delete(target, False)
                if not self._files.fs.rename(aside, target):
                    raise CheckpointError("{} cannot be replaced".format(target.toString()))
        except CheckpointError:
            raise
        except Exception as e:
            raise CheckpointError("{} cannot be written: {}".format(target.toString(), java_cause(e))) from e

    def _own_marker(self) -> Optional[Dict[str, Any]]:
        marker = self.read_marker()
        if marker is not None and marker.get("job_name") != self.job_name:
            raise CheckpointError(
                "The checkpoint directory {} belongs to job '{}', not to '{}': give this job "
                "another name so that neither job's checkpoints are taken over.".format(
                    self.job_dir, marker.get("job_name"), self.job_name))
        return marker

    def check_owner(self) -> Optional[Dict[str, Any]]:
        """The marker, after checking that it names this job.

        :raises CheckpointError: when it names another job or is corrupt.
        """
        return self._own_marker()

    def begin_run(self, run_id: str, pipelines: Mapping[str, Optional[Mapping[str, Any]]],
                  claim_mode: str = NO_CLAIM, restore_source: Optional[str] = None,
                  restored_sinks: Sequence[str] = ()) -> List[str]:
        """Record a new run and the sink directories it creates.

        :param run_id: The run's identifier (:func:`new_run_id`).
        :param pipelines: Per durable sink, the shape of its pipeline now (sources, stateful,
            sink format), recorded with the directories the run creates; ``None`` when it is
            recorded later (:meth:`record_pipeline`).
        :param claim_mode: :data:`NO_CLAIM` (Flink's default) or :data:`CLAIM`.
        :param restore_source: The savepoint or checkpoint the run restores from, recorded as
            the run's ``restored_from``.
        :param restored_sinks: The sinks whose directory the run creates as a copy of their saved
            query: their record keeps ``restored_from`` too, so that a later run with the same
            restore path can tell that they continue from it.
        :return: The sinks that resume from a directory no run of this job created (never
            deleted by this job under ``NO_CLAIM``).
        :raises CheckpointError: when the job directory cannot be created or written, or
            belongs to another job.
        """
        marker = self._own_marker() or {"format": _FORMAT, "job_name": self.job_name,
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
        run = {"run": run_id, "claim_mode": claim_mode, "created": created, "restored": restored}
        if restore_source is not None:
            run["restored_from"] = restore_source
        marker["runs"] = list(marker.get("runs", []))[-19:] + [run]
        self._make_job_dir()
        self._write_marker(marker)
        self.run_id = run_id
        return foreign

    def _make_job_dir(self) -> None:
        if self._local is not None:
            try:
                return self._local.make_directory()
            except MarkerFileError as e:
                raise CheckpointError(str(e)) from e
        try:
            made = self._files.fs.mkdirs(self._files.j_job_dir)
        except Exception as e:
            raise CheckpointError("The checkpoint directory {} cannot be created: {}".format(
                self.job_dir, java_cause(e))) from e
        if not made and not self._files.fs.exists(self._files.j_job_dir):
            raise CheckpointError("The checkpoint directory {} cannot be created (is the storage "
                                  "directory writable?)".format(self.job_dir))

    def recorded_pipeline(self, sink: str) -> Optional[Mapping[str, Any]]:
        """The pipeline shape recorded for a sink directory, if any."""
        marker = self.read_marker()
        record = (marker or {}).get("sinks", {}).get(sink)
        return None if record is None else record.get("pipeline")

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

    def query_id(self, sink: str) -> Optional[str]:
        """The query id in Spark's ``metadata`` file of a sink's checkpoint (``None``: no file).

        :raises CheckpointError: when the file exists but is not Spark's metadata.
        """
        text = self._files.read(sink, "metadata")
        if text is None:
            return None
        try:
            return str(json.loads(text.splitlines()[0])["id"])
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise CheckpointError("The checkpoint metadata {} is corrupt ({}: {}): it should hold "
                                  "the query id as JSON".format(self.location(sink, "metadata"),
                                                                type(e).__name__, e)) from e

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

    # -- clean-up ---------------------------------------------------------------------------
    def delete_owned(self, sinks: Sequence[str], failed: bool = False) -> List[str]:
        """Delete the checkpoints of ``sinks`` that runs of this job provably created.

        :param failed: Whether the run failed: then only the directories this run created (or
            claimed) go, and those it resumed from earlier runs are kept.

        :return: Why each directory that was kept was kept (empty when all went).
        """
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
            record = owned.get(sink)
            if record is None or record.get("created_by") is None:
                kept.append("{}: not created by this job (it existed before the run that "
                            "restored from it)".format(location))
            elif failed and record.get("created_by") != self.run_id:
                kept.append("{}: restored by this run from an earlier run of the job, and a failed "
                            "run never deletes the checkpoint it restored from".format(location))
            else:
                try:
                    found = self.query_id(sink)
                except CheckpointError:
                    found = None
                if record.get("query_id") is None or found != record["query_id"]:
                    kept.append("{}: its Spark query metadata does not match the marker".format(location))
                else:
                    self._files.fs.delete(self._files.path(sink), True)
                    owned.pop(sink)
                    continue
            LOG.warning("Kept checkpoint %s", kept[-1])
        if owned:
            self._write_marker(marker)
        else:
            self._files.fs.delete(self._files.path(MARKER_NAME), False)
            if len(self._files.fs.listStatus(self._files.j_job_dir)) == 0:
                self._files.fs.delete(self._files.j_job_dir, False)
        return kept

    # -- what Spark keeps in an existing checkpoint --------------------------------------------
    def _newest_entry(self, sink: str, log: str) -> Optional[List[str]]:
        ids = self.batch_ids(sink, log)
        if not ids:
            return None
        location = self.location(sink, log, str(ids[-1]))
        text = self._files.read(sink, log, str(ids[-1])) or ""
        lines = text.splitlines()
        if len(lines) < 2 or not lines[0].startswith("v"):
            raise CheckpointError("The checkpoint file {} is corrupt (no version line and "
                                  "metadata)".format(location))
        try:
            json.loads(lines[1])
        except ValueError as e:
            raise CheckpointError("The checkpoint file {} is corrupt ({})".format(location, e)) from e
        return lines

    def validate(self, sink: str) -> None:
        """Read what Spark reads first when a query resumes: its metadata and the newest
        entries of its offset and commit logs.

        :raises CheckpointError: naming the first file that cannot be used and why.
        """
        if not self.exists(sink):
            return
        self.query_id(sink)
        self._newest_entry(sink, "offsets")
        self._newest_entry(sink, "commits")

    def source_count(self, sink: str) -> Optional[int]:
        """The sources recorded in a checkpoint's newest offset log entry (``None``: no entry)."""
        lines = self._newest_entry(sink, "offsets")
        return None if lines is None else len(lines) - 2

    def state_operators(self, sink: str) -> List[int]:
        """The stateful operator ids a checkpoint holds state for."""
        return sorted(int(n) for n in self._files.names(sink, "state") if n.isdigit())

    def unreadable_files(self, sink: str, folder: str = "state", limit: int = 5000) -> List[str]:
        """Files under a checkpoint folder that cannot be read back (a checksum that does not
        match, a file that cannot be opened), each with the cause; at most ``limit`` are read."""
        found: List[str] = []
        try:
            files = self._files.fs.listFiles(self._files.path(sink, folder), True)
            read = 0
            while files.hasNext() and read < limit:
                j_path = files.next().getPath()
                if str(j_path.getName()).endswith(".crc"):
                    continue
                read += 1
                try:
                    stream = self._files.fs.open(j_path)
                    try:
                        java_static(IO_UTILS, "consume")(stream)
                    finally:
                        stream.close()
                except Exception as e:
                    found.append("{} ({})".format(j_path.toString(), java_cause(e)))
        except Exception as e:  # no such folder, or it cannot be listed
            LOG.debug("Could not scan %s/%s: %s", self.location(sink), folder, e)
        return found

    def pinned_conf(self, sink: str) -> Dict[str, str]:
        """The session conf Spark recorded in the newest offset log entry of a checkpoint.

        Spark keeps using these values (state store provider, shuffle partitions) for an
        existing checkpoint, whatever the session now says.
        """
        lines = self._newest_entry(sink, "offsets")
        if lines is None:
            return {}
        try:
            return {str(k): str(v) for k, v in json.loads(lines[1]).get("conf", {}).items()}
        except (ValueError, IndexError, AttributeError):
            return {}
