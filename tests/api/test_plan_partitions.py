"""The job plan holds the shuffle partitions its queries run with, which a restore rescales
saved state to: the parallelism when the job sets one, else the session's own number."""

from __future__ import annotations

import pytest

from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.settings.registry import JobSettings
from pyflink_compat.spark.plan import plan_job


def _plan(settings: JobSettings, session_partitions):
    return plan_job("job", settings, [], None, None, [], "file:/tmp/unused", session_partitions)


@pytest.mark.parametrize("session, expected", [("7", 7), (None, None), ("0", None), ("-3", None),
                                               ("many", None)])
def test_without_a_parallelism_the_plan_takes_the_sessions_own_partitions_when_they_are_valid(session, expected):
    plan = _plan(JobSettings(), session)
    assert plan.shuffle_partitions == expected
    assert not plan.parallelism_set


def test_a_parallelism_sets_the_partitions_whatever_the_session_has():
    plan = _plan(JobSettings(parallelism=3), "7")
    assert plan.shuffle_partitions == 3
    assert plan.parallelism_set
    assert plan.spark_conf["spark.sql.shuffle.partitions"] == "3"


def test_a_planned_job_reads_the_partitions_from_the_environments_session():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.spark_session.conf.set("spark.sql.shuffle.partitions", "5")
    assert env.get_job_plan().shuffle_partitions == 5
    env.set_parallelism(3)
    plan = env.get_job_plan()
    assert (plan.shuffle_partitions, plan.parallelism_set) == (3, True)
    assert env.spark_session.conf.get("spark.sql.shuffle.partitions") == "3"
