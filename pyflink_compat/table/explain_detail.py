"""PyFlink module ``pyflink.table.explain_detail``: :class:`ExplainDetail`, the details an
explanation may include.

The explanations (:meth:`~pyflink_compat.table.Table.explain`,
:meth:`~pyflink_compat.table.TableEnvironment.explain_sql`) are Spark's plans of the queries,
which hold none of Flink's details: the details are accepted and change nothing.
"""

__all__ = ['ExplainDetail']


class ExplainDetail(object):
    """The details an explanation may include (Flink's optimizer's cost estimates, changelog
    modes, JSON execution plan, plan advice)."""

    ESTIMATED_COST = 0

    CHANGELOG_MODE = 1

    JSON_EXECUTION_PLAN = 2

    PLAN_ADVICE = 3
