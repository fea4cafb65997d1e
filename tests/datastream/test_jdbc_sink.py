"""A DataStream's ``JdbcSink`` against a real database: Apache Derby, embedded in Spark's JVM
(its driver ships with Spark). Flink's JDBC connector is not part of the PyFlink wheel, so the
outcomes follow its documented behaviour: the statement runs once per record, with the
record's fields as its parameters."""

from __future__ import annotations

from typing import Any

import pytest

from tests._helpers.derby import query_rows, run_sql


@pytest.fixture
def db(spark: Any, tmp_path: Any) -> str:
    url = "jdbc:derby:{};create=true".format(tmp_path / "db")
    run_sql(spark, url, "CREATE TABLE books (id INT NOT NULL PRIMARY KEY, title VARCHAR(40), price DOUBLE)")
    return url


def test_each_record_runs_the_statement_with_its_fields(spark: Any, db: str) -> None:
    from pyflink_compat.common import Row, Types
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.connectors.jdbc import (
        JdbcConnectionOptions, JdbcExecutionOptions, JdbcSink)

    env = StreamExecutionEnvironment.get_execution_environment()
    type_info = Types.ROW([Types.INT(), Types.STRING(), Types.DOUBLE()])
    books = env.from_collection([(101, "Stream Processing", 59.9), (102, "Spark", 42.0), (103, None, None)],
                                type_info=type_info)
    books.map(lambda b: Row(b[0], b[1].upper() if b[1] else b[1], b[2]), output_type=type_info).add_sink(
        JdbcSink.sink("INSERT INTO books (id, title, price) VALUES (?, ?, ?)", type_info,
                      JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(db)
                      .with_driver_name("org.apache.derby.iapi.jdbc.AutoloadedDriver").build(),
                      JdbcExecutionOptions.builder().with_batch_size(2).with_max_retries(0).build()))
    env.execute("jdbc sink")
    assert query_rows(spark, db, "SELECT id, title, price FROM books") == [
        (101, "STREAM PROCESSING", 59.9), (102, "SPARK", 42.0), (103, None, None)]


def test_a_statement_the_database_refuses_fails_the_job_after_its_retries(spark: Any, db: str) -> None:
    from pyflink_compat.common import Types
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.connectors.jdbc import JdbcConnectionOptions, JdbcSink

    env = StreamExecutionEnvironment.get_execution_environment()
    type_info = Types.ROW([Types.INT(), Types.STRING()])
    env.from_collection([(1, "a"), (1, "again")], type_info=type_info).add_sink(
        JdbcSink.sink("INSERT INTO books (id, title) VALUES (?, ?)", type_info,
                      JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url(db).build()))
    with pytest.raises(Exception, match="(?i)duplicate key"):
        env.execute("jdbc sink")
    assert query_rows(spark, db, "SELECT id FROM books") == []  # each attempt rolled back


def test_the_options_read_back_as_built_with_flinks_defaults() -> None:
    from pyflink_compat.datastream.connectors.jdbc import JdbcConnectionOptions, JdbcExecutionOptions

    options = JdbcConnectionOptions.JdbcConnectionOptionsBuilder().with_url("jdbc:x:y") \
        .with_user_name("u").with_password("p").build()
    assert (options.get_db_url(), options.get_user_name(), options.get_password(),
            options.get_driver_name()) == ("jdbc:x:y", "u", "p", None)
    defaults = JdbcExecutionOptions.defaults()
    assert (defaults.get_batch_size(), defaults.get_batch_interval_ms(), defaults.get_max_retries()) == (5000, 0, 3)
