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

from typing import Any, Dict, List, Optional, Tuple

from sqlglot import exp

__all__ = ["column_time_attribute", "refuse_group_windows_off_datetimes", "shown_columns",
           "shown_time_attribute",
           "refuse_window_functions_off_timestamps", "source_time_attribute"]

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


# the forms Flink's validator lists for each legacy group window function
_GROUP_WINDOW_FORMS = {
    "TUMBLE": ("<DATETIME>, <DATETIME_INTERVAL>", "<DATETIME>, <DATETIME_INTERVAL>, <TIME>"),
    "HOP": ("<DATETIME>, <DATETIME_INTERVAL>, <DATETIME_INTERVAL>",
            "<DATETIME>, <DATETIME_INTERVAL>, <DATETIME_INTERVAL>, <TIME>"),
    "SESSION": ("<DATETIME>, <DATETIME_INTERVAL>", "<DATETIME>, <DATETIME_INTERVAL>, <TIME>"),
}


def _argument_type(catalog: Any, select: exp.Select, argument: exp.Expression) -> Optional[exp.DataType]:
    """The declared Flink type of a group window's time argument, when it is known: a column
    of what ``select`` reads (a table's declared column, or a subquery's cast of one) or a
    cast."""
    if isinstance(argument, exp.Cast):
        return argument.to
    if not isinstance(argument, exp.Column):
        return None
    found = source_time_attribute(catalog, select, argument.name)
    if found is not None and found[1] is not None:
        return found[1]
    from_ = select.args.get("from") or select.args.get("from_")
    source = from_.this if from_ is not None and not select.args.get("joins") else None
    if isinstance(source, exp.Table) and source.name and len(source.parts) == 1:
        # a common table expression of the statement
        for scope in [select] + _ancestors(select):
            with_ = scope.args.get("with") or scope.args.get("with_")
            for cte in with_.expressions if with_ is not None else ():
                if cte.alias == source.name and isinstance(cte.this, exp.Select):
                    column = next((p for p in cte.this.expressions
                                   if p.alias_or_name == argument.name), None)
                    if isinstance(column, exp.Column):
                        return _argument_type(catalog, cte.this, column)
                    if isinstance(column, exp.Alias):
                        return _argument_type(catalog, cte.this, column.this)
                    return None
    if isinstance(source, exp.Subquery) and isinstance(source.this, exp.Select):
        for projection in source.this.expressions:
            if projection.alias_or_name == argument.name and isinstance(projection, exp.Alias) \
                    and isinstance(projection.this, exp.Cast):
                return projection.this.to
    return None


def _ancestors(node: exp.Expression) -> List[exp.Expression]:
    found: List[exp.Expression] = []
    parent = node.parent
    while isinstance(parent, exp.Expression):
        found.append(parent)
        parent = parent.parent
    return found


def _interval_text(argument: exp.Expression) -> Optional[str]:
    """A window size's type as Flink's validator writes it (``INTERVAL MINUTE``)."""
    if not isinstance(argument, exp.Interval):
        return None
    unit = argument.text("unit").upper()
    if not unit:
        return None
    # a plural unit (SECONDS) is Flink's as well; the type is the singular's
    parts = [part[:-1] if part.endswith("S") and part != "MS" else part for part in unit.split(" ")]
    return "INTERVAL " + " ".join(parts)


def _call_spans(sql: str) -> List[Tuple[str, int, int]]:
    """The legacy group window calls of ``sql`` in text order: their name and the offsets of
    their first and last character (the name's first, the closing parenthesis)."""
    from sqlglot.tokens import TokenType

    from pyflink_compat.sql.dialect import Flink

    tokens = Flink().tokenize(sql)
    spans = []
    for index, token in enumerate(tokens[:-1]):
        name = token.text.upper()
        if name not in _GROUP_WINDOW_FORMS or tokens[index + 1].token_type != TokenType.L_PAREN:
            continue
        if index + 2 < len(tokens) and tokens[index + 2].token_type == TokenType.TABLE:
            continue  # a windowing table function
        depth = 0
        for closing in tokens[index + 1:]:
            if closing.token_type == TokenType.L_PAREN:
                depth += 1
            elif closing.token_type == TokenType.R_PAREN:
                depth -= 1
                if depth == 0:
                    spans.append((name, token.start, closing.end))
                    break
    return spans


