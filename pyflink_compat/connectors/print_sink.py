"""Flink's print sink on Spark: every record's line written to standard output (or standard
error) of the driver, in order, prefixed by the sink identifier when one is given."""

from __future__ import annotations

import sys
from typing import Any, Iterable, Optional

__all__ = ["print_lines"]


def print_lines(lines_df_or_iter: Any, identifier: Optional[str], to_stderr: bool) -> None:
    """Write each line, whole, as Flink's print sink writes a record.

    :param lines_df_or_iter: The lines: an iterable of strings, or a DataFrame whose first
        column holds them (collected to the driver in order).
    :param identifier: Flink's sink identifier: each line reads ``<identifier>> <line>``.
    :param to_stderr: Write to standard error instead of standard output.
    """
    lines: Iterable[Any] = lines_df_or_iter
    if hasattr(lines_df_or_iter, "toLocalIterator"):
        lines = (row[0] for row in lines_df_or_iter.toLocalIterator())
    stream = sys.stderr if to_stderr else sys.stdout
    prefix = "" if identifier is None else identifier + "> "
    for line in lines:
        stream.write(prefix + str(line) + "\n")
    stream.flush()
