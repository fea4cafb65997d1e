"""How much a running job's supervisor talks to the JVM (a count of py4j commands)."""

from __future__ import annotations

import threading
import time
from typing import Any, List

from py4j import protocol

from pyflink_compat.java_gateway import get_gateway

from .conftest import start_unbounded_job, wait_for_commits, write_json_files


def supervisor_commands(seconds: float) -> List[str]:
    """The py4j commands the job's supervising thread sends during ``seconds``."""
    client = get_gateway()._gateway_client
    sent: List[str] = []
    send = client.send_command

    def counting(command: str, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == "pyflink_compat-job" and not command.startswith(
                protocol.MEMORY_COMMAND_NAME):
            sent.append(command)
        return send(command, *args, **kwargs)

    client.send_command = counting
    try:
        time.sleep(seconds)
    finally:
        del client.send_command
    return sent


def test_the_supervisor_of_a_quiet_job_backs_off(make_env, tmp_path):
    client = start_unbounded_job(make_env, tmp_path, "quiet-job", "quiet")
    time.sleep(2.5)  # past the start-up window and the back-off
    sent = supervisor_commands(4.0)
    # At most a poll a second of at most four commands (plus a status read every five
    # seconds); polling every 100 ms would send over a hundred.
    assert 0 < len(sent) <= 30, sent
    # and it still notices what happens: new input is committed and reported
    write_json_files(tmp_path / "in", n_files=1, rows_per_file=2, start_file=1)
    wait_for_commits(tmp_path / "cp" / "quiet-job" / "quiet", count=2)
    assert client.cancel().result(60) is None


def test_the_per_batch_check_finds_a_commit_only_with_the_checkpoints_metadata(spark, tmp_path):
    from pyflink_compat.spark.checkpoint_dirs import CheckpointDirs

    sink = tmp_path / "job" / "rows"
    (sink / "commits").mkdir(parents=True)
    (sink / "commits" / "3").write_text("v1\n{}\n")
    (sink / "metadata").write_text('{"id":"q"}\n')
    dirs = CheckpointDirs(spark, "file://" + str(tmp_path / "job"), "job")
    assert dirs.holds_commit("rows", 3)
    assert not dirs.holds_commit("rows", 4)
    (sink / "metadata").unlink()
    assert not dirs.holds_commit("rows", 3)
    assert not dirs.holds_commit("other", 3)
