"""Legacy table sources: :class:`CsvTableSource` (read once, when it is registered).

Using :class:`TableSource` itself raises :class:`~pyflink_compat.missing.NotSupportedError`.
"""
from typing import Any, List, Optional

from pyflink_compat.missing.declared import Declared
from pyflink_compat.table.types import DataType

__all__ = ['TableSource', 'CsvTableSource']


class TableSource(Declared):
    pass


class CsvTableSource(object):
    """A bounded table of the CSV file (or directory of files) ``source_path``: Flink's legacy
    CSV source, registered with ``TableEnvironment.register_table_source``.

    As Flink's, it knows no quoting unless ``quote_character`` is given, and a malformed line
    fails the job unless ``lenient``. Its rows are read when the source is registered.

    :param source_path: The file or directory.
    :param field_names: The column names.
    :param field_types: Their :class:`~pyflink_compat.table.types.DataType` s.
    :param field_delim: The field delimiter (``,``).
    :param line_delim: The line delimiter (only ``\\n`` runs).
    :param quote_character: The quote character, or ``None`` for no quoting.
    :param ignore_first_line: Whether the first line is a header.
    :param ignore_comments: The prefix of comment lines (one character runs).
    :param lenient: Whether malformed lines are skipped.
    :param empty_column_as_null: Whether an empty field is NULL.
    """

    def __init__(self, source_path: str, field_names: List[str], field_types: List[DataType],
                 field_delim: Optional[str] = None, line_delim: Optional[str] = None,
                 quote_character: Optional[str] = None, ignore_first_line: Optional[bool] = None,
                 ignore_comments: Optional[str] = None, lenient: Optional[bool] = None,
                 empty_column_as_null: Optional[bool] = None):
        if line_delim not in (None, "\n"):
            from pyflink_compat.missing import NotSupportedError

            raise NotSupportedError("CsvTableSource with line_delim={!r}".format(line_delim),
                                    "Read the files with spark.read.option('lineSep', ...).csv(...).")
        self._j_table_source: Any = dict(
            path=source_path, names=list(field_names), types=list(field_types),
            delimiter=field_delim or ",", quote=quote_character, header=bool(ignore_first_line),
            comment=ignore_comments, lenient=bool(lenient),
            empty_as_null=bool(empty_column_as_null))


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
