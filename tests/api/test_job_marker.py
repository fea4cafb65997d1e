"""The ownership marker read in one place: the first format upgraded once, and what the
savepoint and restore tools take from it (no JVM: local storage is read from Python)."""

from __future__ import annotations

import json

import pytest

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.file_access import LocalFileAccess
from pyflink_compat.checkpoints.marker import EARLIER_RUN, MARKER_NAME, JobMarker, read_marker, recorded_stateful
from pyflink_compat.checkpoints.savepoint import job_queries
from pyflink_compat.spark.restore_at_start import continues_from


def _write(job_dir, marker):
    job_dir.mkdir(parents=True, exist_ok=True)
    (job_dir / MARKER_NAME).write_text(json.dumps(marker))


def _query(job_dir, sink):
    (job_dir / sink / "offsets").mkdir(parents=True)
    (job_dir / sink / "metadata").write_text('{"id":"q-%s"}\n' % sink)


def test_a_first_format_marker_reads_as_the_current_one_with_every_sink_created_by_an_earlier_run(tmp_path):
    _write(tmp_path / "job", {"job_name": "orders", "sinks": {"counts": "q-1", "totals": None}})
    marker = read_marker(LocalFileAccess(), str(tmp_path / "job"))
    assert marker is not None and marker.job_name == "orders" and marker.runs == () and marker.last_run is None
    assert {s: (r.created_by, r.query_id) for s, r in marker.sinks.items()} == \
        {"counts": (EARLIER_RUN, "q-1"), "totals": (EARLIER_RUN, None)}
    assert marker.to_json()["format"] == 2 and JobMarker.from_json(marker.to_json()) == marker


def test_the_tools_read_the_sinks_and_their_state_from_a_first_format_marker(tmp_path):
    job = tmp_path / "job"
    _write(job, {"job_name": "orders", "sinks": {"counts": "q-counts"}})
    _query(job, "counts")
    _query(job, "unrecorded")  # a query checkpoint the marker does not name is not the job's
    fs = LocalFileAccess()
    assert [sink for sink, _ in job_queries(fs, str(job))] == ["counts"]
    assert recorded_stateful(fs, str(job)) == {"counts": None}
    marker = read_marker(fs, str(job))
    # an earlier run created it, but not while restoring: not a continuation of a restore
    assert continues_from(marker, "counts", "/sp/x", "q-counts") is not None


def test_a_current_marker_keeps_runs_claims_and_restores(tmp_path):
    record = {"created_by": "r2", "claimed": True, "query_id": "q", "pipeline": {"stateful": True},
              "restored_from": "/sp/x"}
    _write(tmp_path / "job", {"format": 2, "job_name": "orders", "runs": [{"run": "r1"}, {"run": "r2"}],
                              "sinks": {"counts": record}})
    marker = read_marker(LocalFileAccess(), str(tmp_path / "job"))
    assert marker is not None and marker.last_run == "r2" and marker.stateful() == {"counts": True}
    assert marker.to_json()["sinks"]["counts"] == record
    assert continues_from(marker, "counts", "/sp/x", "q") is None


@pytest.mark.parametrize("text", ["{", "[]", '{"sinks": 3}'])
def test_a_file_that_is_not_a_marker_is_corrupt_and_no_marker_is_none(tmp_path, text):
    fs = LocalFileAccess()
    assert read_marker(fs, str(tmp_path / "job")) is None
    (tmp_path / "job").mkdir()
    (tmp_path / "job" / MARKER_NAME).write_text(text)
    with pytest.raises(CheckpointFileError, match="corrupt"):
        read_marker(fs, str(tmp_path / "job"))
    assert recorded_stateful(fs, str(tmp_path / "job")) == {}
