"""Sinks a hand-ported or ``pyflink-compat port``-ed job writes its DataFrames with.

:class:`FilePartWriter` is the ``foreachBatch`` function writing a DataFrame's ``value``
column as a DataStream ``FileSink`` does under the runtime (the same part files, buckets and
lines). This is the public path of that class; it is defined in the runtime
(:mod:`pyflink_compat.runtime.file_io`), whose path stays importable.
"""

from __future__ import annotations

from pyflink_compat.runtime.file_io import FilePartWriter

__all__ = ["FilePartWriter"]
