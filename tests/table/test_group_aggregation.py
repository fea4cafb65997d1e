"""A grouped aggregate without window, in streaming mode, emits a change per input record, as
Flink's group aggregation does with mini-batch off (its default): ``+I`` for a key's first
result, ``-U`` (the result before) and ``+U`` (the new one) for each row that changes it, and
nothing for a row that leaves it as it was. The expected records were printed by live PyFlink
1.20.5 for the same jobs."""

from __future__ import annotations

from typing import Any, List

_ROWS = [("a", 1), ("b", 2), ("a", 3), ("a", 3), ("b", None), ("a", 0)]


def _changes(result: Any) -> List[str]:
    with result.collect() as rows:
        return ["{}{}".format(row.get_row_kind(), list(row)) for row in rows]


def _of_key(changes: List[str], key: str) -> List[str]:
    return [c for c in changes if "'{}'".format(key) in c]


def _words(t_env: Any) -> None:
    t_env.create_temporary_view("t", t_env.from_elements(_ROWS, ["k", "v"]))


def test_each_row_of_a_key_updates_its_count_sum_average_minimum_and_maximum(t_env: Any) -> None:
    _words(t_env)
    changes = _changes(t_env.execute_sql(
        "SELECT k, COUNT(*) AS c, SUM(v) AS s, AVG(v), MIN(v) AS mi, MAX(v) AS ma, COUNT(v) "
        "FROM t GROUP BY k"))
    flink = ["+I['a', 1, 1, 1, 1, 1, 1]", "+I['b', 1, 2, 2, 2, 2, 1]",
             "-U['a', 1, 1, 1, 1, 1, 1]", "+U['a', 2, 4, 2, 1, 3, 2]",
             "-U['a', 2, 4, 2, 1, 3, 2]", "+U['a', 3, 7, 2, 1, 3, 3]",
             "-U['b', 1, 2, 2, 2, 2, 1]", "+U['b', 2, 2, 2, 2, 2, 1]",
             "-U['a', 3, 7, 2, 1, 3, 3]", "+U['a', 4, 7, 1, 0, 3, 4]"]
    # each key's changes in order; keys interleave in Flink's arrival order, here by key
    assert sorted(changes) == sorted(flink)
    assert _of_key(changes, "a") == _of_key(flink, "a")
    assert _of_key(changes, "b") == _of_key(flink, "b")


def test_a_row_that_leaves_the_result_as_it_was_emits_nothing(t_env: Any) -> None:
    _words(t_env)
    # the second 3, the NULL and the 0 leave the maximum at 3
    assert _changes(t_env.execute_sql("SELECT MAX(v) AS ma FROM t")) == [
        "+I[1]", "-U[1]", "+U[2]", "-U[2]", "+U[3]"]


def test_a_distinct_aggregate_counts_each_value_once(t_env: Any) -> None:
    _words(t_env)
    changes = _changes(t_env.execute_sql(
        "SELECT k, COUNT(DISTINCT v) AS n, SUM(DISTINCT v) AS s FROM t GROUP BY k"))
    assert _of_key(changes, "a") == [
        "+I['a', 1, 1]", "-U['a', 1, 1]", "+U['a', 2, 4]", "-U['a', 2, 4]", "+U['a', 3, 4]"]
    assert _of_key(changes, "b") == ["+I['b', 1, 2]"]


def test_a_table_api_group_by_select_emits_the_same_changes(t_env: Any) -> None:
    from pyflink_compat.table.expressions import col

    table = t_env.from_elements(_ROWS, ["k", "v"])
    changes = _changes(table.group_by(col("k")).select(
        col("k"), col("v").sum.alias("s"), col("v").count.alias("n")).execute())
    assert _of_key(changes, "a") == [
        "+I['a', 1, 1]", "-U['a', 1, 1]", "+U['a', 4, 2]", "-U['a', 4, 2]", "+U['a', 7, 3]",
        "-U['a', 7, 3]", "+U['a', 7, 4]"]
    assert _of_key(changes, "b") == ["+I['b', 2, 1]"]


def test_mini_batch_aggregation_and_an_expression_over_an_aggregate_give_a_keys_last_result_per_micro_batch(
        t_env: Any) -> None:
    _words(t_env)
    t_env.get_config().set("table.exec.mini-batch.enabled", "true")
    t_env.get_config().set("table.exec.mini-batch.allow-latency", "1 s")
    t_env.get_config().set("table.exec.mini-batch.size", "1000")
    # PyFlink 1.20.5 with mini-batch on: +I['b', 2], +I['a', 4]
    assert sorted(_changes(t_env.execute_sql("SELECT k, COUNT(*) AS c FROM t GROUP BY k"))) == [
        "+I['a', 4]", "+I['b', 2]"]
    t_env.get_config().set("table.exec.mini-batch.enabled", "false")
    # PyFlink 1.20.5: +I['a', 1], +I['b', 1], -U['a', 1], +U['a', 2], ... +U['a', 4];
    # divergence 'updates-per-micro-batch': with an expression over an aggregate, Spark's
    # aggregation gives a key's last result of the micro-batch (one micro-batch here)
    assert sorted(_changes(t_env.execute_sql(
        "SELECT k, COUNT(*) + 0 AS c FROM t GROUP BY k"))) == ["+I['a', 4]", "+I['b', 2]"]


def test_having_filters_each_change_of_the_aggregate_keeping_its_kind(t_env: Any) -> None:
    _words(t_env)
    # recorded from PyFlink 1.20.5: a key's first result fails the condition, so its first
    # change that passes is a +U
    changes = _changes(t_env.execute_sql(
        "SELECT k, COUNT(*) AS c FROM t GROUP BY k HAVING COUNT(*) > 1"))
    flink = ["+U['a', 2]", "-U['a', 2]", "+U['a', 3]", "+U['b', 2]", "-U['a', 3]", "+U['a', 4]"]
    assert sorted(changes) == sorted(flink)
    assert _of_key(changes, "a") == _of_key(flink, "a")
