"""An updating query written into a filesystem table of format canal-json gives Flink's
canal-json lines: an INSERT per new row, a DELETE of the old row and an INSERT of the new one
per update (as recorded from live PyFlink 1.20.5's word count example with --output)."""

from __future__ import annotations

import json
from typing import Any

from pyflink_compat.connectors.changelog_files import ChangelogFileWriter
from pyflink_compat.spark.session import base_session


def test_an_update_is_written_as_a_delete_of_the_old_row_and_an_insert_of_the_new_one() -> None:
    writer = ChangelogFileWriter("unused", ["word", "count"], True, [0])
    assert writer.lines([("A", 1)]) == ['{"data":[{"word":"A","count":1}],"type":"INSERT"}']
    assert writer.lines([("A", 2), ("b", 1)]) == [
        '{"data":[{"word":"A","count":1}],"type":"DELETE"}',
        '{"data":[{"word":"A","count":2}],"type":"INSERT"}',
        '{"data":[{"word":"b","count":1}],"type":"INSERT"}']


def test_a_grouped_insert_into_a_canal_json_table_writes_a_change_per_input_row(
        t_env: Any, tmp_path: Any, spark: Any) -> None:
    out = tmp_path / "out"
    t_env.execute_sql("CREATE TABLE sink (w STRING, n BIGINT) WITH ('connector'='filesystem', "
                      "'path'='{}', 'format'='canal-json')".format(out))
    words = t_env.from_elements([('a',), ('b',), ('a',)], ['w'])
    t_env.execute_sql("INSERT INTO sink SELECT w, COUNT(*) FROM %s GROUP BY w" % words).wait()
    lines = [json.loads(line) for path in sorted(out.glob("part-*")) for line in
             path.read_text().splitlines()]
    # PyFlink 1.20.5 (mini-batch off): each input row changes its word's count
    changes = [(r["type"], r["data"][0]["w"], r["data"][0]["n"]) for r in lines]
    assert [c for c in changes if c[1] == "a"] == [
        ("INSERT", "a", 1), ("DELETE", "a", 1), ("INSERT", "a", 2)]
    assert [c for c in changes if c[1] == "b"] == [("INSERT", "b", 1)]
    # the writer's micro-batch session is not left behind as the process's session
    assert base_session() is spark
