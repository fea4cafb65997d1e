"""Name resolution of the porting tool: scopes, helpers, statement sets, untyped values."""

from __future__ import annotations

import textwrap
from typing import Dict, List, Tuple

from pyflink_compat.porting.command import port_text
from pyflink_compat.porting.report import Finding, Outcome


def findings(text: str) -> Dict[int, Finding]:
    return {f.line: f for f in port_text(textwrap.dedent(text), generate=False)[1].findings}


def outcomes(text: str) -> List[Tuple[int, Outcome]]:
    return [(line, f.outcome) for line, f in sorted(findings(text).items())]


def test_a_name_bound_in_one_function_does_not_leak_into_another():
    found = findings('''\
        from pyflink.datastream import StreamExecutionEnvironment

        def build():
            env = StreamExecutionEnvironment.get_execution_environment()
            return env

        class Dummy:
            def execute(self, name):
                return name

        def run(env=Dummy()):
            env.execute("not flink")
        ''')
    assert sorted(found) == [4]
    assert found[4].apis == ("StreamExecutionEnvironment.get_execution_environment",)


def test_a_value_passed_to_a_helper_and_returned_from_it_is_followed():
    found = findings('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment

        def add_pipeline_jars(t_env):
            t_env.get_config().set("pipeline.jars", "file:///x.jar")
            return t_env

        def create_source(t_env):
            t_env.execute_sql("CREATE TABLE s (x INT) WITH ('connector' = 'datagen')")

        def main():
            t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
            t_env = add_pipeline_jars(t_env)
            create_source(t_env)
            t_env.execute_sql("INSERT INTO k SELECT x FROM s")
        ''')
    assert found[4].apis[0] == "TableConfig.set"
    assert found[8].apis == ("TableEnvironment.execute_sql",)
    assert found[14].apis == ("TableEnvironment.execute_sql",)
    assert found[11].outcome is Outcome.PORTED


def test_the_arguments_of_a_call_of_a_decorated_function_are_not_its_parameters_values():
    # calling a udf passes expressions to its wrapper; the function itself gets values
    found = findings('''\
        from pyflink.table import DataTypes
        from pyflink.table.expressions import col
        from pyflink.table.udf import udaf

        @udaf(result_type=DataTypes.FLOAT(), func_type="pandas")
        def mean_udaf(v):
            return v.mean()

        def plan(table):
            return table.select(mean_udaf(col("price")))
        ''')
    assert 7 not in found


def test_an_environment_returned_by_a_helper_is_followed_to_its_pipeline():
    found = findings('''\
        from pyflink.datastream import StreamExecutionEnvironment

        def initialize_env():
            env = StreamExecutionEnvironment.get_execution_environment()
            env.set_parallelism(1)
            return env

        def main():
            env = initialize_env()
            ds = env.from_collection([1, 2, 3])
            ds.map(lambda x: x + 1).print()
            env.execute("job")
        ''')
    assert found[10].apis == ("StreamExecutionEnvironment.from_collection",)
    assert "DataStream.map" in found[11].apis and "DataStream.print" in found[11].apis
    assert found[12].apis == ("StreamExecutionEnvironment.execute",)


def test_every_statement_of_a_statement_set_is_reported():
    found = findings('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        stmt_set = t_env.create_statement_set()
        stmt_set.add_insert_sql("INSERT INTO a SELECT 1")
        stmt_set.execute()
        ''')
    assert sorted(found) == [2, 3, 4, 5]
    assert "StatementSet.add_insert_sql" in found[4].apis
    assert "StatementSet.execute" in found[5].apis


def test_a_pipeline_call_on_a_value_the_tool_cannot_type_is_reported_as_unknown():
    found = findings('''\
        from pyflink.datastream import StreamExecutionEnvironment

        def run(env):
            env.execute("job")

        def other(stream):
            text = stream.key_by(lambda x: x)
            text.print()
            "-".join(["a", "b"])
        ''')
    assert sorted(found) == [4, 7, 8]
    assert all(f.outcome is Outcome.UNKNOWN for f in found.values())
    assert "check this statement by hand" in found[4].note and found[4].apis == ("env.execute",)


def test_a_name_rebound_to_another_value_is_no_longer_pyflink():
    assert outcomes('''\
        from pyflink.datastream import StreamExecutionEnvironment

        class Local:
            def execute(self, name):
                return name

        env = StreamExecutionEnvironment.get_execution_environment()
        env = Local()
        env.execute("not flink")
        ''') == [(7, Outcome.PORTED)]


def test_a_fallback_in_an_except_block_does_not_undo_the_import():
    found = findings('''\
        try:
            from pyflink.datastream import StreamExecutionEnvironment
        except ImportError:
            StreamExecutionEnvironment = None
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_parallelism(1)
        ''')
    assert sorted(found) == [5, 6]


def test_a_star_import_is_rewritten_and_its_names_resolved():
    text = textwrap.dedent('''\
        from pyflink.table import *
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        t_env.execute_sql("SELECT 1")
        ''')
    ported, report = port_text(text, generate=False)
    assert ported.startswith("from pyflink_compat.table import *\n")
    assert [(f.line, f.apis[0]) for f in report.findings] == [
        (2, "TableEnvironment.create"), (3, "TableEnvironment.execute_sql")]


