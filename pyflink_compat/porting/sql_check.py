"""The SQL of a job, checked with the runtime's own translation before the job runs.

A job's ``execute_sql``, ``sql_query``, ``add_insert_sql`` and ``execute_insert`` calls are
checked in source order against one catalog of what the job declared, as the table runtime
would run them:

* each statement is read by :func:`pyflink_compat.sql.statements.parse_statements` (the Flink
  dialect);
* a query is translated by :meth:`pyflink_compat.sql.planner.Planner.translate` (the
  planner's own steps before it asks Spark), and each call its translation leaves as written
  must be one of Spark's functions;
* each table a query reads and each table an ``INSERT`` writes goes through its connector's
  own option review (:mod:`pyflink_compat.connectors`), run up to the connector's first Spark
  call; the options the connector drops are kept as notes.

A statement the runtime would refuse gets the runtime's reason. SQL the tool cannot assemble
from the code (built at run time) is marked so; a placeholder of an f-string or ``format``
that sits inside a quoted SQL value stands for a value only, and the statement is still
checked.
"""

from __future__ import annotations

import re
import warnings
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

import attrs

__all__ = ["SqlChecker", "Verdict", "DYNAMIC", "TABLE_VALUE", "SQL_METHODS", "sql_text", "table_schema"]

#: The text that stands for a value the tool cannot know (a placeholder filled at run time).
DYNAMIC = "pyflink_compat_runtime_value"
#: The name that stands for a PyFlink ``Table`` formatted into SQL (``"... FROM %s" % table``):
#: the table's text is a name the runtime registered for it, which the tool cannot know.
TABLE_VALUE = "pyflink_compat_table_value"
#: The methods whose first argument is SQL (or, for ``execute_insert``, a sink table's path).
SQL_METHODS = frozenset({"execute_sql", "sql_query", "add_insert_sql", "execute_insert"})
#: The calls that declare tables the tool does not see as SQL.
TABLE_DECLARATIONS = frozenset({"create_temporary_view", "create_temporary_table", "create_table",
                                "register_table", "create_view", "register_table_source",
                                "register_table_sink", "from_elements", "from_data_stream",
                                "from_pandas", "create_temporary_system_function"})
FUNCTION_DECLARATIONS = frozenset({"create_temporary_function", "create_temporary_system_function",
                                   "register_function", "create_java_temporary_function",
                                   "create_java_temporary_system_function", "create_function",
                                   "register_java_function"})


@attrs.frozen
class Verdict:
    """What the runtime would do with one statement.

    :param runs: Whether the runtime runs it (as far as the code tells).
    :param known: Whether the tool could check it (False: built at run time).
    :param reason: Why it does not run, in the runtime's words, or why it could not be checked.
    :param notes: What the connectors say they drop or change (their warnings).
    """

    runs: bool
    known: bool = True
    reason: str = ""
    notes: Tuple[str, ...] = ()


class _SparkReached(Exception):
    """A connector got past its option review to its first Spark call."""


class _StopAtSpark(object):
    """Stands where a connector expects a Spark session or DataFrame: the first use ends the
    review (every option was checked by then)."""

    def __getattr__(self, name: str) -> Any:
        raise _SparkReached(name)


def _quoted(text: str, index: int) -> bool:
    """Whether position ``index`` of SQL ``text`` is inside a single-quoted literal."""
    return text.count("'", 0, index) % 2 == 1


def _readable(text: str) -> str:
    return text.replace(DYNAMIC, "<value set at run time>")


def _message(error: object) -> str:
    return " ".join(str(error).split())


