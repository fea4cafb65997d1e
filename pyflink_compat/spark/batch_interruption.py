"""A ``foreachBatch`` function interrupted by a query's stop, reported so that Spark sees a stop.

A stop or cancel of a job stops its queries, and Spark's ``StreamingQuery.stop`` interrupts the
query's thread. When that thread is inside a ``foreachBatch`` function, the interruption reaches
the JVM call the function was making (a ``collect``, a write): it fails with an
``InterruptedException`` (or ``InterruptedIOException``, ``ClosedByInterruptException``), the
function fails with PySpark's ``Py4JJavaError``, and py4j sends Spark the whole Python traceback,
Java stack trace included, as the text of a ``Py4JException``. Spark then decides whether the
query failed or was stopped by matching that text against a pattern
(``StreamExecution.isInterruptionException``) whose repeated alternation,
``((.|\\r\\n|\\r|\\n)*)``, recurses once per character: on a text of thousands of characters it
overflows the thread's stack, and a ``StackOverflowError`` of about a thousand lines goes to the
job's log.

:func:`report_interruptions` wraps each ``foreachBatch`` function of the session once: an error
whose Java exception, or one of its causes, is one of those interruptions is raised again as
:class:`BatchInterrupted`, a short text that says just that in the form Spark's pattern looks
for, so Spark records the query as stopped. Every other error goes to Spark unchanged. The batch
still fails (its output is not committed), as it did before.
"""

from __future__ import annotations

import logging
from typing import Any, Callable, Optional

__all__ = ["BatchInterrupted", "INTERRUPTIONS", "interruption_of", "report_interruptions"]

LOG = logging.getLogger("pyflink_compat.job")

#: The Java exceptions Spark takes for the interruption of a stopped query's thread.
INTERRUPTIONS = ("java.lang.InterruptedException", "java.io.InterruptedIOException",
                 "java.nio.channels.ClosedByInterruptException")
#: Longest chain of causes looked through.
_MAX_CAUSES = 8
_GUARDED = "_pyflink_compat_reports_interruptions"


class BatchInterrupted(Exception):
    """A ``foreachBatch`` function's JVM call was interrupted by the stop of its query."""


def interruption_of(error: BaseException) -> Optional[str]:
    """The name of the Java interruption behind a PySpark JVM error (its Java exception or one
    of its causes), or ``None`` when it is none or cannot be read."""
    # PySpark's Py4JJavaError, or one of its captured exceptions (which keep the Java one)
    cause = getattr(error, "java_exception", None) or getattr(error, "_origin", None)
    try:
        for _ in range(_MAX_CAUSES):
            if cause is None:
                return None
            name = str(cause.getClass().getName())
            if name in INTERRUPTIONS:
                return name
            cause = cause.getCause()
    except Exception as e:  # the JVM cannot tell (a closed connection): not known to be one
        LOG.debug("Reading a foreachBatch error's cause: %s", e)
    return None


def _reporting(func: Callable[[Any, int], None]) -> Callable[[Any, int], None]:
    def call(frame: Any, batch_id: int) -> None:
        try:
            func(frame, batch_id)
        except Exception as e:
            name = interruption_of(e)
            if name is None:
                raise
            # Spark's own wording of an interrupted JVM call, short enough for its pattern
            called = str(getattr(e, "errmsg", "") or "").strip() or "An error occurred while calling the JVM."
            raise BatchInterrupted("py4j.protocol.Py4JJavaError: {}\n: {}".format(called, name)) from None

    setattr(call, _GUARDED, True)
    return call


def report_interruptions(spark: Any) -> None:
    """Wrap every ``foreachBatch`` function of ``spark``'s Python gateway that is not wrapped yet
    (see the module's text); a session whose gateway cannot be read is left as it is."""
    try:
        from pyspark.sql.utils import ForeachBatchFunction

        callbacks = list(spark.sparkContext._gateway.gateway_property.pool.dict.values())
    except Exception as e:  # another gateway (Spark Connect) or a closed one: nothing to wrap
        LOG.debug("Looking up the foreachBatch functions: %s", e)
        return
    for callback in callbacks:
        if isinstance(callback, ForeachBatchFunction) and not getattr(callback.func, _GUARDED, False):
            callback.func = _reporting(callback.func)
