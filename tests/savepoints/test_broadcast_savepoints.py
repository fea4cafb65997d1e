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
from typing import Any, List, Tuple

import pyspark
import pytest

from pyflink_compat.cli import main as cli_main

from tests._helpers import broadcast_job
from tests._helpers.files import digest
from tests._helpers.savepoint_runs import run_restored, stopped_with_savepoint

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.skipif(tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 2),
                       reason="rescaling keyed state needs Spark 4.2 or later (offline repartition)"),
]


RULES = {"k0": 10, "k1": 11, "k2": 12, "k3": 13, "k4": 14}


def _stopped_with_savepoint(envs: Any, base: Any, event_files: List[List[int]]) -> Tuple[Any, str, List[Any]]:
    """The job over the rules :data:`RULES` and ``event_files``, stopped with a savepoint at
    parallelism 2 once it committed two batches: its input, the savepoint and its outputs."""
    inputs = broadcast_job.write_rules(base / "in", 0, RULES)
    for index, ids in enumerate(event_files, 1):
        inputs += broadcast_job.write_events(base / "in", index, ids)
    savepoint, before = stopped_with_savepoint(envs, broadcast_job, base, parallelism=2)
    return inputs, savepoint, before


def _first_events_read_their_rules(after: List[Any]) -> None:
    """Every key's first event of a restored run reads its saved rule."""
    firsts = {key: min((o for o in after if o[0] == key), key=lambda o: o[2]) for key in {o[0] for o in after}}
    assert sorted(firsts) == ["k0", "k1", "k2", "k3", "k4"]
    assert all(first[3] is not None for first in firsts.values()), firsts


def test_broadcast_state_restored_at_another_parallelism_reaches_every_new_partition(envs, tmp_path):
    inputs, savepoint, before = _stopped_with_savepoint(envs, tmp_path, [list(range(0, 10)), list(range(10, 20))])
    saved = digest(savepoint)
    # after the savepoint: events that read the saved rules, a rule changed and one removed,
    # and events that read the changed rules
    inputs += broadcast_job.write_events(tmp_path / "in", 3, list(range(20, 30)))
    inputs += broadcast_job.write_rules(tmp_path / "in", 4, {"k1": 21, "k3": -1})
    inputs += broadcast_job.write_events(tmp_path / "in", 5, list(range(30, 40)))
    for name, parallelism in (("up", 3), ("down", 1)):
        expected = broadcast_job.expected_outputs(inputs)
        after = run_restored(envs, broadcast_job, tmp_path, savepoint, name, parallelism)
        # exactly once over both runs, each record as without rescaling
        assert sorted(before + after) == expected, name
        # the saved rules reached every new partition: every key's first event after the
        # restore reads its rule
        _first_events_read_their_rules(after)
        if name == "up":
            # started again with the same restore path, the run resumes its own rescaled
            # checkpoint (seeding again only where nothing is stored): nothing is emitted twice
            inputs += broadcast_job.write_events(tmp_path / "in", 6, [40, 41])
            again = run_restored(envs, broadcast_job, tmp_path, savepoint, name, parallelism)
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


def test_a_savepoint_taken_before_the_first_batch_after_a_rescaled_restore_keeps_the_broadcast_state(
        envs, tmp_path, capsys):
    from pyflink_compat.checkpoints import write_savepoint

    # both input files committed when it stops
    inputs, first, before = _stopped_with_savepoint(envs, tmp_path, [list(range(0, 10))])
    first_digest = digest(first)
    # restored at 3 with nothing new to read: the run ends before any batch seeds its
    # partitions, and a savepoint of its checkpoints is taken then
    assert run_restored(envs, broadcast_job, tmp_path, first, "middle", 3) == []
    second = write_savepoint(str(tmp_path / "middle" / broadcast_job.JOB_NAME), str(tmp_path / "sp2"))
    second_digest = digest(second)
    # the savepoint shows the rules each of its 3 partitions starts with
    assert sorted((r["partition"], r["key"], r["value"]) for r in _broadcast_rows(second, capsys)) == [
        (p, "(broadcast state)", RULES) for p in range(3)]
    inputs += broadcast_job.write_events(tmp_path / "in", 2, list(range(10, 20)))
    inputs += broadcast_job.write_rules(tmp_path / "in", 3, {"k1": 21, "k3": -1})
    inputs += broadcast_job.write_events(tmp_path / "in", 4, list(range(20, 30)))
    # restored from the savepoint at 1, and the run at 3 started again on its own checkpoints
    # (no restore path), which resumes them with the seed still pending
    for name, source, parallelism in (("down", second, 1), ("middle", None, 3)):
        after = run_restored(envs, broadcast_job, tmp_path, source, name, parallelism)
        # exactly once over both runs, each record as without rescaling
        assert sorted(before + after) == broadcast_job.expected_outputs(inputs), name
        _first_events_read_their_rules(after)
    # NO_CLAIM: neither savepoint changed
    assert digest(first) == first_digest
    assert digest(second) == second_digest
