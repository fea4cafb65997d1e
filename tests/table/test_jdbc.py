"""``'connector' = 'jdbc'`` against a real database: Apache Derby, embedded in Spark's JVM (its
driver ships with Spark). The tables are created and read back through plain JDBC.

Flink's JDBC connector is not part of the PyFlink wheel, so these outcomes follow Flink's
documented semantics rather than a live recording: a bounded scan; append mode without a
primary key (the table must exist; an updating query is refused with the planner's message);
upsert mode with one (the last change of each key wins, a retraction deletes its row).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from pyflink_compat.missing import NotSupportedError

from tests._helpers.derby import query_rows, run_sql


@pytest.fixture
def db(spark: Any, tmp_path: Any) -> str:
    """The URL of a new Derby database in the test's directory."""
    url = "jdbc:derby:{};create=true".format(tmp_path / "db")
    run_sql(spark, url, "CREATE TABLE items (id INT NOT NULL, name VARCHAR(20), price DECIMAL(10, 2))",
         "INSERT INTO items VALUES (1, 'apple', 1.50), (2, 'pear', 2.25), (3, 'plum', NULL)")
    return url


def _declare(t_env: Any, name: str, columns: str, url: str, table: str) -> None:
    t_env.execute_sql("CREATE TABLE {} ({}) WITH ('connector' = 'jdbc', 'url' = '{}', "
                      "'table-name' = '{}')".format(name, columns, url, table))


def test_a_jdbc_table_is_read_once_with_its_declared_types(t_env: Any, db: str) -> None:
    _declare(t_env, "items", "id INT, name STRING, price DECIMAL(10, 2)", db, "items")
    rows = [tuple(r) for r in t_env.execute_sql(
        "SELECT name, price * 2 AS twice FROM items WHERE id < 3").collect()]
    assert sorted(rows) == [("apple", Decimal("3.00")), ("pear", Decimal("4.50"))]


def test_an_append_only_insert_adds_the_rows_to_the_existing_table(t_env: Any, db: str, spark: Any) -> None:
    _declare(t_env, "items", "id INT, name STRING, price DECIMAL(10, 2)", db, "items")
    t_env.execute_sql("CREATE TEMPORARY VIEW more AS SELECT * FROM (VALUES (4, 'fig', 3.10), "
                      "(5, 'kiwi', 0.99)) AS t(id, name, price)")
    t_env.execute_sql("INSERT INTO items SELECT id, name, price FROM more").wait()
    assert query_rows(spark, db, "SELECT id, name FROM items") == [
        (1, "apple"), (2, "pear"), (3, "plum"), (4, "fig"), (5, "kiwi")]


def test_an_insert_into_a_table_the_database_lacks_fails_and_creates_nothing(
        t_env: Any, db: str, spark: Any) -> None:
    _declare(t_env, "missing", "id INT", db, "nowhere")
    with pytest.raises(Exception, match="(?i)nowhere"):
        t_env.execute_sql("INSERT INTO missing VALUES (1)").wait()
    assert query_rows(spark, db, "SELECT COUNT(*) AS n FROM SYS.SYSTABLES WHERE TABLENAME = 'NOWHERE'") == [(0,)]


def test_an_updating_query_into_a_table_without_primary_key_is_refused_as_flink_refuses_it(
        t_env: Any, db: str) -> None:
    from pyflink_compat.util.exceptions import TableException

    _declare(t_env, "totals", "name STRING, n BIGINT", db, "totals")
    t_env.execute_sql("CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES ('a'), ('b'), ('a')) AS t(name)")
    with pytest.raises(TableException, match="Table sink 'default_catalog.default_database.totals' "
                       "doesn't support consuming update changes"):
        t_env.execute_sql("INSERT INTO totals SELECT name, COUNT(*) FROM src GROUP BY name")


def test_with_a_primary_key_each_key_keeps_its_last_change_and_existing_rows_are_replaced(
        t_env: Any, db: str, spark: Any) -> None:
    run_sql(spark, db, "CREATE TABLE totals (name VARCHAR(10) NOT NULL PRIMARY KEY, n BIGINT)",
         "INSERT INTO totals VALUES ('a', 100), ('z', 7)")
    t_env.execute_sql("CREATE TABLE totals (name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED) "
                      "WITH ('connector' = 'jdbc', 'url' = '{}', 'table-name' = 'totals')".format(db))
    t_env.execute_sql("CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES ('a'), ('b'), ('a'), ('c'), "
                      "('a')) AS t(name)")
    t_env.execute_sql("INSERT INTO totals SELECT name, COUNT(*) FROM src GROUP BY name").wait()
    assert query_rows(spark, db, "SELECT name, n FROM totals") == [("a", 3), ("b", 1), ("c", 1), ("z", 7)]


