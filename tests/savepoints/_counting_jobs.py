"""Jobs of the savepoint tests that count rows per key, through the job API: their input files,
the expected counts, and a sink keeping the counts of each batch."""

from __future__ import annotations

import collections
from typing import Any, Dict, List

from tests._helpers.files import digest, log_ids, write_json_files
from tests._helpers.jobs import SCHEMA
from tests._helpers.waiting import wait_until

#: The trigger interval of these jobs, in ms.
INTERVAL_MS = 200
#: Rows in each input file.
ROWS = 4


def write_files(directory: Any, first: int, count: int) -> List[Dict[str, Any]]:
    """Write input files ``first .. first + count - 1`` of :data:`ROWS` rows each; return the rows."""
    return write_json_files(directory, n_files=count, rows_per_file=ROWS, start_file=first)


def expected(rows: List[Dict[str, Any]]) -> Dict[str, int]:
    """The count per key of ``rows``."""
    return dict(collections.Counter(r["key"] for r in rows))


class Counts:
    """A ``foreachBatch`` sink keeping the complete counts of the newest batch."""

    def __init__(self) -> None:
        self.batches: Dict[int, Dict[str, int]] = {}

    def __call__(self, frame: Any, batch_id: int) -> None:
        self.batches[batch_id] = {row["key"]: row["count"] for row in frame.collect()}

    def latest(self) -> Dict[str, int]:
        return self.batches[max(self.batches)] if self.batches else {}


def add_counts(env: Any, source: Any, storage: Any, sink: str = "counts", bounded: bool = False,
               files_per_batch: int = 1) -> Counts:
    """A sink counting rows per key over ``source`` (one file a batch unless told otherwise),
    checkpointed under ``storage``."""
    env.get_checkpoint_config().set_checkpoint_storage_dir("file://" + str(storage))
    counts = Counts()
    frame = (env.spark_session.readStream.schema(SCHEMA).option("maxFilesPerTrigger", files_per_batch)
             .json(str(source)))
    writer = frame.groupBy("key").count().writeStream.outputMode("complete").foreachBatch(counts)
    env.add_sink(writer, sink, bounded=bounded)
    return counts


def restore_options(path: str, **extra: str) -> Dict[str, str]:
    """The Flink options of a job restored from ``path``."""
    options = {"execution.state-recovery.path": path}
    options.update(extra)
    return options


def save_counting_job(root: Any) -> Dict[str, Any]:
    """Run a counting job over two files under ``root``, take a savepoint while it runs, cancel
    it, then write two more files.

    :return: ``root``, the input directory ``source``, the ``savepoint``'s path, all the
        ``rows`` written and the savepoint's ``digest``.
    """
    from pyflink_compat.common import Configuration, JobStatus
    from pyflink_compat.datastream import StreamExecutionEnvironment

    source = root / "in"
    rows = write_files(source, 0, 2)
    env = StreamExecutionEnvironment.get_execution_environment(Configuration())
    env.enable_checkpointing(INTERVAL_MS)
    add_counts(env, source, root / "storage")
    client = env.execute_async("first")
    try:
        wait_until(lambda: len(log_ids(root / "storage" / "first" / "counts", "commits")) >= 2, what="two commits")
        path = client.trigger_savepoint(str(root / "savepoints")).result(60)
        assert client.get_job_status().result() is JobStatus.RUNNING
    finally:
        client.cancel().result(60)
        env.close()
    rows += write_files(source, 2, 2)
    return {"root": root, "source": source, "savepoint": path, "rows": rows, "digest": digest(path)}
