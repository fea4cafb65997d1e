"""A job program without Spark, for the attached ``run``: it records one running job in the
registry of the checkpoint directory its submission gave it, as a job's driver does, waits until
the file ``<dir>/end`` names the status the job ends in, records that end, and exits 0.

Usage: ``recorded_program.py <dir>``. ``pyflink-compat run`` gives it its checkpoint directory
and submission id as Spark confs in ``PYSPARK_SUBMIT_ARGS``, where a Spark session would read them.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
import uuid

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
if _REPO not in sys.path:
    sys.path.insert(0, _REPO)


def main(argv: list) -> int:
    import attrs

    from pyflink_compat.spark.job_presence import SUBMISSION_CONF
    from pyflink_compat.spark.job_registry import JobRecord, JobRegistry, StatusChange, process_start, this_host

    confs = dict(arg.partition("=")[::2] for arg in shlex.split(os.environ["PYSPARK_SUBMIT_ARGS"]) if "=" in arg)
    storage = confs["spark.flink.execution.checkpointing.dir"]
    registry = JobRegistry(storage)
    now = time.time()
    record = JobRecord(job_id=uuid.uuid4().hex, name="recorded", status="RUNNING",
                       history=(StatusChange("RUNNING", now),), host=this_host(), pid=os.getpid(),
                       pid_start=process_start(os.getpid()), started=now, heartbeat=now, heartbeat_every=1.0,
                       storage_dir=storage, submission=confs[SUBMISSION_CONF])
    registry.write(record)
    end = os.path.join(argv[1], "end")
    while not os.path.exists(end):
        time.sleep(0.05)
    with open(end) as stream:
        status = stream.read().strip()
    ended = time.time()
    registry.write(attrs.evolve(record, status=status, history=record.history + (StatusChange(status, ended),),
                                heartbeat=ended, ended=ended))
    print("PROGRAM DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
