"""Keyed state written in a keyed function's ``open`` reaches no key, as in Flink, where
``open`` runs with no current key: live PyFlink 1.20.5 read the values back within ``open``
and gave every record ``None`` and an empty map."""

from __future__ import annotations

from typing import Any


def test_state_written_in_open_is_read_back_there_and_seen_by_no_key(spark: Any) -> None:
    from pyflink_compat.common import Types
    from pyflink_compat.datastream import KeyedProcessFunction, StreamExecutionEnvironment
    from pyflink_compat.datastream.state import MapStateDescriptor, ValueStateDescriptor

    class Lookup(KeyedProcessFunction):
        def open(self, runtime_context):
            self.table = runtime_context.get_map_state(MapStateDescriptor("table", Types.STRING(), Types.STRING()))
            self.flag = runtime_context.get_state(ValueStateDescriptor("flag", Types.STRING()))
            self.table.put("141", "red alert")
            self.flag.update("opened")
            self.in_open = (self.table.get("141"), self.flag.value())

        def process_element(self, value, ctx):
            yield "%s %s %s %s %s" % (value, self.in_open, self.table.get("141"), self.flag.value(),
                                      sorted(self.table.get_internal_state().keys()))
            self.table.put_all({"x": value}.items())  # pairs, as PyFlink's put_all iterates them

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    collected = env.from_collection(["a", "b", "a"]).key_by(lambda v: v) \
        .process(Lookup(), Types.STRING()).execute_and_collect()
    assert sorted(collected) == sorted(["a ('red alert', 'opened') None None []",
                                        "a ('red alert', 'opened') None None ['x']",
                                        "b ('red alert', 'opened') None None []"])
