"""Flink SQL as a sqlglot dialect.

Flink's SQL shares Spark's lexical habits (backquoted identifiers, single-quoted strings,
``ARRAY<...>`` and ``MAP<...>`` types), so :class:`Flink` starts from sqlglot's Spark dialect
and adds what Flink has on top: ``ROW<...>`` / ``ROW(...)`` types, ``TIMESTAMP_LTZ``,
``METADATA`` and computed columns, ``WATERMARK FOR ... AS ...``, ``PRIMARY KEY ... NOT
ENFORCED``, ``WITH ('key' = 'value')`` table options, ``RESET``, and the windowing table
functions' ``TABLE t`` and ``DESCRIPTOR(col)`` arguments.

:func:`parse` reads a script into sqlglot trees; :mod:`pyflink_compat.sql.statements` turns
those into the statements a table environment runs.
"""

from __future__ import annotations

from typing import Any, List, cast

from sqlglot import exp
from sqlglot.dialects.spark import Spark
from sqlglot.errors import ParseError
from sqlglot.tokens import TokenType

# The nested classes, so that the dialect reads the same on sqlglot releases that keep the
# parser and generator in modules of their own and on those that nest them in the dialect.
SparkParser: Any = Spark.Parser
SparkGenerator: Any = Spark.Generator

__all__ = [
    "DescriptorArgument",
    "Flink",
    "MetadataColumnConstraint",
    "ResetStatement",
    "TableArgument",
    "parse",
    "position",
]


class MetadataColumnConstraint(exp.Expression, exp.ColumnConstraintKind):
    """``METADATA [FROM 'key'] [VIRTUAL]`` of a Flink column: the column reads connector
    metadata (``this`` is the key, when given; ``virtual`` when it is read-only)."""

    arg_types = {"this": False, "virtual": False}


class TableArgument(exp.Expression):
    """``TABLE name [PARTITION BY col, ...]`` passed to a table-valued function
    (``TUMBLE(TABLE t, ...)``, ``SESSION(TABLE t PARTITION BY k, ...)``)."""

    arg_types = {"this": True, "partition_by": False}


class DescriptorArgument(exp.Expression):
    """``DESCRIPTOR(col, ...)``: the columns a windowing function reads."""

    arg_types = {"expressions": True}


class ResetStatement(exp.Expression):
    """``RESET ['key']``: one option, or all options, back to their defaults."""

    arg_types = {"this": False}


def _trim(args: List[Any], position: str) -> exp.Expression:
    if len(args) == 1:
        return exp.Trim(this=args[0], position=position)
    return exp.Trim(this=args[0], expression=args[1], position=position)


class _FlinkParser(SparkParser):
    CONSTRAINT_PARSERS = {
        **SparkParser.CONSTRAINT_PARSERS,
        "METADATA": lambda self: self._parse_metadata_constraint(),
        "WATERMARK": lambda self: self.expression(
            exp.WatermarkColumnConstraint(
                this=self._match(TokenType.FOR) and self._parse_column(),
                expression=self._match(TokenType.ALIAS) and self._parse_disjunction(),
            )
        ),
    }

    SCHEMA_UNNAMED_CONSTRAINTS = {
        *SparkParser.SCHEMA_UNNAMED_CONSTRAINTS,
        "WATERMARK",
    }

    # Flink's LTRIM/RTRIM take the string first, then the characters to remove (Spark reverses).
    FUNCTIONS = {
        **SparkParser.FUNCTIONS,
        "LTRIM": lambda args: _trim(args, "LEADING"),
        "RTRIM": lambda args: _trim(args, "TRAILING"),
    }

    FUNCTION_PARSERS = {
        **SparkParser.FUNCTION_PARSERS,
        "DESCRIPTOR": lambda self: self.expression(
            DescriptorArgument(expressions=self._parse_csv(self._parse_column))),
    }

    STATEMENT_PARSERS = {
        **SparkParser.STATEMENT_PARSERS,
    }

    def _parse_metadata_constraint(self) -> exp.Expression:
        key = self._parse_string() if self._match(TokenType.FROM) else None
        virtual = self._match_text_seq("VIRTUAL")
        return self.expression(MetadataColumnConstraint(this=key, virtual=virtual or None))

    def _parse_statement(self) -> Any:
        if self._curr and self._curr.text.upper() == "RESET" and self._curr.token_type in (
                TokenType.VAR, TokenType.COMMAND):
            self._advance()
            key = self._parse_string()
            return self.expression(ResetStatement(this=key))
        return super()._parse_statement()

    def _parse_types(self, check_func: bool = False, schema: bool = False,
                     allow_identifiers: bool = True, with_collation: bool = False) -> Any:
        if self._curr and self._curr.token_type == TokenType.ROW and self._next \
                and self._next.token_type in (TokenType.LT, TokenType.L_PAREN):
            return self._parse_row_type()
        return super()._parse_types(check_func=check_func, schema=schema,
                                    allow_identifiers=allow_identifiers,
                                    with_collation=with_collation)

    def _parse_row_type(self) -> exp.DataType:
        """``ROW<name type, ...>`` or ``ROW(name type, ...)``: Flink's structured type."""
        self._advance()
        closing = TokenType.GT if self._curr.token_type == TokenType.LT else TokenType.R_PAREN
        self._advance()
        fields: List[exp.Expression] = []
        while not self._match(closing):
            name = self._parse_id_var(any_token=True)
            kind = self._parse_types(schema=True)
            if name is None or kind is None:
                self.raise_error("Expecting a field name and type in ROW")
            fields.append(exp.ColumnDef(this=name, kind=kind))
            if self._match(TokenType.STRING):  # a field's description
                pass
            if not self._match(TokenType.COMMA) and not (self._curr and self._curr.token_type == closing):
                self.raise_error(f"Expecting ',' or the end of ROW, got {self._curr and self._curr.text}")
        return exp.DataType(this=exp.DataType.Type.STRUCT, expressions=fields, nested=True)

    def _parse_lambda(self, alias: bool = False) -> Any:
        # ``TABLE name`` as a table-valued function's argument (``TUMBLE(TABLE t, ...)``).
        if self._curr and self._curr.token_type == TokenType.TABLE and self._next \
                and self._next.token_type in (TokenType.VAR, TokenType.IDENTIFIER):
            self._advance()
            table = self._parse_table_parts()
            keys = None
            if self._match(TokenType.PARTITION_BY):
                # one column, or several in parentheses: a comma ends the table argument
                keys = self._parse_wrapped_csv(self._parse_column) \
                    if self._curr and self._curr.token_type == TokenType.L_PAREN \
                    else [self._parse_column()]
            return self.expression(TableArgument(this=table, partition_by=keys))
        return super()._parse_lambda(alias=alias)