def refuse_group_windows_off_datetimes(catalog: Any, tree: exp.Expression, sql: str, method: str,
                                       insert: bool = False) -> None:
    """Refuse, with the error of Flink's SQL validation (in both modes), a legacy group window
    (``GROUP BY TUMBLE(v, INTERVAL ...)``, ``HOP``, ``SESSION``) whose time argument has a
    declared type that is no date-time type (``BIGINT``, ``STRING``...).

    Flink names the call's place in the statement's text: it is found among the text's
    tokens, the calls taken in the order they are written.

    :param sql: The statement's text, as given to the call.
    :param method: The Java call PyFlink names in the error (``sqlQuery``, ``executeSql``).
    :param insert: Whether the statement is an ``INSERT`` (Flink's message then says twice
        that the validation failed).
    """
    from pyflink_compat.sql.dialect import TableArgument
    from pyflink_compat.sql.types import flink_name
    from pyflink_compat.sql.dialect import position
    from pyflink_compat.sql.windows import is_group_window
    from pyflink_compat.util.exceptions import java_error

    calls = [node for node in tree.find_all(exp.Anonymous, bfs=False) if is_group_window(node)
             and node.expressions and not isinstance(node.expressions[0], TableArgument)]
    for order, call in enumerate(calls):
        select = call.find_ancestor(exp.Select)
        group = select.args.get("group") if select is not None else None
        if select is None or group is None or call.parent is not group:
            continue
        data_type = _argument_type(catalog, select, call.expressions[0])
        if data_type is None or data_type.is_type(*exp.DataType.TEMPORAL_TYPES):
            continue
        intervals = [_interval_text(a) for a in call.expressions[1:]]
        if any(i is None for i in intervals):
            continue
        kind = str(call.this).upper()
        type_text = flink_name(data_type)
        if type_text == "STRING":
            type_text = "VARCHAR(2147483647)"
        elif type_text == "INT":
            type_text = "INTEGER"
        spans = [s for s in _call_spans(sql) if s[0] == kind] if sql else []
        place = ""
        same_kind = [c for c in calls[:order] if str(c.this).upper() == kind]
        if len(same_kind) < len(spans):
            _, start, end = spans[len(same_kind)]
            place = "From {} to {}: ".format(position(sql, start), position(sql, end))
        forms = "\n".join("'${}({})'".format(kind, form) for form in _GROUP_WINDOW_FORMS[kind])
        message = ("SQL validation failed. " if insert else "") + (
                   "SQL validation failed. {}Cannot apply '${}' to arguments of type '${}({})'. "
                   "Supported form(s): {}".format(
                       place, kind, kind, ", ".join(["<{}>".format(type_text)]
                                                    + ["<{}>".format(i) for i in intervals]), forms))
        raise java_error("java.lang.RuntimeException",
                         "org.apache.flink.table.api.ValidationException: " + message, "o0." + method)


#: A result column's time attribute as a schema shows it: ``ROWTIME``, ``PROCTIME`` or
#: ``None`` (a window's bounds), and its Flink type.
Shown = Tuple[Optional[str], str]

_WINDOW_TABLE_FUNCTIONS = frozenset(["TUMBLE", "HOP", "SESSION", "CUMULATE"])
_WINDOW_BOUNDS = frozenset("{}_{}".format(kind, bound) for kind in ("TUMBLE", "HOP", "SESSION")
                           for bound in ("START", "END"))


def _strip_not_null(type_text: str) -> str:
    return type_text[:-len(" NOT NULL")] if type_text.endswith(" NOT NULL") else type_text


def _not_null(type_text: str) -> str:
    return type_text if type_text.endswith(" NOT NULL") else type_text + " NOT NULL"


def shown_time_attribute(catalog: Any, query: exp.Expression, name: str, depth: int = 0
                         ) -> Optional[Shown]:
    """Whether the result column ``name`` of ``query`` is a time attribute in the schema
    Flink resolves for it (before its planner materializes one), with its type; or a window's
    bound, with its type. ``None`` for any other column.

    A time attribute stays one through projections, filters, views, subqueries, joins, set
    operations, ``MIN`` / ``MAX`` of it and over windows; a window table function's
    ``window_time`` and a group window's ``TUMBLE_ROWTIME`` (``HOP_``, ``SESSION_``) are one;
    any other computation on it (``CAST``) is not. A declared table's computed or ``NOT NULL``
    column read as it is gives ``(None, its type)``.
    """
    if depth > _DEPTH:
        return None
    if isinstance(query, exp.Subquery):
        return shown_time_attribute(catalog, query.this, name, depth + 1)
    if isinstance(query, exp.SetOperation):
        # a time attribute of the first input stays one; a type alone may widen
        found = shown_time_attribute(catalog, query.this, name, depth + 1)
        return found if found is not None and found[0] is not None else None
    if not isinstance(query, exp.Select):
        return None
    for projection in query.expressions:
        value = projection.this if isinstance(projection, exp.Alias) else projection
        if isinstance(value, exp.Star) or (isinstance(value, exp.Column) and isinstance(value.this, exp.Star)):
            qualifier = value.table if isinstance(value, exp.Column) else ""
            found = _read_attribute(catalog, query, name, qualifier, depth)
            if found is not None:
                return found
            continue
        if projection.alias_or_name == name:
            return _value_attribute(catalog, query, value, depth)
    return None


