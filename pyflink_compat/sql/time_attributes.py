"""Whether a column of a query is a time attribute, as Flink's planner tracks it.

A time attribute is a table's watermarked column (its rowtime) or a ``PROCTIME()`` column.
It stays one through plain projections (``SELECT ts``, ``SELECT ts AS t``, ``SELECT *``), and
is lost by any computation on it (``CAST(ts AS ...)``) and by reading rows that never had one
(``from_elements``). Flink's streaming group windows need one: :func:`column_time_attribute`
finds out before the query runs, so that a window on another column is refused at the call,
with Flink's message.

The answer is ``None`` where the query is not followed (joins, aggregations, set
operations): the column is then taken as it is, and nothing is refused.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

from sqlglot import exp

__all__ = ["column_time_attribute", "refuse_window_functions_off_timestamps", "source_time_attribute"]

#: Whether the column is a time attribute, and its declared type when known.
Resolution = Tuple[bool, Optional[exp.DataType]]

_DEPTH = 32


def _declared(table: Any, name: str) -> Resolution:
    from pyflink_compat.sql.catalog import time_attributes

    data_type = next((c.data_type for c in table.columns if c.name == name), None)
    return name in time_attributes(table), data_type


def source_time_attribute(catalog: Any, select: exp.Select, name: str, depth: int = 0
                          ) -> Optional[Resolution]:
    """Whether the column ``name`` of what ``select`` reads (its ``FROM``) is a time
    attribute, or ``None`` when that is not followed."""
    from pyflink_compat.sql.catalog import DerivedTable, ElementsTable, StreamTable, View
    from pyflink_compat.sql.statements import CreateTable

    from_ = select.args.get("from") or select.args.get("from_")
    if from_ is None or select.args.get("joins") or depth > _DEPTH:
        return None
    source = from_.this
    if isinstance(source, exp.Subquery):
        return column_time_attribute(catalog, source.this, name, depth + 1)
    if not isinstance(source, exp.Table) or not source.name:
        return None
    entry = catalog.get(".".join(p.name for p in source.parts))
    if isinstance(entry, CreateTable):
        return _declared(entry, name)
    if isinstance(entry, StreamTable):
        return _declared(entry.table, name)
    if isinstance(entry, View):
        return column_time_attribute(catalog, entry.query, name, depth + 1)
    if isinstance(entry, (ElementsTable, DerivedTable)):
        return False, None
    return None


def column_time_attribute(catalog: Any, query: exp.Expression, name: str, depth: int = 0
                          ) -> Optional[Resolution]:
    """Whether the output column ``name`` of ``query`` is a time attribute, or ``None`` when
    that is not followed."""
    if not isinstance(query, exp.Select) or query.args.get("group") is not None \
            or depth > _DEPTH:
        return None
    for projection in query.expressions:
        if isinstance(projection, exp.Star):
            return source_time_attribute(catalog, query, name, depth)
        if projection.alias_or_name != name:
            continue
        value = projection.this if isinstance(projection, exp.Alias) else projection
        if isinstance(value, exp.Column):
            if isinstance(value.this, exp.Star):
                return source_time_attribute(catalog, query, name, depth)
            return source_time_attribute(catalog, query, value.name, depth)
        if isinstance(value, exp.Anonymous) and str(value.this).upper() == "PROCTIME":
            return True, None
        if value.find(exp.AggFunc, exp.Window) is not None:
            return None
        # a computed column: Flink's planner drops the attribute
        return False, None
    return None


# the signatures Flink's validator names in its message, per windowing table function
_SIGNATURES = {
    "TUMBLE": "TUMBLE(TABLE table_name, DESCRIPTOR(timecol), datetime interval[, datetime interval])",
    "HOP": "HOP(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval"
           "[, datetime interval])",
    "SESSION": "SESSION(TABLE table_name [PARTITION BY (keycols, ...)], DESCRIPTOR(timecol), "
               "datetime interval)",
}


def refuse_window_functions_off_timestamps(catalog: Any, tree: exp.Expression, method: str) -> None:
    """Refuse, with the error of Flink's SQL validation (in both modes), a windowing table
    function (``TUMBLE``, ``HOP``, ``SESSION``) whose ``DESCRIPTOR`` names a column of a
    declared type other than ``TIMESTAMP`` / ``TIMESTAMP_LTZ``.

    :param method: The Java call PyFlink names in the error (``sqlQuery``, ``executeSql``).
    """
    from pyflink_compat.sql.dialect import DescriptorArgument, TableArgument
    from pyflink_compat.sql.types import flink_name
    from pyflink_compat.util.exceptions import java_error

    for function in tree.find_all(exp.Anonymous):
        kind = str(function.this).upper()
        arguments = list(function.expressions)
        if kind not in _SIGNATURES or len(arguments) < 2 or not isinstance(arguments[0], TableArgument) \
                or not isinstance(arguments[1], DescriptorArgument) or len(arguments[1].expressions) != 1:
            continue
        reader = exp.select(exp.Star()).from_(arguments[0].this.copy())
        found = source_time_attribute(catalog, reader, arguments[1].expressions[0].name)
        if found is None or found[1] is None:
            continue
        type_text = flink_name(found[1])
        if type_text.startswith("TIMESTAMP"):
            continue
        if type_text == "STRING":
            type_text = "VARCHAR(2147483647)"
        message = ("The window function {} requires the timecol to be TIMESTAMP or TIMESTAMP_LTZ, "
                   "but is {}.\nBesides, the timecol must be a time attribute type in streaming "
                   "mode.".format(_SIGNATURES[kind], type_text))
        raise java_error("java.lang.RuntimeException",
                         "org.apache.flink.table.api.ValidationException: SQL validation failed. "
                         + message, "o0." + method)
