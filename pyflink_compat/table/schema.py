"""The declared columns of a table: :class:`Schema` (``Schema.new_builder()...build()``)."""

from typing import Any, List, Optional, Tuple, Union

from pyflink_compat.table.types import DataType, RowType

__all__ = ['Schema']


def _type_text(data_type: Union[str, DataType]) -> Tuple[str, str]:
    """The type's text in DDL, and as ``str(Schema)`` shows it (a text type in brackets)."""
    if isinstance(data_type, str):
        return data_type, "[{}]".format(data_type)
    from pyflink_compat.sql.data_types import type_text

    text = type_text(data_type)
    return text, text


def _expression_text(expr: Any) -> str:
    if isinstance(expr, str):
        return expr
    from pyflink_compat.sql.dialect import Flink

    return str(expr._j_expr.sql(Flink))


def _quoted(name: str) -> str:
    return "`{}`".format(name.replace("`", "``"))


class Schema(object):
    """The columns of a table as declared (not yet resolved): physical, computed and metadata
    columns, a watermark and a primary key. Build one with :meth:`new_builder`; a
    :class:`~pyflink_compat.table.TableDescriptor` carries it.

    :param j_schema: The declared members (in PyFlink, the JVM schema).
    """

    def __init__(self, j_schema: Any):
        self._j_schema = j_schema

    @staticmethod
    def new_builder() -> 'Schema.Builder':
        """An empty :class:`Schema.Builder`."""
        return Schema.Builder([])

    def _members(self) -> List[Tuple[str, str, str]]:
        members: List[Tuple[str, str, str]] = self._j_schema
        return members

    def _ddl(self) -> str:
        """The members as the body of a ``CREATE TABLE`` statement."""
        return ",\n  ".join(ddl for _, ddl, _ in self._members())

    def __str__(self) -> str:
        shown = [text for _, _, text in self._members()]
        return "(\n  " + ",\n  ".join(shown) + "\n)" if shown else "(\n)"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Schema) and self._members() == other._members()

    def __hash__(self) -> int:
        return hash(tuple(self._members()))

    class Builder(object):
        """Builds a :class:`Schema` member by member; each method returns the builder.

        :param j_builder: The members so far.
        """

        def __init__(self, j_builder: List[Tuple[str, str, str]]):
            self._j_builder = j_builder

        def _add(self, kind: str, ddl: str, text: str) -> 'Schema.Builder':
            self._j_builder.append((kind, ddl, text))
            return self

        def from_schema(self, unresolved_schema: 'Schema') -> 'Schema.Builder':
            """Adopt every member of ``unresolved_schema``."""
            self._j_builder.extend(unresolved_schema._members())
            return self

        def from_row_data_type(self, data_type: DataType) -> 'Schema.Builder':
            """Adopt the fields of the ``ROW`` type ``data_type`` as physical columns."""
            if not isinstance(data_type, RowType):
                raise ValueError("Data type of the row is expected, got {!r}".format(data_type))
            for field in data_type:
                self.column(field.name, field.data_type)
            return self

        def from_fields(self, field_names: List[str],
                        field_data_types: List[DataType]) -> 'Schema.Builder':
            """Adopt ``field_names`` of ``field_data_types`` as physical columns."""
            for name, data_type in zip(field_names, field_data_types):
                self.column(name, data_type)
            return self

        def column(self, column_name: str, data_type: Union[str, DataType]) -> 'Schema.Builder':
            """Append the physical column ``column_name`` of ``data_type`` (a
            :class:`~pyflink_compat.table.types.DataType` or Flink SQL type text)."""
            ddl_type, shown = _type_text(data_type)
            return self._add("column", "{} {}".format(_quoted(column_name), ddl_type),
                             "{} {}".format(_quoted(column_name), shown))

        def column_by_expression(self, column_name: str, expr: Any) -> 'Schema.Builder':
            """Append the computed column ``column_name`` = ``expr`` (SQL text or an
            :class:`~pyflink_compat.table.Expression`)."""
            text = _expression_text(expr)
            shown = "[{}]".format(text) if isinstance(expr, str) else text
            return self._add("computed", "{} AS {}".format(_quoted(column_name), text),
                             "{} AS {}".format(_quoted(column_name), shown))

        def column_by_metadata(self, column_name: str, data_type: Union[DataType, str],
                               metadata_key: Optional[str] = None,
                               is_virtual: bool = False) -> 'Schema.Builder':
            """Append the metadata column ``column_name`` read from the connector's
            ``metadata_key`` (the column name when none)."""
            ddl_type, shown = _type_text(data_type)
            suffix = " METADATA" + (" FROM '{}'".format(metadata_key) if metadata_key else "") \
                + (" VIRTUAL" if is_virtual else "")
            return self._add("metadata", "{} {}{}".format(_quoted(column_name), ddl_type, suffix),
                             "{} {}{}".format(_quoted(column_name), shown, suffix))

        def watermark(self, column_name: str, watermark_expr: Any) -> 'Schema.Builder':
            """Make ``column_name`` the event-time attribute, with the watermark
            ``watermark_expr`` (SQL text or an :class:`~pyflink_compat.table.Expression`)."""
            text = _expression_text(watermark_expr)
            shown = "[{}]".format(text) if isinstance(watermark_expr, str) else text
            return self._add("watermark", "WATERMARK FOR {} AS {}".format(_quoted(column_name), text),
                             "WATERMARK FOR {} AS {}".format(_quoted(column_name), shown))

        def primary_key(self, *column_names: str) -> 'Schema.Builder':
            """Declare the primary key ``column_names`` (named ``PK_<names>``, not enforced)."""
            return self.primary_key_named("PK_" + "_".join(column_names), *column_names)

        def primary_key_named(self, constraint_name: str, *column_names: str) -> 'Schema.Builder':
            """Declare the primary key ``column_names`` named ``constraint_name``."""
            columns = ", ".join(_quoted(c) for c in column_names)
            ddl = "PRIMARY KEY ({}) NOT ENFORCED".format(columns)
            named = "CONSTRAINT {} {}".format(_quoted(constraint_name), ddl)
            return self._add("primary_key", named, named)

        def build(self) -> 'Schema':
            """The :class:`Schema` of the members added."""
            return Schema(list(self._j_builder))


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
