"""PyFlink module ``pyflink.table.window``: the group windows of the Table API (:class:`Tumble`,
:class:`Slide`, :class:`Session`) run as Spark's time windows; the over windows (:class:`Over`)
are built, and using them in :meth:`~pyflink_compat.table.Table.over_window` raises
:class:`~pyflink_compat.missing.NotSupportedError` (Spark's streaming queries have no over
windows).

A window is held as the Flink SQL group window it stands for (``TUMBLE(ts, INTERVAL ...)``):
the table's ``window(...).group_by(...).select(...)`` becomes a query grouping by it.
"""
from typing import Any, List, Optional

import attrs

from pyflink_compat.table.expression import Expression

__all__ = ['Tumble', 'Session', 'Slide', 'Over', 'GroupWindow', 'OverWindow']


@attrs.define
class _WindowSpec:
    """A group window as it is built: its kind (``TUMBLE``, ``HOP``, ``SESSION``), its
    intervals in Flink SQL's order (size; slide then size; gap), time field and alias."""

    kind: str
    intervals: List[Any]
    time_field: Any = None
    alias: Optional[str] = None


@attrs.define
class _OverSpec:
    partition_by: List[Any]
    order_by: Any = None
    preceding: Any = None
    following: Any = None
    alias: Optional[str] = None


def _interval(value: Expression, role: str) -> Any:
    from sqlglot import exp

    tree = value._j_expr
    if not isinstance(tree, exp.Interval):
        from pyflink_compat.missing import NotSupportedError

        raise NotSupportedError(
            "A group window of {} {}".format(role, tree.sql("spark")),
            "Spark's windows are time windows: give the {} as a time interval "
            "(lit(10).seconds, lit(5).minutes...); count windows run with the DataStream API.".format(role))
    return tree.copy()


class GroupWindow(object):
    """A group window with its time field and alias: the argument of
    :meth:`~pyflink_compat.table.Table.window`.

    :param java_window: The window (in PyFlink, the JVM window).
    """

    def __init__(self, java_window: Any):
        self._java_window = java_window


class Tumble(object):
    """Tumbling windows: fixed size, one after the other without overlap
    (``Tumble.over(lit(10).minutes).on(col('rowtime')).alias('w')``)."""

    @classmethod
    def over(cls, size: Expression) -> 'TumbleWithSize':
        """Windows of ``size`` (a time interval)."""
        return TumbleWithSize(_WindowSpec("TUMBLE", [_interval(size, "size")]))


class TumbleWithSize(object):
    """Tumbling windows of a size; :meth:`on` gives their time field."""

    def __init__(self, java_window: Any):
        self._java_window = java_window

    def on(self, time_field: Expression) -> 'TumbleWithSizeOnTime':
        """The time attribute (event or processing time) the windows group by."""
        return TumbleWithSizeOnTime(attrs.evolve(self._java_window, time_field=time_field._j_expr.copy()))


class TumbleWithSizeOnTime(object):
    """Tumbling windows on a time field; :meth:`alias` names them."""

    def __init__(self, java_window: Any):
        self._java_window = java_window

    def alias(self, alias: str) -> 'GroupWindow':
        """The window's name, to group by and to read its properties (``col(alias).start``)."""
        return GroupWindow(attrs.evolve(self._java_window, alias=alias))


class Session(object):
    """Session windows: a window closes after a gap without rows
    (``Session.with_gap(lit(10).minutes).on(col('rowtime')).alias('w')``)."""

    @classmethod
    def with_gap(cls, gap: Expression) -> 'SessionWithGap':
        """Sessions closing after ``gap`` (a time interval) without rows."""
        return SessionWithGap(_WindowSpec("SESSION", [_interval(gap, "gap")]))


class SessionWithGap(object):
    """Session windows of a gap; :meth:`on` gives their time field."""

    def __init__(self, java_window: Any):
        self._java_window = java_window

    def on(self, time_field: Expression) -> 'SessionWithGapOnTime':
        """The time attribute (event or processing time) the windows group by."""
        return SessionWithGapOnTime(attrs.evolve(self._java_window, time_field=time_field._j_expr.copy()))


class SessionWithGapOnTime(object):
    """Session windows on a time field; :meth:`alias` names them."""

    def __init__(self, java_window: Any):
        self._java_window = java_window

    def alias(self, alias: str) -> 'GroupWindow':
        """The window's name, to group by and to read its properties (``col(alias).start``)."""
        return GroupWindow(attrs.evolve(self._java_window, alias=alias))


