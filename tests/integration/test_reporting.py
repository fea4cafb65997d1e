"""What a job reports: settings without Spark effect, and checkpoint statistics."""

from __future__ import annotations

import logging
import warnings

from pyflink_compat.common import Duration
from pyflink_compat.spark.start_checks import NoSparkEffectWarning

from tests._helpers.files import write_json_files
from tests._helpers.jobs import INTERVAL_MS, ONE_BATCH_PER_INTERVAL, BatchFiles, json_stream, run_to_end

NO_EFFECT_KEYS = (
    "execution.checkpointing.min-pause",
    "execution.checkpointing.max-concurrent-checkpoints",
    "execution.checkpointing.unaligned.enabled",
    "execution.checkpointing.unaligned.forced",
    "execution.checkpointing.aligned-checkpoint-timeout",
)


def test_settings_without_spark_effect_are_stored_shown_in_the_plan_and_warned_about_once(
        make_env, tmp_path, caplog):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=3)
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    config = env.get_checkpoint_config()
    config.set_min_pause_between_checkpoints(100)
    config.set_max_concurrent_checkpoints(2)
    config.enable_unaligned_checkpoints()
    config.set_force_unaligned_checkpoints(True)
    config.set_alignment_timeout(Duration.of_millis(30))
    assert config.get_min_pause_between_checkpoints() == 100
    assert config.get_max_concurrent_checkpoints() == 2
    assert config.is_unaligned_checkpoints_enabled() and config.is_force_unaligned_checkpoints()
    assert config.get_alignment_timeout() == Duration.of_millis(30)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "rows", bounded=True)

    plan = str(env.get_job_plan("no-effect-job"))
    lines = {line.strip().split(" = ")[0]: line for line in plan.splitlines() if " = " in line}
    for key in NO_EFFECT_KEYS:
        assert "[no Spark effect]" in lines[key], lines[key]
    assert "[no Spark effect]" not in lines["execution.checkpointing.interval"]

    caplog.set_level(logging.WARNING, logger="pyflink_compat.job")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        client = env.execute_async("no-effect-job")
        result = run_to_end(client)
    assert not isinstance(result, Exception), result
    ours = [w for w in caught if issubclass(w.category, NoSparkEffectWarning)]
    assert len(ours) == 1
    message = str(ours[0].message)
    for key in NO_EFFECT_KEYS:
        assert key in message
    assert "execution.checkpointing.interval" not in message
    assert "execution.checkpointing.min-pause=100 ms" in message
    assert "execution.checkpointing.max-concurrent-checkpoints=2" in message
    assert sum("no Spark effect" in r.getMessage() for r in caplog.records) == 1


def test_a_job_with_default_settings_gives_no_no_spark_effect_warning(make_env, tmp_path):
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=3)
    env = make_env()
    env.enable_checkpointing(INTERVAL_MS)
    env.add_sink(json_stream(env, tmp_path / "in").writeStream.format("noop"), "rows", bounded=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = run_to_end(env.execute_async("quiet-job"))
    assert not isinstance(result, Exception), result
    assert not [w for w in caught if issubclass(w.category, NoSparkEffectWarning)]


def test_checkpoint_statistics_list_each_completed_batch_and_the_log_mentions_them(
        make_env, tmp_path, caplog):
    records = write_json_files(tmp_path / "in", n_files=3, rows_per_file=4)
    caplog.set_level(logging.INFO, logger="pyflink_compat.job")
    env = make_env(ONE_BATCH_PER_INTERVAL)
    env.enable_checkpointing(INTERVAL_MS)
    stream = json_stream(env, tmp_path / "in")
    counts = stream.groupBy("key").count()
    env.add_sink(counts.writeStream.outputMode("update").foreachBatch(BatchFiles(tmp_path / "out")),
                 "counts", bounded=True)
    env.add_sink(stream.writeStream.format("noop"), "rows", bounded=True)
    client = env.execute_async("stats-job")
    result = run_to_end(client)
    assert not isinstance(result, Exception), result

    stats = client.get_checkpoint_statistics()
    by_sink = {}
    for s in stats:
        by_sink.setdefault(s.sink, []).append(s)
    assert sorted(by_sink) == ["counts", "rows"]
    for entries in by_sink.values():
        assert [s.batch_id for s in entries] == [0, 1, 2]
        assert all(s.checkpoint_id == s.batch_id + 1 for s in entries)
        assert all(s.duration_ms > 0 for s in entries)
        assert all(s.trigger_timestamp > 0 for s in entries)
        assert sum(s.num_input_rows for s in entries) == len(records)
        assert [s.trigger_timestamp for s in entries] == sorted(s.trigger_timestamp for s in entries)
    assert all(s.state_size > 0 for s in by_sink["counts"])
    assert all(s.state_size == 0 for s in by_sink["rows"])

    completed = [r.getMessage() for r in caplog.records if "completed checkpoint" in r.getMessage()]
    assert len(completed) == len(stats)
    assert any("checkpoint 3 of 'counts' (batch 2)" in m for m in completed)
