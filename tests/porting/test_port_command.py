"""``pyflink-compat port``: the import rewrite, the classification, the report and bad input."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path
from typing import List, Tuple

import pytest

from pyflink_compat.cli import main
from pyflink_compat.porting.command import PortError, port_text
from pyflink_compat.porting.report import Outcome

REPOSITORY = Path(__file__).resolve().parents[2]

JOB = textwrap.dedent('''\
    import os
    from pyflink.common import Configuration, Types
    from pyflink.datastream import (  # the environment
        CheckpointingMode,
        StreamExecutionEnvironment,
    )
    import pyflink.table as pt
    import pyflink.datastream


    def main():
        try:
            from pyflink.table import EnvironmentSettings
        except ImportError:
            raise
        config = Configuration()
        config.set_string("execution.checkpointing.min-pause", "1 s")
        env = StreamExecutionEnvironment.get_execution_environment(config)
        env.enable_checkpointing(1000, CheckpointingMode.EXACTLY_ONCE)
        env.get_checkpoint_config().set_min_pause_between_checkpoints(500)
        env.get_checkpoint_config().set_checkpoint_timeout(60000)
        t_env = pt.StreamTableEnvironment.create(env)
        other = pyflink.datastream.StreamExecutionEnvironment.get_execution_environment()
        ds = env.create_input(os.environ["INPUT"])
        ds.map(lambda x: x, output_type=Types.STRING()).print()
        t_env.execute_sql("SELECT 1")
        env.execute("job")
    ''')


def run_cli(*argv: str, capsys: pytest.CaptureFixture[str]) -> Tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def outcomes(text: str) -> List[Tuple[int, Outcome]]:
    return [(f.line, f.outcome) for f in port_text(text)[1].findings]


def test_every_form_of_pyflink_import_is_pointed_at_pyflink_compat_and_nothing_else_changes():
    ported, report = port_text(JOB, generate=False)
    assert report.imports == 5
    assert ported == (JOB.replace("from pyflink.", "from pyflink_compat.")
                      .replace("import pyflink.", "import pyflink_compat.")
                      .replace("other = pyflink.", "other = pyflink_compat."))
    assert "# the environment" in ported


def test_statements_are_sorted_into_ported_stored_only_and_left_with_line_numbers():
    ported, report = port_text(JOB)
    found = {(f.line, f.outcome) for f in report.findings}
    assert (16, Outcome.PORTED) in found  # Configuration()
    assert (17, Outcome.STORED_ONLY) in found  # the min-pause key
    assert (20, Outcome.STORED_ONLY) in found  # set_min_pause_between_checkpoints
    assert (21, Outcome.PORTED) in found  # set_checkpoint_timeout, through the chain
    assert (22, Outcome.PORTED) in found  # StreamTableEnvironment.create through a module alias
    assert (23, Outcome.PORTED) in found  # pyflink.datastream.X after ``import pyflink.datastream``
    assert (27, Outcome.PORTED) in found  # env.execute
    left = {f.line: f for f in report.findings if f.outcome is Outcome.LEFT}
    assert set(left) == {24, 25}  # execute_sql (line 26) runs on Spark
    # a stream read by create_input (which does not run) leaves what is built on it; Types runs
    assert "DataStream.map" in left[25].apis and "Types.STRING" not in left[25].apis
    stored = next(f for f in report.findings if f.line == 20)
    assert "execution.checkpointing.min-pause" in stored.note
    # each statement left carries the PySpark way in a comment above it
    assert any(line.startswith("    # pyflink-compat port:") and "DataStream.map" in line
               for line in ported.splitlines())
    assert "# pyflink-compat port: StreamTableEnvironment.execute_sql" not in ported


def test_a_second_run_changes_nothing():
    once, _ = port_text(JOB)
    twice, report = port_text(once)
    assert twice == once and not report.changed
    assert report.imports == 0


def test_what_pyflink_compat_declares_as_missing_is_pipeline_and_what_it_implements_is_ported():
    job = textwrap.dedent('''\
        from pyflink.datastream import StreamExecutionEnvironment
        from pyflink.datastream.connectors.pulsar import PulsarSource
        from pyflink.datastream.functions import MapFunction
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(2)
        source = PulsarSource.builder().set_topics("t").build()

        class Upper(MapFunction):
            def map(self, value):
                return value.upper()
        ''')
    # MapFunction runs (a DataStream operator's function), PulsarSource is declared only
    assert outcomes(job) == [(4, Outcome.PORTED), (5, Outcome.PORTED), (6, Outcome.LEFT), (8, Outcome.PORTED)]


def test_the_ported_example_job_has_nothing_left_and_check_passes(capsys):
    code, out, _ = run_cli("port", str(REPOSITORY / "examples" / "ported_job.py"), "--check", capsys=capsys)
    assert code == 0
    assert "0 left to a person" in out


def test_check_fails_while_something_is_left(tmp_path, capsys):
    job = tmp_path / "job.py"
    job.write_text(JOB)
    code, out, _ = run_cli("port", str(job), "--check", capsys=capsys)
    assert code == 1
    assert job.read_text() == JOB  # nothing written without --write


def test_write_keeps_the_original_and_a_second_write_changes_nothing(tmp_path, capsys):
    job = tmp_path / "job.py"
    job.write_text(JOB)
    assert run_cli("port", str(tmp_path), "--write", capsys=capsys)[0] == 0
    ported = job.read_text()
    assert "pyflink_compat" in ported and (tmp_path / "job.py.orig").read_text() == JOB
    assert run_cli("port", str(tmp_path), "--write", capsys=capsys)[0] == 0
    assert job.read_text() == ported and (tmp_path / "job.py.orig").read_text() == JOB


def test_diff_prints_a_unified_diff_and_writes_nothing(tmp_path, capsys):
    job = tmp_path / "job.py"
    job.write_text(JOB)
    code, out, err = run_cli("port", str(job), "--diff", capsys=capsys)
    assert code == 0 and job.read_text() == JOB
    assert "-from pyflink.common import Configuration, Types" in out
    assert "+from pyflink_compat.common import Configuration, Types" in out
    assert "left to a person" in err


def test_the_json_report_lists_every_finding(tmp_path, capsys):
    job = tmp_path / "job.py"
    job.write_text(JOB)
    code, out, _ = run_cli("port", str(job), "--format", "json", capsys=capsys)
    doc = json.loads(out)
    assert code == 0 and doc["counts"]["left"] == 2
    assert [f["line"] for f in doc["files"][0]["findings"] if f["outcome"] == "left"] == [24, 25]


def test_markdown_report_has_a_table_per_file(tmp_path, capsys):
    job = tmp_path / "job.py"
    job.write_text(JOB)
    out = run_cli("port", str(job), "--format", "markdown", capsys=capsys)[1]
    assert "| line | outcome | statement | PyFlink | on Spark |" in out


def test_bad_input_is_refused_clearly_and_never_written(tmp_path, capsys):
    broken = tmp_path / "broken.py"
    broken.write_text("from pyflink.common import Types\ndef (:\n")
    plain = tmp_path / "plain.py"
    plain.write_text("print('no flink here')\n")
    code, out, _ = run_cli("port", str(broken), str(plain), "--write", capsys=capsys)
    assert code == 1
    assert "broken.py: refused: it does not parse as Python: line 2" in out
    assert "plain.py: refused: it imports no PyFlink module" in out
    assert not (tmp_path / "broken.py.orig").exists() and not (tmp_path / "plain.py.orig").exists()
    code, _, err = run_cli("port", str(tmp_path / "nowhere.py"), capsys=capsys)
    assert code == 1 and "nowhere.py: no such file or directory" in err
    with pytest.raises(PortError):
        port_text("x = 1\n")


def test_a_directory_is_searched_for_jobs_and_long_runs_show_progress(tmp_path, capsys):
    for n in range(25):
        (tmp_path / "job_{:02d}.py".format(n)).write_text(JOB)
    (tmp_path / "helper.py").write_text("VALUE = 1\n")
    code, out, err = run_cli("port", str(tmp_path), capsys=capsys)
    assert code == 0
    assert "25 files (0 refused, 25 changed)" in out
    assert "port: 25/25 files" in err


def test_imports_inside_the_tool_stay_out_of_a_job(tmp_path):
    # the package of the command imports libcst lazily: a job's imports never load it
    import subprocess
    import sys

    probe = ("import sys, pyflink_compat.datastream, pyflink_compat.table, pyflink_compat.cli\n"
             "print('libcst' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=str(REPOSITORY)))
    assert out.stdout.strip() == "False"


def test_sql_statements_are_kept_for_the_table_runtime_to_run():
    job = textwrap.dedent('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment

        def main(is_local):
            t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
            t_env.execute_sql("CREATE TABLE a (x BIGINT) WITH ('connector' = 'datagen')")
            t_env.execute_sql("CREATE TABLE b (x BIGINT) WITH ('connector' = 'print')")
            t_env.execute_sql("CREATE TABLE c (x BIGINT) WITH ('connector' = 'blackhole')")
            t_env.execute_sql("INSERT INTO b SELECT x FROM a")
            result = t_env.execute_sql("INSERT INTO c SELECT x FROM a")
            if is_local:
                result.wait()
        ''')
    ported, report = port_text(job, "job.py")
    assert report.left == 0
    # execute_sql runs on Spark at run time: the statements stay as the job wrote them
    assert ported.count("t_env.execute_sql(") == 5 and ".add_sink(" not in ported
    assert "from pyflink_compat.table import" in ported
    assert port_text(ported, "job.py")[0] == ported


def test_as_stream_is_published_from_pyflink_compat_sources_and_the_runtime_path_still_imports():
    import pyflink_compat.sinks as sinks
    import pyflink_compat.sources as public
    from pyflink_compat.runtime.file_io import FilePartWriter, text_lines
    from pyflink_compat.spark.bounded_sources import as_stream

    assert public.as_stream is as_stream and public.text_lines is text_lines
    assert public.__all__ == ["as_stream", "text_lines"]
    assert sinks.FilePartWriter is FilePartWriter and sinks.__all__ == ["FilePartWriter"]


def test_a_run_over_many_files_ports_each_in_order_as_one_file_at_a_time_would(tmp_path, capsys):
    # more files than the command ports in one process: the first here, the rest in workers
    jobs = []
    for number in range(52):
        path = tmp_path / "job_{:02d}.py".format(number)
        path.write_text("\n" * number + JOB)  # each file's statements on lines of their own
        jobs.append(path)
    code, out, _ = run_cli("port", str(tmp_path), "--format", "json", capsys=capsys)
    assert code == 0
    files = json.loads(out)["files"]
    assert [f["path"] for f in files] == [str(p) for p in jobs]
    for index in (0, 1, -1):
        _, report = port_text(jobs[index].read_text(), str(jobs[index]))
        assert files[index] == report.as_json()
    assert [f["findings"][0]["line"] - files[0]["findings"][0]["line"] for f in files] == list(range(52))
