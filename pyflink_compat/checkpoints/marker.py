"""The ownership marker of a job directory, read in one place.

A durable job keeps ``<job directory>/_pyflink_compat_job.json``: the job's name, its runs and,
per sink directory, which run created it, whether it was claimed, the Spark query id found in
it, the shape of the pipeline that wrote it and the savepoint or checkpoint it was restored
from. :func:`read_marker` reads it as a frozen :class:`JobMarker`, upgrading a marker of the
first format (sink name to query id, no runs) once, here; what the marker decides (which
directories a job may delete) and how it is written belong to
:mod:`pyflink_compat.spark.ownership`.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional, Tuple

import attrs

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.file_access import FileAccess

__all__ = ["MARKER_NAME", "MARKER_FORMAT", "EARLIER_RUN", "SinkRecord", "JobMarker", "read_marker",
           "recorded_stateful"]

#: The marker's file name inside a job directory.
MARKER_NAME = "_pyflink_compat_job.json"
#: The format the marker is written in.
MARKER_FORMAT = 2
#: ``created_by`` of a directory recorded by a marker of the first format, which had no runs.
EARLIER_RUN = "earlier-run"


@attrs.frozen
class SinkRecord:
    """What the marker records about one sink directory.

    :param created_by: The run that created (or claimed) it; ``None`` when no run of the job did.
    :param claimed: Whether that run took over an existing directory (restore mode ``CLAIM``).
    :param query_id: The Spark query id found in it, once known.
    :param pipeline: The shape of the pipeline that wrote it (sources, stateful, sink format).
    :param restored_from: The savepoint or checkpoint it is a restored copy of.
    """

    created_by: Optional[str] = None
    claimed: bool = False
    query_id: Optional[str] = None
    pipeline: Optional[Mapping[str, Any]] = None
    restored_from: Optional[str] = None

    @property
    def stateful(self) -> Optional[bool]:
        """Whether its query keeps state, as recorded (``None``: unknown)."""
        value = (self.pipeline or {}).get("stateful")
        return None if value is None else bool(value)

    @classmethod
    def from_json(cls, record: Any) -> "SinkRecord":
        if not isinstance(record, dict):
            return cls()
        pipeline = record.get("pipeline")
        return cls(record.get("created_by"), bool(record.get("claimed")), record.get("query_id"),
                   dict(pipeline) if isinstance(pipeline, dict) else None, record.get("restored_from"))

    def to_json(self) -> Dict[str, Any]:
        record: Dict[str, Any] = {"created_by": self.created_by, "query_id": self.query_id,
                                  "pipeline": None if self.pipeline is None else dict(self.pipeline)}
        if self.claimed:
            record["claimed"] = True
        if self.restored_from is not None:
            record["restored_from"] = self.restored_from
        return record


@attrs.frozen
class JobMarker:
    """A job directory's marker, in the current format.

    :param job_name: The job that owns the directory.
    :param runs: The job's runs, oldest first, as recorded (``run``, ``claim_mode``, ``created``,
        ``restored``, ``query_ids``, ``restored_from``, ``replaced``).
    :param sinks: Per sink directory, its record.
    """

    job_name: Optional[str]
    runs: Tuple[Mapping[str, Any], ...] = ()
    sinks: Mapping[str, SinkRecord] = attrs.field(factory=dict)

    @property
    def last_run(self) -> Optional[str]:
        """The id of the newest run recorded, if any."""
        run = self.runs[-1].get("run") if self.runs else None
        return str(run) if run else None

    def stateful(self) -> Dict[str, Optional[bool]]:
        """Per sink, whether its query keeps state (``None``: unknown)."""
        return {sink: record.stateful for sink, record in self.sinks.items()}

    @classmethod
    def from_json(cls, data: Any) -> "JobMarker":
        """The marker from its JSON, upgrading the first format.

        :raises ValueError: when ``data`` is not a marker (no object with ``sinks``).
        """
        if not isinstance(data, dict) or not isinstance(data.get("sinks"), dict):
            raise ValueError("not a JSON object with 'sinks'")
        name = data.get("job_name")
        if data.get("format") != MARKER_FORMAT:  # the first format: sink -> query id
            return cls(name, (), {str(s): SinkRecord(EARLIER_RUN, query_id=q) for s, q in data["sinks"].items()})
        runs = tuple(dict(r) for r in data.get("runs") or () if isinstance(r, dict))
        return cls(name, runs, {str(s): SinkRecord.from_json(r) for s, r in data["sinks"].items()})

    def to_json(self) -> Dict[str, Any]:
        """A new, mutable JSON object of the marker in the current format (what is written)."""
        return {"format": MARKER_FORMAT, "job_name": self.job_name, "runs": [dict(r) for r in self.runs],
                "sinks": {sink: record.to_json() for sink, record in self.sinks.items()}}


def read_marker(fs: FileAccess, job_dir: str) -> Optional[JobMarker]:
    """The marker of ``job_dir``, or ``None`` when there is none.

    :raises CheckpointFileError: when the file exists but is not a marker (its cause starts with
        ``corrupt``).
    :raises OSError: when it cannot be read.
    """
    path = job_dir.rstrip("/") + "/" + MARKER_NAME
    try:
        data = fs.read_bytes(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        return JobMarker.from_json(json.loads(data.decode("utf-8", errors="replace")))
    except ValueError as e:
        raise CheckpointFileError(path, "corrupt ({})".format(e)) from None


def recorded_stateful(fs: FileAccess, job_dir: str) -> Dict[str, Optional[bool]]:
    """Per sink, whether the marker of ``job_dir`` records that its query keeps state; empty
    when there is no readable marker (it is then unknown, and checks that use it are skipped:
    the tools that verify or restore a directory report the files themselves)."""
    try:
        marker = read_marker(fs, job_dir)
    except (OSError, CheckpointFileError):
        return {}
    return {} if marker is None else marker.stateful()
