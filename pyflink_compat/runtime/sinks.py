"""The ``foreachBatch`` writers of a DataStream job's sinks, run on the driver.

Each micro-batch's records are collected to the driver and handled in arrival order (the order
of their ``seq``): ``print()`` writes their lines, ``execute_and_collect()`` keeps the values.
"""

from __future__ import annotations

from typing import Any, List, Optional

from pyflink_compat.runtime.records import collected, loads, print_text

__all__ = ["PrintBatch", "CollectBatch"]


def _values(frame: Any) -> List[Any]:
    rows = frame.where("v IS NOT NULL").select("v", "seq").collect()
    rows.sort(key=lambda row: list(row["seq"]))
    return [loads(bytes(row["v"])) for row in rows]


class PrintBatch(object):
    """Prints each record as Flink's print sink does.

    :param type_info: The stream's declared type (``None``: pickled objects).
    :param identifier: The sink identifier given to ``print``.
    """

    def __init__(self, type_info: Any, identifier: Optional[str]):
        self.type_info = type_info
        self.identifier = identifier

    def __call__(self, frame: Any, batch_id: int) -> None:
        from pyflink_compat.connectors.print_sink import print_lines

        print_lines([print_text(v, self.type_info) for v in _values(frame)], self.identifier, False)


class CollectBatch(object):
    """Keeps every record, as ``execute_and_collect`` returns them.

    :param type_info: The stream's declared type.
    """

    def __init__(self, type_info: Any):
        self.type_info = type_info
        self.values: List[Any] = []

    def __call__(self, frame: Any, batch_id: int) -> None:
        self.values.extend(collected(v, self.type_info) for v in _values(frame))
