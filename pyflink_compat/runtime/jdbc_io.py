"""A DataStream's ``JdbcSink``: each micro-batch's records run through the sink's statement
from the Spark driver (see :mod:`pyflink_compat.datastream.connectors.jdbc`)."""

from __future__ import annotations

import logging
from typing import Any, List

__all__ = ["JdbcSinkBatch"]

LOG = logging.getLogger(__name__)


class JdbcSinkBatch(object):
    """Runs a ``JdbcSink``'s statement once per record of each micro-batch, in arrival order:
    JDBC batches of the sink's batch size, committed when the micro-batch is written; a failing
    micro-batch is written again up to the sink's retries.

    :param sink: A ``JdbcSink``.
    """

    def __init__(self, sink: Any):
        description = sink.get_java_function()
        self.sql: str = description["sql"]
        self.fields = len(description["type_info"].get_field_types())
        connection = description["connection"]
        self.url: str = connection["url"]
        self.properties = {k: v for k, v in (("user", connection["user"]), ("password", connection["password"]),
                                             ("driver", connection["driver"])) if v}
        execution = description["execution"]
        self.batch_size = max(int(execution["batch_size"]), 1)
        self.retries = max(int(execution["max_retries"]), 0)

    def __call__(self, rows: List[Any], batch_id: int) -> None:
        from pyspark.sql import SparkSession

        from pyflink_compat.runtime.sinks import ordered_values

        values = ordered_values(rows)
        if not values:
            return
        spark = SparkSession.getActiveSession() or SparkSession.builder.getOrCreate()
        for attempt in range(self.retries + 1):
            try:
                self._write(spark.sparkContext._jvm, values)
                return
            except Exception as e:  # the database refused or the connection broke: try again
                if attempt == self.retries:
                    raise
                LOG.warning("JDBC sink: writing micro-batch %d failed (attempt %d of %d), trying "
                            "again: %s", batch_id, attempt + 1, self.retries + 1, e)

    def _write(self, jvm: Any, values: List[Any]) -> None:
        from pyflink_compat.connectors.jdbc import run_in_transaction

        rows = [tuple(value)[:self.fields] for value in values]
        run_in_transaction(jvm, self.url, self.properties, [(self.sql, rows)], self.batch_size)
