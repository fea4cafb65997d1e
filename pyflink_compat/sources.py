"""Sources a hand-ported or ``pyflink-compat port``-ed job builds its pipeline from.

:func:`as_stream` turns a bounded DataFrame (rows the job holds, as ``from_collection`` or a
bounded ``datagen`` table give in PyFlink) into a streaming one that ends once every row is
read, so that a sink registered with ``bounded=True`` ends the job as Flink's bounded job ends.
:func:`text_lines` reads the lines of files as the DataStream runtime reads a ``FileSource``
of text lines or ``read_text_file`` (Flink's line ends, each file's charset, directories read
recursively), as a DataFrame of one ``value`` column.
These are the public paths of those functions; they are defined in the runtime
(:mod:`pyflink_compat.spark.bounded_sources`, :mod:`pyflink_compat.runtime.file_io`), whose
paths stay importable.
"""

from __future__ import annotations

from pyflink_compat.runtime.file_io import text_lines
from pyflink_compat.spark.bounded_sources import as_stream

__all__ = ["as_stream", "text_lines"]
