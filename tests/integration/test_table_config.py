"""A Table API job's checkpoint options, set on its TableConfig, drive the environment's queries."""

from __future__ import annotations

import threading

import pytest

from pyflink_compat.spark.supervisor import job_runs
from pyflink_compat.table import StreamTableEnvironment

from tests._helpers.files import write_json_files
from tests._helpers.jobs import json_stream, query_trigger
from tests._helpers.waiting import wait_until


@pytest.fixture(scope="module")
def small_input(tmp_path_factory):
    directory = tmp_path_factory.mktemp("input")
    write_json_files(directory, n_files=1, rows_per_file=4)
    return directory


def test_a_checkpoint_interval_set_on_the_table_config_governs_the_query_env_execute_starts(
        make_env, small_input):
    env = make_env()
    env.enable_checkpointing(10_000)
    t_env = StreamTableEnvironment.create(env)
    t_env.get_config().set("execution.checkpointing.interval", "2 s")
    assert env.get_checkpoint_interval() == 10_000  # as in PyFlink, until a job is built
    env.add_sink(json_stream(env, small_input).writeStream.format("noop"), "to_noop")

    outcome = {}

    def execute():
        try:
            outcome["result"] = env.execute("table-config-job")
        except BaseException as error:  # reported by the assertions below
            outcome["error"] = error

    runner = threading.Thread(target=execute, daemon=True)
    runner.start()
    try:
        run = wait_until(lambda: job_runs(env) and job_runs(env)[0], what="the job started")
        handle = wait_until(lambda: run.handles[0], what="the query started")
        trigger = query_trigger(handle)
        assert trigger.getClass().getSimpleName() == "ProcessingTimeTrigger"
        assert trigger.intervalMs() == 100  # the buffer timeout: records move at once
        assert run.plan.queries[0].checkpoint_every_ms == 2000
        assert run.plan.spark_conf["spark.sql.streaming.stateStore.minDeltasForSnapshot"] == "20"
        assert env.get_checkpoint_interval() == 2000
    finally:
        if job_runs(env):
            job_runs(env)[0].cancel()
        runner.join(120)
    assert not runner.is_alive()
    assert "error" not in outcome, outcome.get("error")
