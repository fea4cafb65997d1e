"""The porting report's verdict on a job's SQL is the runtime's: a statement the runtime refuses
is left with the runtime's reason (and the ported job fails there when it runs), SQL built at
run time is to be checked by hand, and a job whose SQL runs is reported with nothing left."""

from __future__ import annotations

import textwrap
import traceback
from pathlib import Path
from typing import Any, Dict, List

import pytest

from pyflink_compat.cli import main
from pyflink_compat.porting.command import port_text
from pyflink_compat.porting.report import FileReport, Outcome

HEAD = '''\
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("""
    CREATE TABLE sensor_readings (
        sensor_id INT,
        temperature DOUBLE
    ) WITH (
        'connector' = 'datagen',
        'number-of-rows' = '3',
        'fields.sensor_id.min' = '10',
        'fields.sensor_id.max' = '20'
    )""")
'''

#: Jobs shaped as public PyFlink jobs are, each with a statement the runtime refuses: the line
#: reported left and what the runtime says about it.
REFUSED = {
    "firehose_sink": (HEAD + textwrap.dedent('''\
        stream_name = "readings"
        t_env.execute_sql(f"""
            CREATE TABLE output (sensor_id INT, temperature_f DOUBLE)
            WITH ('connector' = 'firehose', 'delivery-stream' = '{stream_name}', 'aws.region' = 'eu-west-1',
                  'format' = 'json')""")
        table_result = t_env.execute_sql("""
            INSERT INTO output
            SELECT sensor_id, temperature * 9 / 5 + 32 FROM sensor_readings""")
        table_result.wait()
        '''), 19, "Connector 'firehose'"),
    "elasticsearch_table_written_with_execute_insert": (HEAD + textwrap.dedent('''\
        t_env.execute_sql("""
            CREATE TABLE readings_db (sensor_id INT, temperature DOUBLE)
            WITH ('connector' = 'elasticsearch-7', 'hosts' = 'http://es:9200', 'index' = 'readings')""")
        hot = t_env.sql_query("SELECT sensor_id, temperature FROM sensor_readings WHERE temperature > 30")
        hot.execute_insert("readings_db").wait()
        '''), 18, "Connector 'elasticsearch-7'"),
    "datagen_random_decimal": (textwrap.dedent('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment

        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        t_env.execute_sql("""
            CREATE TABLE sensor_readings (sensor_id INT, temperature NUMERIC(6,2))
            WITH ('connector' = 'datagen', 'number-of-rows' = '3',
                  'fields.temperature.min' = '0', 'fields.temperature.max' = '100')""")
        t_env.execute_sql("CREATE TABLE output (sensor_id INT, temperature NUMERIC(6,2)) WITH ('connector' = 'print')")
        t_env.execute_sql("INSERT INTO output SELECT sensor_id, temperature FROM sensor_readings").wait()
        '''), 9, "Option 'fields.temperature.kind' of connector 'datagen'"),
    "kafka_sink_exactly_once": (HEAD + textwrap.dedent('''\
        t_env.execute_sql("""
            CREATE TABLE alerts (sensor_id INT, temperature DOUBLE) WITH (
                'connector' = 'kafka', 'topic' = 'alerts', 'properties.bootstrap.servers' = 'broker:9092',
                'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once')""")
        statements = t_env.create_statement_set()
        statements.add_insert_sql("INSERT INTO alerts SELECT * FROM sensor_readings WHERE temperature > 90")
        statements.execute().wait()
        '''), 19, "Option 'sink.delivery-guarantee' of connector 'kafka'"),
    "upsert_kafka_table_joined": (HEAD + textwrap.dedent('''\
        t_env.execute_sql("""
            CREATE TABLE limits (sensor_id INT, max_temperature DOUBLE, PRIMARY KEY (sensor_id) NOT ENFORCED) WITH (
                'connector' = 'upsert-kafka', 'topic' = 'limits', 'properties.bootstrap.servers' = 'broker:9092',
                'key.format' = 'json', 'value.format' = 'json')""")
        t_env.execute_sql("CREATE TABLE alerts (sensor_id INT, temperature DOUBLE) WITH ('connector' = 'print')")
        t_env.execute_sql("""
            INSERT INTO alerts SELECT r.sensor_id, r.temperature FROM sensor_readings AS r
            JOIN limits AS l ON r.sensor_id = l.sensor_id WHERE r.temperature > l.max_temperature""").wait()
        '''), 19, "A query of the upsert-kafka table limits other than projections"),
}


def _left(report: FileReport) -> Dict[int, str]:
    return {f.line: f.note for f in report.findings if f.outcome is Outcome.LEFT}


def _run(ported: str, tmp_path: Path) -> None:
    path = tmp_path / "job.py"
    path.write_text(ported)
    exec(compile(ported, str(path), "exec"), {"__name__": "__main__"})


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_a_statement_the_runtime_refuses_is_left_with_the_runtimes_reason_and_fails_there(name, tmp_path):
    job, line, reason = REFUSED[name]
    ported, report = port_text(job, name + ".py")
    left = _left(report)
    assert list(left) == [line] and reason in left[line] and "the runtime refuses it" in left[line]
    # the ported job fails at that statement, for that reason
    with pytest.raises(Exception) as failed:
        _run(ported, tmp_path)
    assert reason in str(failed.value)
    job_lines = [f.lineno for f in traceback.extract_tb(failed.value.__traceback__)
                 if f.filename == str(tmp_path / "job.py")]
    # (the ported file has the tool's comment above the statement: its lines moved down); a
    # statement set's INSERTs are written when it executes
    code = [f.code for f in report.findings if f.line == line][0]
    code = "statements.execute().wait()" if name == "kafka_sink_exactly_once" else code
    assert [ported.splitlines()[n - 1].strip() for n in job_lines] == [code]


def test_check_fails_a_job_whose_sql_the_runtime_refuses(tmp_path, capsys):
    job, line, _ = REFUSED["firehose_sink"]
    path = tmp_path / "job.py"
    path.write_text(job)
    assert main(["port", str(path), "--check"]) == 1
    assert "line {}: table_result = t_env.execute_sql".format(line) in capsys.readouterr().out


def test_a_function_neither_the_runtime_nor_spark_has_is_left_and_the_job_fails_there(tmp_path):
    job = HEAD + 't_env.execute_sql("CREATE TABLE output (a INT, f DOUBLE) WITH (\'connector\' = \'print\')")\n' + \
        't_env.execute_sql("INSERT INTO output SELECT sensor_id, to_fahrenheit(temperature) "\n' + \
        '                  "FROM sensor_readings").wait()\n'
    ported, report = port_text(job)
    assert "No match found for function signature TO_FAHRENHEIT(...)" in _left(report)[15]
    with pytest.raises(Exception, match="(?i)to_fahrenheit"):
        _run(ported, tmp_path)


def test_sql_built_at_run_time_is_to_be_checked_by_hand_and_fails_check(tmp_path, capsys):
    job = HEAD + textwrap.dedent('''\
        import sys
        t_env.execute_sql(open(sys.argv[1]).read())
        columns = sys.argv[2]
        t_env.execute_sql(f"INSERT INTO output SELECT {columns} FROM sensor_readings")
        ''')
    _, report = port_text(job)
    unknown = {f.line: f.note for f in report.findings if f.outcome is Outcome.UNKNOWN}
    assert sorted(unknown) == [15, 17] and "built at run time" in unknown[15] and "by hand" in unknown[17]
    path = tmp_path / "job.py"
    path.write_text(job)
    assert main(["port", str(path), "--check"]) == 1


def test_a_run_time_value_inside_a_quoted_option_still_lets_the_statement_be_checked():
    job = HEAD + textwrap.dedent('''\
        import os
        servers = os.environ["BROKERS"]
        t_env.execute_sql(f"""
            CREATE TABLE readings_in (sensor_id INT, temperature DOUBLE) WITH (
                'connector' = 'kafka', 'topic' = 'readings', 'properties.bootstrap.servers' = '{servers}',
                'properties.auto.offset.reset' = 'earliest', 'format' = 'json')""")
        t_env.execute_sql("CREATE TABLE output (sensor_id INT, temperature DOUBLE) WITH ('connector' = 'print')")
        t_env.execute_sql("INSERT INTO output SELECT * FROM readings_in").wait()
        ''')
    _, report = port_text(job)
    assert report.left == 0 and report.unknown == 0
    # the connector's own notes: a property Spark refuses is not passed, Flink's start position
    assert any("'properties.auto.offset.reset'" in note and "not passed to Spark" in note for note in report.notes)


def test_a_job_whose_sql_runs_passes_check_and_runs_to_its_end(tmp_path, capfd):
    job = HEAD + textwrap.dedent('''\
        t_env.execute_sql("CREATE TABLE output (sensor_id INT, hot BOOLEAN) WITH ('connector' = 'print')")
        QUERY = "INSERT INTO output SELECT sensor_id, temperature > 30 FROM sensor_readings"
        t_env.execute_sql(QUERY).wait()
        ''')
    ported, report = port_text(job)
    assert report.left == 0 and report.unknown == 0
    path = tmp_path / "job.py"
    path.write_text(job)
    assert main(["port", str(path), "--check"]) == 0
    capfd.readouterr()
    _run(ported, tmp_path)
    printed: List[Any] = [line for line in capfd.readouterr().out.splitlines() if line.startswith("+I[")]
    assert len(printed) == 3


def _verdicts(job: str) -> Dict[int, str]:
    _, report = port_text(textwrap.dedent(job))
    return {f.line: f.outcome.value for f in report.findings}


def test_sql_a_helper_of_the_file_returns_is_checked_as_the_helper_writes_it():
    verdicts = _verdicts('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment
        SOURCE = "numbers"
        def source_ddl():
            return f"""CREATE TABLE {SOURCE} (id BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '5')"""
        def sink_ddl():
            return "CREATE TABLE shown (id BIGINT) WITH ('connector' = 'hbase-2.2')"
        def insert(label):
            return "INSERT INTO shown SELECT id FROM " + SOURCE + f" WHERE label = '{label}'"
        def named_sink(name):
            return f"CREATE TABLE {name} (id BIGINT) WITH ('connector' = 'print')"
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        t_env.execute_sql(source_ddl())
        t_env.execute_sql(sink_ddl())
        t_env.execute_sql(insert("a")).wait()
        t_env.execute_sql(named_sink("other"))
        ''')
    # the helpers' SQL is read (a parameter is a value set at run time): the datagen table
    # runs, the INSERT into the hbase table is refused as the runtime refuses it (the quoted
    # value the parameter gives does not matter); a table named by a parameter cannot be checked
    assert verdicts[12] == "ported" and verdicts[14] == "left" and verdicts[15] == "unknown"


def test_a_table_formatted_into_sql_stands_for_the_table_it_is():
    verdicts = _verdicts('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        table = t_env.from_elements([(1, 'a')], ['id', 'data'])
        t_env.execute_sql("CREATE TABLE shown (id BIGINT, data STRING) WITH ('connector' = 'print')")
        t_env.execute_sql("INSERT INTO shown SELECT * FROM %s WHERE id <= 3" % table).wait()
        t_env.execute_sql("INSERT INTO shown SELECT * FROM %s WHERE %s" % (table, table.data)).wait()
        ''')
    assert verdicts[5] == "ported" and verdicts[6] == "unknown"


def test_a_lateral_table_function_call_and_a_rows_fields_are_ported_unchanged():
    verdicts = _verdicts('''\
        from pyflink.common import Row
        from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment
        from pyflink.table.udf import udtf
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        table = t_env.from_elements([(1, "a-b")], ["id", "data"])
        @udtf(result_types=[DataTypes.STRING()])
        def parts(data: str):
            yield from data.split("-")
        @udtf(result_types=[DataTypes.STRING()])
        def names(r: Row):
            for s in r.data.split("-"):
                yield s
        t_env.create_temporary_function("parts", parts)
        t_env.execute_sql("SELECT * FROM %s, LATERAL TABLE(parts(`data`)) t(part)" % table).print()
        table.join_lateral(names.alias("a")).execute().print()
        ''')
    # TABLE(...) is Flink's call of the job's table function; r.data is the row's field, not an API
    assert "left" not in verdicts.values() and verdicts[14] == "ported" and verdicts[15] == "ported"
