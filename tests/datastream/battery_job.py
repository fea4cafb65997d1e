"""A DataStream job using each operator that runs on Spark, written against PyFlink's API.

Its output was recorded from live PyFlink 1.20.5 (``recorded_battery.py``): the same file
with ``pyflink`` for ``pyflink_compat`` in the imports, run with parallelism 1. Each sink
prints with its own identifier, so that the lines of each part can be told apart.
"""

from pyflink_compat.common import Duration, Row, Types, WatermarkStrategy
from pyflink_compat.common.time import Time
from pyflink_compat.common.watermark_strategy import TimestampAssigner
from pyflink_compat.datastream import OutputTag, StreamExecutionEnvironment
from pyflink_compat.datastream.functions import (
    AggregateFunction, CoFlatMapFunction, CoMapFunction, FlatMapFunction, KeyedCoProcessFunction,
    KeyedProcessFunction, MapFunction, ProcessFunction, ProcessWindowFunction, RuntimeContext,
    WindowFunction)
from pyflink_compat.datastream.state import (
    ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, StateTtlConfig,
    ValueStateDescriptor)
from pyflink_compat.datastream.window import (
    CountTrigger, CountWindow, EventTimeSessionWindows, GlobalWindows, ProcessingTimeSessionWindows,
    PurgingTrigger, SessionWindowTimeGapExtractor, SlidingEventTimeWindows,
    SlidingProcessingTimeWindows, TimeWindow, TumblingEventTimeWindows, TumblingProcessingTimeWindows)

ODD = OutputTag("odd", Types.STRING())


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


class Parity(ProcessFunction):
    def process_element(self, value, ctx):
        if value[2] % 2:
            yield ODD, "odd %s@%s" % (value[1], ctx.timestamp())
        else:
            yield value[1]


class Watch(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield OutputTag("seen"), (ctx.get_current_key(), value[2])


class Tally(KeyedCoProcessFunction):
    """Names from the first input, amounts from the second, one state for both per key."""

    def open(self, runtime_context: RuntimeContext):
        self.name = runtime_context.get_state(ValueStateDescriptor("name", Types.STRING()))
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.INT()))

    def process_element1(self, value, ctx):
        self.name.update(value[1])
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 100)
        yield "name %s" % (value[1],)

    def process_element2(self, value, ctx):
        self.total.update((self.total.value() or 0) + value[1])
        yield "amount %s for %s" % (value[1], ctx.get_current_key())

    def on_timer(self, timestamp, ctx):
        yield "%s %s total=%s at %d" % (ctx.get_current_key(), self.name.value(), self.total.value(),
                                         timestamp)


class Shout(CoMapFunction):
    def map1(self, value):
        return value.upper()

    def map2(self, value):
        return value * 10


class Letters(CoFlatMapFunction):
    def flat_map1(self, value):
        yield from value

    def flat_map2(self, value):
        yield "#%d" % value


class Gap(SessionWindowTimeGapExtractor):
    def extract(self, element):
        return 3000 if element[0] == "u1" else 500


class Sizes(ProcessWindowFunction[tuple, str, str, TimeWindow]):
    def __init__(self, tagged):
        self.tagged = tagged

    def process(self, key, context, elements):
        pages = [e[1] for e in elements]
        yield "%s %s %s" % (key, context.window(), pages)
        if self.tagged and len(pages) > 1:
            yield ODD, "long session %s" % key


class Total(WindowFunction[tuple, str, str, CountWindow]):
    def apply(self, key, window, inputs):
        return ["%s %s %d" % (key, window, sum(i[1] for i in inputs))]


class Lookup(KeyedProcessFunction):
    """Writes keyed state in ``open``, where there is no current key, and reads it per record."""

    def open(self, runtime_context: RuntimeContext):
        self.table = runtime_context.get_map_state(MapStateDescriptor("table", Types.STRING(), Types.INT()))
        self.flag = runtime_context.get_state(ValueStateDescriptor("flag", Types.STRING()))
        self.table.put("seed", 141)
        self.flag.update("opened")
        self.in_open = (self.table.get("seed"), self.flag.value())

    def process_element(self, value, ctx):
        yield "%s %s %s %s %s" % (value, self.in_open, self.table.get("seed"), self.flag.value(),
                                  sorted(self.table.get_internal_state().keys()))
        self.table.put_all({value[0]: value[1]}.items())  # pairs, as PyFlink's put_all iterates them


