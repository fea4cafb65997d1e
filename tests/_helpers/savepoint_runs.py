"""Runs of a file-reading DataStream job (:mod:`tests._helpers.keyed_job`,
:mod:`tests._helpers.broadcast_job`) for the savepoint tests: started and stopped with a
savepoint once it committed some batches, or restored from a savepoint and run until its
input is read.

A job here is a module with ``JOB_NAME``, ``build(env, input_dir, out)`` and
``read_outputs(out)``; its input is ``<base>/in``, a run named ``name`` checkpoints under
``<base>/<name>`` and writes to ``<base>/out-<name>``.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from pyflink_compat.common import JobStatus

from tests._helpers.files import log_ids
from tests._helpers.waiting import wait_until

__all__ = ["use_storage", "stopped_with_savepoint", "run_restored"]


def use_storage(env: Any, path: Any) -> None:
    """Checkpoint ``env``'s queries under the local directory ``path``."""
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(path))


def _idle(checkpoint: Any, commits: int, since: List[Any]) -> bool:
    """Whether the query checkpointing at ``checkpoint`` committed ``commits`` batches or more
    and has planned no batch beyond its last commit for two seconds."""
    import time

    planned, committed = log_ids(checkpoint, "offsets"), log_ids(checkpoint, "commits")
    state = (planned, committed)
    if len(committed) < commits or planned != committed or since[0] != state:
        since[:] = [state, time.monotonic()]
        return False
    return time.monotonic() - since[1] >= 2.0


def stopped_with_savepoint(envs: Any, job: Any, base: Any, parallelism: Optional[int] = None,
                           commits: int = 2) -> Tuple[str, List[Any]]:
    """Run ``job`` (checkpoints under ``<base>/cp``, outputs at ``<base>/out-1``) until it
    committed ``commits`` batches or more and runs none, then stop it with a savepoint in
    ``<base>/sp``.

    The stop waits for the job to run no batch: a stop interrupts a running micro-batch, whose
    sink may have written its records already while the savepoint holds the batch before it
    (the restored job runs that batch again, into the outputs of another run here).

    :return: The savepoint's path and the outputs of the run.
    """
    env = envs()
    if parallelism is not None:
        env.set_parallelism(parallelism)
    use_storage(env, base / "cp")
    job.build(env, str(base / "in"), str(base / "out-1"))
    client = env.execute_async(job.JOB_NAME)
    since: List[Any] = [None, 0.0]
    wait_until(lambda: _idle(base / "cp" / job.JOB_NAME / "datastream", commits, since),
               timeout=240, what="{} commits of {} and no batch running".format(commits, job.JOB_NAME))
    savepoint = client.stop_with_savepoint(False, str(base / "sp")).result(240)
    assert client.get_job_status().result() is JobStatus.FINISHED
    return savepoint, job.read_outputs(base / "out-1")


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