def test_an_option_spark_cannot_honour_is_refused_before_anything_runs(t_env: Any, db: str) -> None:
    t_env.execute_sql("CREATE TABLE items (id INT) WITH ('connector' = 'jdbc', 'url' = '{}', "
                      "'table-name' = 'items', 'scan.partition.column' = 'id')".format(db))
    with pytest.raises(NotSupportedError, match="scan.partition.column"):
        t_env.execute_sql("SELECT * FROM items")


def test_an_updating_insert_into_kafka_is_refused_as_flink_refuses_it(t_env: Any) -> None:
    from pyflink_compat.util.exceptions import TableException

    t_env.execute_sql("CREATE TABLE out (name STRING, n BIGINT) WITH ('connector' = 'kafka', "
                      "'topic' = 't', 'properties.bootstrap.servers' = 'localhost:9092', "
                      "'format' = 'json')")
    t_env.execute_sql("CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES ('a'), ('b')) AS t(name)")
    with pytest.raises(TableException, match="doesn't support consuming update changes"):
        t_env.execute_sql("INSERT INTO out SELECT name, COUNT(*) FROM src GROUP BY name")


def test_with_a_primary_key_a_retracted_row_is_deleted(t_env: Any, db: str, spark: Any) -> None:
    run_sql(spark, db, "CREATE TABLE rare (name VARCHAR(10) NOT NULL PRIMARY KEY, n BIGINT)",
         "INSERT INTO rare VALUES ('a', 100)")
    t_env.execute_sql("CREATE TABLE rare (name STRING, n BIGINT, PRIMARY KEY (name) NOT ENFORCED) "
                      "WITH ('connector' = 'jdbc', 'url' = '{}', 'table-name' = 'rare')".format(db))
    t_env.execute_sql("CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES ('a'), ('b'), ('a'), ('c'), "
                      "('a')) AS t(name)")
    # 'a' is inserted with 1, then retracted (-D) once its count reaches 2
    t_env.execute_sql("INSERT INTO rare SELECT name, COUNT(*) FROM src GROUP BY name "
                      "HAVING COUNT(*) < 2").wait()
    assert query_rows(spark, db, "SELECT name, n FROM rare") == [("b", 1), ("c", 1)]


def test_a_lookup_join_sees_the_rows_of_planning_time_a_registered_divergence(
        t_env: Any, db: str, spark: Any, capsys: Any) -> None:
    from pyflink_compat.divergences import RUNTIME_DIVERGENCES

    t_env.execute_sql("CREATE TABLE orders (id INT, pt AS PROCTIME()) WITH ('connector' = 'datagen', "
                      "'number-of-rows' = '4', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                      "'fields.id.end' = '4')")
    _declare(t_env, "items", "id INT, name STRING, price DECIMAL(10, 2)", db, "items")
    t_env.execute_sql("CREATE TABLE shown (id INT, name STRING) WITH ('connector' = 'print')")
    statements = t_env.create_statement_set()
    statements.add_insert_sql("INSERT INTO shown SELECT o.id, i.name FROM orders AS o "
                              "JOIN items FOR SYSTEM_TIME AS OF o.pt AS i ON o.id = i.id")
    run_sql(spark, db, "INSERT INTO items VALUES (4, 'fig', 3.10)")  # after planning, before running
    statements.execute().wait()
    printed = sorted(line for line in capsys.readouterr().out.splitlines() if line.startswith("+I"))
    # Flink looks each order up as it comes, and finds item 4 too
    assert printed == ["+I[1, apple]", "+I[2, pear]", "+I[3, plum]"]
    assert "table/jdbc-read-when-planned" in [s for d in RUNTIME_DIVERGENCES for s in d.steps]


def test_in_batch_mode_an_aggregate_writes_its_final_rows_into_a_table_without_key(spark: Any, db: str) -> None:
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment

    run_sql(spark, db, "CREATE TABLE counts (name VARCHAR(10), n BIGINT)")
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    _declare(t_env, "counts", "name STRING, n BIGINT", db, "counts")
    t_env.execute_sql("CREATE TEMPORARY VIEW src AS SELECT * FROM (VALUES ('a'), ('b'), ('a')) AS t(name)")
    t_env.execute_sql("INSERT INTO counts SELECT name, COUNT(*) FROM src GROUP BY name").wait()
    assert query_rows(spark, db, "SELECT name, n FROM counts") == [("a", 2), ("b", 1)]
