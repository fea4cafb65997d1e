"""Flink's SQL validation of a statement, done before any query is planned or started.

Flink validates a statement when it is given (``execute_sql``, ``sql_query``,
``add_insert_sql``, ``CREATE VIEW``) and refuses it with a ``ValidationException`` whose text
names the refused construct's place in the statement (``From line 1, column 8 to line 1,
column 12: Cannot apply '+' to arguments of type ...``). Here the statement is typed with
Flink's rules (:mod:`pyflink_compat.sql.functions`, no Spark involved) and a refusal is raised
as the same error, so a job with a wrong query stops at the call, before anything runs or is
written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Tuple

from sqlglot import exp

if TYPE_CHECKING:
    from py4j.protocol import Py4JJavaError

__all__ = ["place", "validation_error", "validate_query"]

# the mark of a node written in the statement being validated (a view's nodes have their
# places in the view's own text)
_IN_STATEMENT = "flink_statement"


def _closing_parenthesis(sql: str, name_end: int) -> Optional[int]:
    """The offset of the parenthesis that closes a call whose name ends at ``name_end``."""
    from sqlglot.tokens import TokenType

    from pyflink_compat.sql.dialect import Flink

    depth = 0
    for token in Flink().tokenize(sql):
        if token.start <= name_end:
            continue
        if token.token_type == TokenType.L_PAREN:
            depth += 1
        elif token.token_type == TokenType.R_PAREN:
            depth -= 1
            if depth == 0:
                return token.end
        elif depth == 0:
            return None  # no parenthesis follows the name
    return None


def _null_span(sql: str, node: exp.Null) -> Optional[Tuple[int, int]]:
    """The place of a ``NULL`` operand (which keeps none): the ``NULL`` keyword written after
    the other operand when it is the right one, before it when it is the left one."""
    from pyflink_compat.sql.dialect import Flink

    parent = node.parent
    if not isinstance(parent, exp.Binary):
        return None
    right = parent.expression is node
    sibling = parent.this if right else parent.expression
    if isinstance(sibling, exp.Null):
        return None
    other = _span(sql, sibling, False)
    if other is None:
        return None
    nulls = [t for t in Flink().tokenize(sql) if t.text.upper() == "NULL"
             and (t.start > other[1] if right else t.end < other[0])]
    if not nulls:
        return None
    token = nulls[0] if right else nulls[-1]
    return token.start, token.end


def _span(sql: str, node: exp.Expression, call: bool) -> Optional[Tuple[int, int]]:
    """The first and last character of ``node`` in ``sql``: from its first written token to its
    last (a call's closing parenthesis); ``None`` when a part of it was not written there."""
    if isinstance(node, exp.Null):
        return _null_span(sql, node)
    starts, ends = [], []
    for part in node.walk():
        if isinstance(part, exp.Null) and part is not node:
            null = _null_span(sql, part)
            if null is not None:
                starts.append(null[0])
                ends.append(null[1])
            continue
        meta = part.meta if part.meta else {}
        if "start" not in meta:
            continue
        if not meta.get(_IN_STATEMENT):
            return None
        starts.append(meta["start"])
        ends.append(meta["end"])
    if not starts:
        return None
    start, end = min(starts), max(ends)
    if isinstance(node, exp.Neg):  # the sign written before its operand
        sign = sql.rfind("-", 0, start)
        if sign < 0 or sql[sign + 1:start].strip():
            return None
        start = sign
    if call:
        name = node.meta if node.meta and "end" in node.meta else None
        if name is None:
            return None
        closing = _closing_parenthesis(sql, name["end"])
        if closing is None:
            return None
        end = closing
    return start, end


def place(sql: str, node: Optional[exp.Expression], call: bool = False) -> str:
    """``node``'s place in ``sql`` as Flink's validator writes it before its message
    (``At line 1, column 8: `` for one character, ``From line 1, column 8 to line 1, column
    12: `` for more), or ``""`` when it is not known."""
    span = _span(sql, node, call) if node is not None and sql else None
    if span is None:
        return ""
    from pyflink_compat.sql.dialect import position

    start, end = span
    if start == end:
        return "At {}: ".format(position(sql, start))
    return "From {} to {}: ".format(position(sql, start), position(sql, end))


def validation_error(message: str, method: str, insert: bool = False, view: bool = False
                     ) -> "Py4JJavaError":
    """Flink's ``ValidationException`` of a refused statement, as PyFlink raises it from
    ``method`` (``executeSql``, ``sqlQuery``, ``addInsertSql``); an ``INSERT``'s text says
    twice that the validation failed, as Flink's does, and a ``CREATE VIEW``'s query is refused
    by the SQL validator's own exception, without that prefix."""
    from pyflink_compat.util.exceptions import java_error

    if view:
        text = "org.apache.calcite.runtime.CalciteContextException: " + message
    else:
        text = "org.apache.flink.table.api.ValidationException: " + (
            "SQL validation failed. " if insert else "") + "SQL validation failed. " + message
    return java_error("java.lang.RuntimeException", text, "o0." + method)


def validate_query(runtime: Any, query: exp.Expression, sql: str, method: str,
                   insert: bool = False, view: bool = False) -> None:
    """Refuse ``query`` (a statement's query, parsed from ``sql``) as Flink's validation
    refuses it: tables not declared, columns the tables read do not have, group windows off
    date-times, window functions off timestamps, operands of the wrong types, functions
    neither Flink's, the job's nor Spark's.

    :param runtime: The table environment's runtime (its catalog and planner).
    :param method: The Java call PyFlink names in the error.
    :param insert: Whether the statement is an ``INSERT``.
    :param view: Whether the statement is a ``CREATE VIEW``.
    :raises Py4JJavaError: Flink's ``ValidationException``.
    """
    from pyflink_compat.sql.functions import SqlValidationError
    from pyflink_compat.sql.time_attributes import (
        refuse_group_windows_off_datetimes, refuse_window_functions_off_timestamps)

    for node in query.walk():
        if node.meta and "start" in node.meta:
            node.meta[_IN_STATEMENT] = True
    refuse_group_windows_off_datetimes(runtime.catalog, query, sql, method, insert=insert)
    if not insert:
        refuse_window_functions_off_timestamps(runtime.catalog, query, method)
    _refuse_unknown_tables(runtime.catalog, query, sql, method, insert, view)
    _refuse_unknown_columns(runtime.catalog, query, sql, method, insert, view)
    try:
        runtime.planner.translate(query, sql, lambda name, entry: None, _KnownFunctions(runtime))
    except SqlValidationError as refused:
        raise validation_error(place(sql, refused.node, refused.call) + str(refused), method,
                               insert, view) from None
    except Exception:  # noqa: BLE001 - anything else is the planner's to report, when it plans
        pass


# the calls the planner itself turns into Spark's (windows, their properties, PROCTIME())
_PLANNED = frozenset(["TUMBLE", "HOP", "SESSION", "CUMULATE", "PROCTIME"] + [
    "{}_{}".format(window, part) for window in ("TUMBLE", "HOP", "SESSION")
    for part in ("START", "END", "ROWTIME", "PROCTIME")])


class _KnownFunctions:
    """The functions a query may call besides those the translation rewrites: the planner's
    (windows), the job's own (registered in its catalog) and those Spark has (which compute as
    Flink's where the translation leaves them); asked for each name, in capitals."""

    def __init__(self, runtime: Any) -> None:
        self._runtime = runtime

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name.upper() in _PLANNED or name.lower() in self._runtime.catalog.functions:
            return True
        return bool(self._runtime.planner.spark.catalog.functionExists(name.lower()))


def _common_tables(query: exp.Expression) -> set:
    return {cte.alias for cte in query.find_all(exp.CTE)}


def _refuse_unknown_tables(catalog: Any, query: exp.Expression, sql: str, method: str,
                           insert: bool, view: bool) -> None:
    """Refuse a query reading a table or view the catalog does not have, as Flink does
    (``Object 'x' not found``, ``... not found within 'catalog.database'``)."""
    ctes = _common_tables(query)
    for table in query.find_all(exp.Table):
        if not table.name or (len(table.parts) == 1 and table.name in ctes):
            continue
        path = ".".join(p.name for p in table.parts)
        if catalog.get(path) is not None:
            continue
        parts = [p.name for p in table.parts]
        similar = [name for name in catalog.entries if "." not in name and name.lower() == parts[-1].lower()]
        if similar and catalog.get(".".join(parts[:-1] + [similar[0]])) is not None:
            message = "Object '{}' not found within '{}'; did you mean '{}'?".format(
                parts[-1], catalog.full_name(similar[0]).rsplit(".", 1)[0], similar[0])
        elif len(parts) == 1:
            message = "Object '{}' not found".format(parts[0])
        else:
            prefix = catalog.full_name(parts[-1]).rsplit(".", 1)[0]
            written = ".".join(parts[:-1])
            message = ("Object '{}' not found within '{}'".format(parts[-1], prefix)
                       if prefix == written or prefix.endswith("." + written)
                       else "Object '{}' not found".format(parts[0]))
        raise validation_error(place(sql, _parts_node(table)) + message, method, insert, view)


def _parts_node(table: exp.Table) -> exp.Expression:
    """A node spanning a table's written name (its parts, without its alias)."""
    return exp.Tuple(expressions=[p.copy() for p in table.parts])


def _refuse_unknown_columns(catalog: Any, query: exp.Expression, sql: str, method: str,
                            insert: bool, view: bool) -> None:
    """Refuse a column the statement's table does not have, as Flink does (``Column 'x' not
    found in any table``, ``... in table 't'``), where the query is a plain ``SELECT`` of one
    declared table (no join, subquery, common table, set operation, window function or
    lateral call); other queries are left to the planner."""
    from pyflink_compat.sql.statements import CreateTable

    if not isinstance(query, exp.Select) or query.args.get("joins") or query.args.get("laterals") \
            or query.args.get("with") or query.args.get("with_"):
        return
    from_ = query.args.get("from") or query.args.get("from_")
    source = from_.this if from_ is not None else None
    if not isinstance(source, exp.Table) or not source.name:
        return
    if any(isinstance(n, (exp.Subquery, exp.Lateral, exp.Unnest, exp.Window)) or
           (isinstance(n, exp.Select) and n is not query) for n in query.walk()):
        return
    entry = catalog.get(".".join(p.name for p in source.parts))
    if not isinstance(entry, CreateTable):
        return
    names = {c.name for c in entry.columns}
    aliases = {p.alias for p in query.expressions if isinstance(p, exp.Alias)}
    qualifiers = {source.alias_or_name, source.name}
    order = query.args.get("order")
    for column in query.find_all(exp.Column):
        if isinstance(column.this, exp.Star) or column.name in names:
            continue
        if column.table and column.table not in qualifiers:
            return  # a qualifier this check does not follow
        if not column.table and column.name in aliases and order is not None \
                and column.find_ancestor(exp.Order) is order:
            continue  # ORDER BY reads the select list's names
        message = ("Column '{}' not found in table '{}'".format(column.name, column.table) if column.table
                   else "Column '{}' not found in any table".format(column.name))
        similar = sorted(n for n in names if n.lower() == column.name.lower())
        if similar:
            message += "; did you mean '{}'?".format(similar[0])
        raise validation_error(place(sql, column.this) + message, method, insert, view)
