"""Rollbacks to a savepoint as the operations runbook does them with ``pyflink-compat``: after a
driver killed with SIGKILL (``NO_CLAIM``), after a crash of a run that itself started from that
savepoint, and after a cancel that retained its checkpoints (``CLAIM``). ``run -s`` always starts
from the savepoint; the checkpoint each crashed or cancelled run left in the job's place is set
aside unchanged, and each restored run writes every record after the savepoint exactly once."""

from __future__ import annotations

import pytest

from tests._helpers.commands import ORDERS_JOB as JOB, Commands, finished, kill_group, output_ids
from tests._helpers.files import digest, write_json_files
from tests._helpers.waiting import wait_until

#: A short-lived local driver: two threads, no UI; C1-only JIT and serial GC start faster.
_SPARK = ("--master local[2] --conf spark.ui.enabled=false --conf spark.ui.showConsoleProgress=false "
          "--conf spark.sql.shuffle.partitions=2 "
          "--conf 'spark.driver.extraJavaOptions=-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' pyspark-shell")
_RETAIN = ("-D", "execution.checkpointing.externalized-checkpoint-retention=RETAIN_ON_CANCELLATION")


@pytest.mark.slow
def test_rollbacks_to_a_savepoint_after_killed_drivers_and_a_retained_cancel_write_every_record_once(
        tmp_path, drivers):
    cli = Commands(tmp_path, extra={"PYSPARK_SUBMIT_ARGS": _SPARK})
    inputs, job_dir = tmp_path / "in", tmp_path / "cp" / "orders"
    write_json_files(inputs, n_files=2, rows_per_file=3)
    first = finished(cli.start("run", "-d", "--json", *_RETAIN, "-py", JOB, str(inputs), str(tmp_path / "out1"),
                               "orders"))
    drivers.append(first["pid"])
    wait_until(lambda: len(output_ids(tmp_path / "out1")) == 6, timeout=120, what="the first input processed")
    sp1 = cli.json("savepoint", first["job_id"])["savepoint"]
    write_json_files(inputs, n_files=2, rows_per_file=3, start_file=2)
    wait_until(lambda: len(output_ids(tmp_path / "out1")) == 12, timeout=120, what="the input after the savepoint")
    kill_group(first["pid"])

    # rollback after the crash: NO_CLAIM, while the killed run's checkpoint is still in place
    second = finished(cli.start("run", "-d", "--json", *_RETAIN, "-s", sp1, "-py", JOB, str(inputs),
                                str(tmp_path / "out2"), "orders"))
    drivers.append(second["pid"])
    wait_until(lambda: len(output_ids(tmp_path / "out2")) == 6, timeout=120, what="the rollback's first records")
    kill_group(second["pid"])
    left = digest(job_dir / "rows")

    # the same rollback again, after a crash of the run that itself started from that savepoint:
    # it starts from the savepoint, not from the crashed run's checkpoint
    third = finished(cli.start("run", "-d", "--json", *_RETAIN, "-s", sp1, "-py", JOB, str(inputs),
                               str(tmp_path / "out3"), "orders"))
    drivers.append(third["pid"])
    wait_until(lambda: len(output_ids(tmp_path / "out3")) == 6, timeout=120, what="the second rollback's records")
    write_json_files(inputs, n_files=2, rows_per_file=3, start_file=4)
    wait_until(lambda: len(output_ids(tmp_path / "out3")) == 12, timeout=120, what="the input after the rollback")
    assert cli.json("cancel", third["job_id"])["cancelled"]
    wait_until(lambda: [j["shown_status"] for j in cli.json("list", "-a")["jobs"]
                        if j["job_id"] == third["job_id"]] == ["CANCELED"], timeout=60, what="the cancel recorded")

    # rollback after the retained cancel of a run started from that savepoint: CLAIM (copied, as NO_CLAIM)
    fourth = finished(cli.start("run", "-d", "--json", "-s", sp1, "--claimMode", "CLAIM", "-py", JOB, str(inputs),
                                str(tmp_path / "out4"), "orders", "bounded"))
    drivers.append(fourth["pid"])
    wait_until(lambda: [j["shown_status"] for j in cli.json("list", "-a")["jobs"]
                        if j["job_id"] == fourth["job_id"]] == ["FINISHED"], timeout=120, what="the bounded run")

    # every record after the savepoint once, in each restored run; none before it again
    assert output_ids(tmp_path / "out1") == list(range(12))
    assert output_ids(tmp_path / "out2") == list(range(6, 12))
    assert output_ids(tmp_path / "out3") == list(range(6, 18))
    assert output_ids(tmp_path / "out4") == list(range(6, 18))
    # each replaced checkpoint set aside by the run that replaced it, the killed rollback's unchanged
    aside = {run.name: run for run in (job_dir / "_replaced").iterdir()}
    assert set(aside) == {second["job_id"], third["job_id"], fourth["job_id"]}
    assert digest(aside[third["job_id"]] / "rows") == left
    assert (aside[fourth["job_id"]] / "rows" / "metadata").is_file()
