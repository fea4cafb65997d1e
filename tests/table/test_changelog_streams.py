"""A changelog DataStream of ``Row`` s whose kinds (``+I``, ``-U``, ``+U``, ``-D``) insert, update
and delete rows is read as a table holding the rows Flink's table ends with; changelog modes and
result schemas are PyFlink's.

Expected values were recorded from live PyFlink 1.20.5 (parallelism 1) running the same calls:
over the changelog ``+I Alice 12, +I Bob 5, -U Alice 12, +U Alice 100, -D Bob 5`` a query that
projects and filters prints each change with its kind, in order; an upsert changelog's records
are normalized first (a key's later row gives ``-U`` of its row before, then ``+U``; ``-D`` the
row before). A ``GROUP BY f0`` with ``COUNT(*)`` and ``SUM(f1)`` prints ``+I Alice 1 12, +I Bob
1 5, -D Alice 1 12, +I Alice 1 100, -D Bob 1 5``, as here, where the group aggregation of one
changelog table (with group keys or without, with ``HAVING`` or without) retracts its ``-U`` and
``-D`` rows. A query calling a Python function reads the rows the changes leave (the divergence
``changelog-collection-net-rows``), so only its final rows are given.
"""

from __future__ import annotations

from typing import Any, List

from pyflink_compat.common import Row, RowKind
from pyflink_compat.divergences import RUNTIME_DIVERGENCES
from pyflink_compat.sql.changelog_streams import net_rows
from pyflink_compat.table import ChangelogMode


def _changelog() -> List[Any]:
    return [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
            Row.of_kind(RowKind.UPDATE_BEFORE, "Alice", 12),
            Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.DELETE, "Bob", 5)]


def _printed(capsys: Any) -> List[str]:
    return [line for line in capsys.readouterr().out.splitlines() if line]


def test_changelog_modes_hold_the_row_kinds_flink_names() -> None:
    assert repr(ChangelogMode.insert_only()) == "[INSERT]"
    assert repr(ChangelogMode.upsert()) == "[INSERT, UPDATE_AFTER, DELETE]"
    assert repr(ChangelogMode.all()) == "[INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE]"
    assert ChangelogMode.all() == ChangelogMode.all() != ChangelogMode.upsert()


def test_retractions_take_back_an_equal_row_and_upserts_replace_the_row_of_their_key() -> None:
    remaining = net_rows(_changelog(), None)
    assert [(tuple(r), r.get_row_kind()) for r in remaining] == [(("Alice", 100), RowKind.INSERT)]
    upserts = [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
               Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.INSERT, "Eve", 1),
               Row.of_kind(RowKind.DELETE, "Bob", None)]
    assert [tuple(r) for r in net_rows(upserts, [0])] == [("Alice", 100), ("Eve", 1)]


def test_flinks_upsert_normalization_gives_each_key_its_update_before_and_deletes_the_stored_row() -> None:
    from pyflink_compat.sql.changelog_streams import flink_changes

    upserts = [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
               Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.INSERT, "Eve", 1),
               Row.of_kind(RowKind.DELETE, "Bob", None), Row.of_kind(RowKind.DELETE, "Zed", None)]
    assert flink_changes(upserts, [0]) == [
        ("+I", ("Alice", 12)), ("+I", ("Bob", 5)), ("-U", ("Alice", 12)), ("+U", ("Alice", 100)),
        ("+I", ("Eve", 1)), ("-D", ("Bob", 5))]
    assert [kind for kind, _ in flink_changes(_changelog(), None)] == ["+I", "+I", "-U", "+U", "-D"]


