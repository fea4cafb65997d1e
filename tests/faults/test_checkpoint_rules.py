"""The rules behind the fault handling, each checked on its own (no Spark needed)."""

from __future__ import annotations

import pytest

from pyflink_compat.spark.ownership import job_directory_name
from pyflink_compat.spark.rules import checkpoint_misfit, lost_progress, unloadable_class

FILE = {"sources": ["StreamingRelation FileSource"], "stateful": False, "format": "foreachbatch"}


@pytest.mark.parametrize("recorded, now, sources, operators, expected", [
    (FILE, FILE, 1, [], None),
    (None, FILE, 1, [], None),
    (None, FILE, None, [], None),
    (FILE, dict(FILE, format="parquet"), 1, [],
     "it was written by a 'foreachbatch' sink, this query writes to 'parquet'"),
    (FILE, dict(FILE, sources=["StreamingRelationV2 rate"]), 1, [],
     "it was written for the sources [StreamingRelation FileSource], this query reads [StreamingRelationV2 rate]"),
    (None, dict(FILE, sources=["a", "b"]), 1, [], "its newest offsets entry has 1 source(s), this query reads 2"),
    (None, FILE, 1, [0], "it holds state of 1 stateful operator(s), this query keeps no state"),
    (FILE, dict(FILE, stateful=True), 1, [], "it was written by a query without state, this query keeps state"),
])
def test_a_checkpoint_that_does_not_fit_the_pipeline_is_named_with_what_differs(
        recorded, now, sources, operators, expected):
    found = checkpoint_misfit("file:/cp/job/rows", recorded, now, sources, operators)
    if expected is None:
        assert found is None
    else:
        assert found is not None and found.startswith(
            "The checkpoint file:/cp/job/rows does not fit this job's pipeline: ")
        assert expected in found
        assert "Nothing was started or deleted" in found


@pytest.mark.parametrize("last, newest, metadata, found", [
    (-1, None, False, None),           # nothing committed in this job yet: a fresh start is fine
    (3, 3, True, None),
    (3, 5, True, None),
    (3, 2, True, "commits up to batch 2"),
    (3, None, True, "no commit log"),
    (3, 3, False, "no metadata file"),
])
def test_a_checkpoint_that_lost_committed_batches_is_never_restarted(last, newest, metadata, found):
    message = lost_progress("file:/cp/job/rows", last, newest, metadata)
    if found is None:
        assert message is None
    else:
        assert message is not None
        assert message.startswith("The checkpoint file:/cp/job/rows lost the progress of this job: "
                                  "batch {} was its last committed batch, and the checkpoint now has {}".format(
                                      last, found))


def test_a_class_the_jvm_cannot_load_is_an_error_naming_the_setting():
    assert unloadable_class("state.backend.type", "x.Y", ("hashmap",), loadable=True) is None
    message = unloadable_class("state.backend.type", "rocks-db", ("hashmap", "rocksdb"), loadable=False)
    assert message is not None
    assert message.startswith("state.backend.type = 'rocks-db' is neither a known value (hashmap, rocksdb) "
                              "nor a class on the JVM class path")


@pytest.mark.parametrize("name, directory", [
    ("crash-job", "crash-job"),
    ("Flink Streaming Job", "Flink Streaming Job"),
    (".", "%2E"),
    ("..", "%2E."),
    ("a/b", "a%2Fb"),
    ("a\\b:c", "a%5Cb%3Ac"),
    (" x ", "%20x%20"),
    ("100%", "100%25"),
    ("é", "%C3%A9"),
    ("", "%empty"),
])
def test_job_names_become_safe_directory_names(name, directory):
    assert job_directory_name(name) == directory


def test_a_long_job_name_is_cut_and_ends_in_a_hash_of_the_whole_name():
    long_a, long_b = "x" * 300, "x" * 299 + "y"
    a, b = job_directory_name(long_a), job_directory_name(long_b)
    assert a != b and len(a.encode()) <= 255 and len(b.encode()) <= 255
    assert a.startswith("x" * 200 + "~")
    assert job_directory_name("é" * 100).startswith("%C3%A9") and "~" in job_directory_name("é" * 100)
    assert job_directory_name("x" * 255) == "x" * 255