def test_a_class_on_a_subscripted_pyflink_base_is_reported_and_its_port_imports():
    text = textwrap.dedent('''\
        from pyflink.datastream.functions import ProcessWindowFunction
        from pyflink.datastream.window import TimeWindow

        class F(ProcessWindowFunction[tuple, tuple, str, TimeWindow]):
            def process(self, key, context, elements):
                return [key]
        ''')
    ported, report = port_text(text, generate=False)
    assert [(f.line, f.apis) for f in report.findings] == [(4, ("ProcessWindowFunction",))]
    exec(compile(ported, "ported.py", "exec"), {})


def test_an_api_pyflink_removed_is_named_with_what_replaced_it_never_ported_unchanged():
    found = findings('''\
        from pyflink.table import EnvironmentSettings, TableEnvironment
        settings = EnvironmentSettings.new_instance().in_streaming_mode().use_blink_planner().build()
        batch = EnvironmentSettings.new_instance().in_batch_mode().build()
        t_env = TableEnvironment.create(settings)
        t_env.sql_update("INSERT INTO a SELECT 1")
        ''')
    assert found[2].outcome is Outcome.LEFT
    assert found[2].apis == ("EnvironmentSettings.Builder.use_blink_planner",)
    assert "Blink planner is the only planner" in found[2].note
    assert found[3].outcome is Outcome.PORTED  # in_batch_mode is still PyFlink's
    assert found[5].outcome is Outcome.LEFT and "use execute_sql" in found[5].note


def test_a_value_never_used_is_reported_as_such_and_does_not_fail_check(tmp_path, capsys):
    from pyflink_compat.cli import main

    job = tmp_path / "job.py"
    job.write_text(textwrap.dedent('''\
        from pyflink.common.serialization import SimpleStringSchema
        from pyflink.datastream import StreamExecutionEnvironment
        env = StreamExecutionEnvironment.get_execution_environment()
        SimpleStringSchema()
        '''))
    assert main(["port", str(job), "--check"]) == 0
    out = capsys.readouterr().out
    assert "value never used (no effect):\n    line 4: SimpleStringSchema()" in out


def test_the_hints_of_print_and_add_sink_speak_of_sinks():
    found = findings('''\
        from pyflink.datastream import StreamExecutionEnvironment
        env = StreamExecutionEnvironment.get_execution_environment()
        ds = env.create_input(None)  # does not run: what is built on it is left, with hints
        ds.print()
        ds.add_sink(None)
        ds.key_by(lambda x: x).print()
        ''')
    for line in (4, 5, 6):
        sink = next(part for part in found[line].note.split(" | ") if part.startswith(("DataStream.print",
                                                                                        "DataStream.add_sink",
                                                                                        "KeyedStream.print")))
        assert "writeStream" in sink and "map and filter" not in sink


def test_a_parameter_is_typed_by_its_pyflink_annotation_or_by_the_method_it_overrides():
    job = textwrap.dedent('''\
        from pyflink.datastream import KeyedProcessFunction, ProcessWindowFunction
        class Windowed(ProcessWindowFunction):
            def process(self, key, context: ProcessWindowFunction.Context, elements):
                return [(key, context.window().start)]
        class Timed(KeyedProcessFunction):
            def process_element(self, value, ctx):
                ctx.timer_service().register_event_time_timer(ctx.timestamp() + 10)
                yield value
        ''')
    _, report = port_text(job)
    found = {f.line: (f.outcome, f.apis) for f in report.findings}
    assert found[4] == (Outcome.PORTED, ("Context.window",))
    assert found[7][0] is Outcome.PORTED and "TimerService.register_event_time_timer" in found[7][1]
    assert report.unknown == 0


def test_the_header_of_a_compound_statement_and_a_default_value_are_reported():
    job = textwrap.dedent('''\
        from pyflink.datastream import StreamExecutionEnvironment
        from pyflink.table import EnvironmentSettings, TableEnvironment
        t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
        def job(env=StreamExecutionEnvironment.get_execution_environment()):
            return env
        if t_env.get_config().get("pipeline.name", "") == "x":
            pass
        with t_env.execute_sql("SELECT 1").collect() as results:
            for row in t_env.from_elements([(1,)]).execute().collect():
                print(row)
        while t_env.list_catalogs():
            break
        ''')
    _, report = port_text(job)
    found = {f.line: (f.outcome, f.apis) for f in report.findings}
    assert found[4] == (Outcome.PORTED, ("StreamExecutionEnvironment.get_execution_environment",))
    assert found[6][0] is Outcome.PORTED and "TableConfig.get" in found[6][1]
    assert found[8][0] is Outcome.PORTED and "TableResult.collect" in found[8][1]
    assert found[9][0] is Outcome.PORTED and "Table.execute" in found[9][1]
    assert found[11][0] is Outcome.LEFT and found[11][1] == ("TableEnvironment.list_catalogs",)
