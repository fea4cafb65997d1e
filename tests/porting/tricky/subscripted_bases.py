"""User functions on generic PyFlink bases."""
from pyflink.datastream.functions import KeyedProcessFunction, ProcessWindowFunction
from pyflink.datastream.window import TimeWindow


class Window(ProcessWindowFunction[tuple, tuple, str, TimeWindow]):
    def process(self, key, context, elements):
        return [(key, len(list(elements)))]


class Plain(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield value
