"""Savepoints of a job with broadcast state (a keyed stream connected with a broadcast stream of
rules, :mod:`tests._helpers.broadcast_job`): stopped with a savepoint at parallelism 2 and
restored at parallelism 3 or 1, every new state partition starts with a copy of the saved
broadcast state, as every new parallel instance of Flink does, so the job emits exactly what
it emits without rescaling (computed from the input alone), its keyed counts continue, and a
rule arriving after the restore reaches every partition. A savepoint taken after such a restore
but before its first batch (which seeds the partitions) carries the seed on.
"""

from __future__ import annotations

import json
from typing import Any, List, Optional

import pyspark
import pytest

from pyflink_compat.cli import main as cli_main
from pyflink_compat.common import JobStatus
from pyflink_compat.datastream import StreamExecutionEnvironment

from tests._helpers import broadcast_job
from tests._helpers.files import digest, log_ids
from tests._helpers.waiting import wait_until

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.skipif(tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 2),
                       reason="rescaling keyed state needs Spark 4.2 or later (offline repartition)"),
]


def _storage(env: StreamExecutionEnvironment, path: Any) -> None:
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(path))


def _run_restored(envs: Any, base: Any, savepoint: Optional[str], name: str, parallelism: int) -> List[Any]:
    """Run the job until its input is read, restored from ``savepoint`` (``None``: resuming its
    own checkpoints, if any); its outputs."""
    env = envs({"execution.state-recovery.path": savepoint} if savepoint else {})
    env.set_parallelism(parallelism)
    _storage(env, base / name)
    broadcast_job.build(env, str(base / "in"), str(base / ("out-" + name)))
    client = env.execute_async(broadcast_job.JOB_NAME)
    client.get_job_execution_result().result(300)
    assert client.get_job_status().result() is JobStatus.FINISHED
    return broadcast_job.read_outputs(base / ("out-" + name))


def test_broadcast_state_restored_at_another_parallelism_reaches_every_new_partition(envs, tmp_path):
    inputs = broadcast_job.write_rules(tmp_path / "in", 0, {"k0": 10, "k1": 11, "k2": 12, "k3": 13, "k4": 14})
    inputs += broadcast_job.write_events(tmp_path / "in", 1, list(range(0, 10)))
    inputs += broadcast_job.write_events(tmp_path / "in", 2, list(range(10, 20)))
    env = envs()
    env.set_parallelism(2)
    _storage(env, tmp_path / "cp")
    broadcast_job.build(env, str(tmp_path / "in"), str(tmp_path / "out-1"))
    client = env.execute_async(broadcast_job.JOB_NAME)
    wait_until(lambda: len(log_ids(tmp_path / "cp" / broadcast_job.JOB_NAME / "datastream", "commits")) >= 2,
               timeout=240, what="two commits of the broadcast job")
    savepoint = client.stop_with_savepoint(False, str(tmp_path / "sp")).result(240)
    before = broadcast_job.read_outputs(tmp_path / "out-1")
    saved = digest(savepoint)
    # after the savepoint: events that read the saved rules, a rule changed and one removed,
    # and events that read the changed rules
    inputs += broadcast_job.write_events(tmp_path / "in", 3, list(range(20, 30)))
    inputs += broadcast_job.write_rules(tmp_path / "in", 4, {"k1": 21, "k3": -1})
    inputs += broadcast_job.write_events(tmp_path / "in", 5, list(range(30, 40)))
    for name, parallelism in (("up", 3), ("down", 1)):
        expected = broadcast_job.expected_outputs(inputs)
        after = _run_restored(envs, tmp_path, savepoint, name, parallelism)
        # exactly once over both runs, each record as without rescaling
        assert sorted(before + after) == expected, name
        # the saved rules reached every new partition: every key's first event after the
        # restore reads its rule
        firsts = {key: min((o for o in after if o[0] == key), key=lambda o: o[2]) for key in {o[0] for o in after}}
        assert sorted(firsts) == ["k0", "k1", "k2", "k3", "k4"]
        assert all(first[3] is not None for first in firsts.values()), firsts
        if name == "up":
            # started again with the same restore path, the run resumes its own rescaled
            # checkpoint (seeding again only where nothing is stored): nothing is emitted twice
            inputs += broadcast_job.write_events(tmp_path / "in", 6, [40, 41])
            again = _run_restored(envs, tmp_path, savepoint, name, parallelism)
            assert sorted(before + again) == broadcast_job.expected_outputs(inputs)
    assert digest(savepoint) == saved


