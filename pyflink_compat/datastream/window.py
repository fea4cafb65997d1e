"""Declared PyFlink module ``pyflink.datastream.window``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared, declared_function

__all__ = ['Window', 'TimeWindow', 'CountWindow', 'GlobalWindow', 'WindowAssigner',
    'TumblingProcessingTimeWindows', 'TumblingEventTimeWindows', 'SlidingProcessingTimeWindows',
    'SlidingEventTimeWindows', 'ProcessingTimeSessionWindows', 'EventTimeSessionWindows',
    'DynamicProcessingTimeSessionWindows', 'DynamicEventTimeSessionWindows', 'GlobalWindows',
    'MergingWindowAssigner', 'CountTumblingWindowAssigner', 'CountSlidingWindowAssigner',
    'TriggerResult', 'Trigger', 'EventTimeTrigger', 'ProcessingTimeTrigger',
    'ContinuousEventTimeTrigger', 'ContinuousProcessingTimeTrigger', 'NeverTrigger',
    'PurgingTrigger', 'CountTrigger', 'TimeWindowSerializer', 'CountWindowSerializer',
    'GlobalWindowSerializer', 'SessionWindowTimeGapExtractor']

long_to_int_with_bit_mixing = declared_function(__name__, 'long_to_int_with_bit_mixing')
mod_inverse = declared_function(__name__, 'mod_inverse')


class ContinuousEventTimeTrigger(Declared):
    pass


class ContinuousProcessingTimeTrigger(Declared):
    pass


class CountSlidingWindowAssigner(Declared):
    pass


class CountTrigger(Declared):
    pass


class CountTumblingWindowAssigner(Declared):
    pass


class CountWindow(Declared):
    pass


class CountWindowSerializer(Declared):
    pass


class DynamicEventTimeSessionWindows(Declared):
    pass


class DynamicProcessingTimeSessionWindows(Declared):
    pass


class EventTimeSessionWindows(Declared):
    pass


class EventTimeTrigger(Declared):
    pass


class GlobalWindow(Declared):
    pass


class GlobalWindowSerializer(Declared):
    pass


class GlobalWindows(Declared):
    pass


class MergingWindowAssigner(Declared):
    pass


class Min(Declared):
    pass


class NeverTrigger(Declared):
    pass


class ProcessingTimeSessionWindows(Declared):
    pass


class ProcessingTimeTrigger(Declared):
    pass


class PurgingTrigger(Declared):
    pass


class SessionWindowTimeGapExtractor(Declared):
    pass


class SlidingEventTimeWindows(Declared):
    pass


class SlidingProcessingTimeWindows(Declared):
    pass


class TimeWindow(Declared):
    pass


class TimeWindowSerializer(Declared):
    pass


class Trigger(Declared):
    pass


class TriggerResult(Declared):
    pass


class TumblingEventTimeWindows(Declared):
    pass


class TumblingProcessingTimeWindows(Declared):
    pass


class Window(Declared):
    pass


class WindowAssigner(Declared):
    pass


class WindowOperationDescriptor(Declared):
    pass


from pyflink_compat.missing.reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