class SqlChecker(object):
    """The catalog of one job's SQL, and the check of each statement against it."""

    def __init__(self) -> None:
        from pyflink_compat.sql.catalog import Catalog
        from pyflink_compat.sql.planner import Planner

        self.catalog = Catalog()
        self.planner = Planner(_no_session, self.catalog)
        #: the job's own functions (names registered with a table environment)
        self.functions: Set[str] = set()
        #: whether the job registers functions under names the tool cannot read
        self.unnamed_functions = False
        #: whether the job declares tables the catalog cannot hold (Table API, dynamic SQL)
        self.opaque_tables = False
        #: tables declared by SQL built partly at run time, with the runtime's refusal of them
        self.refused_tables: Dict[str, Exception] = {}

    # -- what the job declares besides SQL -----------------------------------------------------
    def note_declaration(self, method: str, first: Optional[str]) -> None:
        """A call of ``method`` (``create_temporary_view`` ...) whose first argument is the
        literal ``first`` (None when not a literal)."""
        if method in FUNCTION_DECLARATIONS:
            if first is None:
                self.unnamed_functions = True
            else:
                self.functions.add(first.rsplit(".", 1)[-1].strip("`").upper())
        if method in TABLE_DECLARATIONS:
            self.opaque_tables = True

    # -- statements ------------------------------------------------------------------------
    def check(self, method: str, text: Optional[str]) -> Verdict:
        """The verdict on ``method(text)``; ``text`` None when it cannot be assembled."""
        if text is None:
            self.opaque_tables = True
            return Verdict(False, False, "the SQL is built at run time and the tool cannot read it: check "
                                         "this statement by hand")
        from pyflink_compat.missing import NotSupportedError

        caught: List[str] = []
        try:
            with warnings.catch_warnings(record=True) as seen:
                warnings.simplefilter("always")
                self._run(method, text)
            caught = [_message(w.message) for w in seen]
        except _Dynamic as error:
            self._partly_known(text)
            return Verdict(False, False, "part of the SQL is built at run time ({}): check this statement by "
                                         "hand".format(error))
        except NotSupportedError as error:
            if self._depends_on_runtime_value(error):
                return Verdict(False, False, "whether it runs depends on a value set at run time: {}".format(
                    _message(error)))
            return Verdict(False, True, "the runtime refuses it: " + _readable(_message(error)))
        except Exception as error:  # noqa: BLE001 - the runtime's own errors, whatever their class
            if DYNAMIC in str(error):
                return Verdict(False, False, "part of the SQL is built at run time: check this statement by hand")
            return Verdict(False, True, "the runtime refuses it: {}: {}".format(type(error).__name__,
                                                                                 _readable(_message(error))))
        notes = tuple(c.replace(DYNAMIC, "<value set at run time>") for c in caught)
        return Verdict(True, True, "", notes)

    def translated(self, query: str) -> Optional[str]:
        """The Spark SQL text of the Flink query ``query`` as the runtime's planner writes it
        (tables read as ``flink_<name>``), or None when it is not one query the runtime runs."""
        from pyflink_compat.sql.statements import Query, parse_statements

        try:
            statements = parse_statements(query)
            if len(statements) != 1 or not isinstance(statements[0], Query):
                return None
            spark_sql, _ = self.planner.translate(statements[0].query, query, lambda name, entry: None)
        except Exception:  # noqa: BLE001 - what the runtime refuses is not written
            return None
        return spark_sql

    def _partly_known(self, text: str) -> None:
        """What the tool can still learn of a statement built partly at run time: a table
        declared with a connector the runtime does not have (refused where it is used)."""
        self.opaque_tables = True
        declared = _CREATE_TABLE.search(text)
        connector = _CONNECTOR.search(text)
        if declared is None or connector is None or DYNAMIC in declared.group(1) + connector.group(1):
            return
        from pyflink_compat.connectors.registry import CONNECTORS, connector_module

        if connector.group(1) not in CONNECTORS:
            try:
                connector_module(connector.group(1), text)
            except Exception as error:  # noqa: BLE001 - kept to be raised where the table is used
                self.refused_tables[self.catalog.key(declared.group(1))] = error

    def _depends_on_runtime_value(self, error: Any) -> bool:
        api = str(getattr(error, "api", ""))
        head = api.split(" (in: ", 1)[0]
        if DYNAMIC in head:
            return True
        option = re.match(r"Option '([^']+)' of connector", head)
        if option is None:
            return False
        for name in ("connector",) + (option.group(1),):
            for entry in self.catalog.entries.values():
                options = getattr(entry, "options", {})
                if DYNAMIC in options.get(name, ""):
                    return True
        return False

    def _run(self, method: str, text: str) -> None:
        from pyflink_compat.sql.statements import (
            CreateTable, CreateView, Drop, Insert, Query, SetOption, parse_statements)

        if method == "execute_insert":
            self._written(text.strip(), None, text)
            return
        self._structure_is_static(text)
        from pyflink_compat.missing import NotSupportedError
        from pyflink_compat.sql.statements import UnsupportedStatement

        try:
            statements = parse_statements(text)
        except UnsupportedStatement as error:
            raise NotSupportedError("TableEnvironment.execute_sql", str(error)) from None
        if method == "execute_sql" and len(statements) != 1:
            raise ValueError("Only single statement is supported now, but got: {}".format(text))
        for statement in statements:
            if isinstance(statement, CreateTable):
                if self.catalog.get(statement.name) is None or not statement.if_not_exists:
                    self.catalog.put(statement.name, statement)
            elif isinstance(statement, CreateView):
                from pyflink_compat.sql.catalog import View

                self.catalog.put(statement.name, View(statement.query, statement.text))
            elif isinstance(statement, Drop):
                self.catalog.remove(statement.name)
            elif isinstance(statement, SetOption) and statement.key is None:
                raise NotSupportedError("SET without a key", "Read options with get_config().")
            elif isinstance(statement, Insert):
                if statement.overwrite:
                    raise NotSupportedError("INSERT OVERWRITE (in: {})".format(statement.text),
                                            "Streaming jobs append; write with INSERT INTO.")
                updating = self._query(statement.query, statement.text)
                self._written(statement.target, updating, statement.text)
            elif isinstance(statement, Query):
                self._query(statement.query, statement.text)

    def _structure_is_static(self, text: str) -> None:
        """Refuse to judge SQL whose run-time parts are more than quoted values."""
        start = text.find(DYNAMIC)
        while start >= 0:
            if not _quoted(text, start):
                raise _Dynamic("a name or clause of the statement")
            start = text.find(DYNAMIC, start + 1)

    def _query(self, query: Any, text: str) -> bool:
        from sqlglot import exp

        from pyflink_compat.missing import NotSupportedError

        def read(name: str, entry: Any) -> None:
            if entry is None and name == TABLE_VALUE:
                return  # a Table of the job's, registered under its own name
            if entry is None:
                if self.catalog.key(name) in self.refused_tables:
                    raise self.refused_tables[self.catalog.key(name)]
                if self.catalog.get(name) is None and not self.opaque_tables:
                    raise NotSupportedError(
                        "Table '{}' (in: {})".format(name, text),
                        "Object '{}' not found: declare it with CREATE TABLE or create_temporary_view "
                        "before the query.".format(name))
                return
            self._read(entry)

        spark_sql, updating = self.planner.translate(query, text, read)
        if not self.unnamed_functions:
            from pyflink_compat.porting.spark_functions import SPARK_FUNCTIONS
            from pyflink_compat.sql.dialect import Flink
            from pyflink_compat.sql.functions import SqlValidationError

            for call in query.find_all(exp.Anonymous):
                name = str(call.this).upper()
                # TABLE(f(...)) is Flink's call of a table function, whose own name is checked
                if name in self.functions or name in SPARK_FUNCTIONS or name == "TABLE":
                    continue
                if re.search(r"\b{}\s*\(".format(re.escape(name)), spark_sql, re.IGNORECASE):
                    # the translation has no rule for it and Spark has no such function
                    raise SqlValidationError("No match found for function signature {}(...) in: {}".format(
                        name, " ".join(call.sql(Flink).split())[:200]))
        return updating

    def _connector(self, table: Any, role: str) -> Any:
        from pyflink_compat.connectors.registry import connector_module
        from pyflink_compat.missing import NotSupportedError

        connector = table.options.get("connector")
        if connector is None:
            raise NotSupportedError("Table '{}' without 'connector' (in: {})".format(table.name, table.text),
                                    "Declare the table's connector in its WITH clause.")
        module = connector_module(connector, table.text)
        if not hasattr(module, role):
            raise NotSupportedError(
                "{} connector '{}' (in: {})".format("Reading" if role == "source" else "Writing", connector,
                                                    table.text),
                "The '{}' connector is a {} only, as in Flink.".format(
                    connector, "sink" if role == "source" else "source"))
        return module

    def _read(self, table: Any) -> None:
        """The checks of reading ``table`` that the planner makes before Spark runs."""
        from pyflink_compat.missing import NotSupportedError

        module = self._connector(table, "source")
        try:
            module.source(table, _StopAtSpark(), table_schema(table))
        except _SparkReached:
            pass
        metadata = [c for c in table.columns if c.kind == "metadata"]
        if metadata:
            raise NotSupportedError(
                "Metadata column '{}' of connector '{}' (in: {})".format(
                    metadata[0].name, table.options.get("connector"), table.text),
                "Read connector metadata with PySpark (the Kafka source's timestamp, key... columns).")
        if table.watermark is not None:
            self.planner._watermark_delay(table)

    def _written(self, name: str, updating: Optional[bool], text: str) -> None:
        """The checks of writing into table ``name`` that the runtime makes before Spark runs."""
        from pyflink_compat.sql.statements import CreateTable

        sink = self.catalog.get(name)
        if not isinstance(sink, CreateTable):
            if self.catalog.key(name) in self.refused_tables:
                raise self.refused_tables[self.catalog.key(name)]
            if self.opaque_tables:
                return
            from pyflink_compat.util.exceptions import java_error

            raise java_error("java.lang.RuntimeException",
                             "org.apache.flink.table.api.ValidationException: Object '{}' not found".format(name),
                             "o0.executeSql")
        module = self._connector(sink, "sink")
        if updating:
            from pyflink_compat.connectors.registry import refuse_updates_into

            refuse_updates_into(sink, self.catalog.full_name(sink.name), "(an aggregation without a window)")
        try:
            module.sink(sink, _StopAtSpark(), bool(updating), [])
        except _SparkReached:
            pass


