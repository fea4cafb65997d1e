"""The statements of a Flink SQL script, as records a table environment runs.

:func:`parse_statements` reads SQL text with the :class:`~pyflink_compat.sql.dialect.Flink`
dialect and gives one record per statement: :class:`CreateTable`, :class:`CreateView`,
:class:`Drop`, :class:`Insert`, :class:`Query`, :class:`SetOption` or :class:`ResetOption`.
A statement of another kind raises :class:`UnsupportedStatement`, naming it.
"""

from __future__ import annotations

from typing import Dict, List, Mapping, Optional, Tuple, Union

import attrs
from sqlglot import exp

from pyflink_compat.sql.dialect import Flink, MetadataColumnConstraint, ResetStatement, parse

__all__ = [
    "Column",
    "CreateTable",
    "CreateView",
    "Drop",
    "Insert",
    "Query",
    "ResetOption",
    "SetOption",
    "Statement",
    "UnsupportedStatement",
    "Watermark",
    "parse_statements",
    "to_statement",
]


class UnsupportedStatement(ValueError):
    """A statement this runtime does not run (its text is in the message)."""


@attrs.frozen
class Column:
    """One column of a ``CREATE TABLE``.

    ``kind`` is ``"physical"`` (read from or written to the connector), ``"computed"``
    (``name AS expression``) or ``"metadata"`` (``METADATA [FROM 'key'] [VIRTUAL]``).
    """

    name: str
    kind: str
    data_type: Optional[exp.DataType] = attrs.field(default=None, eq=False)
    expression: Optional[exp.Expression] = attrs.field(default=None, eq=False)
    metadata_key: Optional[str] = None
    virtual: bool = False
    not_null: bool = False

    @property
    def type_text(self) -> str:
        """The declared type as Flink SQL text (empty for a computed column)."""
        return self.data_type.sql(Flink) if self.data_type is not None else ""


@attrs.frozen
class Watermark:
    """``WATERMARK FOR column AS expression``."""

    column: str
    expression: exp.Expression = attrs.field(eq=False)

    @property
    def sql(self) -> str:
        """The watermark expression as Flink SQL text."""
        return self.expression.sql(Flink)


@attrs.frozen
class CreateTable:
    """``CREATE [TEMPORARY] TABLE [IF NOT EXISTS] name (...) [PARTITIONED BY (...)] WITH (...)``."""

    name: str
    columns: Tuple[Column, ...]
    options: Mapping[str, str]
    temporary: bool = False
    if_not_exists: bool = False
    watermark: Optional[Watermark] = None
    primary_key: Tuple[str, ...] = ()
    partition_keys: Tuple[str, ...] = ()
    text: str = ""
    #: The primary key's constraint name (``CONSTRAINT name``; Flink's default ``PK_<columns>``).
    primary_key_name: Optional[str] = None
    #: Whether its expressions show as written (a ``Schema``'s) rather than in Flink's SQL form.
    expressions_as_written: bool = False

    @property
    def physical_columns(self) -> Tuple[Column, ...]:
        """The columns the connector reads or writes."""
        return tuple(c for c in self.columns if c.kind == "physical")


@attrs.frozen
class CreateView:
    """``CREATE [TEMPORARY] VIEW [IF NOT EXISTS] name AS query``."""

    name: str
    query: exp.Expression = attrs.field(eq=False)
    temporary: bool = False
    if_not_exists: bool = False
    text: str = ""


@attrs.frozen
class Drop:
    """``DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] name``."""

    kind: str
    name: str
    temporary: bool = False
    if_exists: bool = False
    text: str = ""


@attrs.frozen
class Insert:
    """``INSERT INTO|OVERWRITE target [(columns)] query``."""

    target: str
    query: exp.Expression = attrs.field(eq=False)
    columns: Tuple[str, ...] = ()
    overwrite: bool = False
    text: str = ""


