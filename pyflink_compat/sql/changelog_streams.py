"""Reading a changelog stream (``from_changelog_stream``) as a table.

Spark's streaming tables are insert-only: a row cannot be retracted from a query's input. A
changelog whose records are known before the job runs (a collection) is read in two ways:

* its changes, as Flink's source gives them (an upsert changelog normalized: see
  :func:`flink_changes`), each row with its kind in :data:`KIND_COLUMN`: what a query reads
  when it only projects and filters that table and its sink prints row kinds
  (:func:`stateless_changes`), so that each change reaches the sink with its kind, and what a
  group aggregation of that one table reads (:func:`grouped_changes`), whose aggregates
  retract the ``-U`` and ``-D`` rows;
* the rows the changes leave, applied on the driver: each ``+I`` / ``+U`` adds its row, each
  ``-U`` / ``-D`` takes back an equal row (in an upsert changelog, ``+I`` / ``+U`` replace and
  ``-D`` removes the row of their primary key), as the one micro-batch Spark reads a collection
  in: what any other query reads, giving the results Flink ends with (the divergence
  ``changelog-collection-net-rows``).

An ``upsert-kafka`` table is a changelog too (:mod:`pyflink_compat.connectors.upsert_kafka`),
but one whose records come while the job runs: a query may read its changes only, in the same
two shapes (:func:`refuse_upsert_reads`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

if TYPE_CHECKING:
    from pyflink_compat.runtime.graph import Node

__all__ = ["KIND_COLUMN", "NESTED_AGGREGATION_HINT", "UPSERT_QUERY_HINT", "carry_kinds", "collection_values",
           "flink_changes", "grouped_changes", "insert_only_value", "is_changelog", "kinded_values",
           "nested_aggregation", "net_rows", "refuse_upsert_reads", "stateless_changes", "upsert_tables"]

#: The column holding each change's kind (``+I``, ``-U``, ``+U``, ``-D``) where a query passes a
#: changelog table's changes on (a stateless query's sinks print it as Flink's row kind).
KIND_COLUMN = "__flink_row_kind"

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


def flink_changes(values: Sequence[Any], key_positions: Optional[Sequence[int]]
                  ) -> List[Tuple[str, Tuple[Any, ...]]]:
    """The changes a changelog source gives its table, in order: each record with its kind for
    a changelog of all kinds (``key_positions`` ``None``); for an upsert changelog keyed by the
    fields at ``key_positions``, the changes Flink normalizes its records into: a key's first
    row ``+I``, a later row ``-U`` (the key's row before) and ``+U``, a deletion ``-D`` of the
    key's row before (nothing for a key without a row, or for a row equal to the key's row)."""
    if key_positions is None:
        return [(_kind(value), tuple(value)) for value in values]
    by_key: Dict[Tuple[Any, ...], Tuple[Any, ...]] = {}
    changes: List[Tuple[str, Tuple[Any, ...]]] = []
    for value in values:
        fields = tuple(value)
        key = tuple(fields[p] for p in key_positions)
        before = by_key.get(key)
        if _kind(value) not in _ADDS:
            if before is not None:
                changes.append(("-D", before))
                del by_key[key]
        elif before is None:
            changes.append(("+I", fields))
            by_key[key] = fields
        elif before != fields:
            changes.extend((("-U", before), ("+U", fields)))
            by_key[key] = fields
    return changes


def kinded_values(changes: Sequence[Tuple[str, Tuple[Any, ...]]]) -> List[Any]:
    """``changes`` as insertions of rows ending with the change's kind (the field read as
    :data:`KIND_COLUMN`)."""
    from pyflink_compat.common.types import Row

    return [Row(*(fields + (kind,))) for kind, fields in changes]


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


def stateless_changes(tree: Any, entry_of: Callable[[str], Any]) -> Optional[str]:
    """The name of the changelog table ``tree`` reads when the query passes each of its changes
    on unchanged in kind (Flink's ``Calc``: projections and filters of that one table, without
    aggregates, windows, joins, sorts or functions of Python); ``None`` otherwise.

    Such a query's result has Flink's changes: each change of the table that passes its filter,
    with its kind.
    """
    from sqlglot import exp


    if not isinstance(tree, exp.Select) or tree.find(exp.With, exp.Union, exp.Except,
                                                     exp.Intersect) is not None:
        return None
    name = _only_changelog_table(tree, entry_of)
    if name is None:
        return None
    if tree.find(exp.AggFunc, exp.Window, exp.Anonymous, exp.Join, exp.Lateral, exp.Unnest,
                 exp.Order, exp.Limit, exp.Distinct, exp.Group, exp.Having) is not None:
        return None
    for subquery in tree.find_all(exp.Subquery):
        if not isinstance(subquery.parent, exp.From):
            return None
    return name


def carry_kinds(tree: Any, outer: bool = True) -> None:
    """Have every select of ``tree`` (a query :func:`stateless_changes` accepts) give
    :data:`KIND_COLUMN` too, so that the changes' kinds reach the query's result; with
    ``outer`` false, every select but ``tree`` itself (the inner selects of a query
    :func:`grouped_changes` accepts, whose group aggregation reads the kinds)."""
    from sqlglot import exp

    for select in list(tree.find_all(exp.Select)):
        if not outer and select is tree:
            continue
        if any(isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star))
               for e in select.expressions):
            continue
        select.select(exp.column(KIND_COLUMN, quoted=True), copy=False)


def grouped_changes(tree: Any, entry_of: Callable[[str], Any]) -> Optional[str]:
    """The name of the changelog table ``tree`` aggregates when it is a group aggregation
    (without window; with group keys or without, with ``HAVING`` or without) of that one table
    alone, read directly or through projections and filters of it (subqueries of its
    ``FROM``), without join: such a query reads the table's changes, with their kinds, and its
    aggregates retract the ``-U`` and ``-D`` rows
    (:mod:`pyflink_compat.sql.group_aggregation`); ``None`` otherwise."""
    from sqlglot import exp


    if not isinstance(tree, exp.Select) or tree.find(
            exp.With, exp.Union, exp.Except, exp.Intersect, exp.Join, exp.Lateral,
            exp.Unnest, exp.Window, exp.Anonymous) is not None:
        return None
    if tree.args.get("group") is None and not any(e.find(exp.AggFunc) is not None
                                                  for e in tree.expressions):
        return None
    for subquery in tree.find_all(exp.Subquery):
        if not isinstance(subquery.parent, exp.From) or subquery.find(
                exp.AggFunc, exp.Group, exp.Having, exp.Distinct, exp.Order, exp.Limit) is not None:
            return None
    return _only_changelog_table(tree, entry_of)


#: How to aggregate an aggregation of a changelog on Spark.
NESTED_AGGREGATION_HINT = (
    "Spark's stateful operators take no retractions from one another: aggregate the changelog "
    "once with PySpark (groupBy(...).agg(...) in update mode), write it to a table "
    "(foreachBatch with a MERGE, or a Delta table) and aggregate that table in a second query, "
    "or compute both levels in one GroupedData.transformWithState.")


def nested_aggregation(tree: Any, entry_of: Callable[[str], Any],
                       aggregates: Callable[[Any], bool]) -> Optional[str]:
    """The name of a changelog table (read from a collection) that ``tree`` reads when one of
    its selects aggregates the result of another (``aggregates`` tells a select that
    aggregates): Flink's second aggregation retracts the first one's ``-U`` and ``-D``
    changes, which Spark's chained operators cannot; ``None`` otherwise."""
    from sqlglot import exp

    nested = any(aggregates(select) and any(aggregates(inner) for inner in select.find_all(exp.Select)
                                            if inner is not select)
                 for select in tree.find_all(exp.Select))
    if not nested:
        return None
    for table in tree.find_all(exp.Table):
        name = ".".join(p.name for p in table.parts)
        if is_changelog(entry_of(name)):
            return name
    return None


