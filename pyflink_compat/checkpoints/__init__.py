"""Savepoints, restores and inspection of Spark query checkpoints, at the file level.

Checkpoints and savepoints are read and written as files: on local paths in plain Python,
with no JVM; on any other file system through Hadoop's ``FileSystem`` in the running Spark
session (see :mod:`pyflink_compat.checkpoints.access`). :func:`read_state` is different: it reads
state rows through Spark 4's state data source, so it always needs a Spark session.

A job that keeps its checkpoints, then what :func:`list_storage`, :func:`show` and
:func:`verify` find in them:

>>> import os
>>> import tempfile
>>> from pyflink_compat import checkpoints
>>> from pyflink_compat.common import Configuration
>>> from pyflink_compat.datastream import StreamExecutionEnvironment
>>> work = tempfile.mkdtemp()
>>> config = Configuration().set_string("execution.checkpointing.dir", "file://" + work + "/checkpoints")
>>> config = config.set_string("execution.checkpointing.externalized-checkpoint-retention",
...                            "RETAIN_ON_CANCELLATION")
>>> env = StreamExecutionEnvironment.get_execution_environment(config).enable_checkpointing(1000)
>>> spark = env.spark_session
>>> spark.createDataFrame([["apple"], ["bread"], ["apple"]], "word STRING").write.json(work + "/in")
>>> counts = spark.readStream.schema("word STRING").json(work + "/in").groupBy("word").count()
>>> env = env.add_sink(counts.writeStream.outputMode("complete").format("memory"), name="counts", bounded=True)
>>> result = env.execute("words")
>>> [(job["name"], job["checkpoints"]) for job in checkpoints.list_storage(work + "/checkpoints")["jobs"]]
[('words', [{'id': 'chk-1', 'batch': 0}])]
>>> query = checkpoints.show(work + "/checkpoints/words/counts")
>>> query["kind"], query["committed_batches"], query["state_store_provider"].rpartition(".")[2]
('checkpoint', [0], 'HDFSBackedStateStoreProvider')
>>> checkpoints.verify(work + "/checkpoints/words")["ok"]
True
>>> with open(work + "/checkpoints/words/counts/state/0/1/1.delta", "ab") as damaged:
...     _ = damaged.write(b"!")
>>> for problem in checkpoints.verify(work + "/checkpoints/words")["problems"]:
...     print(problem.replace(work + "/", ""))
checkpoints/words/counts/state/0/1/1.delta: checksum mismatch with its .crc file at byte 0 (the file is corrupt)
"""

from typing import TYPE_CHECKING

from pyflink_compat._lazy import lazy_exports

__all__ = ["CheckpointFileError", "SavepointError", "QueryCheckpoint", "write_savepoint", "dispose_savepoint",
           "restore_query", "restore_job", "RestoredQuery", "list_storage", "show", "verify", "read_state"]

# Imported on first use: a job's runtime reaches single modules of this package (``access``,
# ``layout``) on its way to its first query, and should not pay for all of them.
_EXPORTS = {
    "CheckpointFileError": "errors", "SavepointError": "errors", "list_storage": "inspection", "show": "inspection",
    "verify": "inspection", "QueryCheckpoint": "layout", "RestoredQuery": "restore",
    "restore_job": "restore", "restore_query": "restore", "dispose_savepoint": "savepoint",
    "write_savepoint": "savepoint", "read_state": "state_reader",
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from pyflink_compat.checkpoints.errors import CheckpointFileError, SavepointError  # noqa: F401
    from pyflink_compat.checkpoints.inspection import list_storage, show, verify  # noqa: F401
    from pyflink_compat.checkpoints.layout import QueryCheckpoint  # noqa: F401
    from pyflink_compat.checkpoints.restore import RestoredQuery, restore_job, restore_query  # noqa: F401
    from pyflink_compat.checkpoints.savepoint import dispose_savepoint, write_savepoint  # noqa: F401
    from pyflink_compat.checkpoints.state_reader import read_state  # noqa: F401
