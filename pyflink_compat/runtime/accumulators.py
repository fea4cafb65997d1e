"""The accumulators of Flink's built-in aggregates (``COUNT``, ``SUM``, ``AVG``, ``MIN``,
``MAX``, ``FIRST_VALUE``, ``LAST_VALUE``) kept per key by the Python processors of the streaming aggregations (the over
aggregation, the grouped aggregation), and their results in Flink's result types.
"""

from __future__ import annotations

import decimal
from typing import Any, Dict, List, Tuple

__all__ = ["Accumulator", "conform"]


class Accumulator(object):
    """The accumulators of one group or frame: per aggregate, its count of values and its sum,
    the count of each value (``MIN``/``MAX`` and the ``DISTINCT`` aggregates, which a
    retraction can change), or the values in arrival order (``FIRST_VALUE``/``LAST_VALUE``,
    whose frame retracts its oldest row).

    :param aggregates: Per aggregate, its name (``SUM``, ``COUNT``, ``AVG``, ``MIN``, ``MAX``,
        followed by `` DISTINCT`` for an aggregate of the distinct values; ``FIRST_VALUE``,
        ``LAST_VALUE``) and whether it has an argument (``COUNT(*)`` has none).
    """

    def __init__(self, aggregates: List[Tuple[str, bool]]):
        self.aggregates = aggregates
        self.counts = [0] * len(aggregates)
        self.sums: List[Any] = [None] * len(aggregates)
        self.values: List[Dict[Any, int]] = [{} for _ in aggregates]

    def add(self, arguments: Tuple[Any, ...], sign: int) -> None:
        """Accumulate (``sign`` 1) or retract (``sign`` -1) one row's arguments; a ``NULL``
        argument is left out, as SQL's aggregates leave it."""
        for index, (name, has_argument) in enumerate(self.aggregates):
            value = arguments[index] if has_argument else True
            if value is None:
                continue
            self.counts[index] += sign
            if name in ("SUM", "AVG"):
                current = self.sums[index]
                if sign > 0:
                    self.sums[index] = value if current is None else current + value
                else:
                    self.sums[index] = current - value
            elif name in ("FIRST_VALUE", "LAST_VALUE"):
                ordered = self.sums[index] = self.sums[index] or []
                if sign > 0:
                    ordered.append(value)
                else:
                    ordered.pop(0)
            elif name != "COUNT":  # MIN, MAX and the DISTINCT aggregates count each value
                seen = self.values[index]
                left = seen.get(value, 0) + sign
                if left > 0:
                    seen[value] = left
                else:
                    seen.pop(value, None)

    def results(self, result_types: List[str]) -> List[Any]:
        """Each aggregate's value, as a value of its Spark type (``result_types``: the types'
        simple strings)."""
        out: List[Any] = []
        for index, (name, _) in enumerate(self.aggregates):
            count = self.counts[index]
            value: Any
            distinct = self.values[index]
            if name == "COUNT DISTINCT":
                value = len(distinct)
            elif name in ("SUM DISTINCT", "AVG DISTINCT"):
                value = sum(distinct) if distinct else None
                if value is not None and name == "AVG DISTINCT":
                    value = value / len(distinct)
            elif name == "COUNT":
                value = count
            elif name == "SUM":
                value = self.sums[index] if count > 0 else None
            elif name == "AVG":
                value = self.sums[index] / count if count > 0 else None
            elif name == "FIRST_VALUE":
                value = self.sums[index][0] if self.sums[index] else None
            elif name == "LAST_VALUE":
                value = self.sums[index][-1] if self.sums[index] else None
            elif name.startswith("MIN"):
                value = min(distinct) if distinct else None
            else:
                value = max(distinct) if distinct else None
            out.append(conform(value, result_types[index]))
        return out


def conform(value: Any, spark_type: str) -> Any:
    """``value`` as a value of the Spark type ``spark_type``."""
    if value is None:
        return None
    if spark_type.startswith("decimal"):
        scale = int(spark_type.rstrip(")").split(",")[1])
        return decimal.Decimal(value).quantize(decimal.Decimal(1).scaleb(-scale),
                                               rounding=decimal.ROUND_HALF_UP)
    if spark_type in ("double", "float"):
        return float(value)
    if spark_type in ("bigint", "int", "smallint", "tinyint"):
        return int(value)
    return value
