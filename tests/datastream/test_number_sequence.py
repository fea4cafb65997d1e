"""A NumberSequenceSource is the bounded stream of its numbers, in order, as PyFlink gives it
at parallelism one."""

from __future__ import annotations


def test_a_number_sequence_gives_its_numbers_from_start_to_end_both_included(spark):
    from pyflink_compat.common import WatermarkStrategy
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.datastream.connectors import NumberSequenceSource

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    numbers = env.from_source(NumberSequenceSource(3, 6), WatermarkStrategy.for_monotonous_timestamps(),
                              "numbers")
    assert numbers.get_name() == "numbers"
    assert list(numbers.map(lambda n: n * 10).execute_and_collect()) == [30, 40, 50, 60]
