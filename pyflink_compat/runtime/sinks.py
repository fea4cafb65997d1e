"""The sinks of a DataStream job, run on the driver in one ``foreachBatch`` writer.

Each micro-batch's records are collected to the driver once and handed to each sink in
arrival order (the order of their ``seq``): ``print()`` writes their lines,
``execute_and_collect()`` keeps the values.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from pyflink_compat.runtime.records import collected, loads, print_text

__all__ = ["PrintBatch", "CollectBatch", "collected_rows", "one_query", "ordered_values"]


def ordered_values(rows: List[Any]) -> List[Any]:
    """The records of a sink's rows of one micro-batch, in arrival order."""
    ordered = sorted((row for row in rows if row["v"] is not None), key=lambda row: list(row["seq"]))
    return [loads(bytes(row["v"])) for row in ordered]


def one_query(outputs: List[Tuple[Any, Any, bool]]) -> Tuple[Any, bool]:
    """One streaming writer for all the DataStream sinks of a job.

    Each sink's DataFrame is tagged with its number and the DataFrames are unioned, so that
    the job is one query (one start, one checkpoint); each micro-batch is collected once and
    its rows handed to each sink's batch function.

    :param outputs: (DataFrame, batch function, whether it holds keyed state) per sink.
    :return: The writer, and whether any sink holds keyed state.
    """
    from pyspark.sql import functions as F

    frames = [frame.select("v", "seq", F.lit(i).alias("sink")) for i, (frame, _, _) in enumerate(outputs)]
    union = frames[0]
    for frame in frames[1:]:
        union = union.unionByName(frame)
    functions = [function for _, function, _ in outputs]
    writer = union.writeStream.foreachBatch(_Dispatch(functions))
    if any(getattr(function, "updating", False) for function in functions):
        # a table's updating changelog: Spark gives each micro-batch's changed rows
        writer = writer.outputMode("update")
    return writer, any(k for _, _, k in outputs)


class _Dispatch(object):
    """Hands each sink its rows of a micro-batch, collected once."""

    def __init__(self, functions: List[Any]):
        self.functions = functions

    def __call__(self, frame: Any, batch_id: int) -> None:
        rows = collected_rows(frame)
        if len(self.functions) == 1:
            self.functions[0](rows, batch_id)
            return
        for index, function in enumerate(self.functions):
            function([row for row in rows if row["sink"] == index], batch_id)


def collected_rows(frame: Any) -> List[Any]:
    """The rows of a micro-batch on the driver, each read by column name (``v``, ``seq``,
    ``sink``).

    Where pyspark has ``DataFrame.toArrow`` (4.0 and later) they travel as Arrow columns:
    ``collect`` pickles each row in the JVM and makes a ``Row`` of it here, which cost
    more than the sinks' own work on a record.
    """
    if not hasattr(frame, "toArrow"):
        return list(frame.collect())
    table = frame.toArrow()
    names = ("v", "seq", "sink")
    columns = [table.column(name).to_pylist() for name in names]
    found: List[Dict[str, Any]] = [dict(zip(names, values)) for values in zip(*columns)]
    return found


class PrintBatch(object):
    """Prints each record as Flink's print sink does.

    :param type_info: The stream's declared type (``None``: pickled objects).
    :param identifier: The sink identifier given to ``print``.
    """

    def __init__(self, type_info: Any, identifier: Optional[str]):
        self.type_info = type_info
        self.identifier = identifier

    def __call__(self, rows: List[Any], batch_id: int) -> None:
        from pyflink_compat.connectors.print_sink import print_lines

        print_lines([print_text(v, self.type_info) for v in ordered_values(rows)], self.identifier, False)


class CollectBatch(object):
    """Keeps every record, as ``execute_and_collect`` returns them.

    :param type_info: The stream's declared type.
    """

    def __init__(self, type_info: Any):
        self.type_info = type_info
        self.values: List[Any] = []

    def __call__(self, rows: List[Any], batch_id: int) -> None:
        self.values.extend(collected(v, self.type_info) for v in ordered_values(rows))
