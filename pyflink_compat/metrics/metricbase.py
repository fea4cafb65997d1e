"""Declared PyFlink module ``pyflink.metrics.metricbase``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared


class Counter(Declared):
    pass


class Distribution(Declared):
    pass


class Meter(Declared):
    pass


class Metric(Declared):
    pass


class MetricGroup(Declared):
    pass
