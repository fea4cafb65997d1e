"""Flink SQL that has a mechanical Spark form: ``CREATE TABLE ... WITH (...)`` of the
``datagen``, ``filesystem``, ``kafka`` and ``print`` connectors, and ``INSERT INTO ... SELECT``
whose query Spark SQL runs as it is.

A small reader of its own (statements are short and the grammar needed is small): a table's
columns with their types, its ``WITH`` options, and a query's function calls, which must all be
functions Spark SQL has under the same name and meaning. Anything else (computed columns,
watermarks, primary keys, time windows, user functions, ``LATERAL TABLE``, ``OVER``,
``MATCH_RECOGNIZE``) makes the reader answer None: the statement is left to a person.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, List, Optional, Sequence, Tuple

import attrs

from pyflink_compat.porting.connectors import TABLE_PRINT, ReaderSpec, WriterSpec

__all__ = ["Table", "create_table", "insert_into", "spark_query", "spark_type", "table_reader",
           "table_writer", "datagen_source", "runtime_table", "SPARK_FUNCTIONS"]

#: Functions of Flink SQL that Spark SQL has with the same name and meaning.
SPARK_FUNCTIONS = frozenset({
    "ABS", "AVG", "CAST", "CEIL", "CEILING", "CHAR_LENGTH", "COALESCE", "CONCAT", "CONCAT_WS", "COUNT",
    "EXP", "FLOOR", "IF", "IFNULL", "INITCAP", "LEFT", "LENGTH", "LN", "LOG10", "LOWER", "LPAD", "LTRIM",
    "MAX", "MIN", "MOD", "NULLIF", "POWER", "REGEXP_EXTRACT", "REGEXP_REPLACE", "REPLACE", "REVERSE",
    "RIGHT", "ROUND", "RPAD", "RTRIM", "SIGN", "SQRT", "SUBSTR", "SUBSTRING", "SUM", "TRIM", "UPPER",
    "DATE_FORMAT", "TO_DATE", "TO_TIMESTAMP", "YEAR", "MONTH", "DAYOFMONTH", "HOUR", "MINUTE", "SECOND",
    "TRY_CAST", "CASE", "IN", "EXISTS", "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP",
})
_KEYWORDS_BEFORE_PAREN = frozenset({"AS", "IN", "FROM", "JOIN", "ON", "AND", "OR", "NOT", "WHERE", "SELECT",
                                    "BY", "HAVING", "VALUES", "THEN", "ELSE", "WHEN", "EXISTS", "DISTINCT"})
_FORBIDDEN = re.compile(r"\b(LATERAL|OVER|MATCH_RECOGNIZE|FOR\s+SYSTEM_TIME|TUMBLE|HOP|SESSION|CUMULATE|"
                        r"WINDOW_START|WINDOW_END|PROCTIME|TABLE\s*\()\b", re.IGNORECASE)
_TYPES = {
    "STRING": "STRING", "VARCHAR": "STRING", "CHAR": "STRING", "BOOLEAN": "BOOLEAN", "TINYINT": "TINYINT",
    "SMALLINT": "SMALLINT", "INT": "INT", "INTEGER": "INT", "BIGINT": "BIGINT", "FLOAT": "FLOAT",
    "DOUBLE": "DOUBLE", "DATE": "DATE", "TIMESTAMP": "TIMESTAMP", "TIMESTAMP_LTZ": "TIMESTAMP",
    "BYTES": "BINARY", "VARBINARY": "BINARY", "BINARY": "BINARY",
}


def _strip_comments(sql: str) -> str:
    return re.sub(r"--[^\n]*", " ", sql)


def _unquoted(text: str, start: int = 0) -> Iterator[Tuple[int, str, int]]:
    """Each character of ``text`` from ``start`` outside quotes (``'``, `````, ``"``), with its
    index and how many parentheses enclose it (a parenthesis counts as inside itself)."""
    depth, quote = 0, ""
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            if char == quote:
                quote = ""
            continue
        if char in "'`\"":
            quote = char
            continue
        if char == "(":
            depth += 1
        yield index, char, depth
        if char == ")":
            depth -= 1


def _split_top_level(text: str, separator: str = ",") -> List[str]:
    """``text`` cut at each ``separator`` outside quotes and parentheses."""
    parts: List[str] = []
    begin = 0
    for index, char, depth in _unquoted(text):
        if char == separator and depth == 0:
            parts.append(text[begin:index].strip())
            begin = index + 1
    if text[begin:].strip():
        parts.append(text[begin:].strip())
    return parts


def _closing(text: str, start: int) -> int:
    """The index of the parenthesis closing the one at ``start``."""
    for index, char, depth in _unquoted(text, start):
        if char == ")" and depth == 1:
            return index
    return -1


def spark_type(flink: str) -> Optional[str]:
    """A Flink SQL type as Spark DDL, or None for one without a plain counterpart."""
    text = flink.strip().upper()
    text = re.sub(r"\s+NOT\s+NULL$", "", text)
    match = re.fullmatch(r"(DECIMAL|NUMERIC)\s*\((\d+)\s*,\s*(\d+)\)", text)
    if match:
        return "DECIMAL({},{})".format(match.group(2), match.group(3))
    base = re.sub(r"\s*\(\s*\d+\s*\)", "", text)
    base = re.sub(r"\s+WITH(OUT)?\s+(LOCAL\s+)?TIME\s+ZONE$", "", base)
    return _TYPES.get(base)


def _identifier(text: str) -> str:
    return text.strip().strip("`")


@attrs.frozen
class Table:
    """A table of a ``CREATE TABLE`` statement.

    :param name: Its name.
    :param columns: Its columns: name and Spark type.
    :param options: Its ``WITH`` options.
    """

    name: str
    columns: Tuple[Tuple[str, str], ...]
    options: Tuple[Tuple[str, str], ...]

    @property
    def connector(self) -> str:
        return dict(self.options).get("connector", "")

    @property
    def schema(self) -> str:
        return ", ".join("`{}` {}".format(n, t) for n, t in self.columns)


_CREATE = re.compile(r"^\s*CREATE\s+(TEMPORARY\s+)?TABLE\s+(IF\s+NOT\s+EXISTS\s+)?([`\w.]+)\s*\(",
                     re.IGNORECASE)
_OPTION = re.compile(r"^'((?:[^']|'')*)'\s*=\s*'((?:[^']|'')*)'$", re.DOTALL)


def create_table(sql: str) -> Optional[Table]:
    """The table of a plain ``CREATE TABLE name (columns) WITH (options)``, else None."""
    text = _strip_comments(sql).strip().rstrip(";")
    match = _CREATE.match(text)
    if match is None:
        return None
    open_at = match.end() - 1
    close_at = _closing(text, open_at)
    if close_at < 0:
        return None
    columns = []
    for column in _split_top_level(text[open_at + 1:close_at]):
        words = column.split(None, 1)
        if len(words) != 2 or words[0].upper() in ("WATERMARK", "PRIMARY", "CONSTRAINT") \
                or re.search(r"\b(AS|METADATA)\b", words[1], re.IGNORECASE):
            return None
        kind = spark_type(words[1])
        if kind is None:
            return None
        columns.append((_identifier(words[0]), kind))
    rest = text[close_at + 1:].strip()
    with_match = re.match(r"^WITH\s*\(", rest, re.IGNORECASE)
    if with_match is None:
        return None
    options_end = _closing(rest, with_match.end() - 1)
    if options_end < 0 or rest[options_end + 1:].strip():
        return None
    options = []
    for option in _split_top_level(rest[with_match.end():options_end]):
        found = _OPTION.match(option)
        if found is None:
            return None
        options.append((found.group(1).replace("''", "'"), found.group(2).replace("''", "'")))
    name = _identifier(match.group(3).split(".")[-1])
    return Table(name, tuple(columns), tuple(options))


_INSERT = re.compile(r"^\s*INSERT\s+INTO\s+([`\w.]+)\s+(SELECT\b.*)$", re.IGNORECASE | re.DOTALL)


def insert_into(sql: str) -> Optional[Tuple[str, str]]:
    """The sink table and the query of ``INSERT INTO sink SELECT ...``, else None."""
    match = _INSERT.match(_strip_comments(sql).strip().rstrip(";"))
    if match is None:
        return None
    return _identifier(match.group(1).split(".")[-1]), match.group(2).strip()


def spark_query(query: str) -> bool:
    """Whether Spark SQL runs ``query`` as Flink does: no time windows or table functions, and
    only functions Spark has with the same meaning."""
    if _FORBIDDEN.search(query):
        return False
    unquoted = re.sub(r"'(?:[^']|'')*'", "''", query)
    for name in re.findall(r"([A-Za-z_][\w]*)\s*\(", unquoted):
        upper = name.upper()
        if upper not in SPARK_FUNCTIONS and upper not in _KEYWORDS_BEFORE_PAREN:
            return False
    return True


def grouped(query: str) -> bool:
    """Whether the query aggregates (its result is then updated, not appended)."""
    return re.search(r"\bGROUP\s+BY\b", query, re.IGNORECASE) is not None or re.search(
        r"\b(COUNT|SUM|AVG|MIN|MAX)\s*\(", query, re.IGNORECASE) is not None


def changelog_keys(query: str) -> Optional[Tuple[int, ...]]:
    """The positions of the key columns of an aggregating query, as the runtime's planner finds
    them (its print sink shows each key's ``-U``/``+U``); None when it is not one aggregation."""
    from sqlglot import exp

    from pyflink_compat.sql.dialect import parse
    from pyflink_compat.sql.planner import _group_aggregate

    try:
        trees = parse(query)
    except Exception:  # noqa: BLE001 - not SQL the runtime reads: not translated
        return None
    select = trees[0] if len(trees) == 1 else None
    if not isinstance(select, exp.Select):
        return None
    found = _group_aggregate(select)
    if found is None:
        return None
    names = [e.alias_or_name for e in select.expressions]
    return tuple(names.index(k) for k in found[0] if k in names)


def runtime_table(statement: str) -> Optional[Tuple[Any, Any]]:
    """The runtime's record of a ``CREATE TABLE`` statement
    (:class:`pyflink_compat.sql.statements.CreateTable`) and the Spark schema of its physical
    columns, else None."""
    from pyflink_compat.porting.sql_check import table_schema
    from pyflink_compat.sql.statements import CreateTable, parse_statements

    try:
        statements = parse_statements(statement)
        if len(statements) != 1 or not isinstance(statements[0], CreateTable):
            return None
        return statements[0], table_schema(statements[0])
    except Exception:  # noqa: BLE001 - a statement the runtime does not read is not written
        return None


def _runtime(mapping: Any, *args: Any) -> Optional[Tuple[Any, List[str]]]:
    """What a connector function of the runtime gives for ``args``, and the warnings it gave
    (what it drops); None when it refuses them."""
    import warnings

    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            result = mapping(*args)
    except Exception:  # noqa: BLE001 - what the runtime refuses is not written
        return None
    return result, [" ".join(str(w.message).split()) for w in seen]


def datagen_source(statement: str) -> Optional[Tuple[List[str], Optional[int], str]]:
    """How the runtime's ``datagen`` connector generates the table of ``statement``
    (:func:`pyflink_compat.connectors.datagen.generated_columns`): the SQL expression of each
    column over the row number ``id``, the number of rows (None: unbounded) and the rows per
    second of an unbounded table; None when the runtime refuses it."""
    from pyflink_compat.connectors import datagen

    found = runtime_table(statement)
    if found is None:
        return None
    made = _runtime(datagen.generated_columns, *found)
    return None if made is None else made[0]


def _ddl(schema: Any) -> str:
    return ", ".join("`{}` {}".format(f.name, f.dataType.simpleString()) for f in schema.fields)


def runtime_kafka_options(table: Table, for_source: bool
                          ) -> Optional[Tuple[List[Tuple[str, str]], str, List[str]]]:
    """Spark's Kafka options for ``table`` as the runtime's Kafka connector maps them
    (:func:`pyflink_compat.connectors.kafka.source_options` / ``sink_options``: properties Spark
    refuses left out, Flink's start position written explicitly), the value format, and what the
    connector says it left out or changed; None when the runtime refuses the table."""
    import warnings

    from pyflink_compat.connectors import kafka
    from pyflink_compat.sql.statements import CreateTable

    record = CreateTable(name=table.name, columns=(), options=dict(table.options),
                         text="CREATE TABLE {} WITH (...)".format(table.name))
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            options, form = (kafka.source_options if for_source else kafka.sink_options)(record)
    except Exception:  # noqa: BLE001 - a table the runtime refuses is not written
        return None
    if form not in ("json", "csv", "raw"):
        return None
    return list(options.items()), form, [" ".join(str(w.message).split()) for w in seen]


def table_reader(table: Table, statement: str) -> Optional[ReaderSpec]:
    """The streaming read of a source table (declared by ``statement``), else None: as the
    runtime's connectors read it."""
    connector = table.connector
    if connector == "datagen":
        return None  # written by the pipeline writer, which needs the row source too
    if connector == "filesystem":
        from pyflink_compat.connectors import filesystem

        found = runtime_table(statement)
        made = None if found is None else _runtime(filesystem.source_options, found[0])
        if found is None or made is None:
            return None
        (form, spark_options, path, bounded), notes = made
        return ReaderSpec(form, tuple(spark_options.items()), schema=_ddl(found[1]), path=path, bounded=bounded,
                          notes=tuple(notes))
    if connector == "kafka":
        mapped = runtime_kafka_options(table, for_source=True)
        if mapped is None:
            return None
        kafka, form, notes = mapped
        value = "CAST(value AS STRING)"
        if form == "raw":
            if len(table.columns) != 1:
                return None
            columns: Tuple[str, ...] = ("{} AS `{}`".format(value, table.columns[0][0]),)
        else:
            parse = "from_json" if form == "json" else "from_csv"
            columns = ("{}({}, '{}') AS row".format(parse, value, table.schema.replace("'", "\\'")),)
        return ReaderSpec("kafka", tuple(kafka), columns=columns, kafka=True, flatten=form != "raw",
                          notes=tuple(notes))
    return None




def table_writer(table: Table, statement: str) -> Optional[WriterSpec]:
    """The streaming write of a sink table (declared by ``statement``), else None: as the
    runtime's connectors write it."""
    options = dict(table.options)
    connector = table.connector
    if connector in ("print", "blackhole"):
        if connector == "print":
            if set(options) - {"connector"}:
                return None  # an identifier or standard error: left to the runtime's print sink
            return TABLE_PRINT
        return WriterSpec("noop")
    if connector == "filesystem":
        from pyflink_compat.connectors import filesystem

        found = runtime_table(statement)
        made = None if found is None else _runtime(filesystem.sink_options, found[0])
        if found is None or made is None or found[0].partition_keys:
            return None  # partitioned files are left to the runtime
        (path, form, spark_options), notes = made
        return WriterSpec(form, (("path", path),) + tuple(spark_options.items()), note=" ".join(notes) or None)
    if connector == "kafka":
        mapped = runtime_kafka_options(table, for_source=False)
        if mapped is None:
            return None
        kafka, form, notes = mapped
        names = ", ".join("`{}`".format(n) for n, _ in table.columns)
        value = {"json": "to_json(struct({}))", "csv": "to_csv(struct({}))",
                 "raw": "CAST({} AS STRING)"}[form].format(names)
        return WriterSpec("kafka", tuple(kafka), columns=(value + " AS value",), kafka=True,
                          note=" ".join(notes) or None)
    return None


def column_names(table: Table) -> Sequence[str]:
    return [n for n, _ in table.columns]
