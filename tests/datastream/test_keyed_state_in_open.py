"""Keyed state that a function's ``open`` writes belongs to no key, as in PyFlink (``open`` runs
before any key is current): ``open`` reads back what it wrote, no record's key sees it. A map
state's ``put_all`` takes (key, value) pairs and ``get_internal_state`` hands out the current
key's map, as PyFlink's runtime map state does. The expected lines are what live PyFlink 1.20.5
printed for this job."""

from __future__ import annotations

import contextlib
import io
from typing import Any

from pyflink_compat.common import Types
from pyflink_compat.datastream import KeyedProcessFunction, RuntimeContext, StreamExecutionEnvironment
from pyflink_compat.datastream.state import MapStateDescriptor, ValueStateDescriptor

PYFLINK_PRINTED = [
    "x open=('from open', 100) before=(None, None, None) after=[('a', '1'), ('k', 'x')] count=1",
    "y open=('from open', 100) before=(None, None, None) after=[('b', '2'), ('k', 'y')] count=1",
    "x open=('from open', 100) before=(None, None, 1) after=[('a', '1'), ('b', '3'), ('k', 'x')] count=2",
]


class Lookup(KeyedProcessFunction):

    def open(self, runtime_context: RuntimeContext) -> None:
        self.lut = runtime_context.get_map_state(MapStateDescriptor("lut", Types.STRING(), Types.STRING()))
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))
        self.lut.put("seed", "from open")
        self.count.update(100)
        self.seen_in_open = (self.lut.get("seed"), self.count.value())

    def process_element(self, value: Any, ctx: KeyedProcessFunction.Context) -> Any:
        lut = self.lut.get_internal_state()  # type: ignore[attr-defined]
        before = (lut.get("seed"), lut.get("b"), self.count.value())
        self.lut.put_all(value.items())
        self.count.update((self.count.value() or 0) + 1)
        yield "%s open=%s before=%s after=%s count=%s" % (
            ctx.get_current_key(), self.seen_in_open, before, sorted(self.lut.items()), self.count.value())


def test_state_written_in_open_is_seen_by_open_and_by_no_key(spark: Any) -> None:
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection([{"k": "x", "a": "1"}, {"k": "y", "b": "2"}, {"k": "x", "b": "3"}]) \
        .key_by(lambda d: d["k"], Types.STRING()) \
        .process(Lookup(), output_type=Types.STRING()) \
        .print()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        env.execute("state in open")
    assert sorted(out.getvalue().splitlines()) == sorted(PYFLINK_PRINTED)