def _value_attribute(catalog: Any, select: exp.Select, value: exp.Expression, depth: int
                     ) -> Optional[Shown]:
    if isinstance(value, exp.Column):
        return _read_attribute(catalog, select, value.name, value.table, depth)
    if isinstance(value, exp.Paren):
        return _value_attribute(catalog, select, value.this, depth)
    if isinstance(value, (exp.Max, exp.Min)):
        found = _value_attribute(catalog, select, value.this, depth)
        return found if found is not None and found[0] is not None else None
    if isinstance(value, exp.Anonymous):
        function = str(value.this).upper()
        if function == "PROCTIME" or function.endswith("_PROCTIME"):
            return "PROCTIME", "TIMESTAMP_LTZ(3) NOT NULL"
        if function in _WINDOW_BOUNDS:
            return None, "TIMESTAMP(3) NOT NULL"
        if function.endswith("_ROWTIME") and value.expressions:
            found = _value_attribute(catalog, select, value.expressions[0], depth)
            return "ROWTIME", _strip_not_null(found[1]) if found is not None else "TIMESTAMP(3)"
    return None


def _sources(select: exp.Select) -> List[Tuple[str, exp.Expression]]:
    """What ``select`` reads: each source with the name it is known by."""
    from_ = select.args.get("from") or select.args.get("from_")
    if from_ is None:
        return []
    sources = [from_.this] + [join.this for join in select.args.get("joins") or []]
    return [(source.alias_or_name, source) for source in sources]


def _read_attribute(catalog: Any, select: exp.Select, name: str, qualifier: str, depth: int
                    ) -> Optional[Shown]:
    # an outer join's columns may be NULL: only a time attribute is followed through one
    outer = any(join.side for join in select.args.get("joins") or [])
    for alias, source in _sources(select):
        if qualifier and alias != qualifier:
            continue
        found = _source_attribute(catalog, source, name, depth)
        if found is not None:
            return found if found[0] is not None or not outer else None
    return None


def _source_attribute(catalog: Any, source: exp.Expression, name: str, depth: int
                      ) -> Optional[Shown]:
    from pyflink_compat.sql.catalog import StreamTable, View, column_details
    from pyflink_compat.sql.dialect import DescriptorArgument, TableArgument
    from pyflink_compat.sql.statements import CreateTable

    if isinstance(source, exp.Subquery):
        return shown_time_attribute(catalog, source.this, name, depth + 1)
    if not isinstance(source, exp.Table):
        return None
    call = source.this
    if isinstance(call, exp.Anonymous) and str(call.this).upper() == "TABLE" and call.expressions:
        call = call.expressions[0]
    if isinstance(call, exp.Anonymous) and str(call.this).upper() in _WINDOW_TABLE_FUNCTIONS:
        arguments = list(call.expressions)
        if len(arguments) < 2 or not isinstance(arguments[0], TableArgument) or \
                not isinstance(arguments[1], DescriptorArgument):
            return None
        if name in ("window_start", "window_end"):
            return None, "TIMESTAMP(3) NOT NULL"
        inner = arguments[0].this
        if name == "window_time":
            descriptor = arguments[1].expressions[0].name if arguments[1].expressions else ""
            found = _source_attribute(catalog, inner, descriptor, depth + 1)
            return (found[0], _not_null(found[1])) if found is not None and found[0] else None
        return _source_attribute(catalog, inner, name, depth + 1)
    if not source.name:
        return None
    entry = catalog.get(".".join(p.name for p in source.parts))
    if isinstance(entry, (CreateTable, StreamTable)):
        details, _ = column_details(entry if isinstance(entry, CreateTable) else entry.shown)
        detail = next((d for d in details if d.name == name), None)
        if detail is not None and (detail.time_attribute is not None or (detail.type_text and (
                detail.extra.startswith("AS ") or detail.type_text.endswith(" NOT NULL")))):
            # a computed column's type is its expression's Flink type, a NOT NULL column's
            # is declared
            return detail.time_attribute, detail.type_text
        return None
    if isinstance(entry, View):
        return shown_time_attribute(catalog, entry.query, name, depth + 1)
    return None


def shown_columns(catalog: Any, query: Optional[exp.Expression], names: List[str]
                  ) -> Dict[str, Shown]:
    """:func:`shown_time_attribute` of each result column ``names`` of ``query`` that has
    one (nothing when ``query`` is not known or not followed)."""
    shown: Dict[str, Shown] = {}
    if query is None:
        return shown
    for name in names:
        try:
            found = shown_time_attribute(catalog, query, name)
        except Exception:  # noqa: BLE001 - a query not followed: its columns show their types
            found = None
        if found is not None:
            shown[name] = found
    return shown
