"""Flink SQL data types: their text, their Spark counterparts and Flink's result-type rules.

A Flink type is held as a :class:`sqlglot.exp.DataType` whose parameters are always explicit
(``DECIMAL(10, 0)``, ``VARCHAR(2147483647)`` for ``STRING``, ``TIMESTAMP(6)``), and whose
``nullable`` argument is ``False`` for ``NOT NULL``. :func:`flink_name` prints such a type as
Flink 1.20 prints a resolved schema (``INT NOT NULL``, ``DECIMAL(10, 2)``, ``STRING``,
``TIMESTAMP(3)``, ``ARRAY<INT NOT NULL>``).

The decimal rules follow Flink's ``LogicalTypeMerging``: precision is capped at 38 and, when an
operation would need more, the scale gives way down to 6 digits (or less when it was smaller).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional, Sequence, Tuple

from sqlglot import exp

if TYPE_CHECKING:
    from pyspark.sql import types as spark_types

__all__ = [
    "MAX_LENGTH",
    "MAX_PRECISION",
    "parse_type",
    "to_spark",
    "flink_name",
    "build",
    "with_nullable",
    "is_nullable",
    "precision_scale",
    "length_of",
    "is_integer",
    "is_exact_numeric",
    "is_approximate",
    "is_numeric",
    "is_string",
    "is_decimal",
    "decimal_of",
    "decimal_add",
    "decimal_multiply",
    "decimal_divide",
    "decimal_mod",
    "sum_type",
    "avg_type",
    "common_type",
    "supports_implicit_cast",
    "calcite_name",
    "from_sqlglot",
    "spark_sql_type",
    "row_type",
    "array_type",
    "map_type",
    "multiset_type",
    "interval_type",
]

T = exp.DataType.Type

#: The length of ``STRING`` and ``BYTES`` (``VARCHAR`` and ``VARBINARY`` at their maximum).
MAX_LENGTH = 2147483647
#: The largest decimal precision of Flink (and Spark).
MAX_PRECISION = 38

_INTEGERS = {T.TINYINT: 3, T.SMALLINT: 5, T.INT: 10, T.BIGINT: 19}
_INTEGER_ORDER = [T.TINYINT, T.SMALLINT, T.INT, T.BIGINT]
_STRINGS = {T.CHAR, T.VARCHAR, T.TEXT, T.NCHAR, T.NVARCHAR}
_BINARIES = {T.BINARY, T.VARBINARY}

_SIMPLE_NAMES = {
    "TINYINT": T.TINYINT, "SMALLINT": T.SMALLINT, "INT": T.INT, "INTEGER": T.INT,
    "BIGINT": T.BIGINT, "FLOAT": T.FLOAT, "REAL": T.FLOAT, "DOUBLE": T.DOUBLE,
    "BOOLEAN": T.BOOLEAN, "DATE": T.DATE, "NULL": T.NULL,
}


def build(kind: Any, *params: int, nullable: bool = True) -> exp.DataType:
    """A Flink type of ``kind`` with the integer parameters ``params``."""
    dtype = exp.DataType(
        this=kind,
        expressions=[exp.DataTypeParam(this=exp.Literal.number(p)) for p in params] or None,
        nested=False)
    return with_nullable(dtype, nullable)


def with_nullable(dtype: exp.DataType, nullable: bool) -> exp.DataType:
    """``dtype`` (copied) with its nullability set."""
    result = dtype.copy()
    result.set("nullable", None if nullable else False)
    return result


def is_nullable(dtype: exp.DataType) -> bool:
    """Whether ``dtype`` admits NULL (it is not declared ``NOT NULL``)."""
    return dtype.args.get("nullable") is not False


def _params(dtype: exp.DataType) -> List[int]:
    values = []
    for param in dtype.expressions:
        inner = param.this if isinstance(param, exp.DataTypeParam) else param
        if isinstance(inner, exp.Literal) and not inner.is_string:
            values.append(int(inner.this))
    return values


# ---------------------------------------------------------------------------------------------
# Parsing Flink's type text
# ---------------------------------------------------------------------------------------------

class _TypeReader:
    """A recursive-descent reader of one Flink type text (the grammar of Flink's
    ``LogicalTypeParser``: ``INT NOT NULL``, ``DECIMAL(10, 2)``, ``ARRAY<T>``, ``T ARRAY``,
    ``MAP<K, V>``, ``ROW<name T, ...>``, ``TIMESTAMP(3) WITH LOCAL TIME ZONE``...)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = self._tokenize(text)
        self.pos = 0

    def _tokenize(self, text: str) -> List[str]:
        tokens: List[str] = []
        i = 0
        while i < len(text):
            char = text[i]
            if char.isspace():
                i += 1
            elif char in "<>(),:":
                tokens.append(char)
                i += 1
            elif char in "`\"":
                end = text.find(char, i + 1)
                while end != -1 and text[end + 1:end + 2] == char:
                    end = text.find(char, end + 2)
                if end == -1:
                    raise ValueError("Unterminated identifier in type: {}".format(text))
                tokens.append("`" + text[i + 1:end].replace(char * 2, char))
                i = end + 1
            elif char == "'":
                end = text.find("'", i + 1)
                if end == -1:
                    raise ValueError("Unterminated comment in type: {}".format(text))
                tokens.append("'" + text[i + 1:end])
                i = end + 1
            else:
                start = i
                while i < len(text) and not text[i].isspace() and text[i] not in "<>(),:`\"'":
                    i += 1
                tokens.append(text[start:i])
        return tokens

    def peek(self, offset: int = 0) -> Optional[str]:
        index = self.pos + offset
        return self.tokens[index].upper() if index < len(self.tokens) else None

    def take(self, expected: Optional[str] = None) -> str:
        if self.pos >= len(self.tokens):
            raise ValueError("Unexpected end of type: {}".format(self.text))
        token = self.tokens[self.pos]
        if expected is not None and token.upper() != expected:
            raise ValueError("Expected {} in type: {}".format(expected, self.text))
        self.pos += 1
        return token

    def accept(self, *words: str) -> bool:
        if all(self.peek(i) == word for i, word in enumerate(words)):
            self.pos += len(words)
            return True
        return False

    def numbers(self) -> List[int]:
        values: List[int] = []
        if self.accept("("):
            values.append(int(self.take()))
            while self.accept(","):
                values.append(int(self.take()))
            self.take(")")
        return values

    def read(self) -> exp.DataType:
        dtype = self.read_type()
        if self.pos != len(self.tokens):
            raise ValueError("Unexpected text after the type: {}".format(self.text))
        return dtype

    def read_type(self) -> exp.DataType:
        dtype = self.read_base()
        while True:
            if self.accept("NOT", "NULL"):
                dtype = with_nullable(dtype, False)
            elif self.accept("NULL"):
                dtype = with_nullable(dtype, True)
            elif self.accept("ARRAY"):
                dtype = _nested(T.ARRAY, [dtype])
            elif self.accept("MULTISET"):
                dtype = _multiset(dtype)
            else:
                return dtype

    def read_base(self) -> exp.DataType:
        word = self.take().upper()
        if word in _SIMPLE_NAMES:
            if word == "DOUBLE":
                self.accept("PRECISION")
            return build(_SIMPLE_NAMES[word])
        if word in ("DECIMAL", "DEC", "NUMERIC"):
            params = self.numbers() or [10]
            return build(T.DECIMAL, params[0], params[1] if len(params) > 1 else 0)
        if word in ("CHAR", "CHARACTER"):
            if self.accept("VARYING"):
                return build(T.VARCHAR, *(self.numbers() or [1]))
            return build(T.CHAR, *(self.numbers() or [1]))
        if word == "VARCHAR":
            return build(T.VARCHAR, *(self.numbers() or [1]))
        if word == "STRING":
            return build(T.VARCHAR, MAX_LENGTH)
        if word == "BINARY":
            if self.accept("VARYING"):
                return build(T.VARBINARY, *(self.numbers() or [1]))
            return build(T.BINARY, *(self.numbers() or [1]))
        if word == "VARBINARY":
            return build(T.VARBINARY, *(self.numbers() or [1]))
        if word == "BYTES":
            return build(T.VARBINARY, MAX_LENGTH)
        if word == "TIME":
            precision = (self.numbers() or [0])[0]
            self.accept("WITHOUT", "TIME", "ZONE")
            return build(T.TIME, precision)
        if word == "TIMESTAMP":
            precision = (self.numbers() or [6])[0]
            if self.accept("WITH", "LOCAL", "TIME", "ZONE"):
                return build(T.TIMESTAMPLTZ, precision)
            if self.accept("WITH", "TIME", "ZONE"):
                return build(T.TIMESTAMPTZ, precision)
            self.accept("WITHOUT", "TIME", "ZONE")
            return build(T.TIMESTAMP, precision)
        if word == "TIMESTAMP_LTZ":
            return build(T.TIMESTAMPLTZ, (self.numbers() or [6])[0])
        if word == "ARRAY":
            self.take("<")
            element = self.read_type()
            self.take(">")
            return _nested(T.ARRAY, [element])
        if word == "MULTISET":
            self.take("<")
            element = self.read_type()
            self.take(">")
            return _multiset(element)
        if word == "MAP":
            self.take("<")
            key = self.read_type()
            self.take(",")
            value = self.read_type()
            self.take(">")
            return _nested(T.MAP, [key, value])
        if word == "ROW":
            return self.read_row()
        if word == "INTERVAL":
            return self.read_interval()
        raise ValueError("Unknown Flink SQL type: {}".format(self.text))

    def read_row(self) -> exp.DataType:
        closing = ">" if self.accept("<") else ")" if self.accept("(") else None
        if closing is None:
            raise ValueError("Expected < or ( after ROW in type: {}".format(self.text))
        fields: List[Tuple[str, exp.DataType]] = []
        while not self.accept(closing):
            if fields:
                self.take(",")
            name = self.take()
            name = name[1:] if name.startswith("`") else name
            self.accept(":")
            fields.append((name, self.read_type()))
            if self.peek() is not None and self.tokens[self.pos].startswith("'"):
                self.pos += 1  # a field's description
        return row_type(fields)

    def read_interval(self) -> exp.DataType:
        words: List[str] = []
        while self.peek() in ("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "TO"):
            words.append(self.take().upper())
            if self.peek() == "(":
                words[-1] += "({})".format(", ".join(str(n) for n in self.numbers()))
        return interval_type(" ".join(words) or "SECOND(3)")


def _nested(kind: Any, inner: Sequence[exp.DataType]) -> exp.DataType:
    return exp.DataType(this=kind, expressions=list(inner), nested=True)


def _multiset(element: exp.DataType) -> exp.DataType:
    # a MULTISET<T> is a map from each element to its count, which is how Python sees it
    dtype = _nested(T.MAP, [element, build(T.INT, nullable=False)])
    dtype.set("kind", exp.Var(this="MULTISET"))
    return dtype


def array_type(element: exp.DataType) -> exp.DataType:
    """A Flink ``ARRAY`` type of ``element`` values."""
    return _nested(T.ARRAY, [element])


def map_type(key: exp.DataType, value: exp.DataType) -> exp.DataType:
    """A Flink ``MAP`` type from ``key`` to ``value``."""
    return _nested(T.MAP, [key, value])


def multiset_type(element: exp.DataType) -> exp.DataType:
    """A Flink ``MULTISET`` type of ``element`` values."""
    return _multiset(element)


def row_type(fields: Sequence[Tuple[str, exp.DataType]]) -> exp.DataType:
    """A Flink ``ROW`` type of the named ``fields``."""
    return exp.DataType(
        this=T.STRUCT,
        expressions=[exp.ColumnDef(this=exp.to_identifier(name, quoted=True), kind=dtype)
                     for name, dtype in fields],
        nested=True)


def interval_type(qualifier: str) -> exp.DataType:
    """A Flink interval type such as ``INTERVAL SECOND(3)`` or ``INTERVAL MONTH``."""
    return exp.DataType(this=T.INTERVAL, expressions=[exp.Var(this=qualifier)])


def parse_type(text: str) -> exp.DataType:
    """The Flink SQL type written as ``text`` (as in DDL, ``CAST`` or ``DataTypes``' text).

    :raises ValueError: when ``text`` is no Flink type.
    """
    return _TypeReader(text).read()


# ---------------------------------------------------------------------------------------------
# Flink's type text
# ---------------------------------------------------------------------------------------------

def length_of(dtype: exp.DataType) -> int:
    """The length of a character or binary type (``STRING`` is ``MAX_LENGTH``)."""
    params = _params(dtype)
    if params:
        return params[0]
    return MAX_LENGTH if dtype.this in (T.VARCHAR, T.TEXT, T.VARBINARY, T.NVARCHAR) else 1


def precision_scale(dtype: exp.DataType) -> Tuple[int, int]:
    """The precision and scale of a decimal type, or of an integer type seen as a decimal."""
    if dtype.this in _INTEGERS:
        return _INTEGERS[dtype.this], 0
    params = _params(dtype)
    if not params:
        return (MAX_PRECISION, 18) if dtype.this == T.DECIMAL else (MAX_PRECISION, 0)
    return params[0], params[1] if len(params) > 1 else 0


def _fraction_precision(dtype: exp.DataType, default: int) -> int:
    params = _params(dtype)
    return params[0] if params else default


def flink_name(dtype: exp.DataType) -> str:
    """``dtype`` as Flink prints it in a resolved schema (``DataType#toString``)."""
    name = _base_name(dtype)
    return name if is_nullable(dtype) else name + " NOT NULL"


def calcite_name(dtype: exp.DataType) -> str:
    """``dtype`` as Flink's SQL validator names an operand's type in its messages
    (``INTEGER``, ``VARCHAR(2147483647)``, ``TIMESTAMP_WITH_LOCAL_TIME_ZONE(3)``), without
    its nullability."""
    if dtype.this == T.INT:
        return "INTEGER"
    if dtype.this == T.VARCHAR:
        return "VARCHAR({})".format(length_of(dtype))
    if dtype.this == T.VARBINARY:
        return "VARBINARY({})".format(length_of(dtype))
    if dtype.this == T.TIMESTAMPLTZ:
        return "TIMESTAMP_WITH_LOCAL_TIME_ZONE({})".format(_fraction_precision(dtype, 6))
    return flink_name(with_nullable(dtype, True))


def _base_name(dtype: exp.DataType) -> str:
    kind = dtype.this
    simple = {T.TINYINT: "TINYINT", T.SMALLINT: "SMALLINT", T.INT: "INT", T.BIGINT: "BIGINT",
              T.FLOAT: "FLOAT", T.DOUBLE: "DOUBLE", T.BOOLEAN: "BOOLEAN", T.DATE: "DATE",
              T.NULL: "NULL"}
    if kind in simple:
        return simple[kind]
    if kind == T.DECIMAL:
        return "DECIMAL({}, {})".format(*precision_scale(dtype))
    if kind in (T.CHAR, T.NCHAR):
        return "CHAR({})".format(length_of(dtype))
    if kind in (T.VARCHAR, T.TEXT, T.NVARCHAR):
        length = length_of(dtype)
        return "STRING" if length == MAX_LENGTH else "VARCHAR({})".format(length)
    if kind == T.BINARY:
        return "BINARY({})".format(length_of(dtype))
    if kind == T.VARBINARY:
        length = length_of(dtype)
        return "BYTES" if length == MAX_LENGTH else "VARBINARY({})".format(length)
    if kind == T.TIME:
        return "TIME({})".format(_fraction_precision(dtype, 0))
    if kind in (T.TIMESTAMP, T.DATETIME, T.TIMESTAMPNTZ):
        return "TIMESTAMP({})".format(_fraction_precision(dtype, 6))
    if kind == T.TIMESTAMPLTZ:
        return "TIMESTAMP_LTZ({})".format(_fraction_precision(dtype, 6))
    if kind == T.TIMESTAMPTZ:
        return "TIMESTAMP({}) WITH TIME ZONE".format(_fraction_precision(dtype, 6))
    if kind == T.ARRAY:
        return "ARRAY<{}>".format(flink_name(dtype.expressions[0]))
    if kind == T.MAP:
        key, value = dtype.expressions
        if isinstance(dtype.args.get("kind"), exp.Var) and dtype.args["kind"].name == "MULTISET":
            return "MULTISET<{}>".format(flink_name(key))
        return "MAP<{}, {}>".format(flink_name(key), flink_name(value))
    if kind == T.STRUCT:
        return "ROW<{}>".format(", ".join(
            "`{}` {}".format(field.name.replace("`", "``"), flink_name(field.args["kind"]))
            for field in dtype.expressions))
    if kind == T.INTERVAL:
        qualifier = dtype.expressions[0].name if dtype.expressions else "SECOND(3)"
        return "INTERVAL {}".format(qualifier)
    raise ValueError("No Flink SQL type for {}".format(dtype.sql()))


# ---------------------------------------------------------------------------------------------
# Spark types
# ---------------------------------------------------------------------------------------------

def to_spark(dtype: exp.DataType) -> "spark_types.DataType":
    """The Spark SQL type holding the values of the Flink type ``dtype``.

    ``CHAR``/``VARCHAR``/``STRING`` become ``StringType``, ``TIMESTAMP`` ``TimestampNTZType``
    (both without time zone), ``TIMESTAMP_LTZ`` ``TimestampType``, ``ROW`` ``StructType``.

    :raises ValueError: for a type Spark cannot hold (``TIME`` on a Spark without ``TimeType``).
    """
    from pyspark.sql import types as st

    kind = dtype.this
    simple = {T.TINYINT: st.ByteType, T.SMALLINT: st.ShortType, T.INT: st.IntegerType,
              T.BIGINT: st.LongType, T.FLOAT: st.FloatType, T.DOUBLE: st.DoubleType,
              T.BOOLEAN: st.BooleanType, T.DATE: st.DateType, T.NULL: st.NullType,
              T.TIMESTAMPLTZ: st.TimestampType, T.TIMESTAMPTZ: st.TimestampType}
    if kind in simple:
        return simple[kind]()
    if kind == T.DECIMAL:
        precision, scale = precision_scale(dtype)
        return st.DecimalType(min(precision, MAX_PRECISION), scale)
    if kind in _STRINGS:
        return st.StringType()
    if kind in _BINARIES:
        return st.BinaryType()
    if kind in (T.TIMESTAMP, T.DATETIME, T.TIMESTAMPNTZ):
        return st.TimestampNTZType()
    if kind == T.TIME:
        time_type = getattr(st, "TimeType", None)
        if time_type is None:
            raise ValueError("Flink's TIME type has no Spark type before Spark 4.1")
        return time_type(_fraction_precision(dtype, 0))
    if kind == T.ARRAY:
        element = dtype.expressions[0]
        return st.ArrayType(to_spark(element), containsNull=is_nullable(element))
    if kind == T.MAP:
        key, value = dtype.expressions
        return st.MapType(to_spark(key), to_spark(value), valueContainsNull=is_nullable(value))
    if kind == T.STRUCT:
        return st.StructType([
            st.StructField(field.name, to_spark(field.args["kind"]), is_nullable(field.args["kind"]))
            for field in dtype.expressions])
    if kind == T.INTERVAL:
        qualifier = dtype.expressions[0].name if dtype.expressions else "SECOND"
        if qualifier.startswith(("YEAR", "MONTH")):
            return st.YearMonthIntervalType()
        return st.DayTimeIntervalType()
    raise ValueError("No Spark type for the Flink type {}".format(flink_name(dtype)))


# ---------------------------------------------------------------------------------------------
# Families and Flink's result-type rules
# ---------------------------------------------------------------------------------------------

def is_integer(dtype: exp.DataType) -> bool:
    """Whether ``dtype`` is TINYINT, SMALLINT, INT or BIGINT."""
    return dtype.this in _INTEGERS


def is_decimal(dtype: exp.DataType) -> bool:
    """Whether ``dtype`` is a DECIMAL."""
    return dtype.this == T.DECIMAL


def is_exact_numeric(dtype: exp.DataType) -> bool:
    """Whether ``dtype`` is an integer or decimal type."""
    return is_integer(dtype) or is_decimal(dtype)


def is_approximate(dtype: exp.DataType) -> bool:
    """Whether ``dtype`` is FLOAT or DOUBLE."""
    return dtype.this in (T.FLOAT, T.DOUBLE)


def is_numeric(dtype: exp.DataType) -> bool:
    """Whether ``dtype`` is a number type."""
    return is_exact_numeric(dtype) or is_approximate(dtype)


def is_string(dtype: exp.DataType) -> bool:
    """Whether ``dtype`` is CHAR, VARCHAR or STRING."""
    return dtype.this in _STRINGS


def decimal_of(precision: int, scale: int, nullable: bool = True) -> exp.DataType:
    """``DECIMAL(precision, scale)``, bounded as Flink bounds derived decimals."""
    precision, scale = _adjust(precision, scale)
    return build(T.DECIMAL, precision, scale, nullable=nullable)


def _adjust(precision: int, scale: int) -> Tuple[int, int]:
    # Flink (like SQL Server) keeps the integral digits and shortens the scale, down to 6
    if precision <= MAX_PRECISION:
        return precision, scale
    integral = precision - scale
    scale = max(MAX_PRECISION - integral, min(scale, 6))
    return MAX_PRECISION, scale


def _both_nullable(*types: exp.DataType) -> bool:
    return any(is_nullable(t) for t in types)


def decimal_add(left: exp.DataType, right: exp.DataType) -> exp.DataType:
    """The type of ``left + right`` (and ``-``) when one side is a DECIMAL."""
    (p1, s1), (p2, s2) = precision_scale(left), precision_scale(right)
    scale = max(s1, s2)
    return decimal_of(max(p1 - s1, p2 - s2) + scale + 1, scale, _both_nullable(left, right))


def decimal_multiply(left: exp.DataType, right: exp.DataType) -> exp.DataType:
    """The type of ``left * right`` when one side is a DECIMAL."""
    (p1, s1), (p2, s2) = precision_scale(left), precision_scale(right)
    return decimal_of(p1 + p2 + 1, s1 + s2, _both_nullable(left, right))


def decimal_divide(left: exp.DataType, right: exp.DataType) -> exp.DataType:
    """The type of ``left / right`` when one side is a DECIMAL."""
    (p1, s1), (p2, s2) = precision_scale(left), precision_scale(right)
    scale = max(6, s1 + p2 + 1)
    return decimal_of(p1 - s1 + s2 + scale, scale, _both_nullable(left, right))


def decimal_mod(left: exp.DataType, right: exp.DataType) -> exp.DataType:
    """The type of ``MOD(left, right)`` when one side is a DECIMAL."""
    (p1, s1), (p2, s2) = precision_scale(left), precision_scale(right)
    scale = max(s1, s2)
    return decimal_of(min(p1 - s1, p2 - s2) + scale, scale, _both_nullable(left, right))


def sum_type(argument: exp.DataType) -> exp.DataType:
    """The type of ``SUM`` over ``argument`` (always nullable: an empty group gives NULL)."""
    if is_decimal(argument):
        return decimal_of(MAX_PRECISION, precision_scale(argument)[1])
    return with_nullable(argument, True)


def avg_type(argument: exp.DataType) -> exp.DataType:
    """The type of ``AVG`` over ``argument``: the argument's own type for integers (an integer
    division of the sum by the count), a wider decimal for decimals."""
    if is_decimal(argument):
        scale = max(6, precision_scale(argument)[1])
        return decimal_of(MAX_PRECISION, scale)
    return with_nullable(argument, True)


def common_type(types: Sequence[exp.DataType]) -> exp.DataType:
    """The least restrictive type of ``types`` (CASE, COALESCE, IN lists, set operations)."""
    known = [t for t in types if t.this != T.NULL]
    nullable = any(is_nullable(t) for t in types)
    if not known:
        return build(T.NULL)
    first = known[0]
    if all(t.this == first.this for t in known) and first.this not in (T.DECIMAL, T.CHAR, T.VARCHAR,
                                                                        T.TIMESTAMP, T.TIMESTAMPLTZ):
        if first.this not in (T.ARRAY, T.MAP, T.STRUCT) or all(t == first for t in known):
            return with_nullable(first, nullable)
    if all(is_string(t) for t in known):
        lengths = [length_of(t) for t in known]
        same_char = all(t.this == T.CHAR for t in known) and len(set(lengths)) == 1
        if same_char:
            return build(T.CHAR, lengths[0], nullable=nullable)
        return build(T.VARCHAR, max(lengths), nullable=nullable)
    if all(is_numeric(t) for t in known):
        if any(t.this == T.DOUBLE for t in known) or any(t.this == T.FLOAT for t in known):
            kind = T.DOUBLE if any(t.this == T.DOUBLE for t in known) else T.FLOAT
            return build(kind, nullable=nullable)
        if all(is_integer(t) for t in known):
            widest = max(known, key=lambda t: _INTEGER_ORDER.index(t.this))
            return build(widest.this, nullable=nullable)
        pairs = [precision_scale(t) for t in known]
        scale = max(s for _, s in pairs)
        integral = max(p - s for p, s in pairs)
        return decimal_of(integral + scale, scale, nullable)
    if all(t.this in (T.TIMESTAMP, T.TIMESTAMPLTZ, T.DATE) for t in known):
        kind = T.TIMESTAMPLTZ if any(t.this == T.TIMESTAMPLTZ for t in known) else T.TIMESTAMP
        precision = max(_fraction_precision(t, 0 if t.this == T.DATE else 6) for t in known)
        return build(kind, precision, nullable=nullable)
    return with_nullable(first, nullable)


# the source types each target type takes without a CAST (Flink 1.20's implicit casts, as an
# INSERT applies them to its sink's columns); a type always takes itself
_FLOATS_FROM = {T.TINYINT, T.SMALLINT, T.INT, T.BIGINT, T.DECIMAL, T.FLOAT}
_IMPLICIT_SOURCES = {
    T.CHAR: {T.CHAR},
    T.VARCHAR: {T.CHAR, T.VARCHAR},
    T.BINARY: {T.BINARY},
    T.VARBINARY: {T.BINARY, T.VARBINARY},
    T.TINYINT: {T.TINYINT},
    T.SMALLINT: {T.TINYINT, T.SMALLINT},
    T.INT: {T.TINYINT, T.SMALLINT, T.INT},
    T.BIGINT: {T.TINYINT, T.SMALLINT, T.INT, T.BIGINT},
    T.FLOAT: _FLOATS_FROM,
    T.DOUBLE: _FLOATS_FROM | {T.DOUBLE},
    T.DECIMAL: _FLOATS_FROM | {T.DOUBLE},
    T.DATE: {T.DATE, T.TIMESTAMP},
    T.TIME: {T.TIME, T.TIMESTAMP},
    T.TIMESTAMP: {T.TIMESTAMP, T.TIMESTAMPLTZ},
    T.TIMESTAMPLTZ: {T.TIMESTAMP, T.TIMESTAMPLTZ},
}
_CONSTRUCTED = {T.ARRAY, T.MAP, T.STRUCT}


def _children(dtype: exp.DataType) -> List[exp.DataType]:
    if dtype.this == T.STRUCT:
        return [field.args["kind"] for field in dtype.expressions]
    return [child for child in dtype.expressions if isinstance(child, exp.DataType)]


def supports_implicit_cast(source: exp.DataType, target: exp.DataType) -> bool:
    """Whether Flink writes a value of ``source`` into a column of ``target`` without an
    explicit ``CAST`` (an ``INSERT`` refuses the query otherwise).

    Nullability plays no part (a ``NOT NULL`` sink column is enforced per row). Numbers only
    widen, except that every number goes into a ``DECIMAL`` and ``DOUBLE``; character strings
    go into ``VARCHAR``, binary strings into ``VARBINARY``; a ``TIMESTAMP`` goes into a
    ``DATE``, a ``TIME`` and a ``TIMESTAMP_LTZ`` (and back); an ``ARRAY``, ``MAP`` or
    ``ROW`` goes into one of the same kind whose element types take its own (field names
    aside). Nothing else crosses kinds.
    """
    if source.this == T.NULL:
        return True
    if source.this in _CONSTRUCTED or target.this in _CONSTRUCTED:
        if source.this != target.this or source.args.get("kind") != target.args.get("kind"):
            return False
        inner, outer = _children(source), _children(target)
        return len(inner) == len(outer) and all(
            supports_implicit_cast(s, t) for s, t in zip(inner, outer))
    if source.this == target.this:
        return True
    return source.this in _IMPLICIT_SOURCES.get(target.this, ())


def from_sqlglot(dtype: exp.DataType) -> exp.DataType:
    """A type parsed by sqlglot (in any dialect) as the Flink type it names, its parameters
    made explicit (``STRING``/``TEXT`` is ``VARCHAR(2147483647)``, ``TIMESTAMP`` is
    ``TIMESTAMP(6)``, ``DECIMAL`` is ``DECIMAL(10, 0)``)."""
    kind = dtype.this
    nullable = is_nullable(dtype)
    params = _params(dtype)
    if kind in (T.TEXT, T.NVARCHAR):
        return build(T.VARCHAR, MAX_LENGTH, nullable=nullable)
    if kind == T.DECIMAL:
        return build(T.DECIMAL, params[0] if params else 10, params[1] if len(params) > 1 else 0,
                     nullable=nullable)
    if kind in (T.CHAR, T.NCHAR, T.VARCHAR, T.BINARY, T.VARBINARY):
        target = {T.NCHAR: T.CHAR}.get(kind, kind)
        return build(target, params[0] if params else 1, nullable=nullable)
    if kind in (T.TIMESTAMP, T.DATETIME, T.TIMESTAMPNTZ, T.TIMESTAMPLTZ, T.TIMESTAMPTZ):
        target = T.TIMESTAMP if kind in (T.DATETIME, T.TIMESTAMPNTZ) else kind
        return build(target, params[0] if params else 6, nullable=nullable)
    if kind == T.TIME:
        return build(T.TIME, params[0] if params else 0, nullable=nullable)
    if kind in (T.ARRAY, T.MAP):
        result = _nested(kind, [from_sqlglot(inner) for inner in dtype.expressions])
        return with_nullable(result, nullable)
    if kind == T.STRUCT:
        fields = [(field.name, from_sqlglot(field.args["kind"])) for field in dtype.expressions
                  if isinstance(field, exp.ColumnDef)]
        return with_nullable(row_type(fields), nullable)
    if kind == T.FLOAT and params and params[0] > 24:
        return build(T.DOUBLE, nullable=nullable)
    if kind == T.UNKNOWN:
        return build(T.NULL)
    if kind in (T.BIGDECIMAL,):
        return build(T.DECIMAL, MAX_PRECISION, 18, nullable=nullable)
    return build(kind, nullable=nullable) if not dtype.expressions else dtype.copy()


def spark_sql_type(dtype: exp.DataType) -> exp.DataType:
    """The Spark SQL type (as a sqlglot type to generate with the Spark dialect) holding the
    values of the Flink type ``dtype``; see :func:`to_spark`."""
    kind = dtype.this
    if kind in _STRINGS:
        return exp.DataType(this=T.TEXT)
    if kind in _BINARIES:
        return exp.DataType(this=T.BINARY)
    if kind in (T.TIMESTAMP, T.DATETIME, T.TIMESTAMPNTZ):
        return exp.DataType(this=T.TIMESTAMPNTZ)
    if kind in (T.TIMESTAMPLTZ, T.TIMESTAMPTZ):
        return exp.DataType(this=T.TIMESTAMP)
    if kind == T.DECIMAL:
        precision, scale = precision_scale(dtype)
        return build(T.DECIMAL, precision, scale)
    if kind in (T.ARRAY, T.MAP):
        return _nested(kind, [spark_sql_type(inner) for inner in dtype.expressions])
    if kind == T.STRUCT:
        return exp.DataType(this=T.STRUCT, nested=True, expressions=[
            exp.ColumnDef(this=field.this.copy(), kind=spark_sql_type(field.args["kind"]))
            for field in dtype.expressions])
    return exp.DataType(this=kind)
