"""``'connector' = 'jdbc'``: a table of a database reached through its JDBC driver.

As a source, the table (``'table-name'``) is read once when the job is planned, a bounded table
as in Flink, through Spark's JDBC reader; ``scan.partition.*`` and ``scan.fetch-size`` map to
its ``partitionColumn`` / ``numPartitions`` / ``lowerBound`` / ``upperBound`` and
``fetchsize``.

As a sink, Flink's two modes:

* without a primary key, append mode: each micro-batch's rows are inserted through Spark's JDBC
  writer. The table must exist (Flink never creates it; Spark would). An updating query is
  refused before it starts, with Flink's message.
* with ``PRIMARY KEY (...) NOT ENFORCED``, upsert mode: each micro-batch's changes are reduced
  to the last change of each key, then, in one transaction, the rows of those keys are deleted
  and the upserted ones inserted (``DELETE ... WHERE key = ?`` then ``INSERT``, statements every
  database takes; Flink writes the database's own upsert statement, to the same end). A
  retraction (``-U``, ``-D``) deletes its key's row, as in Flink. The statements run from the
  Spark driver, one JDBC batch each.

Both modes write each micro-batch once it is computed; a batch run again after a failure
writes again, as Flink's at-least-once JDBC sink does (an upsert leaves the same rows).

The driver class is ``'driver'``, or found from the URL by ``java.sql.DriverManager``; its jar
must be on Spark's class path (``spark.jars`` / ``--jars``, or the driver's class path).
Flink's buffering and retry options (``sink.buffer-flush.*``, ``sink.max-retries``,
``connection.max-retry-timeout``) are dropped with a warning: a micro-batch is one flush.
"""

from __future__ import annotations

import datetime
import decimal
import re
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, Sequence, Tuple

import attrs

from pyflink_compat.connectors.options import OptionReview, refuse

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

    from pyflink_compat.sql.statements import CreateTable

__all__ = ["JdbcTable", "accepts_updates", "bind", "connect", "run_in_transaction", "sink", "source",
           "table_options"]


@attrs.frozen
class JdbcTable:
    """Where a jdbc table is, and how Spark's JDBC reader and writer reach it.

    :param url: The JDBC URL.
    :param table: The table's name in the database.
    :param properties: The connection properties (``user``, ``password``, ``driver``).
    :param read_options: Further options of Spark's JDBC reader.
    """

    url: str
    table: str
    properties: Dict[str, str]
    read_options: Dict[str, str]


def table_options(table: "CreateTable", role: str) -> JdbcTable:
    """``table``'s options reviewed for reading (``role`` ``"source"``) or writing it.

    :raises NotSupportedError: For an option Spark cannot honour, or a missing one.
    """
    review = OptionReview("jdbc", table.options, table.text)
    url = review.take("url")
    name = review.take("table-name")
    if not url or not name:
        raise refuse("jdbc", "url" if not url else "table-name", table.text,
                     "The jdbc connector needs 'url' and 'table-name'.")
    properties: Dict[str, str] = {}
    for flink, spark in (("username", "user"), ("password", "password"), ("driver", "driver")):
        value = review.take(flink)
        if value is not None:
            properties[spark] = value
    read: Dict[str, str] = {}
    scan = {k: review.take("scan.partition." + k) for k in ("column", "num", "lower-bound", "upper-bound")}
    given = [k for k, v in scan.items() if v is not None]
    if given and len(given) < 4:
        raise refuse("jdbc", "scan.partition." + given[0], table.text,
                     "Give all of scan.partition.column, .num, .lower-bound and .upper-bound, "
                     "as Flink requires.")
    if given:
        read.update(partitionColumn=str(scan["column"]), numPartitions=str(scan["num"]),
                    lowerBound=str(scan["lower-bound"]), upperBound=str(scan["upper-bound"]))
    fetch = review.take("scan.fetch-size")
    if fetch is not None and fetch != "0":
        read["fetchsize"] = fetch
    review.drop("scan.auto-commit", "Spark's JDBC reader sets the connection's auto-commit itself")
    for key in [k for k in table.options if k.startswith("lookup.")]:
        review.drop(key, "a lookup-join option, and lookup joins are not run here")
    for key in ("sink.buffer-flush.max-rows", "sink.buffer-flush.interval", "sink.max-retries",
                "connection.max-retry-timeout"):
        review.drop(key, "each micro-batch is written as one flush")
    review.drop("sink.parallelism", "Spark writes from the partitions of each micro-batch")
    review.drop("filter.handling.policy", "Spark's JDBC reader pushes filters down itself")
    review.finish()
    return JdbcTable(url=url, table=name, properties=properties, read_options=read)


