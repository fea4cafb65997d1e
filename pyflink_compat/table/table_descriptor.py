"""Tables described in Python: :class:`TableDescriptor` (a connector, its options and a
:class:`~pyflink_compat.table.Schema`) and :class:`FormatDescriptor`.

A descriptor is the ``CREATE TABLE`` statement it stands for: registering one
(``create_temporary_table``, ``from_descriptor``, ``execute_insert``) runs that statement, so
its connector and options are read by the same connectors as SQL tables.
"""

from typing import Any, Dict, List, Optional, Union

from pyflink_compat.table.schema import Schema

__all__ = ['TableDescriptor', 'FormatDescriptor']


def _key(key: Any) -> str:
    return key if isinstance(key, str) else str(key.key())


def _sql_text(value: str) -> str:
    return "'{}'".format(value.replace("'", "''"))


class TableDescriptor(object):
    """A table: its connector, options, :class:`~pyflink_compat.table.Schema`, partition keys
    and comment. Build one with :meth:`for_connector`.

    :param j_table_descriptor: The description (in PyFlink, the JVM descriptor).
    """

    def __init__(self, j_table_descriptor: Dict[str, Any]):
        self._j_table_descriptor = j_table_descriptor

    @staticmethod
    def for_connector(connector: str) -> 'TableDescriptor.Builder':
        """A :class:`TableDescriptor.Builder` of a table of ``connector``."""
        return TableDescriptor.Builder(connector)

    def get_schema(self) -> Optional[Schema]:
        """The schema, or ``None``."""
        schema: Optional[Schema] = self._j_table_descriptor["schema"]
        return schema

    def get_options(self) -> Dict[str, str]:
        """The options, ``connector`` among them."""
        return dict(self._j_table_descriptor["options"])

    def get_partition_keys(self) -> List[str]:
        """The partition keys."""
        return list(self._j_table_descriptor["partition_keys"])

    def get_comment(self) -> Optional[str]:
        """The comment, or ``None``."""
        comment: Optional[str] = self._j_table_descriptor["comment"]
        return comment

    def _create_statement(self, name: str) -> str:
        """The ``CREATE TEMPORARY TABLE`` statement of this table, named ``name``."""
        schema = self.get_schema()
        if schema is None:
            from pyflink_compat.missing import NotSupportedError

            raise NotSupportedError(
                "A TableDescriptor without a schema",
                "Declare the columns with .schema(Schema.new_builder()...build()): the schema is "
                "not read from the external system.")
        partition = self.get_partition_keys()
        return "CREATE TEMPORARY TABLE `{}` (\n  {}\n){}{}\nWITH (\n  {}\n)".format(
            name.replace("`", "``"), schema._ddl(),
            "\nCOMMENT {}".format(_sql_text(self.get_comment() or "")) if self.get_comment() else "",
            "\nPARTITIONED BY ({})".format(", ".join("`{}`".format(k) for k in partition))
            if partition else "",
            ",\n  ".join("{} = {}".format(_sql_text(k), _sql_text(v))
                         for k, v in self.get_options().items()))

    def __str__(self) -> str:
        schema = self.get_schema()
        partition = self.get_partition_keys()
        return "{}\nCOMMENT {}\n{}\nWITH (\n  {}\n)".format(
            schema if schema is not None else "", _sql_text(self.get_comment() or ""),
            "PARTITIONED BY ({})".format(", ".join("`{}`".format(k) for k in partition))
            if partition else "",
            ",\n  ".join("{} = {}".format(_sql_text(k), _sql_text(v))
                         for k, v in sorted(self.get_options().items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TableDescriptor) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    class Builder(object):
        """Builds a :class:`TableDescriptor`; each method returns the builder.

        :param connector: The connector.
        """

        def __init__(self, connector: str):
            self._j_builder: Dict[str, Any] = {
                "schema": None, "options": {"connector": connector}, "partition_keys": [],
                "comment": None}

        def schema(self, schema: Schema) -> 'TableDescriptor.Builder':
            """The table's :class:`~pyflink_compat.table.Schema`."""
            self._j_builder["schema"] = schema
            return self

        def option(self, key: Any, value: Any) -> 'TableDescriptor.Builder':
            """Set the table option ``key`` (text or a ``ConfigOption``) to ``value``."""
            self._j_builder["options"][_key(key)] = value if isinstance(value, str) else \
                str(value).lower() if isinstance(value, bool) else str(value)
            return self

        def format(self, format: Union[str, 'FormatDescriptor'],
                   format_option: Any = None) -> 'TableDescriptor.Builder':
            """The format (a name, or a :class:`FormatDescriptor` with its options), for the
            connector option ``format_option`` (``format`` when none)."""
            option = _key(format_option) if format_option is not None else "format"
            if isinstance(format, str):
                self._j_builder["options"][option] = format
                return self
            name = format.get_format()
            self._j_builder["options"][option] = name
            prefix = option[:-len("format")] if option.endswith("format") else option + "."
            for key, value in format.get_options().items():
                self._j_builder["options"]["{}{}.{}".format(prefix, name, key)] = value
            return self

        def partitioned_by(self, *partition_keys: str) -> 'TableDescriptor.Builder':
            """The partition keys."""
            self._j_builder["partition_keys"] = list(partition_keys)
            return self

        def comment(self, comment: str) -> 'TableDescriptor.Builder':
            """The table's comment."""
            self._j_builder["comment"] = comment
            return self

        def build(self) -> 'TableDescriptor':
            """The :class:`TableDescriptor`."""
            built = dict(self._j_builder)
            built["options"] = dict(built["options"])
            return TableDescriptor(built)


class FormatDescriptor(object):
    """A format and its options (without the format prefix). Build one with
    :meth:`for_format`.

    :param j_format_descriptor: The description (in PyFlink, the JVM descriptor).
    """

    def __init__(self, j_format_descriptor: Dict[str, Any]):
        self._j_format_descriptor = j_format_descriptor

    @staticmethod
    def for_format(format: str) -> 'FormatDescriptor.Builder':
        """A :class:`FormatDescriptor.Builder` of ``format``."""
        return FormatDescriptor.Builder(format)

    def get_format(self) -> str:
        """The format's name."""
        return str(self._j_format_descriptor["format"])

    def get_options(self) -> Dict[str, str]:
        """The format's options."""
        return dict(self._j_format_descriptor["options"])

    def __str__(self) -> str:
        return "{}[{}]".format(self.get_format(), ", ".join(
            "{}={}".format(k, v) for k, v in self.get_options().items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FormatDescriptor) and \
            (self.get_format(), self.get_options()) == (other.get_format(), other.get_options())

    def __hash__(self) -> int:
        return hash((self.get_format(), tuple(sorted(self.get_options().items()))))

    class Builder(object):
        """Builds a :class:`FormatDescriptor`; each method returns the builder.

        :param format: The format's name.
        """

        def __init__(self, format: str):
            self._j_builder: Dict[str, Any] = {"format": format, "options": {}}

        def option(self, key: Any, value: Any) -> 'FormatDescriptor.Builder':
            """Set the format option ``key`` (without the format prefix) to ``value``."""
            self._j_builder["options"][_key(key)] = value if isinstance(value, str) else \
                str(value).lower() if isinstance(value, bool) else str(value)
            return self

        def build(self) -> 'FormatDescriptor':
            """The :class:`FormatDescriptor`."""
            return FormatDescriptor({"format": self._j_builder["format"],
                                     "options": dict(self._j_builder["options"])})


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
