"""Flink's legacy ``CsvTableSink``: the rows as delimited lines in one file, or in a directory
of numbered files, written from the driver in the order of the micro-batches."""

from __future__ import annotations

import os
import shutil
import threading
from typing import TYPE_CHECKING, Any, Dict, List, Sequence, Tuple

from pyflink_compat.sql.value_text import print_text

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["CONNECTOR", "sink", "sink_table_options", "CsvFileWriter"]

#: The ``'connector'`` of a table registered from a ``CsvTableSink`` (no Flink SQL connector
#: has this name: a ``CREATE TABLE`` cannot declare it).
CONNECTOR = "pyflink_compat-legacy-csv-table-sink"


def sink_table_options(description: Dict[str, Any], parallelism: int) -> Dict[str, str]:
    """The table options of the sink ``description`` (a ``CsvTableSink``'s settings)."""
    files = int(description["num_files"])
    return {"connector": CONNECTOR, "path": os.path.abspath(description["path"]),
            "field-delimiter": description["delimiter"],
            "num-files": str(files if files > 0 else max(parallelism, 1)),
            "single-file": str(files == 1).lower(),
            "overwrite": str(bool(description["overwrite"])).lower()}


class CsvFileWriter(object):
    """The ``foreachBatch`` function writing each micro-batch's rows: the path is made ready
    (replaced, or its existence fails the job as Flink's does) before the first rows."""

    def __init__(self, options: Dict[str, str]):
        self._path = options["path"]
        self._delimiter = options["field-delimiter"]
        self._files = int(options["num-files"])
        self._single = options["single-file"] == "true"
        self._overwrite = options["overwrite"] == "true"
        self._ready = False
        self._lock = threading.Lock()

    def _target(self) -> str:
        return self._path if self._single else os.path.join(self._path, "1")

    def _prepare(self) -> None:
        if os.path.lexists(self._path):
            if not self._overwrite:
                raise IOError(
                    "File or directory {} already exists. Existing files and directories are not "
                    "overwritten in NO_OVERWRITE mode. Use OVERWRITE mode to overwrite existing "
                    "files and directories.".format(self._path))
            if os.path.isdir(self._path) and not os.path.islink(self._path):
                shutil.rmtree(self._path)
            else:
                os.remove(self._path)
        if self._single:
            os.makedirs(os.path.dirname(self._path) or ".", exist_ok=True)
            open(self._path, "w", encoding="utf-8").close()
        else:
            os.makedirs(self._path)
            for number in range(1, self._files + 1):
                open(os.path.join(self._path, str(number)), "w", encoding="utf-8").close()

    def __call__(self, batch: "DataFrame", batch_id: int) -> None:
        types = [type(f.dataType).__name__ for f in batch.schema.fields]
        rows: List[Tuple[Any, ...]] = [tuple(row) for row in batch.collect()]
        with self._lock:
            if not self._ready:
                self._prepare()
                self._ready = True
            with open(self._target(), "a", encoding="utf-8") as out:
                for row in rows:
                    out.write(self._delimiter.join(
                        "" if v is None else print_text(v, t) for v, t in zip(row, types)) + "\n")


def sink(table: "CreateTable", frame: "DataFrame", updating: bool, keys: Sequence[str]) -> Any:
    """A writer of ``frame``'s rows into the sink's file(s)."""
    return frame.writeStream.foreachBatch(CsvFileWriter(dict(table.options))).outputMode("append")
