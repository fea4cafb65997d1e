"""Statements that Flink's SQL validation refuses or accepts, and the sink types its inserts
take: the cases of :mod:`tests.table.record_validation` and :mod:`tests.table.test_validation`.

Every statement runs against :data:`SOURCE` and :data:`SINK` (a csv file ``in.csv`` in the
working directory and a blackhole table) in a new streaming table environment.
"""

from __future__ import annotations

from typing import List, Tuple

#: The table the statements read.
SOURCE = ("CREATE TABLE src (a INT, b STRING, c BIGINT NOT NULL, d DATE, e BOOLEAN, "
          "m DECIMAL(10, 2), f DOUBLE, ts TIMESTAMP(3), lt TIMESTAMP_LTZ(3), s VARCHAR(5), "
          "t TINYINT) WITH ('connector'='filesystem','path'='in.csv','format'='csv')")
#: The rows of ``in.csv``.
ROWS = "1,x,5,2024-01-01,true,1.50,2.5,2024-01-01 10:00:00,2024-01-01 10:00:00,ab,3\n"
#: The table the inserts write.
SINK = "CREATE TABLE snk (x INT) WITH ('connector'='blackhole')"
#: A sink of three columns, one of them computed, for the column-list inserts.
WIDE_SINK = "CREATE TABLE wide (a INT, b INT, m AS a + 1) WITH ('connector'='blackhole')"

_EXPRESSIONS = [
    "a + b", "a - b", "a * b", "b / a", "a % b", "MOD(a, b)", "-b", "a + d", "a + e", "e - a",
    "SUM(b)", "AVG(b)", "SUM(e)", "MIN(b)", "a + '1'", "'x' || a", "b || a", "a || a", "d - a",
    "b * 2", "m + b", "f * e", "ts + a", "lt - a", "s + 1", "t + s", "c + b", "-e", "-d",
    "b + b", "1 + 2", "a + m", "AVG(s)", "SUM(d)", "b + NULL", "a + NULL", "f % 2", "-(a)",
    "ts + INTERVAL '1' SECOND", "d - INTERVAL '1' DAY", "- b",
]

# statements naming a table, column or function that does not exist
_NAMES = [
    "SELECT zz FROM src", "SELECT src.zz FROM src", "SELECT s.zz FROM src AS s",
    "SELECT a FROM src WHERE zz > 1", "SELECT a, COUNT(*) FROM src GROUP BY zz", "SELECT A FROM src",
    "SELECT a AS q FROM src ORDER BY q", "SELECT a AS q, COUNT(*) FROM src GROUP BY q",
    "SELECT a FROM nope", "SELECT a FROM default_catalog.default_database.nope",
    "SELECT a FROM default_database.nope", "SELECT a FROM mydb.nope", "SELECT a FROM SRC",
    "SELECT a FROM src JOIN nope ON a = x", "SELECT foo(a) FROM src", "SELECT foo() FROM src",
    "SELECT foo(b, e, d) FROM src", "SELECT Upper(b) FROM src", "SELECT a FROM src WHERE foo(b)",
    "SELECT zz AS q, a FROM src", "SELECT a FROM (SELECT a FROM src) WHERE b = 'x'",
]

#: ``(method, statement)``: the call (``executeSql``, ``sqlQuery``, ``addInsertSql``) and the
#: statement given to it.
STATEMENTS: List[Tuple[str, str]] = (
    [("executeSql", "SELECT {} FROM src".format(e)) for e in _EXPRESSIONS]
    + [("sqlQuery", "SELECT a + b FROM src"), ("sqlQuery", "SELECT SUM(b) FROM src"),
       ("executeSql", "INSERT INTO snk SELECT a + b FROM src"),
       ("executeSql", "INSERT INTO snk SELECT SUM(b) FROM src"),
       ("addInsertSql", "INSERT INTO snk SELECT a + b FROM src"),
       ("executeSql", "SELECT a,\n   b AS bb,\n  a   *   b AS s\nFROM src\nWHERE a > 1"),
       ("executeSql", "SELECT x + 1 FROM (SELECT b AS x FROM src)"),
       ("executeSql", "CREATE VIEW v AS SELECT a + b AS y FROM src"),
       ("executeSql", "INSERT INTO wide (b, a) SELECT b, a FROM src"),
       ("executeSql", "INSERT INTO wide (b) SELECT b FROM src"),
       ("executeSql", "INSERT INTO wide SELECT a + 1 AS q, CONCAT(b, 'x') FROM src"),
       ("executeSql", "INSERT INTO wide SELECT a FROM src"),
       ("executeSql", "INSERT INTO wide SELECT a, t FROM src"),
       ("executeSql", "INSERT INTO wide SELECT t, CAST(b AS INT) FROM src")]
    + [("executeSql", text) for text in _NAMES]
    + [("sqlQuery", "SELECT zz FROM src"), ("sqlQuery", "SELECT a FROM nope"),
       ("sqlQuery", "SELECT foo(a) FROM src"), ("executeSql", "INSERT INTO snk SELECT zz FROM src"),
       ("executeSql", "INSERT INTO nope SELECT a FROM src")]
)

#: The types of the implicit-cast matrix: a query column of each into a sink column of each.
CAST_TYPES = [
    "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL(10, 2)", "DECIMAL(5, 1)",
    "DECIMAL(38, 0)", "STRING", "VARCHAR(5)", "CHAR(3)", "BOOLEAN", "DATE", "TIME", "TIMESTAMP(3)",
    "TIMESTAMP(6)", "TIMESTAMP(0)", "TIMESTAMP_LTZ(3)", "BYTES", "BINARY(3)", "ARRAY<INT>",
    "ARRAY<BIGINT>", "MAP<STRING, INT>", "ROW<a INT>", "ROW<b BIGINT>", "INT NOT NULL",
    "STRING NOT NULL",
]

#: Statements that pyflink_compat refuses before anything runs, as Flink does, but with another
#: text: the column check follows plain queries of one table only, and Spark names a column
#: missing from a subquery.
REFUSED_OTHERWISE = frozenset([
    ("executeSql", "SELECT a FROM (SELECT a FROM src) WHERE b = 'x'"),
])

