"""What pyflink_compat declares but does not implement, and what to use on Spark instead.

PyFlink names outside the checkpoint scope (types, sources, functions, the Table API's pipeline
methods...) can be imported from the same paths as in PyFlink, so that a ported job's imports
stay unchanged. Using one of them raises :class:`NotSupportedError`, whose message names the
PyFlink API and the PySpark way to do the same. The hints come from one table,
:data:`pyflink_compat.missing.hints.HINTS`, which also generates the documentation's list.
"""

from __future__ import annotations

from typing import Optional

__all__ = ["NotSupportedError", "not_supported"]


class NotSupportedError(NotImplementedError):
    """A PyFlink API that pyflink_compat declares but does not implement.

    :param api: The PyFlink API, as ``Class.method`` or a dotted module path.
    :param hint: What to use on Spark instead.
    """

    def __init__(self, api: str, hint: str):
        self.api = api
        self.hint = hint
        super().__init__(
            "{} is not supported by pyflink_compat: the pipeline runs on Spark. {}".format(api, hint))


def not_supported(api: str, module: Optional[str] = None) -> NotSupportedError:
    """The error for using ``api``, with the PySpark way from the hint table.

    :param api: The PyFlink API: a qualified name such as ``Types``,
                ``StreamExecutionEnvironment.from_source`` or ``TableEnvironment.execute_sql``.
    :param module: The PyFlink module defining it (``pyflink.datastream.connectors.kafka``),
                   for names the table knows only by their module.
    :return: The exception, to be raised by the caller.
    """
    from pyflink_compat.missing.hints import hint_for

    return NotSupportedError(api, hint_for(api, module))
