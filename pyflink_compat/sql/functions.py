"""Flink SQL expressions rewritten so that Spark computes what Flink computes: value and type.

:func:`apply_flink_semantics` walks a parsed Flink query bottom-up. It gives every expression its
Flink type (held in ``node.meta["flink_type"]``, as :mod:`pyflink_compat.sql.types` spells
types) and replaces each construct whose Spark meaning differs by one that computes Flink's
result on Spark: integer division, ``AVG``/``SUM`` over integers, failing ``CAST``\\ s,
``REGEXP_EXTRACT``'s default group, ``CEIL`` of a ``DOUBLE``, ``SPLIT_INDEX``, ``JSON_VALUE``...
One small function per rewrite; each is registered in :data:`_REWRITES` for its node class.

The result is a tree to generate with ``tree.sql(dialect="spark")``; :func:`result_types` gives
the Flink types of its columns.
"""

from __future__ import annotations

import re
from typing import Callable, Collection, Container, Dict, List, Mapping, Optional, Sequence, Tuple

from sqlglot import exp

from pyflink_compat.sql import types as ft

__all__ = ["apply_flink_semantics", "result_types", "flink_type_of", "SqlValidationError"]

T = exp.DataType.Type
Schema = Mapping[str, Mapping[str, exp.DataType]]

_META = "flink_type"


class SqlValidationError(ValueError):
    """A query Flink's planner refuses (an unknown function, operands of the wrong types).

    :param message: Flink's text of the refusal.
    :param node: The refused expression, where Flink names its place in the statement.
    :param call: Whether the expression is written as a call (``SUM(x)``, ``MOD(a, b)``),
        whose place ends at its closing parenthesis.
    """

    def __init__(self, message: str, node: Optional[exp.Expression] = None, call: bool = False):
        super().__init__(message)
        self.node = node
        self.call = call


# the forms Flink's validator lists when it refuses an operator's operands
_OPERATOR_FORMS = {
    "+": ("<NUMERIC> + <NUMERIC>", "<DATETIME_INTERVAL> + <DATETIME_INTERVAL>",
          "<DATETIME> + <DATETIME_INTERVAL>", "<DATETIME_INTERVAL> + <DATETIME>"),
    "-": ("<NUMERIC> - <NUMERIC>", "<DATETIME_INTERVAL> - <DATETIME_INTERVAL>",
          "<DATETIME> - <DATETIME_INTERVAL>"),
    "*": ("<NUMERIC> * <NUMERIC>", "<DATETIME_INTERVAL> * <NUMERIC>", "<NUMERIC> * <DATETIME_INTERVAL>"),
    "/": ("<NUMERIC> / <NUMERIC>", "<DATETIME_INTERVAL> / <NUMERIC>"),
    "%": ("<EXACT_NUMERIC> % <EXACT_NUMERIC>",),
    "MOD": ("MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)",),
    "NEG": ("-<NUMERIC>", "-<DATETIME_INTERVAL>"),
    "SUM": ("SUM(<NUMERIC>)",),
    "AVG": ("AVG(<NUMERIC>)",),
    "||": ("<STRING> || <STRING>", "<EQUIVALENT_TYPE> || <EQUIVALENT_TYPE>"),
}
_DATETIMES = (T.DATE, T.TIME, T.TIMESTAMP, T.TIMESTAMPLTZ)
# the kinds of operands each operator takes (an aggregate takes a number)
_OPERAND_KINDS: Dict[str, List[Tuple[str, ...]]] = {
    "+": [("numeric", "numeric"), ("interval", "interval"), ("datetime", "interval"), ("interval", "datetime")],
    "-": [("numeric", "numeric"), ("interval", "interval"), ("datetime", "interval")],
    "*": [("numeric", "numeric"), ("interval", "numeric"), ("numeric", "interval")],
    "/": [("numeric", "numeric"), ("interval", "numeric")],
    "NEG": [("numeric",), ("interval",)],
}


def _operand_type(node: exp.Expression, other: Optional[exp.Expression] = None) -> Optional[exp.DataType]:
    """An operand's Flink type for the check of its operator: a ``NULL`` literal takes the
    other operand's type, as Flink's validator gives it; ``None`` when the type is unknown."""
    if isinstance(node, exp.Null) and other is not None and not isinstance(other, exp.Null):
        return _operand_type(other)
    dtype = flink_type_of(node)
    return None if dtype.this in (T.NULL, T.UNKNOWN) else dtype


def _refuse_operands(node: exp.Expression, operator: str, operands: Sequence[exp.Expression],
                     call: bool = False) -> None:
    """Refuse, with Flink's message, an operator or aggregate whose operands Flink does not take:
    anything but numbers (and intervals or date-times where the operator takes them)."""
    found = [_operand_type(o, operands[1 - i] if len(operands) == 2 else None) for i, o in enumerate(operands)]
    types = [t for t in found if t is not None]
    if len(types) < len(found):
        return
    kinds = ["numeric" if ft.is_numeric(t) else "interval" if t.this == T.INTERVAL
             else "datetime" if t.this in _DATETIMES else "other" for t in types]
    allowed = _OPERAND_KINDS.get(operator, [("numeric",) * len(operands)])
    if operator in ("%", "MOD"):
        kinds = ["exact" if ft.is_exact_numeric(t) else "other" for t in types]
        allowed = [("exact", "exact")]
    if tuple(kinds) in allowed:
        null = next((o for o in operands if isinstance(o, exp.Null)), None)
        if null is not None and len(operands) == 2:
            raise SqlValidationError("Illegal use of 'NULL'", null)
        return
    shown = ["<{}>".format(ft.calcite_name(t)) for t in types]
    if operator == "NEG":
        arguments = "-" + shown[0]
    elif call:
        arguments = "{}({})".format(operator, ", ".join(shown))
    else:
        arguments = " {} ".format(operator).join(shown)
    raise SqlValidationError("Cannot apply '{}' to arguments of type '{}'. Supported form(s): {}".format(
        "-" if operator == "NEG" else operator, arguments,
        "\n".join("'{}'".format(f) for f in _OPERATOR_FORMS[operator])), node, call)


# ---------------------------------------------------------------------------------------------
# Types held on the nodes
# ---------------------------------------------------------------------------------------------

def flink_type_of(node: exp.Expression) -> exp.DataType:
    """The Flink type given to ``node`` by :func:`apply_flink_semantics` (``NULL`` when
    unknown)."""
    dtype = node.meta.get(_META) if node.meta else None
    return dtype if isinstance(dtype, exp.DataType) else ft.build(T.NULL)


def _typed(node: exp.Expression, dtype: exp.DataType) -> exp.Expression:
    node.meta[_META] = dtype
    return node


def _not_null(*nodes: exp.Expression) -> bool:
    return all(not ft.is_nullable(flink_type_of(node)) for node in nodes)


def _nullable(nodes: Sequence[exp.Expression]) -> bool:
    return not _not_null(*nodes)


def result_types(tree: exp.Expression) -> List[Tuple[str, exp.DataType]]:
    """The output columns of a rewritten query: their names and Flink types."""
    columns = tree.meta.get("flink_columns") if tree.meta else None
    return list(columns or [])


# ---------------------------------------------------------------------------------------------
# Building Spark expressions
# ---------------------------------------------------------------------------------------------

def _cast(node: exp.Expression, dtype: exp.DataType) -> exp.Expression:
    """``node`` as Spark's value of the Flink type ``dtype`` (as it is when the type is
    unknown, such as a column missing from the schema)."""
    if dtype.this == T.NULL:
        return _typed(node, dtype)
    return _typed(exp.Cast(this=node, to=ft.spark_sql_type(dtype)), dtype)


def _func(name: str, *args: exp.Expression) -> exp.Expression:
    return exp.Anonymous(this=name, expressions=list(args))


def _lit(value: object) -> exp.Expression:
    if value is None:
        return exp.Null()
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, (int, float)):
        return exp.Literal.number(value)
    return exp.Literal.string(str(value))


def _raise(message: str) -> exp.Expression:
    return _func("RAISE_ERROR", _lit(message))


def _case(ifs: Sequence[Tuple[exp.Expression, exp.Expression]], default: Optional[exp.Expression] = None
          ) -> exp.Expression:
    return exp.Case(ifs=[exp.If(this=cond, true=value) for cond, value in ifs], default=default)


def _is_null(node: exp.Expression) -> exp.Expression:
    return exp.Is(this=node.copy(), expression=exp.Null())


def _literal_value(node: exp.Expression) -> Optional[object]:
    if isinstance(node, exp.Literal):
        return node.this if node.is_string else node.to_py()
    if isinstance(node, exp.Neg) and isinstance(node.this, exp.Literal) and not node.this.is_string:
        value = node.this.to_py()
        return -value if isinstance(value, (int, float)) else None
    if isinstance(node, exp.Cast) and isinstance(node.this, exp.Literal):
        return _literal_value(node.this)
    return None


def _written(node: Optional[exp.Expression]) -> bool:
    """Whether ``node`` was in the query text: the parser fills some omitted arguments with
    Spark's defaults (``REGEXP_EXTRACT``'s group 1, ``STR_TO_MAP``'s ``:``), which Flink's
    differ from; a filled-in literal has no position."""
    if node is None:
        return False
    if isinstance(node, exp.Literal):
        return bool(node.meta) and node.meta.get("start") is not None
    return True


def _java_pattern(node: exp.Expression) -> exp.Expression:
    """A datetime pattern argument as Java's text: the parser holds literal patterns in its
    own notation (``%Y``), which the generator of a function call does not convert back."""
    if isinstance(node, exp.Literal) and node.is_string:
        from sqlglot.dialects.spark import Spark
        from sqlglot.time import format_time

        text = format_time(node.this, Spark.INVERSE_TIME_MAPPING, Spark.INVERSE_TIME_TRIE)
        return _lit(text if text is not None else node.this)
    return node


