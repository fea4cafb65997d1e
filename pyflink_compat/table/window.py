"""Declared PyFlink module ``pyflink.table.window``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['Tumble', 'Session', 'Slide', 'Over', 'GroupWindow', 'OverWindow']


class GroupWindow(Declared):
    pass


class Over(Declared):
    pass


class OverWindow(Declared):
    pass


class OverWindowPartitioned(Declared):
    pass


class OverWindowPartitionedOrdered(Declared):
    pass


class OverWindowPartitionedOrderedPreceding(Declared):
    pass


class Session(Declared):
    pass


class SessionWithGap(Declared):
    pass


class SessionWithGapOnTime(Declared):
    pass


class Slide(Declared):
    pass


class SlideWithSize(Declared):
    pass


class SlideWithSizeAndSlide(Declared):
    pass


class SlideWithSizeAndSlideOnTime(Declared):
    pass


class Tumble(Declared):
    pass


class TumbleWithSize(Declared):
    pass


class TumbleWithSizeOnTime(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
