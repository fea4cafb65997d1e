"""Legacy table sinks: :class:`CsvTableSink` and its :class:`WriteMode`.

Using :class:`TableSink` itself raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
"""
from typing import Any, List, Optional

from pyflink_compat.missing.declared import Declared
from pyflink_compat.table.types import DataType

__all__ = ['TableSink', 'CsvTableSink', 'WriteMode']


class TableSink(Declared):
    pass


class WriteMode(object):
    """Whether a :class:`CsvTableSink` replaces an existing file (``OVERWRITE``) or fails the
    job when its path exists (``NO_OVERWRITE``, the default)."""

    NO_OVERWRITE = 0
    OVERWRITE = 1


class CsvTableSink(object):
    """Flink's legacy CSV sink, registered with ``TableEnvironment.register_table_sink``: each
    row one line of its fields' text (as Java prints them, an empty field for ``NULL``) joined
    by ``field_delimiter``, without quoting.

    With ``num_files=1`` the rows go to the file ``path``; otherwise ``path`` is a directory
    of files named ``1`` to ``n`` (``num_files``, or the job's parallelism when it is ``-1``).
    The sink takes inserts only.

    :param field_names: The column names.
    :param field_types: Their :class:`~pyflink_compat.table.types.DataType` s.
    :param path: The file (or directory) written.
    :param field_delimiter: The field delimiter (``,``).
    :param num_files: The number of files (``-1``: one per parallel task).
    :param write_mode: :data:`WriteMode.NO_OVERWRITE` (default) or :data:`WriteMode.OVERWRITE`.
    """

    def __init__(self, field_names: List[str], field_types: List[DataType], path: str,
                 field_delimiter: str = ',', num_files: int = -1,
                 write_mode: Optional[int] = None):
        if write_mode not in (None, WriteMode.NO_OVERWRITE, WriteMode.OVERWRITE):
            raise Exception('Unsupported write_mode: %s' % write_mode)
        self._j_table_sink: Any = dict(
            names=list(field_names), types=list(field_types), path=path,
            delimiter=field_delimiter, num_files=num_files,
            overwrite=write_mode == WriteMode.OVERWRITE)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
