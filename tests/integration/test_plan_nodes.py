"""What the plan reads from a query's analyzed plan before it starts: whether the query keeps
state, and its streaming sources in the order of its checkpoint's offsets."""

from __future__ import annotations

import pytest

from pyflink_compat.spark.pipeline_shape import source_descriptions
from pyflink_compat.spark.query_introspection import plan_nodes

from tests._helpers.jobs import json_stream


def _pipelines(env, directory, other):
    stream = json_stream(env, directory)
    static = env.spark_session.createDataFrame([("k0", 1)], "key STRING, n INT")
    return {
        "select": (stream.select("id"), False),
        "filter then project": (stream.where("id > 1").selectExpr("id * 2 AS twice"), False),
        "aggregate": (stream.groupBy("key").count(), True),
        "deduplicate": (stream.dropDuplicates(["id"]), True),
        "limit": (stream.limit(3), True),
        "stream-stream join": (stream.join(json_stream(env, other), "id"), True),
        "aggregate under a projection": (stream.groupBy("key").count().selectExpr("count + 1 AS c"), True),
        "union of two streams": (stream.union(json_stream(env, other)), False),
        # an aggregation of static data runs afresh in every batch: nothing is kept
        "static side aggregated": (stream.select("key").union(static.groupBy("key").count().select("key")), False),
    }


@pytest.mark.parametrize("shape", [
    "select", "filter then project", "aggregate", "deduplicate", "limit", "stream-stream join",
    "aggregate under a projection", "union of two streams", "static side aggregated"])
def test_the_plan_tells_stateful_queries_from_stateless_ones(make_env, tmp_path, shape):
    (tmp_path / "in").mkdir()
    (tmp_path / "other").mkdir()
    env = make_env()
    frame, stateful = _pipelines(env, tmp_path / "in", tmp_path / "other")[shape]
    env.add_sink(frame.writeStream.format("noop"), "sink")
    plan = env.get_job_plan("shape-job")
    assert plan.queries[0].stateful is stateful
    assert plan_nodes(frame.writeStream).stateful is stateful


def test_streaming_sources_come_in_plan_order_without_expression_ids(make_env, tmp_path):
    env = make_env()
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    frame = json_stream(env, first).union(json_stream(env, second)).groupBy("key").count()
    sources = source_descriptions(frame.writeStream)
    assert len(sources) == 2
    assert str(first) in sources[0] and str(second) in sources[1]
    assert all(s.startswith("StreamingRelation") for s in sources)
    assert not any("#" in s for s in sources)


def test_a_writer_is_walked_once(make_env, tmp_path):
    env = make_env()
    writer = json_stream(env, tmp_path).groupBy("key").count().writeStream
    assert plan_nodes(writer) is plan_nodes(writer)
    assert plan_nodes(writer).stateful
