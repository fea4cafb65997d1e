"""Checkpoint directories of a job, through Hadoop's file system API in the Spark JVM.

Layout of a durable job: ``<storage dir>/<job name>/<sink name>`` is one query's Spark
checkpoint, and ``<storage dir>/<job name>/_pyflink_compat_job.json`` (the marker) records
which sink directories this job created and the Spark query id found in each. Clean-up deletes a
sink directory only when the marker names this job and that sink, and Spark's own ``metadata``
file in it carries the recorded query id. It never deletes the storage directory, nor anything
outside ``<storage dir>/<job name>``; the job directory itself only when it is left empty.
When in doubt, it keeps the data and says why.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["CheckpointDirs", "MARKER_NAME", "make_temporary_root"]

LOG = logging.getLogger("pyflink_compat.checkpoints")

MARKER_NAME = "_pyflink_compat_job.json"


def make_temporary_root(job_name: str) -> str:
    """A new local directory owned by one run of a job, as a ``file:`` URI."""
    safe = "".join(c if c.isalnum() else "-" for c in job_name)[:40]
    return "file:" + tempfile.mkdtemp(prefix="pyflink_compat-{}-".format(safe))


def remove_temporary_root(root: str) -> None:
    """Remove a directory made by :func:`make_temporary_root`."""
    local = root[len("file:"):] if root.startswith("file:") else root
    if os.path.basename(local).startswith("pyflink_compat-"):
        shutil.rmtree(local, ignore_errors=True)


class CheckpointDirs:
    """The checkpoint directories of one job under one storage directory.

    :param spark: The job's Spark session (for its Hadoop configuration).
    :param job_dir: ``<storage dir>/<job name>``.
    :param job_name: The job's name, recorded in the marker.
    """

    def __init__(self, spark: "SparkSession", job_dir: str, job_name: str):
        jvm: Any = spark.sparkContext._jvm
        self._jvm = jvm
        self.job_dir = job_dir.rstrip("/")
        self.job_name = job_name
        self._j_job_dir = jvm.org.apache.hadoop.fs.Path(self.job_dir)
        hadoop_conf = spark._jsparkSession.sessionState().newHadoopConf()
        self._fs = self._j_job_dir.getFileSystem(hadoop_conf)

    # -- files ----------------------------------------------------------------------------
    def _path(self, *parts: str) -> Any:
        return self._jvm.org.apache.hadoop.fs.Path("/".join((self.job_dir,) + parts))

    def _read(self, j_path: Any) -> Optional[str]:
        if not self._fs.exists(j_path):
            return None
        stream = self._fs.open(j_path)
        try:
            return str(self._jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8"))
        finally:
            stream.close()

    def _write(self, j_path: Any, text: str) -> None:
        stream = self._fs.create(j_path, True)
        try:
            stream.write(bytearray(text.encode("utf-8")))
        finally:
            stream.close()

    def exists(self, sink: str) -> bool:
        return bool(self._fs.exists(self._path(sink)))

    # -- the marker -------------------------------------------------------------------------
    def read_marker(self) -> Optional[Dict[str, Any]]:
        text = self._read(self._path(MARKER_NAME))
        if text is None:
            return None
        try:
            marker = json.loads(text)
        except ValueError:
            return None
        return marker if isinstance(marker, dict) else None

    def claim(self, sinks: Sequence[str]) -> List[str]:
        """Record the sinks whose directories this job creates now.

        :return: The sinks that resume from an existing checkpoint this job did not create
                 (their directories will never be deleted).
        :raises ValueError: when the directory belongs to another job whose name maps to the
                            same directory name (``a/b`` and ``a_b``).
        """
        marker = self.read_marker()
        if marker is not None and marker.get("job_name") != self.job_name:
            raise ValueError(
                "The checkpoint directory {} belongs to job '{}', not to '{}': give this job "
                "another name so that neither job's checkpoints are taken over.".format(
                    self.job_dir, marker.get("job_name"), self.job_name))
        owned: Dict[str, Optional[str]] = dict(marker["sinks"]) if marker else {}
        foreign = []
        for sink in sinks:
            if sink in owned:
                continue
            if self.exists(sink):
                foreign.append(sink)
            else:
                owned[sink] = None
        self._fs.mkdirs(self._j_job_dir)
        self._write(self._path(MARKER_NAME), json.dumps({"job_name": self.job_name, "sinks": owned}))
        return foreign

    def query_id(self, sink: str) -> Optional[str]:
        """The query id in Spark's ``metadata`` file of a sink's checkpoint."""
        text = self._read(self._path(sink, "metadata"))
        if not text:
            return None
        try:
            return str(json.loads(text.splitlines()[0])["id"])
        except (ValueError, KeyError, IndexError):
            return None

    def record_query_ids(self) -> None:
        """Store the query id of every sink this job created, once Spark has written it."""
        marker = self.read_marker()
        if marker is None or marker.get("job_name") != self.job_name:
            return
        sinks = dict(marker["sinks"])
        for sink, known in sinks.items():
            if known is None:
                sinks[sink] = self.query_id(sink)
        self._write(self._path(MARKER_NAME), json.dumps({"job_name": self.job_name, "sinks": sinks}))

    # -- clean-up ---------------------------------------------------------------------------
    def delete_owned(self, sinks: Sequence[str]) -> List[str]:
        """Delete the checkpoints of ``sinks`` that this job provably created.

        :return: Why each directory that was kept was kept (empty when all went).
        """
        kept: List[str] = []
        marker = self.read_marker()
        if marker is None or marker.get("job_name") != self.job_name:
            kept.append("{}: no marker of job '{}', so nothing there is provably this job's".format(
                self.job_dir, self.job_name))
            LOG.warning("Kept checkpoints: %s", kept[-1])
            return kept
        owned = dict(marker["sinks"])
        for sink in sinks:
            location = "{}/{}".format(self.job_dir, sink)
            recorded = owned.get(sink)
            if sink not in owned:
                kept.append("{}: not created by this job".format(location))
            elif recorded is None or self.query_id(sink) != recorded:
                kept.append("{}: its Spark query metadata does not match the marker".format(location))
            else:
                self._fs.delete(self._path(sink), True)
                owned.pop(sink)
                continue
            LOG.warning("Kept checkpoint %s", kept[-1])
        if owned:
            self._write(self._path(MARKER_NAME), json.dumps({"job_name": self.job_name, "sinks": owned}))
        else:
            self._fs.delete(self._path(MARKER_NAME), False)
            if len(self._fs.listStatus(self._j_job_dir)) == 0:
                self._fs.delete(self._j_job_dir, False)
        return kept

    # -- what Spark pinned in an existing checkpoint -------------------------------------------
    def pinned_conf(self, sink: str) -> Dict[str, str]:
        """The session conf Spark recorded in the newest offset log entry of a checkpoint.

        Spark keeps using these values (state store provider, shuffle partitions) for an
        existing checkpoint, whatever the session now says.
        """
        offsets = self._path(sink, "offsets")
        if not self._fs.exists(offsets):
            return {}
        batches = [s.getPath().getName() for s in self._fs.listStatus(offsets)]
        numbers = [int(n) for n in batches if n.isdigit()]
        if not numbers:
            return {}
        text = self._read(self._path(sink, "offsets", str(max(numbers)))) or ""
        lines = text.splitlines()
        try:
            return {str(k): str(v) for k, v in json.loads(lines[1]).get("conf", {}).items()}
        except (ValueError, IndexError, AttributeError):
            return {}