def accepts_updates(table: "CreateTable") -> bool:
    """Whether the sink takes an updating query: in upsert mode, with a primary key."""
    return bool(table.primary_key)


def source(table: "CreateTable", spark: "SparkSession", schema: "StructType"
           ) -> Tuple["DataFrame", bool]:
    """The table's rows, read once: a bounded table."""
    from pyflink_compat.spark.bounded_sources import as_stream

    where = table_options(table, "source")
    names = ", ".join(_quoted(f.name, where.url) for f in schema.fields)
    # a subquery as the table: Spark's "query" option cannot be split by partitionColumn
    rows = spark.read.format("jdbc").options(url=where.url, **where.properties, **where.read_options) \
        .option("dbtable", "(SELECT {} FROM {}) pyflink_compat_scan".format(names, where.table)).load()
    # the database's types as the table declares them
    rows = rows.select(*[rows[i].cast(f.dataType).alias(f.name) for i, f in enumerate(schema.fields)])
    return as_stream(rows), True


def sink(table: "CreateTable", frame: "DataFrame", updating: bool, keys: Sequence[str]) -> Any:
    """A writer of ``frame``'s rows (or changes) into the database table."""
    where = table_options(table, "sink")
    if not table.primary_key:
        writer = _AppendBatches(where)
        return frame.writeStream.foreachBatch(writer).outputMode("append")
    from pyflink_compat.sql.changelog_streams import KIND_COLUMN

    names = [c for c in frame.columns if c != KIND_COLUMN]
    upserts = _UpsertBatches(where, names, list(table.primary_key), KIND_COLUMN in frame.columns)
    return frame.writeStream.foreachBatch(upserts).outputMode("update" if updating else "append")


