"""An Apache Derby database for the jdbc tests: embedded in the test session's Spark JVM, whose
jars include Derby's driver. Statements run and rows are read through plain JDBC."""

from __future__ import annotations

from typing import Any, List, Tuple

__all__ = ["run_sql", "query_rows"]


def run_sql(spark: Any, url: str, *statements: str) -> None:
    """Run ``statements`` on the database at ``url``."""
    connection = spark.sparkContext._jvm.java.sql.DriverManager.getConnection(url)
    try:
        for statement in statements:
            connection.createStatement().execute(statement)
    finally:
        connection.close()


def query_rows(spark: Any, url: str, query: str) -> List[Tuple[Any, ...]]:
    """The rows of ``query`` (its columns named), sorted."""
    return sorted(tuple(r) for r in spark.read.format("jdbc").option("url", url)
                  .option("query", query).load().collect())
