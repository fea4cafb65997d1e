"""Jobs of the savepoint tests that count rows per key, through the job API: their input files,
the expected counts, and a sink keeping the counts of each batch."""

from __future__ import annotations

import collections
from typing import Any, Dict, List

from tests._helpers.files import write_json_files

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
