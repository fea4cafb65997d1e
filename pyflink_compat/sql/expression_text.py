"""The text of a declared table's computed columns and watermark, as Flink shows them.

Flink keeps an expression of a ``CREATE TABLE`` in its own SQL form: names back-quoted, function
names and keywords in upper case, one space around operators (`` `a` + 1``,
``CAST(`y` AS TIMESTAMP(3))``). An expression given to a
:class:`~pyflink_compat.table.Schema` is shown by ``print_schema()`` as written, and in that SQL
form by ``str()`` of a :class:`~pyflink_compat.table.TableSchema`. Both are read from the
statement's text, token by token, so that a function keeps the name it was called by.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

__all__ = ["declared_expression_texts", "flink_sql_text"]

#: The functions Flink's SQL form names in back quotes (those not in Calcite's own table).
_QUOTED_FUNCTIONS = frozenset(["SOURCE_WATERMARK"])

_TIME_UNITS = frozenset(["YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND",
                         "MILLISECOND", "MICROSECOND", "NANOSECOND", "DOW", "DOY", "EPOCH"])

_PLURAL_UNITS = frozenset(["SECONDS", "MINUTES", "HOURS", "DAYS", "MONTHS", "YEARS"])

#: The words that stand for an operator: a parenthesis after one is an operand's, spaced.
_OPERATOR_WORDS = frozenset(["AND", "OR", "NOT", "IN", "WHEN", "THEN", "ELSE", "CASE", "IS",
                             "EXISTS", "LIKE", "BETWEEN", "AS", "INTERVAL"])


def _tokens(text: str) -> List[Any]:
    from pyflink_compat.sql.dialect import Flink

    return list(Flink().tokenize(text))


def flink_sql_text(tokens: List[Any]) -> str:
    """The tokens of one expression in Flink's SQL form."""
    from sqlglot.tokens import TokenType

    words = (TokenType.VAR, TokenType.IDENTIFIER)
    pieces: List[str] = []
    previous: Optional[Any] = None
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        kind = token.token_type
        if kind in words and following is not None and following.token_type == TokenType.L_PAREN:
            name = token.text.upper()
            piece = "`{}`".format(name) if name in _QUOTED_FUNCTIONS else name
        elif kind == TokenType.VAR and previous is not None and \
                previous.token_type == TokenType.STRING and index >= 2 and \
                tokens[index - 2].token_type == TokenType.INTERVAL:
            piece = token.text.upper()  # an interval's unit, singular in Flink's form
            piece = piece[:-1] if piece in _PLURAL_UNITS else piece
        elif kind == TokenType.VAR and token.text.upper() in _TIME_UNITS:
            piece = token.text.upper()  # a reserved word (EXTRACT(YEAR FROM ...)), no name
        elif kind in words:
            piece = "`{}`".format(token.text.replace("`", "``"))
        elif kind == TokenType.STRING:
            piece = "'{}'".format(token.text.replace("'", "''"))
        elif kind == TokenType.INT and previous is not None and previous.token_type == TokenType.ALIAS:
            piece = "INTEGER"  # a CAST's target type, by its SQL name
        elif kind == TokenType.BETWEEN and (following is None or following.text.upper() not in (
                "SYMMETRIC", "ASYMMETRIC")):
            piece = "BETWEEN ASYMMETRIC"
        else:
            piece = token.text.upper()
        if previous is None:
            pieces.append(piece)
        else:
            glued = kind in (TokenType.R_PAREN, TokenType.COMMA, TokenType.DOT) or \
                previous.token_type in (TokenType.L_PAREN, TokenType.DOT) or \
                (kind == TokenType.L_PAREN and previous.token_type not in (
                    TokenType.COMMA, TokenType.L_PAREN) and previous.text.isidentifier()
                 and previous.text.upper() not in _OPERATOR_WORDS) or \
                (previous.token_type == TokenType.DASH and _unary(tokens, index - 1)
                 and kind == TokenType.NUMBER)
            pieces.append(piece if glued else " " + piece)
        previous = token
    return "".join(pieces)


def _unary(tokens: List[Any], index: int) -> bool:
    """Whether the minus at ``index`` is a sign (no operand before it)."""
    from sqlglot.tokens import TokenType

    if index == 0:
        return True
    before = tokens[index - 1]
    return before.token_type in (TokenType.L_PAREN, TokenType.COMMA) or \
        not (before.text.isidentifier() or before.token_type in (
            TokenType.NUMBER, TokenType.STRING, TokenType.R_PAREN, TokenType.IDENTIFIER)) or \
        before.text.upper() in _OPERATOR_WORDS


def _items(tokens: List[Any]) -> List[List[Any]]:
    """The members of the first parenthesized list of a ``CREATE TABLE``'s tokens."""
    from sqlglot.tokens import TokenType

    items: List[List[Any]] = []
    depth = 0
    current: List[Any] = []
    for token in tokens:
        if token.token_type == TokenType.L_PAREN:
            depth += 1
            if depth == 1:
                continue
        elif token.token_type == TokenType.R_PAREN:
            depth -= 1
            if depth == 0:
                items.append(current)
                return items
        elif token.token_type == TokenType.COMMA and depth == 1:
            items.append(current)
            current = []
            continue
        if depth >= 1:
            current.append(token)
    return items


def declared_expression_texts(text: str) -> Dict[str, Tuple[str, str]]:
    """The computed columns' and the watermark's expressions of the ``CREATE TABLE`` statement
    ``text``: by column name (the watermark under the empty name), their text in Flink's SQL
    form and as written."""
    from sqlglot.tokens import TokenType

    try:
        tokens = _tokens(text)
    except Exception:  # noqa: BLE001 - a statement read already; its text is only shown
        return {}
    texts: Dict[str, Tuple[str, str]] = {}
    for item in _items(tokens):
        if len(item) >= 5 and item[0].text.upper() == "WATERMARK" and item[1].text.upper() == "FOR":
            name, expression = "", item[4:]
        elif len(item) >= 3 and item[1].token_type == TokenType.ALIAS and \
                item[0].token_type in (TokenType.VAR, TokenType.IDENTIFIER):
            name, expression = item[0].text, item[2:]
            comment = next((i for i, t in enumerate(expression) if t.token_type == TokenType.COMMENT
                            or t.text.upper() == "COMMENT"), None)
            expression = expression[:comment]
        else:
            continue
        if not expression:
            continue
        written = text[expression[0].start:expression[-1].end + 1]
        if expression[-1].token_type == TokenType.STRING:
            written = text[expression[0].start:text.index("'", expression[-1].end) + 1] \
                if text[expression[-1].end:expression[-1].end + 1] != "'" else written
        texts[name] = (flink_sql_text(expression), written)
    return texts