class Slide(object):
    """Sliding windows: fixed size, a new one every slide, overlapping when the slide is smaller
    (``Slide.over(lit(10).minutes).every(lit(5).minutes).on(col('rowtime')).alias('w')``)."""

    @classmethod
    def over(cls, size: Expression) -> 'SlideWithSize':
        """Windows of ``size`` (a time interval)."""
        return SlideWithSize(_WindowSpec("HOP", [_interval(size, "size")]))


class SlideWithSize(object):
    """Sliding windows of a size; :meth:`every` gives their slide."""

    def __init__(self, java_window: Any):
        self._java_window = java_window

    def every(self, slide: Expression) -> 'SlideWithSizeAndSlide':
        """A new window every ``slide`` (a time interval)."""
        spec = self._java_window
        return SlideWithSizeAndSlide(attrs.evolve(spec, intervals=[_interval(slide, "slide")] + spec.intervals))


class SlideWithSizeAndSlide(object):
    """Sliding windows of a size and slide; :meth:`on` gives their time field."""

    def __init__(self, java_window: Any):
        self._java_window = java_window

    def on(self, time_field: Expression) -> 'SlideWithSizeAndSlideOnTime':
        """The time attribute (event or processing time) the windows group by."""
        return SlideWithSizeAndSlideOnTime(attrs.evolve(self._java_window, time_field=time_field._j_expr.copy()))


class SlideWithSizeAndSlideOnTime(object):
    """Sliding windows on a time field; :meth:`alias` names them."""

    def __init__(self, java_window: Any):
        self._java_window = java_window

    def alias(self, alias: str) -> 'GroupWindow':
        """The window's name, to group by and to read its properties (``col(alias).start``)."""
        return GroupWindow(attrs.evolve(self._java_window, alias=alias))


class Over(object):
    """Over windows: an aggregate over the rows before each row
    (``Over.partition_by(col('a')).order_by(col('rowtime')).preceding(UNBOUNDED_RANGE)``)."""

    @classmethod
    def order_by(cls, order_by: Expression) -> 'OverWindowPartitionedOrdered':
        """Windows over all rows, in the order of ``order_by`` (a time attribute)."""
        return OverWindowPartitionedOrdered(_OverSpec([], order_by._j_expr.copy()))

    @classmethod
    def partition_by(cls, *partition_by: Expression) -> 'OverWindowPartitioned':
        """Windows over the rows of each ``partition_by`` key."""
        return OverWindowPartitioned(_OverSpec([p._j_expr.copy() for p in partition_by]))


class OverWindowPartitionedOrdered(object):
    """A partitioned, ordered over window; :meth:`preceding` bounds it."""

    def __init__(self, java_over_window: Any):
        self._java_over_window = java_over_window

    def alias(self, alias: str) -> 'OverWindow':
        """The window's name, for ``agg.over(col(alias))``."""
        return OverWindow(attrs.evolve(self._java_over_window, alias=alias))

    def preceding(self, preceding: Expression) -> 'OverWindowPartitionedOrderedPreceding':
        """The rows or time interval before each row the window holds."""
        return OverWindowPartitionedOrderedPreceding(
            attrs.evolve(self._java_over_window, preceding=preceding))


class OverWindowPartitionedOrderedPreceding(object):
    """A bounded over window; :meth:`alias` names it."""

    def __init__(self, java_over_window: Any):
        self._java_over_window = java_over_window

    def alias(self, alias: str) -> 'OverWindow':
        """The window's name, for ``agg.over(col(alias))``."""
        return OverWindow(attrs.evolve(self._java_over_window, alias=alias))

    def following(self, following: Expression) -> 'OverWindowPartitionedOrderedPreceding':
        """The rows or time interval after each row the window holds."""
        return OverWindowPartitionedOrderedPreceding(
            attrs.evolve(self._java_over_window, following=following))


class OverWindowPartitioned(object):
    """A partitioned over window; :meth:`order_by` orders it."""

    def __init__(self, java_over_window: Any):
        self._java_over_window = java_over_window

    def order_by(self, order_by: Expression) -> 'OverWindowPartitionedOrdered':
        """The time attribute ordering the rows of each partition."""
        return OverWindowPartitionedOrdered(
            attrs.evolve(self._java_over_window, order_by=order_by._j_expr.copy()))


class OverWindow(object):
    """An over window with its alias: the argument of
    :meth:`~pyflink_compat.table.Table.over_window`.

    :param java_over_window: The window (in PyFlink, the JVM over window).
    """

    def __init__(self, java_over_window: Any):
        self._java_over_window = java_over_window


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
