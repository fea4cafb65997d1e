"""A DataStream job using each operator that runs on Spark, written against PyFlink's API.

Its output was recorded from live PyFlink 1.20.5 (``recorded_battery.py``): the same file
with ``pyflink`` for ``pyflink_compat`` in the imports, run with parallelism 1. Each sink
prints with its own identifier, so that the lines of each part can be told apart.
"""

from pyflink_compat.common import Duration, Row, Types, WatermarkStrategy
from pyflink_compat.common.time import Time
from pyflink_compat.common.watermark_strategy import TimestampAssigner
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.functions import (
    AggregateFunction, FlatMapFunction, KeyedProcessFunction, MapFunction, ProcessFunction,
    ProcessWindowFunction, RuntimeContext)
from pyflink_compat.datastream.state import (
    ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, StateTtlConfig,
    ValueStateDescriptor)
from pyflink_compat.datastream.window import SlidingEventTimeWindows, TimeWindow, TumblingEventTimeWindows


class Split(FlatMapFunction):
    def flat_map(self, value):
        for word in value.split():
            yield word


class Pair(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.suffix = ""

    def map(self, value):
        return value + self.suffix, 1


class Seconds(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2] * 1000


class Tag(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%s@%s" % (value[1], ctx.timestamp())


class Session(KeyedProcessFunction):
    """Counts, lists and sums each user's events; reports when the watermark passes 5 s
    after each event."""

    def open(self, runtime_context: RuntimeContext):
        ttl = StateTtlConfig.new_builder(Time.hours(1)).update_ttl_on_read_and_write().build()
        count = ValueStateDescriptor("count", Types.INT())
        count.enable_time_to_live(ttl)
        self.count = runtime_context.get_state(count)
        self.pages = runtime_context.get_list_state(ListStateDescriptor("pages", Types.STRING()))
        self.per_page = runtime_context.get_map_state(
            MapStateDescriptor("per_page", Types.STRING(), Types.INT()))
        self.total = runtime_context.get_reducing_state(
            ReducingStateDescriptor("total", lambda a, b: a + b, Types.LONG()))

    def process_element(self, value, ctx: KeyedProcessFunction.Context):
        user, page, second = value
        self.count.update((self.count.value() or 0) + 1)
        self.pages.add(page)
        self.per_page.put(page, (self.per_page.get(page) or 0) + 1)
        self.total.add(second)
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 5000)
        if page == "cancel":
            ctx.timer_service().delete_event_time_timer(ctx.timestamp() + 5000)
        yield "event %s %s count=%d" % (ctx.get_current_key(), page, self.count.value())

    def on_timer(self, timestamp, ctx: KeyedProcessFunction.OnTimerContext):
        yield "timer %s at %d (%s) count=%d pages=%s per_page=%s total=%d" % (
            ctx.get_current_key(), timestamp, ctx.time_domain(), self.count.value(),
            ",".join(self.pages.get()), sorted(self.per_page.items()), self.total.get())


class Average(AggregateFunction):
    def create_accumulator(self):
        return 0, 0

    def add(self, value, accumulator):
        return accumulator[0] + value[2], accumulator[1] + 1

    def get_result(self, accumulator):
        return accumulator[0] / accumulator[1]

    def merge(self, acc_a, acc_b):
        return acc_a[0] + acc_b[0], acc_a[1] + acc_b[1]


class Label(ProcessWindowFunction[float, str, str, TimeWindow]):
    def process(self, key, context, elements):
        return ["%s %s %s" % (key, context.window(), list(elements))]


def build(env: StreamExecutionEnvironment) -> None:
    """Add the job's sinks to ``env``."""
    lines = env.from_collection(["to be or not to be", "that is the question", "to be"])
    lines.flat_map(Split(), output_type=Types.STRING()) \
        .map(Pair(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda pair: pair[0]) \
        .sum(1) \
        .print("words")

    people = env.from_collection(
        [(1, "ann", 2.5), (2, "bob", 1e8), (1, "cid", -0.5), (3, "dan", 0.001)],
        type_info=Types.ROW_NAMED(["id", "name", "score"], [Types.INT(), Types.STRING(), Types.DOUBLE()]))
    people.filter(lambda r: r.id != 3) \
        .union(people.filter(lambda r: r.id == 3)) \
        .map(lambda r: (r.name, r.score, r.id > 1), output_type=Types.TUPLE(
            [Types.STRING(), Types.DOUBLE(), Types.BOOLEAN()])) \
        .print("typed")
    people.key_by(lambda r: r.id).min("score").print("rows")
    people.map(lambda r: Row(name=r.name, big=r.score > 1)) \
        .key_by(lambda r: r.big).reduce(lambda a, b: Row(name=a.name + "+" + b.name, big=a.big)) \
        .print("reduced")

    events = env.from_collection([("u1", "home", 1), ("u2", "home", 2), ("u1", "cart", 4),
                                  ("u1", "cancel", 20), ("u2", "pay", 3)])
    stamped = events.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(2))
        .with_timestamp_assigner(Seconds()))
    stamped.process(Tag()).print("stamps")
    stamped.key_by(lambda e: e[0]).process(Session()).print("session")
    by_user = stamped.key_by(lambda e: e[0])
    by_user.window(TumblingEventTimeWindows.of(Time.seconds(5))) \
        .aggregate(Average(), Label()).print("average")
    by_user.window(SlidingEventTimeWindows.of(Time.seconds(4), Time.seconds(2))) \
        .reduce(lambda a, b: (a[0], a[1] + "," + b[1], a[2] + b[2])).print("sliding")


if __name__ == "__main__":
    environment = StreamExecutionEnvironment.get_execution_environment()
    environment.set_parallelism(1)
    build(environment)
    environment.execute("battery")
