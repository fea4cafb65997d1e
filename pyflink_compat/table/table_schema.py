"""The schema of a :class:`~pyflink_compat.table.Table`: its column names and Flink types."""

from typing import Any, List, Optional

__all__ = ['TableSchema']


class TableSchema(object):
    """Column names and their Flink types; ``str()`` gives Flink's text (``root`` then one
    `` |-- name: TYPE`` line per column).

    :param field_names: The column names.
    :param data_types: The Flink type of each column, as Flink SQL text (``BIGINT``).
    :param j_table_schema: Kept for PyFlink's signature.
    """

    def __init__(self, field_names: Optional[List[str]] = None, data_types: Optional[List[Any]] = None,
                 j_table_schema: Any = None):
        self._field_names = list(field_names or [])
        self._data_types = [str(t) for t in (data_types or [])]
        self._j_table_schema = j_table_schema

    def get_field_count(self) -> int:
        """The number of columns."""
        return len(self._field_names)

    def get_field_names(self) -> List[str]:
        """The column names, in order."""
        return list(self._field_names)

    def __str__(self) -> str:
        return "\n".join(["root"] + [" |-- {}: {}".format(n, t)
                                     for n, t in zip(self._field_names, self._data_types)])


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