def test_projections_and_filters_of_a_changelog_print_each_change_with_its_kind(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.table import Schema

    env = t_env.stream_execution_environment
    changes = env.from_collection(_changelog(), type_info=Types.ROW([Types.STRING(), Types.INT()]))
    table = t_env.from_changelog_stream(changes)
    t_env.create_temporary_view("Changes", table)
    # recorded from PyFlink 1.20.5
    t_env.execute_sql("SELECT f0, f1 + 1 AS g FROM Changes WHERE f1 > 6").print()
    assert _printed(capsys) == [
        "+----+--------------------------------+-------------+",
        "| op |                             f0 |           g |",
        "+----+--------------------------------+-------------+",
        "| +I |                          Alice |          13 |",
        "| -U |                          Alice |          13 |",
        "| +U |                          Alice |         101 |",
        "+----+--------------------------------+-------------+",
        "3 rows in set"]
    with table.execute().collect() as results:
        assert [(str(r.get_row_kind()), tuple(r)) for r in results] == [
            ("+I", ("Alice", 12)), ("+I", ("Bob", 5)), ("-U", ("Alice", 12)),
            ("+U", ("Alice", 100)), ("-D", ("Bob", 5))]
    upserts = env.from_collection(
        [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
         Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.INSERT, "Eve", 1),
         Row.of_kind(RowKind.DELETE, "Bob", None)],
        type_info=Types.ROW([Types.STRING(), Types.INT()]))
    t_env.create_temporary_view("Upserts", t_env.from_changelog_stream(
        upserts, Schema.new_builder().primary_key("f0").build(), ChangelogMode.upsert()))
    t_env.execute_sql("CREATE TABLE printed (a STRING, b INT) WITH ('connector'='print')")
    t_env.execute_sql("INSERT INTO printed SELECT * FROM Upserts").wait()
    assert _printed(capsys) == ["+I[Alice, 12]", "+I[Bob, 5]", "-U[Alice, 12]", "+U[Alice, 100]",
                                "+I[Eve, 1]", "-D[Bob, 5]"]
    upsert_view = t_env.from_path("Upserts")
    upsert_view.where(upsert_view.f1 > 3).execute_insert("printed").wait()
    assert _printed(capsys) == ["+I[Alice, 12]", "+I[Bob, 5]", "-U[Alice, 12]", "+U[Alice, 100]",
                                "-D[Bob, 5]"]


def _changes(result: Any) -> List[str]:
    with result.collect() as rows:
        return ["{}{}".format(row.get_row_kind(), list(row)) for row in rows]


def _of_key(changes: List[str], key: str) -> List[str]:
    return [c for c in changes if c[3:].startswith("'{}',".format(key))]


def test_a_group_by_over_a_changelog_stream_retracts_and_deletes_an_emptied_group(
        t_env: Any) -> None:
    from pyflink_compat.common.typeinfo import Types

    env = t_env.stream_execution_environment
    changes = env.from_collection(_changelog(), type_info=Types.ROW([Types.STRING(), Types.INT()]))
    t_env.create_temporary_view("Changes", t_env.from_changelog_stream(changes))
    # recorded from PyFlink 1.20.5 (parallelism 1): +I[Alice, 1, 12, 12, 12], +I[Bob, 1, 5, 5, 5],
    # -D[Alice, 1, 12, 12, 12], +I[Alice, 1, 100, 100, 100], -D[Bob, 1, 5, 5, 5]
    result = t_env.execute_sql(
        "SELECT f0, COUNT(*) AS c, SUM(f1) AS s, MIN(f1) AS mi, MAX(f1) AS ma FROM Changes GROUP BY f0")
    found = _changes(result)
    assert _of_key(found, "Alice") == ["+I['Alice', 1, 12, 12, 12]", "-D['Alice', 1, 12, 12, 12]",
                                       "+I['Alice', 1, 100, 100, 100]"]
    assert _of_key(found, "Bob") == ["+I['Bob', 1, 5, 5, 5]", "-D['Bob', 1, 5, 5, 5]"]
    assert len(found) == 5
    assert result.get_table_schema().get_field_names() == ["f0", "c", "s", "mi", "ma"]


def _more_view(t_env: Any) -> None:
    """View ``More``: a changelog of two keys whose changes uncover earlier minima and maxima."""
    from pyflink_compat.common.typeinfo import Types

    rows = [Row.of_kind(RowKind.INSERT, "a", 1), Row.of_kind(RowKind.INSERT, "a", 5),
            Row.of_kind(RowKind.INSERT, "a", 3), Row.of_kind(RowKind.UPDATE_BEFORE, "a", 1),
            Row.of_kind(RowKind.UPDATE_AFTER, "a", 7), Row.of_kind(RowKind.DELETE, "a", 5),
            Row.of_kind(RowKind.INSERT, "b", 2), Row.of_kind(RowKind.DELETE, "b", 2),
            Row.of_kind(RowKind.INSERT, "b", 4)]
    t_env.create_temporary_view("More", t_env.from_changelog_stream(
        t_env.stream_execution_environment.from_collection(
            rows, type_info=Types.ROW([Types.STRING(), Types.INT()]))))