def _infinity(sign: str = "") -> exp.Expression:
    return exp.Cast(this=_lit(sign + "Infinity"), to=exp.DataType(this=T.DOUBLE))


# ---------------------------------------------------------------------------------------------
# Typing of leaves
# ---------------------------------------------------------------------------------------------

def _literal(node: exp.Literal, scope: "_Scope") -> exp.Expression:
    if node.is_string:
        return _typed(node, ft.build(T.CHAR, max(len(node.this), 1), nullable=False))
    text = node.this
    if "e" in text.lower():
        return _typed(node, ft.build(T.DOUBLE, nullable=False))
    if "." in text:
        whole, fraction = text.split(".", 1)
        digits = len(whole.lstrip("-").lstrip("0") or "0") + len(fraction)
        return _typed(node, ft.build(T.DECIMAL, max(digits, len(fraction)), len(fraction), nullable=False))
    value = int(text)
    if -2 ** 31 <= value < 2 ** 31:
        return _typed(node, ft.build(T.INT, nullable=False))
    if -2 ** 63 <= value < 2 ** 63:
        return _typed(node, ft.build(T.BIGINT, nullable=False))
    return _typed(node, ft.build(T.DECIMAL, len(text.lstrip("-")), 0, nullable=False))


def _boolean(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, ft.build(T.BOOLEAN, nullable=False))


def _null(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, ft.build(T.NULL))


def _column(node: exp.Column, scope: "_Scope") -> exp.Expression:
    dtype = scope.lookup(node.table, node.name)
    if dtype is None:
        if not node.table and node.name.upper() in ("MAP",):
            return node
        return node
    return _typed(node, dtype)


def _same_as_child(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, flink_type_of(node.this))