def _quoted(name: str, url: str = "") -> str:
    """``name`` as a column in a statement: as it is when a plain identifier (the database
    folds its case as it did when the table was created), else quoted as the database quotes."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
        return name
    quote = "`" if url.startswith("jdbc:mysql:") or url.startswith("jdbc:mariadb:") else '"'
    return quote + name.replace(quote, quote * 2) + quote


class _AppendBatches(object):
    """Inserts each micro-batch's rows through Spark's JDBC writer."""

    def __init__(self, where: JdbcTable):
        self.where = where
        self.checked = False

    def __call__(self, batch: "DataFrame", batch_id: int) -> None:
        if not self.checked:
            _require_table(batch.sparkSession, self.where)
            self.checked = True
        batch.write.jdbc(self.where.url, self.where.table, mode="append", properties=self.where.properties)


def _require_table(spark: "SparkSession", where: JdbcTable) -> None:
    """Fail, as Flink's sink does when it first writes, when the table does not exist (Spark's
    writer would create it)."""
    spark.read.format("jdbc").options(url=where.url, **where.properties) \
        .option("query", "SELECT * FROM {} WHERE 1 = 0".format(where.table)).load()


class _UpsertBatches(object):
    """Applies each micro-batch's changes by primary key: the rows of the changed keys deleted,
    the upserted ones inserted, in one transaction."""

    def __init__(self, where: JdbcTable, names: List[str], keys: List[str], with_kinds: bool):
        self.where = where
        self.names = names
        self.keys = keys
        self.key_positions = [names.index(k) for k in keys]
        self.with_kinds = with_kinds

    def __call__(self, batch: "DataFrame", batch_id: int) -> None:
        last: Dict[Tuple[Any, ...], Optional[Tuple[Any, ...]]] = {}
        for row in batch.toLocalIterator():
            values = tuple(row)
            if self.with_kinds:
                kind, values = values[-1], values[:-1]
                change: Optional[Tuple[Any, ...]] = values if kind in ("+I", "+U") else None
            else:
                change = values
            last[tuple(values[i] for i in self.key_positions)] = change
        if last:
            _apply_changes(batch.sparkSession, self.where, self.names, self.keys, last)


def _apply_changes(spark: "SparkSession", where: JdbcTable, names: List[str], keys: List[str],
                   last: Dict[Tuple[Any, ...], Optional[Tuple[Any, ...]]]) -> None:
    delete = "DELETE FROM {} WHERE {}".format(
        where.table, " AND ".join("{} = ?".format(_quoted(k, where.url)) for k in keys))
    insert = "INSERT INTO {} ({}) VALUES ({})".format(
        where.table, ", ".join(_quoted(n, where.url) for n in names), ", ".join("?" for _ in names))
    rows = [row for row in last.values() if row is not None]
    run_in_transaction(spark.sparkContext._jvm, where.url, where.properties,
                       [(delete, list(last)), (insert, rows)])


def run_in_transaction(jvm: Any, url: str, properties: Dict[str, str],
                       statements: Sequence[Tuple[str, Sequence[Sequence[Any]]]],
                       batch_size: int = 5000) -> None:
    """Run each statement once per row of its parameters, in JDBC batches of ``batch_size``,
    all in one transaction (rolled back when any fails) on a new connection (see
    :func:`connect`)."""
    connection = connect(jvm, url, properties)
    try:
        connection.setAutoCommit(False)
        for sql, rows in statements:
            if not rows:
                continue
            statement = connection.prepareStatement(sql)
            for start in range(0, len(rows), batch_size):
                for row in rows[start:start + batch_size]:
                    bind(jvm, statement, row)
                    statement.addBatch()
                statement.executeBatch()
        connection.commit()
    except BaseException:
        connection.rollback()
        raise
    finally:
        connection.close()


def connect(jvm: Any, url: str, properties: Dict[str, str]) -> Any:
    """A JDBC connection to ``url`` from the driver's JVM, with the connection ``properties``
    (``user``, ``password``), the driver class (``driver``) registered as Spark's JDBC source
    registers it, so that a jar added to Spark is found too."""
    j_properties = jvm.java.util.Properties()
    for key, value in properties.items():
        j_properties.setProperty(key, value)
    driver = properties.get("driver")
    if driver:
        jvm.org.apache.spark.sql.execution.datasources.jdbc.DriverRegistry.register(driver)
    return jvm.java.sql.DriverManager.getConnection(url, j_properties)


def bind(jvm: Any, statement: Any, values: Iterable[Any]) -> None:
    """Set the parameters of the prepared ``statement`` to ``values``, as JDBC takes them."""
    for index, value in enumerate(values, 1):
        statement.setObject(index, _java_value(jvm, value))


def _java_value(jvm: Any, value: Any) -> Any:
    if isinstance(value, datetime.datetime):
        return jvm.java.sql.Timestamp.valueOf(value.strftime("%Y-%m-%d %H:%M:%S.%f"))
    if isinstance(value, datetime.date):
        return jvm.java.sql.Date.valueOf(value.isoformat())
    if isinstance(value, datetime.time):
        return jvm.java.sql.Time.valueOf(value.strftime("%H:%M:%S"))
    if isinstance(value, decimal.Decimal):
        return jvm.java.math.BigDecimal(str(value))
    if isinstance(value, (bytes, bytearray)):
        return bytearray(value)
    return value