def test_minimum_and_maximum_over_a_changelog_keep_every_value_a_retraction_may_uncover(
        t_env: Any) -> None:
    _more_view(t_env)
    found = _changes(t_env.execute_sql(
        "SELECT f0, COUNT(f1) AS c, SUM(f1) AS s, AVG(f1) AS av, MIN(f1) AS mi, MAX(f1) AS ma "
        "FROM More GROUP BY f0"))
    # recorded from PyFlink 1.20.5 (parallelism 1)
    assert _of_key(found, "a") == [
        "+I['a', 1, 1, 1, 1, 1]", "-U['a', 1, 1, 1, 1, 1]", "+U['a', 2, 6, 3, 1, 5]",
        "-U['a', 2, 6, 3, 1, 5]", "+U['a', 3, 9, 3, 1, 5]", "-U['a', 3, 9, 3, 1, 5]",
        "+U['a', 2, 8, 4, 3, 5]", "-U['a', 2, 8, 4, 3, 5]", "+U['a', 3, 15, 5, 3, 7]",
        "-U['a', 3, 15, 5, 3, 7]", "+U['a', 2, 10, 5, 3, 7]"]
    assert _of_key(found, "b") == ["+I['b', 1, 2, 2, 2, 2]", "-D['b', 1, 2, 2, 2, 2]",
                                   "+I['b', 1, 4, 4, 4, 4]"]