def _broadcast_rows(path: str, capsys: Any) -> List[Any]:
    """The rows ``pyflink-compat checkpoints state`` shows for the broadcast state ``rules``."""
    capsys.readouterr()
    assert cli_main(["checkpoints", "state", path, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    operator = next(op["operator_id"] for op in listed["operators"]
                    if any(v["name"] == "b_rules" for v in op.get("state_variables", [])))
    code = cli_main(["checkpoints", "state", path, "--json", "--operator", str(operator), "--state-var", "rules"])
    shown = json.loads(capsys.readouterr().out)
    assert code == 0, shown
    return list(shown["rows"])


def _first_events_read_their_rules(after: List[Any]) -> None:
    """Every key's first event of a restored run reads its saved rule."""
    firsts = {key: min((o for o in after if o[0] == key), key=lambda o: o[2]) for key in {o[0] for o in after}}
    assert sorted(firsts) == ["k0", "k1", "k2", "k3", "k4"]
    assert all(first[3] is not None for first in firsts.values()), firsts


def test_a_savepoint_taken_before_the_first_batch_after_a_rescaled_restore_keeps_the_broadcast_state(
        envs, tmp_path, capsys):
    from pyflink_compat.checkpoints import write_savepoint

    inputs = broadcast_job.write_rules(tmp_path / "in", 0, {"k0": 10, "k1": 11, "k2": 12, "k3": 13, "k4": 14})
    inputs += broadcast_job.write_events(tmp_path / "in", 1, list(range(0, 10)))
    env = envs()
    env.set_parallelism(2)
    _storage(env, tmp_path / "cp")
    broadcast_job.build(env, str(tmp_path / "in"), str(tmp_path / "out-1"))
    client = env.execute_async(broadcast_job.JOB_NAME)
    wait_until(lambda: len(log_ids(tmp_path / "cp" / broadcast_job.JOB_NAME / "datastream", "commits")) >= 2,
               timeout=240, what="both input files committed")
    first = client.stop_with_savepoint(False, str(tmp_path / "sp")).result(240)
    before = broadcast_job.read_outputs(tmp_path / "out-1")
    first_digest = digest(first)
    # restored at 3 with nothing new to read: the run ends before any batch seeds its
    # partitions, and a savepoint of its checkpoints is taken then
    assert _run_restored(envs, tmp_path, first, "middle", 3) == []
    second = write_savepoint(str(tmp_path / "middle" / broadcast_job.JOB_NAME), str(tmp_path / "sp2"))
    second_digest = digest(second)
    # the savepoint shows the rules each of its 3 partitions starts with
    rules = {"k0": 10, "k1": 11, "k2": 12, "k3": 13, "k4": 14}
    assert sorted((r["partition"], r["key"], r["value"]) for r in _broadcast_rows(second, capsys)) == [
        (p, "(broadcast state)", rules) for p in range(3)]
    inputs += broadcast_job.write_events(tmp_path / "in", 2, list(range(10, 20)))
    inputs += broadcast_job.write_rules(tmp_path / "in", 3, {"k1": 21, "k3": -1})
    inputs += broadcast_job.write_events(tmp_path / "in", 4, list(range(20, 30)))
    # restored from the savepoint at 1, and the run at 3 started again on its own checkpoints
    # (no restore path), which resumes them with the seed still pending
    for name, source, parallelism in (("down", second, 1), ("middle", None, 3)):
        after = _run_restored(envs, tmp_path, source, name, parallelism)
        # exactly once over both runs, each record as without rescaling
        assert sorted(before + after) == broadcast_job.expected_outputs(inputs), name
        _first_events_read_their_rules(after)
    # NO_CLAIM: neither savepoint changed
    assert digest(first) == first_digest
    assert digest(second) == second_digest