def _boolean_of(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    operands = [child for child in (node.args.get("this"), node.args.get("expression"))
                if isinstance(child, exp.Expression)]
    operands += [child for child in node.expressions if isinstance(child, exp.Expression)]
    return _typed(node, ft.build(T.BOOLEAN, nullable=_nullable(operands)))


def _always_boolean(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, ft.build(T.BOOLEAN, nullable=False))


# ---------------------------------------------------------------------------------------------
# Arithmetic
# ---------------------------------------------------------------------------------------------

def _arithmetic_type(kind: str, left: exp.DataType, right: exp.DataType) -> exp.DataType:
    nullable = ft.is_nullable(left) or ft.is_nullable(right)
    if ft.is_approximate(left) or ft.is_approximate(right):
        both_float = left.this == T.FLOAT and right.this in (T.FLOAT,) or \
            (left.this == T.FLOAT and ft.is_exact_numeric(right)) or \
            (right.this == T.FLOAT and ft.is_exact_numeric(left))
        return ft.build(T.FLOAT if both_float else T.DOUBLE, nullable=nullable)
    if ft.is_decimal(left) or ft.is_decimal(right):
        rule = {"+": ft.decimal_add, "-": ft.decimal_add, "*": ft.decimal_multiply,
                "/": ft.decimal_divide, "%": ft.decimal_mod}[kind]
        return ft.with_nullable(rule(left, right), nullable)
    if ft.is_integer(left) and ft.is_integer(right):
        if kind == "%":
            return ft.with_nullable(right, nullable)
        return ft.with_nullable(ft.common_type([left, right]), nullable)
    return ft.with_nullable(left, nullable)


def _temporal_arithmetic(node: exp.Expression) -> Optional[exp.Expression]:
    left, right = flink_type_of(node.this), flink_type_of(node.expression)
    temporal = (T.DATE, T.TIMESTAMP, T.TIMESTAMPLTZ, T.TIME)
    if left.this in temporal and (right.this == T.INTERVAL or isinstance(node.expression, exp.Interval)):
        # Spark gives a DATE plus a day-time interval as a TIMESTAMP
        return _cast(node, left) if left.this == T.DATE else _typed(node, left)
    if isinstance(node.this, exp.Interval) and right.this in temporal:
        return _cast(node, right) if right.this == T.DATE else _typed(node, right)
    return None


def _add_sub(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    kind = "+" if isinstance(node, exp.Add) else "-"
    _refuse_operands(node, kind, [node.this, node.expression])
    temporal = _temporal_arithmetic(node)
    if temporal is not None:
        return temporal
    return _numeric_result(node, _arithmetic_type(kind, flink_type_of(node.this), flink_type_of(node.expression)))


def _multiply(node: exp.Mul, scope: "_Scope") -> exp.Expression:
    _refuse_operands(node, "*", [node.this, node.expression])
    return _numeric_result(node, _arithmetic_type("*", flink_type_of(node.this), flink_type_of(node.expression)))


def _numeric_result(node: exp.Expression, dtype: exp.DataType) -> exp.Expression:
    # Spark's decimal result types differ from Flink's; TINYINT and SMALLINT arithmetic wraps
    # around in Flink (Java's), where Spark fails in ANSI mode: computed as INT and wrapped
    if dtype.this in (T.TINYINT, T.SMALLINT) and isinstance(node, (exp.Add, exp.Sub, exp.Mul)):
        node.set("this", exp.Cast(this=node.this, to=exp.DataType(this=T.INT)))
        wrapped = _cast_between_integers(node, ft.build(T.INT), dtype)
        if wrapped is not None:
            return _typed(wrapped, dtype)
    if ft.is_decimal(dtype) or dtype.this in (T.TINYINT, T.SMALLINT, T.FLOAT):
        return _cast(node, dtype)
    return _typed(node, dtype)


def _zero_checked(divisor: exp.Expression, message: str) -> exp.Expression:
    """``divisor``, failing as Flink's integer and decimal division does when it is zero."""
    value = _literal_value(divisor)
    if isinstance(value, (int, float)) and value != 0:
        return divisor
    return _case([(exp.EQ(this=divisor.copy(), expression=_lit(0)), _raise(message))], divisor.copy())


def _divide(node: exp.Div, scope: "_Scope") -> exp.Expression:
    """``/``: an integer division (truncating) between integers, Flink's decimal type with
    decimals, IEEE division (infinity, NaN) between a DOUBLE and a zero DOUBLE."""
    _refuse_operands(node, "/", [node.this, node.expression])
    left, right = flink_type_of(node.this), flink_type_of(node.expression)
    dtype = _arithmetic_type("/", left, right)
    if ft.is_integer(left) and ft.is_integer(right):
        quotient = exp.IntDiv(this=node.this, expression=_zero_checked(node.expression, "Division by zero"))
        return _cast(quotient, dtype)
    if ft.is_approximate(right):
        # Flink divides doubles as Java does; Spark gives NULL (or fails) for a zero divisor
        inner = exp.Div(this=node.this.copy(), expression=node.expression.copy())
        infinite = exp.Mul(this=exp.Cast(this=node.this.copy(), to=exp.DataType(this=T.DOUBLE)),
                           expression=_infinity())
        guarded = _case([(exp.EQ(this=node.expression.copy(), expression=_lit(0)), infinite)], inner)
        return _cast(guarded, dtype)
    # Spark types an integer literal as the narrowest decimal, which shortens the quotient's scale
    dividend = _cast(node.this, ft.decimal_of(*ft.precision_scale(left))) if ft.is_exact_numeric(left) else node.this
    divisor = _cast(node.expression, ft.decimal_of(*ft.precision_scale(right))) if ft.is_exact_numeric(right) \
        else node.expression
    divided = exp.Div(this=dividend, expression=_zero_checked(divisor, "Division by zero"))
    return _cast(divided, dtype)


def _modulo(node: exp.Mod, scope: "_Scope") -> exp.Expression:
    """``%`` and ``MOD``: Java's remainder (the sign of the dividend), failing on zero."""
    call = bool(node.meta) and "start" in node.meta  # MOD(a, b), whose name has a place
    _refuse_operands(node, "MOD" if call else "%", [node.this, node.expression], call=call)
    left, right = flink_type_of(node.this), flink_type_of(node.expression)
    dtype = _arithmetic_type("%", left, right)
    remainder = exp.Mod(this=node.this, expression=_zero_checked(node.expression, "/ by zero"))
    if ft.is_approximate(dtype):
        return _typed(remainder, dtype)
    return _cast(remainder, dtype)


def _negate(node: exp.Neg, scope: "_Scope") -> exp.Expression:
    _refuse_operands(node, "NEG", [node.this])
    return _typed(node, flink_type_of(node.this))


# ---------------------------------------------------------------------------------------------
# Aggregates
# ---------------------------------------------------------------------------------------------

def _aggregate_argument(node: exp.Expression) -> Tuple[exp.Expression, bool]:
    argument = node.this
    if isinstance(argument, exp.Distinct):
        return argument.expressions[0], True
    return argument, False


def _avg(node: exp.Avg, scope: "_Scope") -> exp.Expression:
    """``AVG``: over integers, the integer quotient of the sum and the count, in the argument's
    type; over decimals, Flink's ``DECIMAL(38, max(6, s))``."""
    argument, distinct = _aggregate_argument(node)
    _refuse_operands(node, "AVG", [argument], call=True)
    arg_type = flink_type_of(argument)
    dtype = ft.avg_type(arg_type)
    if ft.is_integer(arg_type):
        def wrap(function: Callable[..., exp.Expression]) -> exp.Expression:
            inner = argument.copy()
            return function(this=exp.Distinct(expressions=[inner]) if distinct else inner)
        total = wrap(exp.Sum)
        count = wrap(exp.Count)
        return _cast(exp.IntDiv(this=total, expression=count), dtype)
    if ft.is_decimal(arg_type) and not distinct:
        # Spark's AVG keeps fewer digits than Flink's DECIMAL(38, max(6, s))
        quotient = exp.Div(this=exp.Sum(this=argument.copy()), expression=exp.Count(this=argument.copy()))
        return _cast(quotient, dtype)
    return _cast(node, dtype)


def _sum(node: exp.Sum, scope: "_Scope") -> exp.Expression:
    argument, _ = _aggregate_argument(node)
    _refuse_operands(node, "SUM", [argument], call=True)
    return _cast(node, ft.sum_type(flink_type_of(argument)))


def _count(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, ft.build(T.BIGINT, nullable=False))


def _min_max(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    argument, _ = _aggregate_argument(node)
    return _typed(node, ft.with_nullable(flink_type_of(argument), True))


def _variance(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    """``VAR_POP``, ``STDDEV``...: Flink keeps the argument's type (an INT variance is an INT)."""
    argument, _ = _aggregate_argument(node)
    arg_type = flink_type_of(argument)
    dtype = ft.with_nullable(arg_type if ft.is_numeric(arg_type) else ft.build(T.DOUBLE), True)
    if ft.is_decimal(dtype):
        dtype = ft.decimal_of(ft.MAX_PRECISION, ft.precision_scale(arg_type)[1])
    return _cast(node, dtype)


def _listagg(node: exp.GroupConcat, scope: "_Scope") -> exp.Expression:
    """``LISTAGG(x [, sep])``: the values joined (``,`` by default), NULL without values."""
    separator = node.args.get("separator") or _lit(",")
    argument = node.this
    joined = _func("CONCAT_WS", separator.copy(), _func("COLLECT_LIST", argument.copy()))
    result = _case([(exp.EQ(this=exp.Count(this=argument.copy()), expression=_lit(0)), exp.Null())], joined)
    return _typed(result, ft.build(T.VARCHAR, ft.MAX_LENGTH))


# ---------------------------------------------------------------------------------------------
# CAST
# ---------------------------------------------------------------------------------------------

def _timestamp_literal_precision(text: str) -> int:
    if "." not in text:
        return 0
    return len(text.rsplit(".", 1)[1].strip())


def _cast_node(node: exp.Cast, scope: "_Scope") -> exp.Expression:
    """``CAST``, ``TRY_CAST`` and the ``DATE``/``TIMESTAMP`` literals, with Flink's rules."""
    target = ft.from_sqlglot(node.args["to"])
    source = node.this
    source_type = flink_type_of(source)
    safe = isinstance(node, exp.TryCast) and bool(node.args.get("safe"))
    literal = isinstance(node, exp.Cast) and not isinstance(node, exp.TryCast) and \
        isinstance(source, exp.Literal) and source.is_string
    if isinstance(node, exp.Cast) and not isinstance(node, exp.TryCast) and target.this == T.TIMESTAMP \
            and node.meta.get("start") is not None:
        # the parser reads TO_TIMESTAMP(text) as a cast carrying the call's position (a CAST is
        # a TryCast, a literal has no position): Flink's TO_TIMESTAMP gives NULL for bad text
        return _typed(_timestamp_of(source, None), ft.build(T.TIMESTAMP, 3))
    if literal and target.this == T.TIMESTAMP:
        # a TIMESTAMP literal's precision is that of its text
        precision = _timestamp_literal_precision(source.this)
        target = ft.build(T.TIMESTAMP, precision, nullable=False)
        return _typed(exp.Cast(this=source, to=ft.spark_sql_type(target)), target)
    if literal and target.this == T.DATE:
        return _typed(exp.Cast(this=source, to=ft.spark_sql_type(target)),
                      ft.with_nullable(target, False))
    nullable = ft.is_nullable(source_type) or safe
    target = ft.with_nullable(target, nullable)
    if safe:
        return _typed(exp.TryCast(this=source, to=ft.spark_sql_type(target), safe=True), target)
    for rule in (_cast_to_string, _cast_from_string, _cast_between_integers):
        rewritten = rule(source, source_type, target)
        if rewritten is not None:
            return _typed(rewritten, target)
    return _cast(source, target)


def _cast_to_string(source: exp.Expression, source_type: exp.DataType, target: exp.DataType
                    ) -> Optional[exp.Expression]:
    if not ft.is_string(target):
        return None
    text: exp.Expression
    if source_type.this == T.BOOLEAN:
        text = exp.Upper(this=exp.Cast(this=source, to=exp.DataType(this=T.TEXT)))
    elif source_type.this in (T.TIMESTAMP, T.TIMESTAMPLTZ):
        precision = ft.precision_scale(source_type)[0] if False else _fraction_digits(source_type)
        pattern = "yyyy-MM-dd HH:mm:ss" + ("." + "S" * precision if precision else "")
        text = _func("DATE_FORMAT", source, _lit(pattern))
    else:
        text = exp.Cast(this=source, to=exp.DataType(this=T.TEXT))
    length = ft.length_of(target)
    if target.this == T.CHAR:
        return exp.Pad(this=text, expression=_lit(length), fill_pattern=_lit(" "), is_left=False)
    if length < ft.MAX_LENGTH:
        return exp.Substring(this=text, start=_lit(1), length=_lit(length))
    return text


def _fraction_digits(dtype: exp.DataType) -> int:
    params = [int(p.this.this) for p in dtype.expressions if isinstance(p, exp.DataTypeParam)]
    return params[0] if params else 6


def _cast_from_string(source: exp.Expression, source_type: exp.DataType, target: exp.DataType
                      ) -> Optional[exp.Expression]:
    """A string that is no value of the target type fails the query in Flink (Spark gives NULL,
    or fails only in ANSI mode)."""
    if not ft.is_string(source_type) or ft.is_string(target) or target.this in (T.BINARY, T.VARBINARY):
        return None
    attempt: exp.Expression = exp.TryCast(this=source.copy(), to=ft.spark_sql_type(target), safe=True)
    if ft.is_integer(target):
        # Flink reads a decimal text ('4.7') as its integral part
        attempt = exp.TryCast(
            this=exp.TryCast(this=source.copy(), to=exp.DataType.build("DECIMAL(38, 10)"), safe=True),
            to=ft.spark_sql_type(target), safe=True)
    if target.this in (T.TIMESTAMP, T.TIMESTAMPLTZ):
        # Flink reads 'yyyy-MM-dd[ HH:mm:ss[.f]]' only; Spark also takes ISO text with a 'T'
        iso = exp.GT(this=_func("INSTR", source.copy(), _lit("T")), expression=_lit(0))
        attempt = _case([(iso, exp.Null())], attempt)
    failure = _case([(exp.Not(this=_is_null(source)),
                      _raise("Cannot cast the text to " + ft.flink_name(ft.with_nullable(target, True))))])
    return exp.Coalesce(this=attempt, expressions=[failure])


_INTEGER_BITS = {T.TINYINT: 8, T.SMALLINT: 16, T.INT: 32, T.BIGINT: 64}


def _cast_between_integers(source: exp.Expression, source_type: exp.DataType, target: exp.DataType
                           ) -> Optional[exp.Expression]:
    """A narrowing integer cast wraps around as in Java (Spark fails in ANSI mode)."""
    if not (ft.is_integer(source_type) and ft.is_integer(target)):
        return None
    bits = _INTEGER_BITS[target.this]
    if _INTEGER_BITS[source_type.this] <= bits:
        return None
    half = 2 ** (bits - 1)
    wide = exp.Cast(this=source, to=exp.DataType(this=T.DECIMAL, expressions=[
        exp.DataTypeParam(this=_lit(20)), exp.DataTypeParam(this=_lit(0))]))
    wrapped = exp.Sub(this=_func("PMOD", exp.Add(this=wide, expression=_lit(half)), _lit(2 * half)),
                      expression=_lit(half))
    return exp.Cast(this=wrapped, to=ft.spark_sql_type(target))


# ---------------------------------------------------------------------------------------------
# Conditionals and comparisons
# ---------------------------------------------------------------------------------------------

def _case_node(node: exp.Case, scope: "_Scope") -> exp.Expression:
    branches = [branch.args["true"] for branch in node.args.get("ifs") or []]
    default = node.args.get("default")
    types = [flink_type_of(b) for b in branches] + ([flink_type_of(default)] if default is not None
                                                     else [ft.build(T.NULL)])
    return _typed(node, ft.common_type(types))


def _if_node(node: exp.If, scope: "_Scope") -> exp.Expression:
    true, false = node.args["true"], node.args.get("false")
    types = [flink_type_of(true)] + ([flink_type_of(false)] if false is not None else [ft.build(T.NULL)])
    dtype = ft.common_type(types)
    return _typed(node, ft.with_nullable(dtype, ft.is_nullable(dtype) or _nullable([node.this])))


def _coalesce(node: exp.Coalesce, scope: "_Scope") -> exp.Expression:
    operands = [node.this] + list(node.expressions)
    dtype = ft.common_type([flink_type_of(o) for o in operands])
    nullable = all(ft.is_nullable(flink_type_of(o)) for o in operands)
    return _typed(node, ft.with_nullable(dtype, nullable))


def _nullif(node: exp.Nullif, scope: "_Scope") -> exp.Expression:
    return _typed(node, ft.with_nullable(flink_type_of(node.this), True))


def _greatest_least(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    """``GREATEST``/``LEAST``: NULL when any argument is NULL (Spark skips NULLs)."""
    operands = [node.this] + list(node.expressions)
    dtype = ft.common_type([flink_type_of(o) for o in operands])
    nullable = [o for o in operands if ft.is_nullable(flink_type_of(o))]
    if not nullable:
        return _typed(node, dtype)
    condition: exp.Expression = _is_null(nullable[0])
    for operand in nullable[1:]:
        condition = exp.Or(this=condition, expression=_is_null(operand))
    return _typed(_case([(condition, exp.Null())], node), dtype)


def _similar_pattern(pattern: str) -> str:
    translated = []
    for char in pattern:
        translated.append({"%": ".*", "_": "."}.get(char, char))
    return "^(?:" + "".join(translated) + ")$"


def _similar_to(node: exp.SimilarTo, scope: "_Scope") -> exp.Expression:
    """``SIMILAR TO``: a whole-string match of the SQL regular expression."""
    pattern = _literal_value(node.expression)
    if not isinstance(pattern, str):
        raise SqlValidationError("SIMILAR TO needs a literal pattern on Spark")
    rewritten = exp.RegexpLike(this=node.this, expression=_lit(_similar_pattern(pattern)))
    return _typed(rewritten, ft.build(T.BOOLEAN, nullable=_nullable([node.this])))


# ---------------------------------------------------------------------------------------------
# Strings
# ---------------------------------------------------------------------------------------------

def _string(nullable: bool) -> exp.DataType:
    return ft.build(T.VARCHAR, ft.MAX_LENGTH, nullable=nullable)


def _regexp_extract(node: exp.RegexpExtract, scope: "_Scope") -> exp.Expression:
    """``REGEXP_EXTRACT``: group 0 by default (Spark's is 1), NULL without a match or when the
    group does not exist (Spark gives '' or fails)."""
    subject, pattern = node.this, node.expression
    written = node.args.get("group")
    group = written if written is not None and _written(written) else _lit(0)
    dtype = _string(True)
    pattern_text = _literal_value(pattern)
    group_value = _literal_value(group)
    if isinstance(pattern_text, str) and isinstance(group_value, int):
        try:
            groups = re.compile(pattern_text).groups
        except re.error:
            groups = None
        if groups is not None and group_value > groups:
            return _typed(exp.Cast(this=exp.Null(), to=exp.DataType(this=T.TEXT)), dtype)
    extracted = exp.RegexpExtract(this=subject, expression=pattern, group=group)
    matches = exp.RegexpLike(this=subject.copy(), expression=pattern.copy())
    return _typed(_case([(matches, extracted)]), dtype)


def _regexp_replace(node: exp.RegexpReplace, scope: "_Scope") -> exp.Expression:
    """``REGEXP_REPLACE``: Flink inserts the replacement as it is (``$1`` is no group)."""
    replacement = node.args["replacement"]
    text = _literal_value(replacement)
    if isinstance(text, str):
        escaped: exp.Expression = _lit(text.replace("\\", "\\\\").replace("$", "\\$"))
    else:
        escaped = _func("REPLACE", _func("REPLACE", replacement, _lit("\\"), _lit("\\\\")), _lit("$"), _lit("\\$"))
    node.set("replacement", escaped)
    return _typed(node, _string(_nullable([node.this, node.expression, replacement])))


def _regexp(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    subject, pattern = node.expressions
    return _typed(exp.RegexpLike(this=subject, expression=pattern),
                  ft.build(T.BOOLEAN, nullable=_nullable([subject, pattern])))


def _substring(node: exp.Substring, scope: "_Scope") -> exp.Expression:
    """``SUBSTRING``/``SUBSTR``: NULL for a negative length (Spark gives '')."""
    source_type = flink_type_of(node.this)
    dtype = ft.build(T.VARCHAR, ft.length_of(source_type) if ft.is_string(source_type) else ft.MAX_LENGTH)
    length = node.args.get("length")
    if length is not None:
        value = _literal_value(length)
        if isinstance(value, int) and value < 0:
            return _typed(exp.Cast(this=exp.Null(), to=exp.DataType(this=T.TEXT)), dtype)
        if not isinstance(value, int):
            return _typed(_case([(exp.LT(this=length.copy(), expression=_lit(0)), exp.Null())], node), dtype)
    return _typed(node, dtype)


def _concat(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    operands = list(node.expressions)
    return _typed(node, _string(_nullable(operands)))


def _concat_ws(node: exp.ConcatWs, scope: "_Scope") -> exp.Expression:
    return _typed(node, _string(_nullable(node.expressions)))


def _dpipe(node: exp.DPipe, scope: "_Scope") -> exp.Expression:
    """``||``: NULL with a NULL operand; two CHARs give a CHAR of both lengths."""
    left, right = flink_type_of(node.this), flink_type_of(node.expression)
    if not (ft.is_string(left) or left.this == T.NULL) or not (ft.is_string(right) or right.this == T.NULL):
        raise SqlValidationError("Cannot apply '||' to arguments of type '<{}> || <{}>'. Supported "
                                 "form(s): {}".format(ft.calcite_name(left), ft.calcite_name(right), "\n".join(
                                     "'{}'".format(f) for f in _OPERATOR_FORMS["||"])), node)
    nullable = _nullable([node.this, node.expression])
    if left.this == T.CHAR and right.this == T.CHAR:
        dtype = ft.build(T.CHAR, ft.length_of(left) + ft.length_of(right), nullable=nullable)
    elif ft.is_string(left) and ft.is_string(right):
        length = min(ft.length_of(left) + ft.length_of(right), ft.MAX_LENGTH)
        dtype = ft.build(T.VARCHAR, length, nullable=nullable)
    else:
        dtype = _string(nullable)
    return _typed(exp.Concat(expressions=[node.this, node.expression], safe=True), dtype)


def _keeps_string_type(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, flink_type_of(node.this))


def _trim(node: exp.Trim, scope: "_Scope") -> exp.Expression:
    source = flink_type_of(node.this)
    strings = [flink_type_of(child) for child in node.args.values()
               if isinstance(child, exp.Expression) and ft.is_string(flink_type_of(child))]
    length = max((ft.length_of(t) for t in strings), default=ft.MAX_LENGTH)
    return _typed(node, ft.build(T.VARCHAR, length, nullable=ft.is_nullable(source)))


def _left_right(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    source = flink_type_of(node.this)
    return _typed(node, ft.build(T.VARCHAR, ft.length_of(source) if ft.is_string(source) else ft.MAX_LENGTH))


def _pad(node: exp.Pad, scope: "_Scope") -> exp.Expression:
    operands = [node.this, node.expression] + ([node.args["fill_pattern"]] if node.args.get("fill_pattern") else [])
    return _typed(node, _string(_nullable(operands)))


def _int_result(node: exp.Expression, operands: Sequence[exp.Expression]) -> exp.Expression:
    return _cast(node, ft.build(T.INT, nullable=_nullable(operands)))


def _position(node: exp.StrPosition, scope: "_Scope") -> exp.Expression:
    operands = [node.this, node.args["substr"]]
    return _int_result(node, operands)


def _length(node: exp.Length, scope: "_Scope") -> exp.Expression:
    return _int_result(node, [node.this])


def _initcap(node: exp.Initcap, scope: "_Scope") -> exp.Expression:
    """``INITCAP``: a word starts after any character that is no ASCII letter or digit
    (Spark's starts after white space only): each character is upper-cased when it is an ASCII
    letter after such a character (or first), lower-cased otherwise."""
    text = node.this

    def chars() -> exp.Expression:
        return _func("SPLIT", text.copy(), _lit(""))

    char, index = exp.to_identifier("c"), exp.to_identifier("i")
    previous = exp.Bracket(this=chars(), expressions=[exp.Sub(this=index.copy(), expression=_lit(1))])
    starts = exp.Or(this=exp.EQ(this=index.copy(), expression=_lit(0)),
                    expression=exp.Not(this=exp.RegexpLike(this=previous, expression=_lit("[A-Za-z0-9]"))))
    letter = exp.RegexpLike(this=char.copy(), expression=_lit("^[A-Za-z]$"))
    body = _case([(exp.And(this=exp.Paren(this=starts), expression=letter), exp.Upper(this=char.copy()))],
                 exp.Lower(this=char.copy()))
    lam = exp.Lambda(this=body, expressions=[char.copy(), index.copy()])
    joined = _func("ARRAY_JOIN", _func("TRANSFORM", chars(), lam), _lit(""))
    return _typed(joined, flink_type_of(text))


def _split_index(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    """``SPLIT_INDEX(text, separator, index)``: the 0-based part, NULL when out of range."""
    text, separator, index = node.expressions
    quoted = _func("CONCAT", _lit("\\Q"), separator, _lit("\\E"))
    parts = _func("SPLIT", text, quoted, _lit(-1))
    part = _func("TRY_ELEMENT_AT", parts, exp.Add(this=index, expression=_lit(1)))
    result = _case([(exp.GTE(this=index.copy(), expression=_lit(0)), part)])
    return _typed(result, _string(True))


def _from_base64(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    (text,) = node.expressions
    return _typed(exp.Cast(this=_func("UNBASE64", text), to=exp.DataType(this=T.TEXT)), _string(_nullable([text])))


def _to_base64(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    (text,) = node.expressions
    return _typed(_func("BASE64", text), _string(_nullable([text])))


def _str_to_map(node: exp.StrToMap, scope: "_Scope") -> exp.Expression:
    """``STR_TO_MAP(text [, pairs, key_value])``: Flink's default separators are ``,`` and ``=``."""
    if not _written(node.args.get("pair_delim")):
        node.set("pair_delim", _lit(","))
    if not _written(node.args.get("key_value_delim")):
        node.set("key_value_delim", _lit("="))
    return _typed(node, exp.DataType(this=T.MAP, nested=True, expressions=[_string(True), _string(True)]))


# ---------------------------------------------------------------------------------------------
# Math
# ---------------------------------------------------------------------------------------------

def _ceil_floor(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    """``CEIL``/``FLOOR``: a DOUBLE stays a DOUBLE, DECIMAL(p, s) becomes DECIMAL(p, 0), an
    integer keeps its type (Spark gives BIGINT); ``FLOOR(ts TO unit)`` truncates a timestamp."""
    source = flink_type_of(node.this)
    unit = node.args.get("to")
    if unit is not None:
        return _floor_ceil_time(node, source, unit.name.upper())
    if ft.is_decimal(source):
        dtype = ft.build(T.DECIMAL, ft.precision_scale(source)[0], 0, nullable=ft.is_nullable(source))
    else:
        dtype = source
    return _cast(node, dtype)


def _floor_ceil_time(node: exp.Expression, source: exp.DataType, unit: str) -> exp.Expression:
    truncated = _func("DATE_TRUNC", _lit(unit), node.this.copy())
    if isinstance(node, exp.Ceil):
        step = exp.Interval(this=_lit("1"), unit=exp.Var(this=unit))
        result = _case([(exp.EQ(this=truncated.copy(), expression=node.this.copy()), node.this.copy())],
                       exp.Add(this=truncated, expression=step))
    else:
        result = truncated
    return _cast(result, source)


def _round_type(source: exp.DataType, digits: int) -> exp.DataType:
    if not ft.is_decimal(source):
        return source
    precision, scale = ft.precision_scale(source)
    if digits >= scale:
        return source
    if digits < 0:
        return ft.build(T.DECIMAL, min(ft.MAX_PRECISION, 1 + precision - scale), 0,
                        nullable=ft.is_nullable(source))
    return ft.build(T.DECIMAL, min(ft.MAX_PRECISION, 1 + precision - scale + digits), digits,
                    nullable=ft.is_nullable(source))


def _round(node: exp.Round, scope: "_Scope") -> exp.Expression:
    digits = node.args.get("decimals")
    value = _literal_value(digits) if digits is not None else 0
    dtype = _round_type(flink_type_of(node.this), value if isinstance(value, int) else 0)
    return _cast(node, dtype)


def _truncate(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    """``TRUNCATE(x, d)``: rounding towards zero at ``d`` digits."""
    digits = node.args.get("decimals") or _lit(0)
    value = _literal_value(digits)
    dtype = _round_type(flink_type_of(node.this), value if isinstance(value, int) else 0)
    number = node.this
    result = _case([(exp.LT(this=number.copy(), expression=_lit(0)),
                     _func("CEIL", number.copy(), digits.copy()))],
                   _func("FLOOR", number.copy(), digits.copy()))
    return _cast(result, dtype)


def _double_of(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    operands = [child for child in node.args.values() if isinstance(child, exp.Expression)]
    return _typed(node, ft.build(T.DOUBLE, nullable=_nullable(operands)))


def _logarithm(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    """``LN``/``LOG``/``LOG10``/``LOG2``: -Infinity at zero and NaN below (Spark gives NULL)."""
    argument = node.expression if isinstance(node, exp.Log) and node.expression is not None else node.this
    if isinstance(node, exp.Log) and node.expression is not None and _literal_value(node.this) in (10, 2):
        # LOG10 and LOG2 exactly, not as a quotient of natural logarithms
        node = _func("LOG10" if _literal_value(node.this) == 10 else "LOG2", argument)
    guarded = _case([(exp.EQ(this=argument.copy(), expression=_lit(0)), _infinity("-")),
                     (exp.LT(this=argument.copy(), expression=_lit(0)),
                      exp.Cast(this=_lit("NaN"), to=exp.DataType(this=T.DOUBLE)))], node)
    operands = [child for child in node.args.values() if isinstance(child, exp.Expression)]
    return _typed(guarded, ft.build(T.DOUBLE, nullable=_nullable(operands)))


def _sign(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _cast(node, flink_type_of(node.this))


def _abs(node: exp.Abs, scope: "_Scope") -> exp.Expression:
    return _typed(node, flink_type_of(node.this))


def _string_result(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    operands = [child for child in node.args.values() if isinstance(child, exp.Expression)]
    operands += [child for child in node.expressions]
    return _typed(node, _string(_nullable(operands)))


# ---------------------------------------------------------------------------------------------
# Temporal
# ---------------------------------------------------------------------------------------------

def _date_format(node: exp.TimeToStr, scope: "_Scope") -> exp.Expression:
    value = node.this
    if isinstance(value, exp.TimeStrToTime):
        value = value.this
    return _typed(_func("DATE_FORMAT", value, _java_pattern(node.args["format"])), _string(True))


def _timestamp_of(text: exp.Expression, pattern: Optional[exp.Expression]) -> exp.Expression:
    if pattern is None:
        return exp.TryCast(this=text, to=exp.DataType(this=T.TIMESTAMPNTZ), safe=True)
    return exp.Cast(this=_func("TRY_TO_TIMESTAMP", text, _java_pattern(pattern)),
                    to=exp.DataType(this=T.TIMESTAMPNTZ))


def _to_timestamp(node: exp.StrToTime, scope: "_Scope") -> exp.Expression:
    """``TO_TIMESTAMP(text, pattern)``: TIMESTAMP(3), NULL when the text does not match."""
    return _typed(_timestamp_of(node.this, node.args.get("format")), ft.build(T.TIMESTAMP, 3))


def _to_date(node: exp.TsOrDsToDate, scope: "_Scope") -> exp.Expression:
    """``TO_DATE(text [, pattern])``: NULL when the text does not match (Spark may fail)."""
    pattern = node.args.get("format")
    source = flink_type_of(node.this)
    if pattern is None and source.this in (T.DATE, T.TIMESTAMP, T.TIMESTAMPLTZ):
        # the parser wraps the argument of YEAR(), MONTH()... in a TO_DATE
        return _typed(node.this, ft.with_nullable(ft.build(T.DATE), ft.is_nullable(source)))
    if pattern is None:
        return _typed(exp.TryCast(this=node.this, to=exp.DataType(this=T.DATE), safe=True), ft.build(T.DATE))
    return _typed(exp.Cast(this=_timestamp_of(node.this, pattern), to=exp.DataType(this=T.DATE)),
                  ft.build(T.DATE))


def _unix_timestamp(node: exp.StrToUnix, scope: "_Scope") -> exp.Expression:
    """``UNIX_TIMESTAMP(text [, pattern])``: seconds; Long.MIN_VALUE for a text that does not
    match (Flink's value)."""
    pattern = _java_pattern(node.args.get("format") or _lit("yyyy-MM-dd HH:mm:ss"))
    parsed = _func("TRY_TO_TIMESTAMP", node.this, pattern)
    seconds = _func("UNIX_TIMESTAMP", parsed)
    failed = _case([(exp.Not(this=_is_null(node.this)), _lit(-9223372036854775808))])
    result = exp.Coalesce(this=seconds, expressions=[failed])
    return _typed(exp.Cast(this=result, to=exp.DataType(this=T.BIGINT)),
                  ft.build(T.BIGINT, nullable=_nullable([node.this])))


def _from_unixtime(node: exp.UnixToStr, scope: "_Scope") -> exp.Expression:
    pattern = _java_pattern(node.args.get("format") or _lit("yyyy-MM-dd HH:mm:ss"))
    return _typed(_func("FROM_UNIXTIME", node.this, pattern), _string(True))


def _timestamp_add(node: exp.TimestampAdd, scope: "_Scope") -> exp.Expression:
    unit = node.args["unit"].name.upper()
    added = _func("TIMESTAMPADD", exp.Var(this=unit), node.expression, node.this)
    return _cast(added, flink_type_of(node.this))


def _timestamp_diff(node: exp.TimestampDiff, scope: "_Scope") -> exp.Expression:
    unit = node.args["unit"].name.upper()
    start, end = node.expression, node.this
    months = {"MONTH": 1, "QUARTER": 3, "YEAR": 12}.get(unit)
    diff: exp.Expression
    if months is not None:
        # Flink counts whole months as MONTHS_BETWEEN does (the last days of two months are
        # a whole month apart); Spark's TIMESTAMPDIFF compares the days of the month
        between = _func("MONTHS_BETWEEN", end, start, exp.Boolean(this=False))
        diff = exp.Div(this=between, expression=_lit(months)) if months > 1 else between
    else:
        diff = _func("TIMESTAMPDIFF", exp.Var(this=unit), start, end)
    return _cast(diff, ft.build(T.INT, nullable=_nullable([start, end])))


_EXTRACT_UNITS = {"DOW": "DAYOFWEEK", "DOY": "DOY", "EPOCH": "EPOCH"}


def _extract(node: exp.Extract, scope: "_Scope") -> exp.Expression:
    """``EXTRACT(unit FROM t)``: a BIGINT (whole seconds for SECOND)."""
    unit = node.this.name.upper()
    value = node.expression
    if unit == "EPOCH":
        result: exp.Expression = _func("UNIX_TIMESTAMP", value)
    elif unit == "DOW":
        result = _func("DAYOFWEEK", value)
    else:
        result = node
    return _cast(result, ft.build(T.BIGINT, nullable=_nullable([value])))


def _date_part(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    value = node.this
    if isinstance(value, exp.TsOrDsToDate) and value.args.get("format") is None:
        value = value.this
        node.set("this", value)
    return _cast(node, ft.build(T.BIGINT, nullable=_nullable([value])))


def _date_part_function(name: str) -> Callable[[exp.Expression, "_Scope"], exp.Expression]:
    def rewrite(node: exp.Expression, scope: "_Scope") -> exp.Expression:
        (value,) = node.expressions
        return _cast(_func(name, value), ft.build(T.BIGINT, nullable=_nullable([value])))
    return rewrite


def _interval(node: exp.Interval, scope: "_Scope") -> exp.Expression:
    unit = node.args.get("unit")
    qualifier = unit.sql() if unit is not None else "SECOND"
    month_based = qualifier.upper().startswith(("YEAR", "MONTH"))
    return _typed(node, ft.interval_type("MONTH" if month_based else "SECOND(3)"))


# ---------------------------------------------------------------------------------------------
# JSON, hashes, collections
# ---------------------------------------------------------------------------------------------

def _json_value(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    """``JSON_VALUE(json, path)``: a scalar's text; NULL for an object or array or bad JSON."""
    document, path = node.expressions[:2]
    found = _func("GET_JSON_OBJECT", document, path)
    first = exp.Substring(this=found.copy(), start=_lit(1), length=_lit(1))
    result = _case([(exp.In(this=first, expressions=[_lit("{"), _lit("[")]), exp.Null())], found)
    return _typed(result, _string(True))


def _json_query(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    """``JSON_QUERY(json, path)``: an object's or array's JSON text, NULL for a scalar."""
    document, path = node.expressions[:2]
    found = _func("GET_JSON_OBJECT", document, path)
    first = exp.Substring(this=found.copy(), start=_lit(1), length=_lit(1))
    result = _case([(exp.In(this=first, expressions=[_lit("{"), _lit("[")]), found)])
    return _typed(result, _string(True))


def _json_exists(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    document, path = node.expressions[:2]
    found = exp.Not(this=_is_null(_func("GET_JSON_OBJECT", document, path)))
    return _typed(found, ft.build(T.BOOLEAN, nullable=True))


def _is_json(node: exp.Is, scope: "_Scope") -> Optional[exp.Expression]:
    document = node.this
    valid = exp.Not(this=_is_null(_func("GET_JSON_OBJECT", document, _lit("$"))))
    return _typed(exp.Coalesce(this=valid, expressions=[exp.Boolean(this=False)]),
                  ft.build(T.BOOLEAN, nullable=False))


def _json_string(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    (value,) = node.expressions
    wrapped = _func("TO_JSON", exp.Array(expressions=[value]))
    inner = exp.Substring(this=wrapped, start=_lit(2),
                          length=exp.Sub(this=exp.Length(this=wrapped.copy()), expression=_lit(2)))
    return _typed(inner, _string(_nullable([value])))


def _hash(name: str, bits: Optional[int], length: int) -> Callable[[exp.Expression, "_Scope"], exp.Expression]:
    def rewrite(node: exp.Expression, scope: "_Scope") -> exp.Expression:
        value = node.this if not isinstance(node, exp.Anonymous) else node.expressions[0]
        call = _func(name, value, _lit(bits)) if bits else _func(name, value)
        return _typed(call, ft.build(T.CHAR, length, nullable=_nullable([value])))
    return rewrite


def _sha2(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, ft.build(T.VARCHAR, 128, nullable=_nullable([node.this])))


def _array(node: exp.Array, scope: "_Scope") -> exp.Expression:
    elements = list(node.expressions)
    element = ft.common_type([flink_type_of(e) for e in elements]) if elements else ft.build(T.NULL)
    return _typed(exp.Array(expressions=elements),
                  ft.with_nullable(exp.DataType(this=T.ARRAY, nested=True, expressions=[element]), False))


def _bracket(node: exp.Bracket, scope: "_Scope") -> exp.Expression:
    """``MAP[k, v, ...]`` builds a map; ``a[i]`` (1-based) and ``m[k]`` are NULL when absent."""
    target = node.this
    if isinstance(target, exp.Column) and not target.table and target.name.upper() == "MAP" \
            and flink_type_of(target).this == T.NULL:
        items = list(node.expressions)
        keys, values = items[0::2], items[1::2]
        key = ft.common_type([flink_type_of(k) for k in keys])
        value = ft.common_type([flink_type_of(v) for v in values])
        dtype = ft.with_nullable(exp.DataType(this=T.MAP, nested=True, expressions=[key, value]), False)
        return _typed(_func("MAP", *items), dtype)
    container = flink_type_of(target)
    (index,) = node.expressions
    if container.this == T.ARRAY:
        element = ft.with_nullable(container.expressions[0], True)
        return _typed(_func("TRY_ELEMENT_AT", target, index), element)
    if container.this == T.MAP:
        value = ft.with_nullable(container.expressions[1], True)
        return _typed(_func("TRY_ELEMENT_AT", target, index), value)
    return node


def _cardinality(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    (value,) = node.expressions
    size = _case([(_is_null(value), exp.Null())], _func("SIZE", value.copy()))
    return _cast(size, ft.build(T.INT, nullable=_nullable([value])))


def _element(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    (array,) = node.expressions
    element = flink_type_of(array).expressions[0] if flink_type_of(array).this == T.ARRAY else ft.build(T.NULL)
    size = _func("SIZE", array.copy())
    result = _case([(exp.EQ(this=size, expression=_lit(1)), _func("ELEMENT_AT", array.copy(), _lit(1))),
                    (exp.GT(this=size.copy(), expression=_lit(1)),
                     _raise("ELEMENT of an array with more than one element"))])
    return _typed(result, element)


def _same_type_function(name: str) -> Callable[[exp.Expression, "_Scope"], exp.Expression]:
    def rewrite(node: exp.Expression, scope: "_Scope") -> exp.Expression:
        args = list(node.expressions)
        return _typed(_func(name, *args), flink_type_of(args[0]) if args else ft.build(T.NULL))
    return rewrite


def _array_position(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    return _cast(_func("ARRAY_POSITION", *node.expressions), ft.build(T.INT, nullable=_nullable(node.expressions)))


def _array_slice(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    array, start, end = node.expressions
    length = exp.Add(this=exp.Sub(this=end, expression=start.copy()), expression=_lit(1))
    return _typed(_func("SLICE", array, start, length), flink_type_of(array))


def _split(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    text, separator = node.expressions
    quoted = _func("CONCAT", _lit("\\Q"), separator, _lit("\\E"))
    return _typed(_func("SPLIT", text, quoted, _lit(-1)),
                  ft.with_nullable(exp.DataType(this=T.ARRAY, nested=True, expressions=[_string(True)]),
                                   _nullable([text, separator])))


def _map_part(index: int, name: str) -> Callable[[exp.Expression, "_Scope"], exp.Expression]:
    def rewrite(node: exp.Expression, scope: "_Scope") -> exp.Expression:
        (value,) = node.expressions
        dtype = flink_type_of(value)
        element = dtype.expressions[index] if dtype.this == T.MAP else ft.build(T.NULL)
        return _typed(_func(name, value),
                      ft.with_nullable(exp.DataType(this=T.ARRAY, nested=True, expressions=[element]),
                                       ft.is_nullable(dtype)))
    return rewrite


def _string_tests(pattern: str) -> Callable[[exp.Expression, "_Scope"], exp.Expression]:
    def rewrite(node: exp.Expression, scope: "_Scope") -> exp.Expression:
        (value,) = node.expressions
        test = exp.RegexpLike(this=value, expression=_lit(pattern))
        return _typed(exp.Coalesce(this=test, expressions=[exp.Boolean(this=False)]),
                      ft.build(T.BOOLEAN, nullable=False))
    return rewrite


def _is_decimal(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    (value,) = node.expressions
    test = exp.Not(this=_is_null(exp.TryCast(this=value, to=exp.DataType(this=T.DOUBLE), safe=True)))
    return _typed(exp.Coalesce(this=test, expressions=[exp.Boolean(this=False)]), ft.build(T.BOOLEAN, nullable=False))


def _fixed(dtype_text: str, name: Optional[str] = None) -> Callable[[exp.Expression, "_Scope"], exp.Expression]:
    dtype = ft.parse_type(dtype_text)

    def rewrite(node: exp.Expression, scope: "_Scope") -> exp.Expression:
        if name is not None:
            node = _func(name, *node.expressions)
        operands = list(node.expressions) if isinstance(node, exp.Anonymous) else \
            [v for v in node.args.values() if isinstance(v, exp.Expression)]
        return _cast(node, ft.with_nullable(dtype, _nullable(operands)))
    return rewrite


def _refuse(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    """A Spark function that Flink SQL does not have: Flink's planner refuses the query."""
    name = node.sql_name() if hasattr(node, "sql_name") else type(node).__name__
    raise SqlValidationError("No match found for function signature {}(...)".format(name.upper()))


def _typed_as(dtype_text: str, cast: bool = False, nullable: bool = False
              ) -> Callable[[exp.Expression, "_Scope"], exp.Expression]:
    dtype = ft.parse_type(dtype_text)

    def rewrite(node: exp.Expression, scope: "_Scope") -> exp.Expression:
        operands = [v for v in node.args.values() if isinstance(v, exp.Expression)] + list(node.expressions)
        result = ft.with_nullable(dtype, nullable or _nullable(operands))
        return _cast(node, result) if cast else _typed(node, result)
    return rewrite


def _from_base64_node(node: exp.FromBase64, scope: "_Scope") -> exp.Expression:
    return _typed(exp.Cast(this=node, to=exp.DataType(this=T.TEXT)), _string(_nullable([node.this])))


def _overlay(node: exp.Overlay, scope: "_Scope") -> exp.Expression:
    lengths = [ft.length_of(flink_type_of(node.this)), ft.length_of(flink_type_of(node.expression))]
    operands = [node.this, node.expression] + [node.args[k] for k in ("from_", "for_") if node.args.get(k)]
    return _typed(node, ft.build(T.VARCHAR, min(sum(lengths), ft.MAX_LENGTH), nullable=_nullable(operands)))


def _array_same(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, flink_type_of(node.this))


def _array_reverse(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(_func("REVERSE", node.this), flink_type_of(node.this))


def _array_max(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    dtype = flink_type_of(node.this)
    element = dtype.expressions[0] if dtype.this == T.ARRAY else ft.build(T.NULL)
    return _typed(node, ft.with_nullable(element, True))


def _array_position_node(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _cast(_func("ARRAY_POSITION", node.this, node.expression),
                 ft.build(T.INT, nullable=_nullable([node.this, node.expression])))


def _array_slice_node(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    """``ARRAY_SLICE(a, start, end)``: ``end`` is included (Spark's third argument is a length)."""
    start, end = node.args["start"], node.args.get("end")
    if end is None:
        return _typed(_func("SLICE", node.this, start, _func("SIZE", node.this.copy())), flink_type_of(node.this))
    length = exp.Add(this=exp.Sub(this=end, expression=start.copy()), expression=_lit(1))
    return _typed(_func("SLICE", node.this, start, length), flink_type_of(node.this))


def _map_keys_node(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    dtype = flink_type_of(node.this)
    index = 0 if isinstance(node, exp.MapKeys) else 1
    element = dtype.expressions[index] if dtype.this == T.MAP else ft.build(T.NULL)
    return _typed(node, ft.with_nullable(exp.DataType(this=T.ARRAY, nested=True, expressions=[element]),
                                         ft.is_nullable(dtype)))


def _split_node(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    """``SPLIT(text, separator)``: the separator is text, not a regular expression."""
    text, separator = node.this, node.expression
    quoted = _func("CONCAT", _lit("\\Q"), separator, _lit("\\E"))
    return _typed(_func("SPLIT", text, quoted, _lit(-1)),
                  ft.with_nullable(exp.DataType(this=T.ARRAY, nested=True, expressions=[_string(True)]),
                                   _nullable([text, separator])))


def _week(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _cast(_func("WEEKOFYEAR", node.this), ft.build(T.BIGINT, nullable=_nullable([node.this])))


def _json_object(node: exp.JSONObject, scope: "_Scope") -> exp.Expression:
    """``JSON_OBJECT(k VALUE v, ...)``: the compact JSON text of the pairs."""
    parts: List[exp.Expression] = []
    for pair in node.expressions:
        parts.extend([pair.this, pair.expression])
    return _typed(_func("TO_JSON", _func("NAMED_STRUCT", *parts)), _string(False))


def _json_array(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    return _typed(_func("TO_JSON", exp.Array(expressions=list(node.expressions))), _string(False))


def _convert_tz(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    """``CONVERT_TZ(text, from, to)``: the local date-time text of one zone in another."""
    text, source, target = node.expressions
    moved = _func("FROM_UTC_TIMESTAMP", _func("TO_UTC_TIMESTAMP", text, source), target)
    return _typed(_func("DATE_FORMAT", moved, _lit("yyyy-MM-dd HH:mm:ss")), _string(True))


def _window(node: exp.Window, scope: "_Scope") -> exp.Expression:
    """An aggregate over a window: a rewritten aggregate (a cast, AVG's quotient of SUM and
    COUNT) keeps its form, each aggregate in it taken over the window."""
    inner = node.this
    dtype = flink_type_of(inner)
    if isinstance(inner, exp.AggFunc) or not any(isinstance(n, exp.AggFunc) for n in inner.walk()):
        return _typed(node, dtype)
    template = node.copy()
    template.set("this", None)

    def over(part: exp.Expression) -> exp.Expression:
        if isinstance(part, exp.AggFunc):
            window = template.copy()
            window.set("this", part)
            return window
        for key, value in list(part.args.items()):
            if isinstance(value, exp.Expression):
                part.set(key, over(value))
            elif isinstance(value, list):
                part.set(key, [over(v) if isinstance(v, exp.Expression) else v for v in value])
        return part

    return _typed(over(inner), dtype)


def _bigint_not_null(node: exp.Expression, scope: "_Scope") -> exp.Expression:
    return _typed(node, ft.build(T.BIGINT, nullable=False))


# Flink functions parsed as anonymous calls: how each runs on Spark
_FUNCTIONS: Dict[str, Callable[..., exp.Expression]] = {
    "SPLIT_INDEX": _split_index,
    "REGEXP": _regexp,
    "JSON_VALUE": _json_value,
    "JSON_QUERY": _json_query,
    "JSON_EXISTS": _json_exists,
    "JSON_STRING": _json_string,
    "CARDINALITY": _cardinality,
    "ELEMENT": _element,
    "SHA256": _hash("SHA2", 256, 64),
    "SHA224": _hash("SHA2", 224, 56),
    "SHA384": _hash("SHA2", 384, 96),
    "SHA512": _hash("SHA2", 512, 128),
    "FROM_BASE64": _from_base64,
    "TO_BASE64": _to_base64,
    "ARRAY_POSITION": _array_position,
    "ARRAY_SLICE": _array_slice,
    "ARRAY_REVERSE": _same_type_function("REVERSE"),
    "ARRAY_DISTINCT": _same_type_function("ARRAY_DISTINCT"),
    "ARRAY_CONCAT": _same_type_function("CONCAT"),
    "SPLIT": _split,
    "MAP_KEYS": _map_part(0, "MAP_KEYS"),
    "MAP_VALUES": _map_part(1, "MAP_VALUES"),
    "IS_DIGIT": _string_tests("^[0-9]+$"),
    "IS_ALPHA": _string_tests("^[A-Za-z]+$"),
    "IS_DECIMAL": _is_decimal,
    "CHR": _fixed("STRING", "CHAR"),
    "ASCII": _fixed("INT"),
    "BIN": _fixed("STRING"),
    "JSON_ARRAY": _json_array,
    "CONVERT_TZ": _convert_tz,
    "TO_TIMESTAMP_LTZ": lambda node, scope: _typed(
        _func("TIMESTAMP_MILLIS" if _literal_value(node.expressions[1]) == 3 else "TIMESTAMP_SECONDS",
              node.expressions[0]), ft.build(T.TIMESTAMPLTZ, 3)),
}

# functions that Spark computes as Flink does, given their Flink result type
_SPARK_SAME = {"ARRAY_JOIN": "STRING", "ARRAY_MAX": None, "HEX": "STRING", "DEGREES": "DOUBLE",
               "RADIANS": "DOUBLE", "PI": "DOUBLE NOT NULL", "ATAN2": "DOUBLE", "SIN": "DOUBLE",
               "COS": "DOUBLE", "TAN": "DOUBLE", "LOG2": None, "REVERSE": "STRING",
               "OVERLAY": None, "CONVERT_TZ": None}


def _anonymous(node: exp.Anonymous, scope: "_Scope") -> exp.Expression:
    name = str(node.this).upper()
    rewrite = _FUNCTIONS.get(name)
    if rewrite is not None:
        return rewrite(node, scope)
    if name in _SPARK_SAME:
        text = _SPARK_SAME[name]
        dtype = ft.parse_type(text) if text else (
            flink_type_of(node.expressions[0]).expressions[0]
            if node.expressions and flink_type_of(node.expressions[0]).this == T.ARRAY else _string(True))
        return _typed(node, dtype)
    if scope.functions is None or name in scope.functions:
        return node
    raise SqlValidationError("No match found for function signature {}({})".format(
        node.this, ", ".join("<{}>".format(_family(flink_type_of(a))) for a in node.expressions)), node, True)


def _family(dtype: exp.DataType) -> str:
    """The type family Flink's validator names for an argument of an unknown function."""
    if ft.is_numeric(dtype):
        return "NUMERIC"
    if ft.is_string(dtype):
        return "CHARACTER"
    if dtype.this in (T.BINARY, T.VARBINARY):
        return "BINARY"
    return {T.BOOLEAN: "BOOLEAN", T.DATE: "DATE", T.TIME: "TIME", T.TIMESTAMP: "TIMESTAMP",
            T.TIMESTAMPLTZ: "TIMESTAMP"}.get(dtype.this, "ANY")


# ---------------------------------------------------------------------------------------------
# The walk
# ---------------------------------------------------------------------------------------------

_Rewrite = Callable[..., Optional[exp.Expression]]

# the rule of each node class, by the class's name in sqlglot.expressions (a class an older
# sqlglot lacks is left out: the node it would be is then parsed as another one)
_RULES: Dict[str, _Rewrite] = {
    "Literal": _literal,
    "Boolean": _boolean,
    "Null": _null,
    "Column": _column,
    "Paren": _same_as_child,
    "Alias": _same_as_child,
    "Neg": _negate,
    "Add": _add_sub,
    "Sub": _add_sub,
    "Mul": _multiply,
    "Div": _divide,
    "Mod": _modulo,
    "Avg": _avg,
    "Sum": _sum,
    "Count": _count,
    "Min": _min_max,
    "Max": _min_max,
    "FirstValue": _min_max,
    "LastValue": _min_max,
    "StddevPop": _variance,
    "StddevSamp": _variance,
    "Stddev": _variance,
    "VariancePop": _variance,
    "Variance": _variance,
    "GroupConcat": _listagg,
    "Cast": _cast_node,
    "TryCast": _cast_node,
    "Case": _case_node,
    "If": _if_node,
    "Coalesce": _coalesce,
    "Nullif": _nullif,
    "Greatest": _greatest_least,
    "Least": _greatest_least,
    "EQ": _boolean_of, "NEQ": _boolean_of, "GT": _boolean_of, "GTE": _boolean_of,
    "LT": _boolean_of, "LTE": _boolean_of, "And": _boolean_of, "Or": _boolean_of,
    "Not": _boolean_of, "Like": _boolean_of, "ILike": _boolean_of, "Escape": _boolean_of,
    "In": _boolean_of, "Between": _boolean_of, "RegexpLike": _boolean_of,
    "NullSafeEQ": _always_boolean, "NullSafeNEQ": _always_boolean,
    "SimilarTo": _similar_to,
    "RegexpExtract": _regexp_extract,
    "RegexpReplace": _regexp_replace,
    "Substring": _substring,
    "Concat": _concat,
    "ConcatWs": _concat_ws,
    "DPipe": _dpipe,
    "Upper": _keeps_string_type,
    "Lower": _keeps_string_type,
    "Trim": _trim,
    "Pad": _pad,
    "StrPosition": _position,
    "Length": _length,
    "Initcap": _initcap,
    "Repeat": _string_result,
    "Replace": _string_result,
    "Left": _left_right,
    "Right": _left_right,
    "StrToMap": _str_to_map,
    "Ceil": _ceil_floor,
    "Floor": _ceil_floor,
    "Round": _round,
    "Trunc": _truncate,
    "Pow": _double_of,
    "Sqrt": _double_of,
    "Exp": _double_of,
    "Ln": _logarithm,
    "Log": _logarithm,
    "Sign": _sign,
    "Abs": _abs,
    "TimeToStr": _date_format,
    "StrToTime": _to_timestamp,
    "TsOrDsToDate": _to_date,
    "StrToUnix": _unix_timestamp,
    "UnixToStr": _from_unixtime,
    "TimestampAdd": _timestamp_add,
    "TimestampDiff": _timestamp_diff,
    "Extract": _extract,
    "Year": _date_part, "Month": _date_part, "Quarter": _date_part,
    "DayOfYear": _date_part, "DayOfMonth": _date_part, "DayOfWeek": _date_part,
    "Interval": _interval,
    "MD5": _hash("MD5", None, 32),
    "SHA": _hash("SHA1", None, 40),
    "SHA2": _sha2,
    "Array": _array,
    "Bracket": _bracket,
    "ArrayContains": _always_boolean,
    "Anonymous": _anonymous,
    "Atan2": _double_of, "Cos": _double_of, "Sin": _double_of, "Tan": _double_of,
    "Degrees": _double_of, "Radians": _double_of, "Pi": _typed_as("DOUBLE NOT NULL"),
    "Hex": _typed_as("STRING"), "Ascii": _typed_as("INT", cast=True), "Chr": _typed_as("STRING", nullable=True),
    "FromBase64": _from_base64_node, "ToBase64": _typed_as("STRING"),
    "Reverse": _typed_as("STRING", nullable=True),
    "Overlay": _overlay,
    "ArrayConcat": _array_same, "ArrayDistinct": _array_same, "ArrayToString": _typed_as("STRING"),
    "ArrayMax": _array_max, "ArrayPosition": _array_position_node, "ArrayReverse": _array_reverse,
    "ArraySlice": _array_slice_node, "MapKeys": _map_keys_node, "RegexpSplit": _split_node,
    "Hour": _date_part, "Minute": _date_part, "Second": _date_part, "Week": _week,
    "JSONObject": _json_object,
    "LogicalAnd": _refuse, "Translate": _refuse, "DateDiff": _refuse, "TsOrDsAdd": _refuse,
    "LastDay": _refuse,
    "Window": _window, "RowNumber": _bigint_not_null, "Rank": _bigint_not_null,
    "DenseRank": _bigint_not_null,
}

_REWRITES: Dict[type, _Rewrite] = {
    getattr(exp, name): rule for name, rule in _RULES.items() if hasattr(exp, name)}

_NOT_WALKED = (exp.DataType, exp.Identifier, exp.Var, exp.Star, exp.DataTypeParam)


class _Scope:
    """The columns visible to an expression: ``(table alias or None, name) -> type``."""

    def __init__(self, functions: Optional[Container[str]]) -> None:
        self.columns: Dict[Tuple[Optional[str], str], exp.DataType] = {}
        self.functions = functions

    def add(self, table: Optional[str], name: str, dtype: exp.DataType) -> None:
        self.columns[(table.lower() if table else None, name.lower())] = dtype
        self.columns.setdefault((None, name.lower()), dtype)

    def lookup(self, table: Optional[str], name: str) -> Optional[exp.DataType]:
        return self.columns.get((table.lower() if table else None, name.lower()))


def _rewrite_expression(node: exp.Expression, scope: _Scope, schema: Schema) -> exp.Expression:
    if isinstance(node, (exp.Select, exp.Union, exp.Except, exp.Intersect)):
        return _rewrite_query(node, schema, scope.functions)
    if isinstance(node, _NOT_WALKED):
        return node
    for key, value in list(node.args.items()):
        if key in ("to",) and isinstance(node, (exp.Cast, exp.TryCast)):
            continue
        if isinstance(value, exp.Expression):
            node.set(key, _rewrite_expression(value, scope, schema))
        elif isinstance(value, list):
            node.set(key, [_rewrite_expression(v, scope, schema) if isinstance(v, exp.Expression) else v
                           for v in value])
    if isinstance(node, exp.Is) and (isinstance(node.expression, exp.JSON) or (
            isinstance(node.expression, exp.Var) and node.expression.name.upper() == "JSON")):
        return _is_json(node, scope) or node
    if isinstance(node, exp.Is):
        return _always_boolean(node, scope)
    rule = _REWRITES.get(type(node))
    if rule is None:
        return node
    result = rule(node, scope)
    return result if result is not None else node


def _table_columns(name: str, schema: Schema) -> Dict[str, exp.DataType]:
    for table, columns in schema.items():
        if table.lower() == name.lower() or table.lower().split(".")[-1] == name.lower():
            return {column: ft.from_sqlglot(dtype) for column, dtype in columns.items()}
    return {}


def _add_source(source: exp.Expression, scope: _Scope, schema: Schema,
                functions: Optional[Container[str]]) -> exp.Expression:
    alias = source.alias_or_name if isinstance(source, (exp.Table, exp.Subquery)) else None
    if isinstance(source, exp.Table) and isinstance(source.this, exp.Identifier):
        # the table's own name, else its alias (a caller may have renamed the table to a view)
        columns = _table_columns(source.name, schema) or _table_columns(alias or "", schema)
        for column, dtype in columns.items():
            scope.add(alias, column, dtype)
        return source
    if isinstance(source, exp.Subquery):
        inner = _rewrite_query(source.this, schema, functions)
        source.set("this", inner)
        for column, dtype in result_types(inner):
            scope.add(alias, column, dtype)
        return source
    if isinstance(source, exp.Values):
        rows = []
        for row in source.expressions:
            rows.append(_rewrite_expression(row, _Scope(functions), schema))
        source.set("expressions", rows)
        table_alias = source.args.get("alias")
        names = [c.name for c in table_alias.columns] if table_alias is not None else []
        width = len(rows[0].expressions) if rows else 0
        for index in range(width):
            dtype = ft.common_type([flink_type_of(row.expressions[index]) for row in rows])
            name = names[index] if index < len(names) else "EXPR${}".format(index)
            scope.add(table_alias.name if table_alias is not None else None, name, dtype)
        return source
    return source


def _output_name(node: exp.Expression, index: int) -> str:
    if isinstance(node, exp.Alias):
        return node.alias
    if isinstance(node, exp.Column):
        return node.name
    return "EXPR${}".format(index)


def _with_common_tables(tree: exp.Select, schema: Schema, functions: Optional[Container[str]]) -> Schema:
    """``schema`` with the columns of the query's ``WITH`` tables, each rewritten in turn."""
    with_ = tree.args.get("with_") or tree.args.get("with")
    if with_ is None:
        return schema
    extended: Dict[str, Mapping[str, exp.DataType]] = dict(schema)
    for cte in with_.expressions:
        inner = _rewrite_query(cte.this, extended, functions)
        cte.set("this", inner)
        extended[cte.alias_or_name] = dict(result_types(inner))
    return extended


def _rewrite_query(tree: exp.Expression, schema: Schema, functions: Optional[Container[str]]) -> exp.Expression:
    if isinstance(tree, (exp.Union, exp.Except, exp.Intersect)):
        left = _rewrite_query(tree.this, schema, functions)
        right = _rewrite_query(tree.expression, schema, functions)
        tree.set("this", left)
        tree.set("expression", right)
        tree.meta["flink_columns"] = [
            (name, ft.common_type([ltype, rtype]))
            for (name, ltype), (_, rtype) in zip(result_types(left), result_types(right))]
        return tree
    if not isinstance(tree, exp.Select):
        return tree
    schema = _with_common_tables(tree, schema, functions)
    scope = _Scope(functions)
    from_ = tree.args.get("from") or tree.args.get("from_")
    if from_ is not None:
        from_.set("this", _add_source(from_.this, scope, schema, functions))
    for join in tree.args.get("joins") or []:
        join.set("this", _add_source(join.this, scope, schema, functions))
    star = any(isinstance(e, exp.Star) for e in tree.expressions)
    for key in ("where", "group", "having", "qualify", "order"):
        part = tree.args.get(key)
        if part is not None:
            tree.set(key, _rewrite_expression(part, scope, schema))
    for join in tree.args.get("joins") or []:
        condition = join.args.get("on")
        if condition is not None:
            join.set("on", _rewrite_expression(condition, scope, schema))
    projections: List[exp.Expression] = []
    columns: List[Tuple[str, exp.DataType]] = []
    if star:
        seen = set()
        for (table, name), dtype in scope.columns.items():
            if table is None and name not in seen:
                seen.add(name)
                columns.append((name, dtype))
    for index, projection in enumerate(tree.expressions):
        if isinstance(projection, exp.Star):
            projections.append(projection)
            continue
        name = _output_name(projection, index)
        rewritten = _rewrite_expression(projection, scope, schema)
        if not isinstance(rewritten, exp.Alias):
            aliased: exp.Expression = exp.alias_(rewritten, name, quoted=True)  # type: ignore[assignment]
            rewritten = _typed(aliased, flink_type_of(rewritten))
        projections.append(rewritten)
        columns.append((name, flink_type_of(rewritten)))
    tree.set("expressions", projections)
    tree.meta["flink_columns"] = columns
    return tree


def apply_flink_semantics(tree: exp.Expression, schema: Mapping[str, Mapping[str, exp.DataType]],
                          functions: Optional[Container[str]] = None) -> exp.Expression:
    """``tree`` (a parsed Flink query) rewritten so that ``.sql(dialect="spark")`` computes on
    Spark the values and types Flink computes.

    :param tree: A SELECT (or set operation) parsed from Flink SQL; it is not modified.
    :param schema: The column types of the tables the query reads, by table name.
    :param functions: The names of the user functions registered in the environment, whose
        calls are kept as they are; a call of any other function Flink does not have is refused.
        A container that is no collection is asked for each name in capitals.
        ``None`` keeps every call of a function this module does not know (the Spark functions
        Flink lacks are refused either way).
    :raises SqlValidationError: For a query Flink's planner refuses, such as a call of a function
        Flink does not have.
    """
    upper = frozenset(name.upper() for name in functions) if isinstance(functions, Collection) else functions
    return _rewrite_query(tree.copy(), schema, upper)
