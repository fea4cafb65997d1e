"""``TableResult.print()``'s tableau: the boxed table PyFlink prints for a streaming result.

Each column is as wide as the larger of its name and the width its type gives (Flink's rule:
TINYINT 4, SMALLINT 6, INT 11, BIGINT 20, DECIMAL(p, s) p + 2, BOOLEAN 5, DATE 10, TIMESTAMP
19 plus the fraction, anything else 30, never less than ``<NULL>``); values are right-aligned
and a longer value is cut to the width, its end shown as ``...``. Widths are display widths, as
Flink measures them: a character counts its UTF-16 code units, plus one more when it is East
Asian wide or fullwidth (``手`` counts 2, an emoji outside the Basic Multilingual Plane 3). A
streaming result starts with the ``op`` column of row kinds; the footer counts the rows
(``1 row in set``, ``Empty set``).
"""

from __future__ import annotations

import datetime
import unicodedata
from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple

from pyflink_compat.sql.value_text import tableau_text, timestamp_text

if TYPE_CHECKING:
    from pyspark.sql.types import DataType

__all__ = ["column_width", "display_width", "Tableau"]

_MAX_WIDTH = 30
_NULL = "<NULL>"


def _char_width(char: str) -> int:
    units = 2 if ord(char) > 0xFFFF else 1
    return units + (1 if unicodedata.east_asian_width(char) in ("W", "F") else 0)


def display_width(text: str) -> int:
    """The columns ``text`` takes in Flink's tableau."""
    if text.isascii():
        return len(text)
    return sum(_char_width(char) for char in text)


def column_width(name: str, data_type: "DataType") -> int:
    """The width Flink gives a column of Spark type ``data_type``."""
    kind = type(data_type).__name__
    widths = {"ByteType": 4, "ShortType": 6, "IntegerType": 11, "LongType": 20,
              "BooleanType": 5, "DateType": 10, "TimestampType": 23, "TimestampNTZType": 23}
    if kind == "DecimalType":
        width = getattr(data_type, "precision", 10) + 2
    else:
        width = widths.get(kind, _MAX_WIDTH)
    return max(display_width(name), width, len(_NULL))


def _cut(text: str, width: int) -> str:
    """The longest start of ``text`` at most ``width`` wide."""
    used = 0
    for index, char in enumerate(text):
        used += _char_width(char)
        if used > width:
            return text[:index]
    return text


def _cell(text: str, width: int) -> str:
    shown = display_width(text)
    if shown > width:
        text = _cut(text, width - 3) + "..."
        shown = display_width(text)
    return " " + " " * (width - shown) + text + " "


class Tableau(object):
    """Writes a changelog result as PyFlink's tableau, line by line.

    :param names: The column names.
    :param types: Their Spark types.
    :param with_kinds: Whether to show the ``op`` column (a streaming result).
    """

    def __init__(self, names: Sequence[str], types: Sequence["DataType"], with_kinds: bool = True,
                 precisions: Sequence[Optional[int]] = ()):
        self.with_kinds = with_kinds
        # the fraction digits of each TIMESTAMP(p) column whose precision is known
        self.precisions = list(precisions) + [None] * (len(names) - len(precisions))
        # a TIMESTAMP(p) column is as wide as its text: 19 characters, a point and p digits
        self.widths = [max(column_width(n, t), 20 + p if p else 0)
                       for n, t, p in zip(names, types, self.precisions)]
        self.names = list(names)
        if with_kinds:
            self.widths.insert(0, 2)
            self.names.insert(0, "op")
        self.count = 0

    def border(self) -> str:
        return "+" + "+".join("-" * (w + 2) for w in self.widths) + "+"

    def header(self) -> List[str]:
        """The lines before the first row."""
        return [self.border(), "|" + "|".join(_cell(n, w) for n, w in zip(self.names, self.widths)) + "|",
                self.border()]

    def row(self, kind: str, values: Tuple[Any, ...]) -> str:
        """One row's line."""
        self.count += 1
        texts = [timestamp_text(v, p) if p is not None and isinstance(v, datetime.datetime)
                 else tableau_text(v) for v, p in zip(values, self.precisions)]
        if self.with_kinds:
            texts.insert(0, kind)
        return "|" + "|".join(_cell(t, w) for t, w in zip(texts, self.widths)) + "|"

    def footer(self) -> List[str]:
        """The lines after the last row."""
        if self.count == 0:
            return [self.border(), "Empty set"] if self.count == 0 else []
        return [self.border(), "{} row{} in set".format(self.count, "" if self.count == 1 else "s")]


def fitted_lines(names: Sequence[str], rows: Sequence[Tuple[Any, ...]]) -> List[str]:
    """The tableau of a statement's rows known in advance (``DESCRIBE``), as Flink prints them:
    each column as wide as its widest text, NULL as an empty cell, no row kinds."""
    texts = [["" if v is None else ("TRUE" if v else "FALSE") if isinstance(v, bool)
              else str(v) for v in row] for row in rows]
    widths = [max([len(n)] + [len(t[i]) for t in texts]) for i, n in enumerate(names)]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    lines = [border, "|" + "|".join(_cell(n, w) for n, w in zip(names, widths)) + "|", border]
    lines += ["|" + "|".join(_cell(t, w) for t, w in zip(row, widths)) + "|" for row in texts]
    if not rows:
        return lines + ["Empty set"]
    return lines + [border, "{} row{} in set".format(len(rows), "" if len(rows) == 1 else "s")]
