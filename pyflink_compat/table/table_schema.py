"""The schema of a :class:`~pyflink_compat.table.Table`: its column names and data types."""

from typing import Any, Dict, List, Optional, Tuple, Union

from pyflink_compat.table.types import DataType, RowField, RowType

__all__ = ['TableSchema']


def schema_of_struct(struct: Any, declared: Optional[Dict[str, DataType]] = None) -> 'TableSchema':
    """The schema of a query's Spark columns (a ``StructType``): a column's ``declared``
    type where given, else the Flink type of its Spark type, with the fraction digits its
    metadata records for a timestamp and ``NOT NULL`` for a column that cannot be null."""
    from pyflink_compat.sql.data_types import parse_data_type
    from pyflink_compat.sql.value_text import flink_type_name

    types = []
    for field in struct.fields:
        data_type = (declared or {}).get(field.name)
        if data_type is None:
            name = flink_type_name(field.dataType)
            precision = (field.metadata or {}).get("flink_precision")
            if precision is not None and name.startswith("TIMESTAMP"):
                name = name.split("(")[0] + "({})".format(precision)
            data_type = parse_data_type(name)
            if not field.nullable:
                data_type = data_type.not_null()
        types.append(data_type)
    return TableSchema(struct.fieldNames(), types)


class TableSchema(object):
    """Column names and their :class:`~pyflink_compat.table.types.DataType` s; ``str()`` gives
    Flink's text (``root`` then one `` |-- name: TYPE`` line per column).

    :param field_names: The column names.
    :param data_types: The :class:`~pyflink_compat.table.types.DataType` of each column.
    :param j_table_schema: A schema to copy the columns of (in PyFlink, the JVM schema).
    """

    def __init__(self, field_names: Optional[List[str]] = None,
                 data_types: Optional[List[DataType]] = None, j_table_schema: Any = None):
        if isinstance(j_table_schema, TableSchema):
            field_names = j_table_schema.get_field_names()
            data_types = j_table_schema.get_field_data_types()
        self._field_names = list(field_names or [])
        self._data_types = list(data_types or [])
        #: The primary key: its constraint name and columns (a declared table's).
        self._primary_key: Optional[Tuple[str, Tuple[str, ...]]] = None
        #: What follows each column's type, by name: in ``str()`` and as ``print_schema()``
        #: shows it (`` *ROWTIME*``, `` AS `a` + 1``, `` METADATA VIRTUAL``).
        self._extras: Dict[str, Tuple[str, str]] = {}
        #: A declared table's watermark: its column, the column's type, and its expression in
        #: ``str()`` and as ``print_schema()`` shows it.
        self._watermark: Optional[Tuple[str, str, str, str]] = None
        if isinstance(j_table_schema, TableSchema):
            self._primary_key = j_table_schema._primary_key
            self._extras = dict(j_table_schema._extras)
            self._watermark = j_table_schema._watermark
        if len(self._field_names) != len(self._data_types):
            raise ValueError("Number of field names and field data types must be equal.")
        self._j_table_schema = self

    def copy(self) -> 'TableSchema':
        """A copy of this schema."""
        return TableSchema(j_table_schema=self)

    def get_field_data_types(self) -> List[DataType]:
        """The data types of the columns, in order."""
        return list(self._data_types)

    def get_field_data_type(self, field: Union[int, str]) -> Optional[DataType]:
        """The data type of the column at index ``field`` or named ``field``; ``None`` when
        there is none."""
        if isinstance(field, int):
            return self._data_types[field] if 0 <= field < len(self._data_types) else None
        if field in self._field_names:
            return self._data_types[self._field_names.index(field)]
        return None

    def get_field_count(self) -> int:
        """The number of columns."""
        return len(self._field_names)

    def get_field_names(self) -> List[str]:
        """The column names, in order."""
        return list(self._field_names)

    def get_field_name(self, field_index: int) -> Optional[str]:
        """The name of the column at ``field_index``; ``None`` when there is none."""
        if 0 <= field_index < len(self._field_names):
            return self._field_names[field_index]
        return None

    def to_row_data_type(self) -> RowType:
        """The schema as a ``ROW`` type of its columns (not null, as Flink's)."""
        return RowType([RowField(n, t) for n, t in zip(self._field_names, self._data_types)],
                       nullable=False)

    def _show_declaration(self, details: Any, watermark: Any) -> None:
        """Show the columns of a declared table (a list of
        :class:`~pyflink_compat.sql.catalog.ColumnDetail`) and its ``watermark``
        (a :class:`~pyflink_compat.sql.catalog.WatermarkDetail` or ``None``)."""
        from pyflink_compat.sql.data_types import parse_data_type

        for detail in details:
            if detail.name not in self._field_names:
                continue
            if detail.type_text:
                self._data_types[self._field_names.index(detail.name)] = parse_data_type(detail.type_text)
            marker = " *{}*".format(detail.time_attribute) if detail.time_attribute else ""
            self._extras[detail.name] = (
                marker + (" " + detail.extra if detail.extra else ""),
                marker + (" " + detail.printed_extra if detail.printed_extra else ""))
        if watermark is not None:
            self._watermark = (watermark.column, watermark.type_text, watermark.expression,
                               watermark.printed_expression)

    def _show_time_attributes(self, shown: Dict[str, Tuple[Optional[str], str]]) -> None:
        """Mark the columns that are time attributes, by name (``ROWTIME`` or ``PROCTIME``,
        with the type Flink gives them), as
        :func:`~pyflink_compat.sql.time_attributes.shown_columns` finds them."""
        from pyflink_compat.sql.data_types import parse_data_type

        for index, name in enumerate(self._field_names):
            if name not in shown:
                continue
            marker, type_text = shown[name]
            if type_text:
                self._data_types[index] = parse_data_type(type_text)
            if marker is not None:
                self._extras[name] = (" *{}*".format(marker),) * 2

    def _printed(self) -> str:
        """The schema as ``print_schema()`` prints it."""
        from pyflink_compat.sql.data_types import type_text

        def quoted(name: str) -> str:
            return "`{}`".format(name.replace("`", "``"))

        lines = ["  {} {}{}".format(quoted(n), type_text(t), self._extras.get(n, ("", ""))[1])
                 for n, t in zip(self._field_names, self._data_types)]
        if self._watermark is not None:
            column, column_type, _, printed = self._watermark
            lines.append("  WATERMARK FOR {}: {} AS {}".format(quoted(column), column_type, printed))
        if self._primary_key is not None:
            name, keys = self._primary_key
            lines.append("  CONSTRAINT {} PRIMARY KEY ({}) NOT ENFORCED".format(
                quoted(name), ", ".join(quoted(k) for k in keys)))
        return "(\n" + ",\n".join(lines) + "\n)"

    def __repr__(self) -> str:
        from pyflink_compat.sql.data_types import type_text

        lines = ["root\n"] + [" |-- {}: {}{}\n".format(n, type_text(t), self._extras.get(n, ("", ""))[0])
                               for n, t in zip(self._field_names, self._data_types)]
        if self._watermark is not None:
            column, column_type, expression, _ = self._watermark
            lines.append(" |-- WATERMARK FOR {}: {} AS {}\n".format(column, column_type, expression))
        if self._primary_key is not None:
            name, columns = self._primary_key
            lines.append(" |-- CONSTRAINT {} PRIMARY KEY ({})\n".format(name, ", ".join(columns)))
        return "".join(lines)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableSchema) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))

    def __ne__(self, other: object) -> bool:
        return not self == other

    @classmethod
    def builder(cls) -> 'TableSchema.Builder':
        """A :class:`TableSchema.Builder` to add columns one by one."""
        return TableSchema.Builder()

    class Builder(object):
        """Builds a :class:`TableSchema` column by column."""

        def __init__(self) -> None:
            self._field_names: List[str] = []
            self._field_data_types: List[DataType] = []

        def field(self, name: str, data_type: DataType) -> 'TableSchema.Builder':
            """Add the column ``name`` of type ``data_type``.

            :return: This builder.
            """
            self._field_names.append(name)
            self._field_data_types.append(data_type)
            return self

        def build(self) -> 'TableSchema':
            """The :class:`TableSchema` of the columns added."""
            return TableSchema(self._field_names, self._field_data_types)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