@attrs.frozen
class Query:
    """A query (``SELECT``, ``VALUES``, set operations, ``WITH``)."""

    query: exp.Expression = attrs.field(eq=False)
    text: str = ""


@attrs.frozen
class SetOption:
    """``SET 'key' = 'value'`` (``key`` is ``None`` for a bare ``SET``)."""

    key: Optional[str]
    value: Optional[str]
    text: str = ""


@attrs.frozen
class ResetOption:
    """``RESET ['key']`` (``key`` is ``None`` for all options)."""

    key: Optional[str]
    text: str = ""


@attrs.frozen
class Describe:
    """``DESCRIBE name`` / ``DESC name``: the columns of a table or view."""

    name: str
    text: str = ""


Statement = Union[CreateTable, CreateView, Drop, Insert, Query, SetOption, ResetOption, Describe]


def _table_name(table: exp.Expression) -> str:
    """The (possibly qualified) name of a table reference, its parts joined with dots."""
    if isinstance(table, exp.Schema):
        table = table.this
    if isinstance(table, exp.Table):
        return ".".join(part.name for part in table.parts)
    return table.name


def _literal_text(node: Optional[exp.Expression]) -> Optional[str]:
    if node is None:
        return None
    if isinstance(node, exp.Literal):
        return str(node.this)
    if isinstance(node, (exp.Identifier, exp.Column, exp.Var)):
        return node.name
    return node.sql(Flink)


def _column(definition: exp.ColumnDef) -> Column:
    name = definition.name
    kind = "physical"
    expression = None
    metadata_key = None
    virtual = False
    not_null = False
    for constraint in definition.args.get("constraints") or []:
        constraint_kind = constraint.args.get("kind")
        if isinstance(constraint_kind, exp.ComputedColumnConstraint):
            kind = "computed"
            expression = constraint_kind.this
        elif isinstance(constraint_kind, MetadataColumnConstraint):
            kind = "metadata"
            metadata_key = _literal_text(constraint_kind.this)
            virtual = bool(constraint_kind.args.get("virtual"))
        elif isinstance(constraint_kind, exp.NotNullColumnConstraint):
            not_null = not constraint_kind.args.get("allow_null")
    data_type = definition.args.get("kind")
    return Column(name=name, kind=kind, data_type=data_type, expression=expression,
                  metadata_key=metadata_key, virtual=virtual, not_null=not_null)


def _create_table(tree: exp.Create, text: str) -> CreateTable:
    schema = tree.this
    columns: List[Column] = []
    watermark = None
    primary_key: Tuple[str, ...] = ()
    primary_key_name: Optional[str] = None
    for item in schema.expressions if isinstance(schema, exp.Schema) else []:
        if isinstance(item, exp.ColumnDef):
            columns.append(_column(item))
        elif isinstance(item, exp.WatermarkColumnConstraint):
            watermark = Watermark(column=item.this.name, expression=item.expression)
        elif isinstance(item, exp.PrimaryKey):
            primary_key = tuple(key.name for key in item.expressions)
        elif isinstance(item, exp.Constraint) and len(item.expressions) == 1 and \
                isinstance(item.expressions[0], exp.PrimaryKey):
            primary_key = tuple(key.name for key in item.expressions[0].expressions)
            primary_key_name = item.this.name
        else:
            raise UnsupportedStatement(f"Unsupported table element {item.sql(Flink)!r} in: {text}")
    options: Dict[str, str] = {}
    partition_keys: Tuple[str, ...] = ()
    properties = tree.args.get("properties")
    for prop in properties.expressions if properties is not None else []:
        if isinstance(prop, exp.TemporaryProperty):
            continue
        if isinstance(prop, exp.PartitionedByProperty):
            partitioned = prop.this
            items = partitioned.expressions if isinstance(partitioned, exp.Schema) else [partitioned]
            partition_keys = tuple(item.name for item in items)
        elif type(prop) is exp.Property:
            key = _literal_text(prop.this)
            value = _literal_text(prop.args.get("value"))
            if key is None or value is None:
                raise UnsupportedStatement(f"Unsupported table option {prop.sql(Flink)!r} in: {text}")
            options[key] = value
        else:
            raise UnsupportedStatement(f"Unsupported table clause {prop.sql(Flink)!r} in: {text}")
    return CreateTable(name=_table_name(schema), columns=tuple(columns), options=options,
                       temporary=_is_temporary(tree), if_not_exists=bool(tree.args.get("exists")),
                       watermark=watermark, primary_key=primary_key,
                       partition_keys=partition_keys, text=text,
                       primary_key_name=primary_key_name or ("PK_" + "_".join(primary_key) if primary_key else None))


