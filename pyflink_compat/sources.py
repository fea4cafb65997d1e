"""Sources a hand-ported or ``pyflink-compat port``-ed job builds its pipeline from.

:func:`as_stream` turns a bounded DataFrame (rows the job holds, as ``from_collection`` or a
bounded ``datagen`` table give in PyFlink) into a streaming one that ends once every row is
read, so that a sink registered with ``bounded=True`` ends the job as Flink's bounded job ends.
This is the public path of that function; it is defined in the runtime
(:mod:`pyflink_compat.spark.bounded_sources`), whose path stays importable.
"""

from __future__ import annotations

from pyflink_compat.spark.bounded_sources import as_stream

__all__ = ["as_stream"]
