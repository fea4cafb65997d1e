"""Reading another grouping key's state inside a ``transformWithState`` handler call.

PySpark's public ``StatefulProcessorHandle`` reads and writes the state of the key being handled
only. The broadcast state of a state partition lives under a reserved key of that partition
(:mod:`~pyflink_compat.runtime.broadcast`), so the other keys of the partition read it by
switching the state server's current key for the read and back. PySpark offers no public way
to do that: this module is the one place that uses its private client
(``StatefulProcessorHandle._statefulProcessorApiClient.set_implicit_key`` and
``remove_implicit_key``, pyspark 4.0 to 4.3),
and ``tests/datastream/test_implicit_key.py`` fails if a pyspark release changes it.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional

__all__ = ["state_client", "as_key", "in_task"]

#: The private attribute of ``StatefulProcessorHandle`` holding the state server's client.
CLIENT_ATTRIBUTE = "_statefulProcessorApiClient"


def state_client(handle: Any) -> Any:
    """The state server client behind ``handle``; a clear error when PySpark no longer has it."""
    client = getattr(handle, CLIENT_ATTRIBUTE, None)
    if client is None or not callable(getattr(client, "set_implicit_key", None)):
        import pyspark

        raise RuntimeError(
            "Broadcast state needs StatefulProcessorHandle.%s.set_implicit_key, which pyspark %s "
            "does not have; use a pyspark release from 4.0 to 4.3." % (CLIENT_ATTRIBUTE, pyspark.__version__))
    return client


@contextlib.contextmanager
def as_key(handle: Any, key: bytes, current: Optional[bytes]) -> Iterator[None]:
    """Within the block, the state of ``handle`` is that of the grouping key ``key``; then again
    that of ``current``, the key being handled (``None``: no key, as in the processor's
    ``init``)."""
    if key == current:
        yield
        return
    client = state_client(handle)
    client.set_implicit_key((key,))
    try:
        yield
    finally:
        if current is None:
            client.remove_implicit_key()
        else:
            client.set_implicit_key((current,))


def in_task(handle: Any) -> bool:
    """Whether ``handle`` is a task's (the processor's ``init`` also runs once on the driver,
    to declare the state variables, where no key's state can be read)."""
    from pyspark import TaskContext

    client = getattr(handle, CLIENT_ATTRIBUTE, None)
    return TaskContext.get() is not None and "PRE_INIT" not in str(getattr(client, "handle_state", ""))
