"""``--to-pyspark`` writes native PySpark that prints what the runtime prints; the default port
keeps the pipeline for the runtimes and writes no Spark console sink."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import List

import pytest

from pyflink_compat.porting.command import port_text
from pyflink_compat.porting.report import Outcome

#: 28 rows printed (more than the 20 Spark's console sink shows), labels of 22 characters
#: (more than the 20 it keeps of a value).
TABLE_JOB = textwrap.dedent('''\
    from pyflink.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("""CREATE TABLE numbers (id BIGINT, label STRING) WITH ('connector' = 'datagen',
        'number-of-rows' = '30', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '30',
        'fields.label.kind' = 'sequence', 'fields.label.start' = '1000000000000000000000',
        'fields.label.end' = '1000000000000000000029')""")
    t_env.execute_sql("CREATE TABLE shown (id BIGINT, label STRING) WITH ('connector' = 'print')")
    t_env.execute_sql("INSERT INTO shown SELECT id, label FROM numbers WHERE id > 2").wait()
    ''')


def _printed(code: str, tmp_path: Path, capfd: pytest.CaptureFixture[str], name: str) -> List[str]:
    path = tmp_path / (name + ".py")
    path.write_text(code)
    capfd.readouterr()
    exec(compile(code, str(path), "exec"), {"__name__": "__main__"})
    return sorted(line for line in capfd.readouterr().out.splitlines() if line.startswith(("+I", "-U", "+U")))


def test_the_written_pyspark_prints_every_row_the_runtime_prints_uncut(tmp_path, capfd):
    native, report = port_text(TABLE_JOB, "job.py", to_pyspark=True)
    assert [f.outcome for f in report.findings if f.line > 2] == [Outcome.REWRITTEN] * 3
    assert "execute_sql" not in native and ".format('console')" not in native
    on_runtime, _ = port_text(TABLE_JOB, "job.py")
    expected = _printed(on_runtime, tmp_path, capfd, "runtime")
    assert len(expected) == 28 and "+I[30, 1000000000000000000029]" in expected
    assert _printed(native, tmp_path, capfd, "native") == expected


def test_the_written_pyspark_prints_an_aggregations_final_rows_where_the_runtime_prints_each_change(
        tmp_path, capfd):
    job = TABLE_JOB.replace(
        "CREATE TABLE shown (id BIGINT, label STRING)", "CREATE TABLE shown (k BIGINT, n BIGINT)").replace(
        "SELECT id, label FROM numbers WHERE id > 2",
        "SELECT MOD(id, 3) AS k, COUNT(*) AS n FROM numbers GROUP BY MOD(id, 3)")
    native, report = port_text(job, "job.py", to_pyspark=True)
    assert "execute_sql" not in native and report.left == 0
    # the report says so
    assert any("once per micro-batch" in finding.note for finding in report.findings)
    on_runtime, _ = port_text(job, "job.py")
    changes = _printed(on_runtime, tmp_path, capfd, "runtime")
    # the runtime prints PyFlink's change per input row: +I, then -U/+U, ten rows per key
    assert len(changes) == 3 + 2 * 27 and {c for c in changes if c.startswith("+I")} == {
        "+I[0, 1]", "+I[1, 1]", "+I[2, 1]"}
    # Spark's own aggregation, as written, prints each key's row of the micro-batch
    assert _printed(native, tmp_path, capfd, "native") == ["+I[0, 10]", "+I[1, 10]", "+I[2, 10]"]


def test_the_default_port_keeps_a_datastream_print_for_the_runtime():
    job = textwrap.dedent('''\
        from pyflink.common import Types
        from pyflink.datastream import StreamExecutionEnvironment
        env = StreamExecutionEnvironment.get_execution_environment()
        ds = env.from_collection(["a", "b"], type_info=Types.STRING())
        ds.print()
        env.execute("print")
        ''')
    ported, report = port_text(job)
    assert "    ds.print()" not in ported and "\nds.print()\n" in ported
    assert "console" not in ported and "writeStream" not in ported
    assert [f.outcome for f in report.findings if f.line == 5] == [Outcome.PORTED]


def test_a_stream_or_table_a_statement_it_cannot_write_uses_stays_pyflinks():
    job = textwrap.dedent('''\
        from pyflink.common import Types
        from pyflink.datastream import StreamExecutionEnvironment
        from pyflink.table import StreamTableEnvironment
        env = StreamExecutionEnvironment.get_execution_environment()
        t_env = StreamTableEnvironment.create(env)
        ds = env.from_collection(["a", "b"], type_info=Types.STRING())
        ds.key_by(lambda v: v).map(lambda v: v + "!").print()
        t_env.execute_sql("CREATE TABLE shown (v STRING) WITH ('connector' = 'print')")
        t_env.from_elements([("a",)], ["v"]).execute_insert("shown").wait()
        env.execute("job")
        ''')
    native, report = port_text(job, "job.py", to_pyspark=True)
    default, _ = port_text(job, "job.py")
    # the keyed map and the Table API insert run on the runtimes: their stream and sink table
    # stay PyFlink's, so nothing is left and the job is the default port's
    assert report.left == 0 and report.count(Outcome.REWRITTEN) == 0
    assert native == default


def test_a_named_file_sink_a_stream_it_cannot_write_uses_stays_pyflinks():
    job = textwrap.dedent('''\
        from pyflink.common import Encoder, Types
        from pyflink.datastream import StreamExecutionEnvironment
        from pyflink.datastream.connectors.file_system import FileSink
        env = StreamExecutionEnvironment.get_execution_environment()
        sink = FileSink.for_row_format("out/counts", Encoder.simple_string_encoder()).build()
        words = env.from_collection(["a", "b", "a"], type_info=Types.STRING())
        words.key_by(lambda w: w).map(lambda w: w + "!", output_type=Types.STRING()).sink_to(sink)
        env.execute("job")
        ''')
    native, report = port_text(job, "job.py", to_pyspark=True)
    # the keyed map runs on the runtime: the sink it writes to stays a FileSink, not a
    # function of a DataFrame
    assert report.left == 0 and report.count(Outcome.REWRITTEN) == 0
    assert native == port_text(job, "job.py")[0]
    # used by a stream the tool writes, the same sink is written from the runtime's writer
    written, report = port_text(job.replace('words.key_by(lambda w: w).map(lambda w: w + "!", '
                                            'output_type=Types.STRING())', "words"), "job.py", to_pyspark=True)
    assert report.left == 0 and "def sink(frame):" in written and "FilePartWriter({'base_path': 'out/counts'" in written