_CREATE_TABLE = re.compile(r"CREATE\s+(?:TEMPORARY\s+)?TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w.`$]+)",
                           re.IGNORECASE)
_CONNECTOR = re.compile(r"'connector'\s*=\s*'([^']*)'", re.IGNORECASE)


class _Dynamic(Exception):
    """SQL whose structure is set at run time."""


def _no_session() -> Any:
    raise _SparkReached("spark")


def table_schema(table: Any) -> Any:
    """The Spark schema of ``table``'s physical columns, built without a session."""
    from pyspark.sql.types import StructField, StructType

    from pyflink_compat.sql.types import to_spark

    return StructType([StructField(c.name, to_spark(c.data_type), True)
                       for c in table.physical_columns if c.data_type is not None])


def sql_text(node: Any, value_of: Callable[[Any], Optional[str]]) -> Optional[str]:
    """The SQL text a string expression of the job holds, its run-time parts written as
    :data:`DYNAMIC`; None when it is not a string the code spells out.

    :param node: A LibCST expression.
    :param value_of: The static text of a name or of a call (what a function of the job
        returns), or None when it has none.
    """
    import libcst as cst

    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    if isinstance(node, cst.FormattedString):
        parts = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                parts.append(part.value.replace("{{", "{").replace("}}", "}"))
            else:
                assert isinstance(part, cst.FormattedStringExpression)
                inner = sql_text(part.expression, value_of) if part.conversion is None \
                    and part.format_spec is None else None
                parts.append(DYNAMIC if inner is None else inner)
        return "".join(parts)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        left, right = sql_text(node.left, value_of), sql_text(node.right, value_of)
        return None if left is None or right is None else left + right
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        return _percent_formatted(node, value_of)
    if isinstance(node, cst.Name):
        return value_of(node)
    if isinstance(node, (cst.Integer, cst.Float)):
        return node.value
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "format":
        template = sql_text(node.func.value, value_of)
        if template is None or DYNAMIC in template:
            return None
        positional: List[str] = []
        named = {}
        for argument in node.args:
            if argument.star:
                return None
            text = sql_text(argument.value, value_of)
            if argument.keyword is None:
                positional.append(DYNAMIC if text is None else text)
            else:
                named[argument.keyword.value] = DYNAMIC if text is None else text
        try:
            return template.format(*positional, **named)
        except (IndexError, KeyError, ValueError):
            return None
    if isinstance(node, cst.Call):
        return value_of(node)
    return None


def _percent_formatted(node: Any, value_of: Callable[[Any], Optional[str]]) -> Optional[str]:
    """``template % values`` with ``%s`` placeholders (anything else: None)."""
    import libcst as cst

    template = sql_text(node.left, value_of)
    if template is None or DYNAMIC in template:
        return None
    right = node.right
    items = [e.value for e in right.elements] if isinstance(right, cst.Tuple) else [right]
    if any(isinstance(e, cst.StarredElement) for e in getattr(right, "elements", ())) or \
            re.search(r"%[^s%]", template.replace("%%", "")):
        return None
    values = []
    for item in items:
        text = sql_text(item, value_of)
        values.append(DYNAMIC if text is None else text)
    try:
        return template % tuple(values)
    except (TypeError, ValueError):
        return None
