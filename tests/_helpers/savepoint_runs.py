"""Runs of a file-reading DataStream job (:mod:`tests._helpers.keyed_job`,
:mod:`tests._helpers.broadcast_job`) for the savepoint tests: started and stopped with a
savepoint once it committed some batches, or restored from a savepoint and run until its
input is read.

A job here is a module with ``JOB_NAME``, ``build(env, input_dir, out)`` and
``read_outputs(out)``; its input is ``<base>/in``, a run named ``name`` checkpoints under
``<base>/<name>`` and writes to ``<base>/out-<name>``.
"""

from __future__ import annotations

import os
from typing import Any, List, Optional, Tuple

from pyflink_compat.common import JobStatus

from tests._helpers.files import log_ids
from tests._helpers.waiting import wait_until

__all__ = ["use_storage", "stopped_with_savepoint", "run_restored"]


def use_storage(env: Any, path: Any) -> None:
    """Checkpoint ``env``'s queries under the local directory ``path``."""
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(path))


def stopped_with_savepoint(envs: Any, job: Any, base: Any, parallelism: Optional[int] = None,
                           commits: int = 2) -> Tuple[str, List[Any]]:
    """Run ``job`` (checkpoints under ``<base>/cp``, outputs at ``<base>/out-1``) until it
    committed ``commits`` batches, then stop it with a savepoint in ``<base>/sp``.

    :return: The savepoint's path and the outputs of the run.
    """
    env = envs()
    if parallelism is not None:
        env.set_parallelism(parallelism)
    use_storage(env, base / "cp")
    job.build(env, str(base / "in"), str(base / "out-1"))
    client = env.execute_async(job.JOB_NAME)
    wait_until(lambda: len(log_ids(base / "cp" / job.JOB_NAME / "datastream", "commits")) >= commits,
               timeout=240, what="{} commits of {}".format(commits, job.JOB_NAME))
    savepoint = client.stop_with_savepoint(False, str(base / "sp")).result(240)
    assert client.get_job_status().result() is JobStatus.FINISHED
    _drop_uncommitted(savepoint, base / "out-1")
    return savepoint, job.read_outputs(base / "out-1")


def _drop_uncommitted(savepoint: str, out: Any) -> None:
    """Remove the batch files of the batches the savepoint does not hold: a batch the stop
    interrupted after its sink wrote (divergence ``stop-interrupts-running-batch``). The
    restored job writes that batch again, under the same id: where both runs write to one
    place, its file is replaced; the runs here write to places of their own."""
    committed = max((i for sink in os.listdir(savepoint) if os.path.isdir(os.path.join(savepoint, sink))
                     for i in log_ids(os.path.join(savepoint, sink), "commits")), default=-1)
    for name in os.listdir(str(out)) if os.path.isdir(str(out)) else []:
        if name.startswith("batch_id=") and name.endswith(".json") and int(name[9:-5]) > committed:
            os.remove(os.path.join(str(out), name))


def run_restored(envs: Any, job: Any, base: Any, savepoint: Optional[str], name: str,
                 parallelism: Optional[int] = None) -> List[Any]:
    """Run ``job`` restored from ``savepoint`` (``None``: resuming the run's own checkpoints,
    if any) until its input is read.

    :return: The outputs of the run (of every run named ``name`` so far).
    """
    env = envs({"execution.state-recovery.path": savepoint} if savepoint else {})
    if parallelism is not None:
        env.set_parallelism(parallelism)
    use_storage(env, base / name)
    job.build(env, str(base / "in"), str(base / ("out-" + name)))
    client = env.execute_async(job.JOB_NAME)
    client.get_job_execution_result().result(300)
    assert client.get_job_status().result() is JobStatus.FINISHED
    return job.read_outputs(base / ("out-" + name))