class Seen(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.LONG()))

    def map(self, value):
        count = (self.seen.value() or 0) + 1
        self.seen.update(count)
        return value, count


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


def build_more(env: StreamExecutionEnvironment) -> None:
    """Add the sinks of connected streams, side outputs, session, count, global and
    processing-time windows, keyed state written in ``open`` and keyed rich functions to
    ``env`` (a second job, so that each query stays small)."""
    events = env.from_collection([("u1", "home", 1), ("u2", "home", 2), ("u1", "cart", 4),
                                  ("u1", "cancel", 20), ("u2", "pay", 3)])
    stamped = events.assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(2))
        .with_timestamp_assigner(Seconds()))
    by_user = stamped.key_by(lambda e: e[0])
    parity = stamped.process(Parity(), Types.STRING())
    parity.print("even")
    parity.get_side_output(ODD).print("odd")
    stamped.key_by(lambda e: e[0]).process(Watch()).get_side_output(OutputTag("seen")).print("seen")

    names = env.from_collection([("a", "ann", 1), ("b", "bob", 2)]).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(2))
        .with_timestamp_assigner(Seconds()))
    amounts = env.from_collection([("a", 5, 1), ("b", 7, 2), ("a", 3, 3)]).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(2))
        .with_timestamp_assigner(Seconds()))
    names.connect(amounts).key_by(lambda n: n[0], lambda a: a[0]).process(Tally()).print("tally")
    words = env.from_collection(["ab", "c"], type_info=Types.STRING())
    numbers = env.from_collection([1, 2], type_info=Types.INT())
    words.connect(numbers).map(Shout()).print("comap")
    words.connect(numbers).flat_map(Letters(), Types.STRING()).print("coflatmap")

    by_user.window(EventTimeSessionWindows.with_gap(Time.seconds(3))).process(Sizes(False)).print("sessions")
    sessions = by_user.window(EventTimeSessionWindows.with_dynamic_gap(Gap())).process(Sizes(True))
    sessions.print("dynamic")
    sessions.get_side_output(ODD).print("long")

    counted = env.from_collection([("x", 1), ("y", 2), ("x", 3), ("x", 4), ("y", 5), ("x", 6), ("x", 7)])
    counted.key_by(lambda c: c[0]).count_window(2).apply(Total()).print("count2")
    counted.key_by(lambda c: c[0]).count_window(3, 2) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])).print("count3by2")
    counted.key_by(lambda c: c[0]).map(Seen()).print("seen_per_key")
    by_letter = counted.key_by(lambda c: c[0])
    by_letter.window(GlobalWindows.create()).trigger(CountTrigger.of(2)).apply(Total()).print("global2")
    by_letter.window(GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(3))) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])).print("purging3")
    by_letter.window(GlobalWindows.create()).reduce(lambda a, b: a).print("never")
    # a short bounded job: its processing-time windows are still open when the input ends
    by_letter.window(TumblingProcessingTimeWindows.of(Time.hours(1))).reduce(lambda a, b: a).print("clock")
    by_letter.window(SlidingProcessingTimeWindows.of(Time.hours(2), Time.hours(1))) \
        .reduce(lambda a, b: a).print("clock_sliding")
    by_letter.window(ProcessingTimeSessionWindows.with_gap(Time.hours(1))).reduce(lambda a, b: a) \
        .print("clock_sessions")
    by_letter.process(Lookup(), Types.STRING()).print("opened")


if __name__ == "__main__":
    environment = StreamExecutionEnvironment.get_execution_environment()
    environment.set_parallelism(1)
    build(environment)
    build_more(environment)
    environment.execute("battery")