def is_changelog(entry: Any) -> bool:
    """Whether the catalog entry ``entry`` is read as a changelog, its rows with their kinds: a
    collection read with ``from_changelog_stream``, or an ``upsert-kafka`` table."""
    from pyflink_compat.sql.catalog import StreamTable
    from pyflink_compat.sql.statements import CreateTable

    if isinstance(entry, StreamTable):
        return entry.changes is not None
    return isinstance(entry, CreateTable) and entry.options.get("connector") == "upsert-kafka"


def upsert_tables(tree: Any, entry_of: Callable[[str], Any]) -> List[str]:
    """The names of the ``upsert-kafka`` tables ``tree`` reads: tables whose changes a query
    can only read (:func:`stateless_changes`, :func:`grouped_changes`), as no rows they leave
    are known before the job runs."""
    from sqlglot import exp

    from pyflink_compat.sql.catalog import StreamTable

    names = []
    for table in tree.find_all(exp.Table):
        name = ".".join(p.name for p in table.parts)
        entry = entry_of(name)
        if is_changelog(entry) and not isinstance(entry, StreamTable):
            names.append(name)
    return names


#: How to read an upsert topic's table on Spark when its changes alone do not serve the query.
UPSERT_QUERY_HINT = (
    "Spark's streaming tables take no retractions: read the topic with "
    "spark.readStream.format('kafka'), keep each key's latest row with transformWithState or a "
    "foreachBatch MERGE into a table, and query that table.")


def refuse_upsert_reads(names: Sequence[str], read_as_changes: Sequence[Optional[str]], streaming: bool,
                        text: str) -> None:
    """Refuse a query that reads one of the ``upsert-kafka`` tables ``names`` other than as its
    changes (``read_as_changes``: the table a query passes the changes of, and the one it
    aggregates by group, or ``None``); in batch mode such a table cannot be read at all, as
    Flink's upsert-kafka source is unbounded.

    :raises NotSupportedError: naming the table, the statement and the PySpark way.
    """
    from pyflink_compat.missing import NotSupportedError

    for name in names:
        if not streaming or name not in read_as_changes:
            raise NotSupportedError(
                "A query of the upsert-kafka table {} other than projections and filters of it or "
                "one group aggregation of it{} (in: {})".format(
                    name, "" if streaming else ", or in batch mode", " ".join(text.split())[:300]),
                UPSERT_QUERY_HINT)


def _only_changelog_table(tree: Any, entry_of: Callable[[str], Any]) -> Optional[str]:
    """The name of the one table ``tree`` reads when that table is a changelog (its rows carry
    their kinds); ``None`` when it reads another table or several."""
    from sqlglot import exp

    tables = list(tree.find_all(exp.Table))
    if len(tables) != 1:
        return None
    name = ".".join(p.name for p in tables[0].parts)
    return name if is_changelog(entry_of(name)) else None
