"""What a job's functions print while they run in Spark's workers reaches the job's standard
output before ``execute`` returns, among the print sink's lines, as PyFlink's local workers'
prints do; Spark's own worker lines do not. The expected lines are what live PyFlink 1.20.5
printed for this job."""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from typing import Any

from pyflink_compat.common import Types
from pyflink_compat.datastream import KeyedProcessFunction, MapFunction, StreamExecutionEnvironment

PYFLINK_PRINTED = [
    "map saw a", "map saw b", "map saw a",
    "process saw A (key A)", "process saw B (key B)", "process saw A (key A)",
    "A!", "B!", "A!",
]


class Shout(MapFunction):

    def map(self, value: Any) -> Any:
        print("map saw", value)
        return value.upper()


class Tally(KeyedProcessFunction):

    def process_element(self, value: Any, ctx: KeyedProcessFunction.Context) -> Any:
        print("process saw", value, end="")
        print(" (key %s)" % ctx.get_current_key())
        yield value + "!"


def test_prints_of_map_and_process_functions_reach_the_jobs_standard_output(spark: Any) -> None:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection(["a", "b", "a"], type_info=Types.STRING()) \
        .map(Shout(), output_type=Types.STRING()) \
        .key_by(lambda v: v, Types.STRING()) \
        .process(Tally(), output_type=Types.STRING()) \
        .print()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        env.execute("prints")
    assert Counter(out.getvalue().splitlines()) == Counter(PYFLINK_PRINTED)
