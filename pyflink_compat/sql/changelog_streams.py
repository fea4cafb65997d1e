"""Reading a changelog stream (``from_changelog_stream``) as a table.

Spark's streaming tables are insert-only: a row cannot be retracted from a query's input. A
changelog whose records are known before the job runs (a collection) is applied on the driver
instead: each ``+I`` / ``+U`` adds its row, each ``-U`` / ``-D`` takes back an equal row (in an
upsert changelog, ``+I`` / ``+U`` replace and ``-D`` removes the row of their primary key). The
table reads the rows that remain, as the one micro-batch Spark reads a collection in: downstream,
a query gives the results Flink ends with (the divergence ``changelog-collection-net-rows``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from pyflink_compat.runtime.graph import Node

__all__ = ["collection_values", "net_rows", "insert_only_value"]

_ADDS = ("+I", "+U")


def collection_values(node: "Node") -> Optional[List[Any]]:
    """The values of ``node`` when it is a collection source, else ``None``."""
    from pyflink_compat.runtime.graph import SOURCE

    if node.kind != SOURCE or not isinstance(node.op, tuple) or len(node.op) != 2 \
            or not isinstance(node.op[0], list):
        return None
    return node.op[0]


def _kind(value: Any) -> str:
    kind = value.get_row_kind() if hasattr(value, "get_row_kind") else None
    return "+I" if kind is None else str(kind)


def net_rows(values: Sequence[Any], key_positions: Optional[Sequence[int]]) -> List[Any]:
    """The rows that remain once the changes ``values`` are applied in order, each of kind
    ``+I``; keyed by the fields at ``key_positions`` for an upsert changelog (``None``: a
    retraction takes back one equal row)."""
    from pyflink_compat.common.types import RowKind

    def insert(value: Any) -> Any:
        row = value.__class__(*tuple(value)) if hasattr(value, "set_row_kind") else value
        if hasattr(row, "set_row_kind"):
            if getattr(value, "_fields", None) is not None:
                row._fields = value._fields
            row.set_row_kind(RowKind.INSERT)
        return row

    if key_positions is not None:
        by_key: Dict[Tuple[Any, ...], Any] = {}
        for value in values:
            key = tuple(tuple(value)[p] for p in key_positions)
            by_key.pop(key, None)
            if _kind(value) in _ADDS:
                by_key[key] = insert(value)
        return list(by_key.values())
    rows: List[Any] = []
    for value in values:
        if _kind(value) in _ADDS:
            rows.append(insert(value))
            continue
        fields = tuple(value)
        for index, row in enumerate(rows):
            if tuple(row) == fields:
                del rows[index]
                break
    return rows


def insert_only_value(value: Any) -> Any:
    """``value``, checked to be an insertion: a change read from a stream whose records are
    only known when the job runs cannot be applied to Spark's insert-only tables."""
    kind = _kind(value)
    if kind != "+I":
        from pyflink_compat.missing import NotSupportedError

        raise NotSupportedError(
            "StreamTableEnvironment.from_changelog_stream of a stream with a {} record".format(kind),
            _CHANGES_HINT)
    return value


#: How to read changes on Spark.
_CHANGES_HINT = ("Spark's streaming tables are insert-only: build the changelog from a collection "
                 "(env.from_collection), or keep the latest row per key with PySpark "
                 "(groupBy(key).agg(max_by(...)) in update mode, or GroupedData.transformWithState).")
