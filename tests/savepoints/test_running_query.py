"""A savepoint of a running query survives Spark's retention removing files during the copy."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

from pyflink_compat.checkpoints import restore_query, verify, write_savepoint
from pyflink_compat.checkpoints.file_access import LocalFileAccess
from tests._helpers.files import write_input
from tests.savepoints._queries import HDFS, counts_table, rows_of, run_until_idle, session_conf, start_counts


class RetentionStrikes(LocalFileAccess):
    """The local file system, on which the query commits another batch while the savepoint is
    being copied, and the file being copied is then removed as Spark's retention would."""

    def __init__(self, victim: str, advance: Callable[[], None]):
        self.victim = victim
        self.advance = advance
        self.struck = False

    def copy_file(self, src: str, dst: str, link: bool) -> bool:
        if not self.struck and src.endswith(self.victim):
            self.struck = True
            self.advance()
            os.unlink(src)
            os.unlink(os.path.join(os.path.dirname(src), "." + os.path.basename(src) + ".crc"))
        return super().copy_file(src, dst, link)


def test_a_file_removed_during_the_copy_makes_the_savepoint_start_again_at_the_newer_batch(
        spark: Any, tmp_path: Any) -> None:
    input_dir = str(tmp_path / "input")
    checkpoint = str(tmp_path / "job" / "counts")
    with session_conf(spark, {"spark.sql.streaming.stateStore.providerClass": HDFS}):
        write_input(input_dir, "f0.json", rows_of("ab", 0))
        query = start_counts(spark, input_dir, checkpoint, "retention_strikes")
        try:
            run_until_idle(query)
            write_input(input_dir, "f1.json", rows_of("bc", 10))
            run_until_idle(query)

            def one_more_batch() -> None:
                write_input(input_dir, "f2.json", rows_of("cd", 20))
                run_until_idle(query)

            # planned at batch 1, which needs offsets/0: batch 2 commits, and offsets/0 goes
            fs = RetentionStrikes("offsets/0", one_more_batch)
            savepoint = write_savepoint(checkpoint, str(tmp_path / "savepoints"), "job", fs=fs)
        finally:
            query.stop()
        assert fs.struck
        with open(os.path.join(savepoint, "_metadata")) as stream:
            (saved,) = json.load(stream)["queries"]
        assert saved["batch_id"] == 2 and "offsets/0" not in {f["path"] for f in saved["files"]}
        assert verify(savepoint)["ok"]
        restored = restore_query(savepoint, str(tmp_path / "restored"))
        write_input(input_dir, "f3.json", rows_of("a", 30))
        query = start_counts(spark, input_dir, restored.location, "retention_strikes_restored")
        try:
            run_until_idle(query)
            result = counts_table(spark, "retention_strikes_restored")
        finally:
            query.stop()
    assert result == {"a": 2, "b": 2, "c": 2, "d": 1}