def _is_temporary(tree: exp.Expression) -> bool:
    properties = tree.args.get("properties")
    if properties is not None and any(isinstance(p, exp.TemporaryProperty)
                                      for p in properties.expressions):
        return True
    return bool(tree.args.get("temporary"))


def _set_option(tree: exp.Set, text: str) -> SetOption:
    items = tree.expressions
    if not items:
        return SetOption(key=None, value=None, text=text)
    item = items[0].this if isinstance(items[0], exp.SetItem) else items[0]
    if isinstance(item, exp.EQ):
        return SetOption(key=_literal_text(item.this), value=_literal_text(item.expression), text=text)
    raise UnsupportedStatement(f"Unsupported SET statement: {text}")


def to_statement(tree: exp.Expression, text: Optional[str] = None) -> Statement:
    """The statement record of the parsed tree ``tree``.

    :param tree: One tree from :func:`pyflink_compat.sql.dialect.parse`.
    :param text: The statement's text, for messages (the tree's Flink SQL when omitted).
    :raises UnsupportedStatement: When the statement is of a kind not run here.
    """
    text = text if text is not None else tree.sql(Flink)
    if isinstance(tree, exp.Create):
        kind = (tree.args.get("kind") or "").upper()
        if kind == "TABLE" and tree.expression is None:
            return _create_table(tree, text)
        if kind == "VIEW":
            return CreateView(name=_table_name(tree.this), query=tree.expression,
                              temporary=_is_temporary(tree),
                              if_not_exists=bool(tree.args.get("exists")), text=text)
        raise UnsupportedStatement(f"Unsupported statement CREATE {kind}: {text}")
    if isinstance(tree, exp.Drop):
        kind = (tree.args.get("kind") or "").upper()
        if kind in ("TABLE", "VIEW"):
            return Drop(kind=kind, name=_table_name((tree.args.get("tables") or [tree.this])[0]),
                        temporary=bool(tree.args.get("temporary")),
                        if_exists=bool(tree.args.get("exists")), text=text)
        raise UnsupportedStatement(f"Unsupported statement DROP {kind}: {text}")
    if isinstance(tree, exp.Insert):
        target = tree.this
        columns: Tuple[str, ...] = ()
        if isinstance(target, exp.Schema):
            columns = tuple(c.name for c in target.expressions)
        return Insert(target=_table_name(target), query=tree.expression, columns=columns,
                      overwrite=bool(tree.args.get("overwrite")), text=text)
    if isinstance(tree, exp.Query):
        return Query(query=tree, text=text)
    if isinstance(tree, exp.Set):
        return _set_option(tree, text)
    if isinstance(tree, exp.Describe) and isinstance(tree.this, exp.Table) \
            and not tree.args.get("style"):
        return Describe(name=_table_name(tree.this), text=text)
    if isinstance(tree, ResetStatement):
        return ResetOption(key=_literal_text(tree.this), text=text)
    raise UnsupportedStatement(f"Unsupported statement: {text}")


def parse_statements(sql: str) -> List[Statement]:
    """The statements of the Flink SQL text ``sql``, in order."""
    trees = parse(sql)
    if len(trees) == 1:
        return [to_statement(trees[0], sql.strip().rstrip(";").strip())]
    return [to_statement(tree) for tree in trees]