class _FlinkGenerator(SparkGenerator):
    TRANSFORMS = {
        **SparkGenerator.TRANSFORMS,
        MetadataColumnConstraint: lambda self, e: "METADATA" + (
            f" FROM {self.sql(e, 'this')}" if e.this else "") + (" VIRTUAL" if e.args.get("virtual") else ""),
        TableArgument: lambda self, e: f"TABLE {self.sql(e, 'this')}" + (
            (f" PARTITION BY {self.expressions(e, key='partition_by', flat=True)}"
             if len(e.args["partition_by"]) == 1
             else f" PARTITION BY ({self.expressions(e, key='partition_by', flat=True)})")
            if e.args.get("partition_by") else ""),
        DescriptorArgument: lambda self, e: f"DESCRIPTOR({self.expressions(e, flat=True)})",
        ResetStatement: lambda self, e: "RESET" + (f" {self.sql(e, 'this')}" if e.this else ""),
    }


class Flink(Spark):
    """The SQL of Apache Flink 1.20, as sqlglot reads and writes it."""

    class Tokenizer(Spark.Tokenizer):
        # ``$`` continues a name: PyFlink calls unnamed tables ``UnnamedTable$0``.
        VAR_SINGLE_TOKENS = {"$"}
        # A quote is doubled in a string literal ('It''s'); a backslash is an ordinary character.
        STRING_ESCAPES = ["'"]

        # SESSION is no keyword in Flink: it names the session window (SESSION(ts, gap)).
        KEYWORDS = {
            **{k: v for k, v in Spark.Tokenizer.KEYWORDS.items() if k != "SESSION"},
            "BYTES": TokenType.VARBINARY,
            # Flink's TIMESTAMP has no time zone (Spark's reads as the session's zone).
            "TIMESTAMP": TokenType.TIMESTAMP,
            "TIMESTAMP_LTZ": TokenType.TIMESTAMPLTZ,
        }

    Parser = _FlinkParser

    Generator = _FlinkGenerator


def parse(sql: str) -> List[exp.Expression]:
    """The statements of the Flink SQL text ``sql`` (one, or several separated by ``;``).

    :raises sqlglot.errors.ParseError: When the text is not Flink SQL this dialect reads.
    """
    trees = [tree for tree in Flink().parse(sql) if tree is not None]
    if not trees:
        raise ParseError(f"No SQL statement in: {sql!r}")
    return cast(List[exp.Expression], trees)


def position(sql: str, offset: int) -> str:
    """``line <l>, column <c>`` of the character at ``offset`` of ``sql``, counted as Flink's
    parser counts them in its messages (from 1)."""
    before = sql[:offset]
    line = before.count("\n") + 1
    return "line {}, column {}".format(line, offset - (before.rfind("\n") + 1) + 1)

