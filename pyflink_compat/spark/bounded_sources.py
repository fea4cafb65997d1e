"""A bounded streaming source from data the job holds: what ``from_collection`` and a bounded
``datagen`` table become on Spark.

Spark's Python API has no streaming source over an in-memory collection, so the rows are
written once as Parquet files into a directory of their own and read back with
``spark.readStream``: a file source, which ends a bounded sink once every file is read and
keeps the rows' types. The directory is on the driver's local disk (local and single-machine
runs; on a cluster, pass ``directory`` on storage every executor reaches).
"""

from __future__ import annotations

import tempfile
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["as_stream"]


def as_stream(frame: "DataFrame", directory: Optional[str] = None) -> "DataFrame":
    """The rows of the batch DataFrame ``frame`` as a streaming DataFrame with its schema.

    :param frame: A (small) batch DataFrame, for example from ``spark.createDataFrame``.
    :param directory: Where the rows are written (a new temporary directory when omitted).
    :return: A streaming DataFrame that reads those rows once.
    """
    target = directory or tempfile.mkdtemp(prefix="pyflink-compat-rows-")
    path = target.rstrip("/") + "/rows"
    frame.coalesce(1).write.mode("overwrite").parquet(path)
    return frame.sparkSession.readStream.schema(frame.schema).parquet(path)