def test_an_aggregate_without_group_keys_of_an_upsert_changelog_prints_flinks_changes(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.table import Schema

    env = t_env.stream_execution_environment
    upserts = env.from_collection(
        [Row.of_kind(RowKind.INSERT, "Alice", 12), Row.of_kind(RowKind.INSERT, "Bob", 5),
         Row.of_kind(RowKind.UPDATE_AFTER, "Alice", 100), Row.of_kind(RowKind.DELETE, "Bob", 5)],
        type_info=Types.ROW([Types.STRING(), Types.INT()]))
    upsert_table = t_env.from_changelog_stream(
        upserts, Schema.new_builder().primary_key("f0").build(), ChangelogMode.upsert())
    t_env.create_temporary_view("Upserts", upsert_table)
    # recorded: the upsert table's key column is NOT NULL (f0: STRING NOT NULL, f1: INT)
    assert [repr(t) for t in upsert_table.get_schema().get_field_data_types()] == [
        "VarCharType(2147483647, false)", "IntType(true)"]
    # recorded from PyFlink 1.20.5: the global aggregate's first row is +I, each later one a
    # -U/+U pair
    t_env.execute_sql("SELECT COUNT(*) AS c, SUM(f1) AS s, MAX(f1) AS ma FROM Upserts").print()
    assert _printed(capsys) == [
        "+----+----------------------+-------------+-------------+",
        "| op |                    c |           s |          ma |",
        "+----+----------------------+-------------+-------------+",
        "| +I |                    1 |          12 |          12 |",
        "| -U |                    1 |          12 |          12 |",
        "| +U |                    2 |          17 |          12 |",
        "| -U |                    2 |          17 |          12 |",
        "| +U |                    1 |           5 |           5 |",
        "| -U |                    1 |           5 |           5 |",
        "| +U |                    2 |         105 |         100 |",
        "| -U |                    2 |         105 |         100 |",
        "| +U |                    1 |         100 |         100 |",
        "+----+----------------------+-------------+-------------+",
        "9 rows in set"]


def test_an_aggregate_without_group_keys_deletes_its_row_when_every_row_is_retracted(
        t_env: Any) -> None:
    from pyflink_compat.common.typeinfo import Types

    env = t_env.stream_execution_environment
    rows = [Row.of_kind(RowKind.INSERT, "a", 1), Row.of_kind(RowKind.DELETE, "a", 1),
            Row.of_kind(RowKind.INSERT, "b", 2), Row.of_kind(RowKind.UPDATE_BEFORE, "b", 2),
            Row.of_kind(RowKind.UPDATE_AFTER, "b", 3), Row.of_kind(RowKind.DELETE, "b", 3)]
    t_env.create_temporary_view("Emptied", t_env.from_changelog_stream(
        env.from_collection(rows, type_info=Types.ROW([Types.STRING(), Types.INT()]))))
    # recorded from PyFlink 1.20.5: a count of 0 deletes the row, the next row inserts anew
    assert _changes(t_env.execute_sql(
        "SELECT COUNT(*) AS c, SUM(f1) AS s, MAX(f1) AS ma FROM Emptied")) == [
        "+I[1, 1, 1]", "-D[1, 1, 1]", "+I[1, 2, 2]", "-D[1, 2, 2]", "+I[1, 3, 3]", "-D[1, 3, 3]"]
    changes = t_env.from_path("Emptied")
    assert _changes(changes.where(changes.f1 > 1).select(changes.f1.sum.alias("s")).execute()) == [
        "+I[2]", "-D[2]", "+I[3]", "-D[3]"]


def test_having_over_a_changelog_aggregate_filters_each_change_keeping_its_kind(
        t_env: Any) -> None:
    from pyflink_compat.common.typeinfo import Types

    env = t_env.stream_execution_environment
    t_env.create_temporary_view("Changes", t_env.from_changelog_stream(
        env.from_collection(_changelog(), type_info=Types.ROW([Types.STRING(), Types.INT()]))))
    # recorded from PyFlink 1.20.5
    found = _changes(t_env.execute_sql(
        "SELECT f0, SUM(f1) AS s FROM Changes GROUP BY f0 HAVING SUM(f1) > 10"))
    assert found == ["+I['Alice', 12]", "-D['Alice', 12]", "+I['Alice', 100]"]
    _more_view(t_env)
    # the group's first result fails the condition: its first change that passes is a +U
    assert _changes(t_env.execute_sql(
        "SELECT f0, COUNT(*) AS c, SUM(f1) AS s FROM More GROUP BY f0 HAVING SUM(f1) > 5")) == [
        "+U['a', 2, 6]", "-U['a', 2, 6]", "+U['a', 3, 9]", "-U['a', 3, 9]", "+U['a', 2, 8]",
        "-U['a', 2, 8]", "+U['a', 3, 15]", "-U['a', 3, 15]", "+U['a', 2, 10]"]


def test_a_python_function_over_a_changelog_reads_the_rows_its_changes_leave(t_env: Any) -> None:
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.udf import udf

    env = t_env.stream_execution_environment
    t_env.create_temporary_view("Changes", t_env.from_changelog_stream(
        env.from_collection(_changelog(), type_info=Types.ROW([Types.STRING(), Types.INT()]))))
    t_env.create_temporary_function("plus_one", udf(lambda v: v + 1, result_type=DataTypes.INT()))
    # recorded from PyFlink 1.20.5: +I[Alice, 13], +I[Bob, 6], -U[Alice, 13], +U[Alice, 101],
    # -D[Bob, 6]; divergence 'changelog-collection-net-rows': the query reads the rows the
    # changes leave, so only the final table is the same
    assert _changes(t_env.execute_sql("SELECT f0, plus_one(f1) AS g FROM Changes")) == [
        "+I['Alice', 101]"]
    assert any(d.id == "changelog-collection-net-rows" for d in RUNTIME_DIVERGENCES)


def test_a_results_table_schema_is_flinks_for_a_query_an_insert_and_ddl(t_env: Any) -> None:
    ddl = t_env.execute_sql("CREATE TABLE snk (a INT) WITH ('connector'='blackhole')")
    assert ddl.get_table_schema().get_field_names() == ["result"]
    assert repr(ddl.get_table_schema().get_field_data_types()) == "[VarCharType(2147483647, true)]"
    words = t_env.from_elements([("a", 1)], ["w", "n"])
    query = t_env.execute_sql("SELECT w, n FROM %s" % words)
    assert query.get_table_schema().get_field_names() == ["w", "n"]
    assert repr(query.get_table_schema().get_field_data_types()) == \
        "[VarCharType(2147483647, true), BigIntType(true)]"
    insert = t_env.execute_sql("INSERT INTO snk SELECT 1")
    assert insert.get_table_schema().get_field_names() == ["default_catalog.default_database.snk"]
    assert repr(insert.get_table_schema().get_field_data_types()) == "[BigIntType(true)]"
    insert.wait()


def test_a_declared_primary_key_is_a_constraint_line_of_the_schema(t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.table import Schema

    env = t_env.stream_execution_environment
    upserts = env.from_collection([Row.of_kind(RowKind.INSERT, "Alice", 12)],
                                  type_info=Types.ROW([Types.STRING(), Types.INT()]))
    table = t_env.from_changelog_stream(
        upserts, Schema.new_builder().primary_key("f0").build(), ChangelogMode.upsert())
    t_env.execute_sql("CREATE TABLE k (id INT, name STRING, CONSTRAINT my_pk PRIMARY KEY (id, name) "
                      "NOT ENFORCED) WITH ('connector'='datagen', 'number-of-rows'='1')")
    t_env.execute_sql("CREATE TABLE k1 (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) "
                      "WITH ('connector'='datagen', 'number-of-rows'='1')")
    # recorded from PyFlink 1.20.5
    table.print_schema()
    assert _printed(capsys) == ["(", "  `f0` STRING NOT NULL,", "  `f1` INT,",
                                "  CONSTRAINT `PK_f0` PRIMARY KEY (`f0`) NOT ENFORCED", ")"]
    assert str(table.get_schema()) == (
        "root\n |-- f0: STRING NOT NULL\n |-- f1: INT\n |-- CONSTRAINT PK_f0 PRIMARY KEY (f0)\n")
    t_env.from_path("k").print_schema()
    assert _printed(capsys) == ["(", "  `id` INT NOT NULL,", "  `name` STRING NOT NULL,",
                                "  CONSTRAINT `my_pk` PRIMARY KEY (`id`, `name`) NOT ENFORCED", ")"]
    assert str(t_env.from_path("k1").get_schema()) == (
        "root\n |-- id: INT NOT NULL\n |-- name: STRING\n |-- CONSTRAINT PK_id PRIMARY KEY (id)\n")
    named = Schema.new_builder().column("f0", "STRING NOT NULL").primary_key_named("pk_f0", "f0").build()
    assert str(named).splitlines()[-2:] == ["  CONSTRAINT `pk_f0` PRIMARY KEY (`f0`) NOT ENFORCED", ")"]


def test_the_changelog_and_retract_streams_of_a_changelog_give_each_change(t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common.typeinfo import Types

    env = t_env.stream_execution_environment
    table = t_env.from_changelog_stream(
        env.from_collection(_changelog(), type_info=Types.ROW([Types.STRING(), Types.INT()])))
    t_env.to_changelog_stream(table.where(table.f1 > 6)).print()
    env.execute()
    # recorded from PyFlink 1.20.5
    assert _printed(capsys) == ["+I[Alice,12]", "-U[Alice,12]", "+U[Alice,100]"]
    t_env.to_retract_stream(table, Types.ROW([Types.STRING(), Types.INT()])).print()
    env.execute()
    assert _printed(capsys) == ["(true,+I[Alice, 12])", "(true,+I[Bob, 5])", "(false,-U[Alice, 12])",
                                "(true,+U[Alice, 100])", "(false,-D[Bob, 5])"]


def test_an_aggregation_of_an_aggregation_of_a_changelog_is_refused_naming_the_pyspark_way(
        t_env: Any) -> None:
    import pytest

    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.missing import NotSupportedError

    env = t_env.stream_execution_environment
    t_env.create_temporary_view("Changes", t_env.from_changelog_stream(
        env.from_collection(_changelog(), type_info=Types.ROW([Types.STRING(), Types.INT()]))))
    # PyFlink 1.20.5 retracts the inner aggregate's changes in the outer one: +I[1, 1],
    # -U[1, 1], +U[1, 2], -U[1, 2], +U[1, 1], -U[1, 1], +U[1, 2], -U[1, 2], +U[1, 1]
    with pytest.raises(NotSupportedError, match="aggregation of an aggregation.*transformWithState"):
        t_env.execute_sql(
            "SELECT c, COUNT(*) AS n FROM (SELECT f0, COUNT(*) AS c FROM Changes GROUP BY f0) GROUP BY c")


def test_a_print_table_and_the_changelog_stream_of_changelog_aggregates_get_flinks_changes(
        t_env: Any, capsys: Any) -> None:
    from pyflink_compat.common.typeinfo import Types

    env = t_env.stream_execution_environment
    t_env.create_temporary_view("Changes", t_env.from_changelog_stream(
        env.from_collection(_changelog(), type_info=Types.ROW([Types.STRING(), Types.INT()]))))
    # recorded from PyFlink 1.20.5
    t_env.execute_sql("CREATE TABLE q (k STRING, s INT) WITH ('connector'='print')")
    t_env.execute_sql(
        "INSERT INTO q SELECT f0, SUM(f1) FROM Changes GROUP BY f0 HAVING SUM(f1) > 10").wait()
    assert _printed(capsys) == ["+I[Alice, 12]", "-D[Alice, 12]", "+I[Alice, 100]"]
    t_env.to_changelog_stream(t_env.sql_query("SELECT MAX(f1) AS m FROM Changes")).print()
    env.execute()
    assert _printed(capsys) == ["+I[12]", "-U[12]", "+U[5]", "-U[5]", "+U[100]"]
