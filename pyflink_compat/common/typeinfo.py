"""PyFlink's ``pyflink.common.typeinfo``: the types of a stream's records.

A type given as ``output_type`` (or to ``from_collection``) decides how the records read back
and print, as in PyFlink; without one, records travel as pickled Python objects. No type has a
JVM counterpart here: ``get_java_type_info`` raises.
"""

from enum import Enum
from typing import Any, List, Optional

__all__ = ['TypeInformation', 'Types']


class TypeInformation(object):
    """The type of a stream's records (base class)."""

    def __init__(self) -> None:
        self._j_typeinfo = None

    def get_java_type_info(self) -> Any:
        """Not supported: types have no JVM counterpart on Spark."""
        from pyflink_compat.missing import not_supported

        raise not_supported("TypeInformation.get_java_type_info")

    def need_conversion(self) -> bool:
        """Whether values of this type are converted between Python and the runtime."""
        return False

    def to_internal_type(self, obj: Any) -> Any:
        """The value as the runtime holds it (values travel as Python objects here)."""
        return obj

    def from_internal_type(self, obj: Any) -> Any:
        """The value as Python code sees it."""
        return obj


class BasicType(Enum):
    STRING = "String"
    BYTE = "Byte"
    BOOLEAN = "Boolean"
    SHORT = "Short"
    INT = "Integer"
    LONG = "Long"
    FLOAT = "Float"
    DOUBLE = "Double"
    CHAR = "Char"
    BIG_INT = "BigInteger"
    BIG_DEC = "BigDecimal"
    INSTANT = "Instant"


class BasicTypeInfo(TypeInformation):
    """A basic type: strings, numbers, booleans, characters, instants."""

    def __init__(self, basic_type: BasicType):
        self._basic_type = basic_type
        super(BasicTypeInfo, self).__init__()

    def __eq__(self, o: Any) -> bool:
        return isinstance(o, BasicTypeInfo) and self._basic_type == o._basic_type

    def __hash__(self) -> int:
        return hash(self._basic_type)

    def __repr__(self) -> str:
        return self._basic_type.value

    @staticmethod
    def STRING_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.STRING)

    @staticmethod
    def BOOLEAN_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.BOOLEAN)

    @staticmethod
    def BYTE_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.BYTE)

    @staticmethod
    def SHORT_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.SHORT)

    @staticmethod
    def INT_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.INT)

    @staticmethod
    def LONG_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.LONG)

    @staticmethod
    def FLOAT_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.FLOAT)

    @staticmethod
    def DOUBLE_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.DOUBLE)

    @staticmethod
    def CHAR_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.CHAR)

    @staticmethod
    def BIG_INT_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.BIG_INT)

    @staticmethod
    def BIG_DEC_TYPE_INFO() -> 'BasicTypeInfo':
        return BasicTypeInfo(BasicType.BIG_DEC)

    @staticmethod
    def INSTANT_TYPE_INFO() -> 'InstantTypeInfo':
        return InstantTypeInfo(BasicType.INSTANT)


class InstantTypeInfo(BasicTypeInfo):
    """The type of :class:`~pyflink_compat.common.time.Instant` values."""

    def __init__(self, basic_type: BasicType):
        super(InstantTypeInfo, self).__init__(basic_type)


class SqlTimeTypeInfo(TypeInformation):
    """Factories of the SQL date, time and timestamp types."""

    @staticmethod
    def DATE() -> 'DateTypeInfo':
        return DateTypeInfo()

    @staticmethod
    def TIME() -> 'TimeTypeInfo':
        return TimeTypeInfo()

    @staticmethod
    def TIMESTAMP() -> 'TimestampTypeInfo':
        return TimestampTypeInfo()


class _ElementTypeInfo(TypeInformation):
    _label = ""

    def __init__(self, element_type: TypeInformation):
        self._element_type = element_type
        super(_ElementTypeInfo, self).__init__()

    def __eq__(self, o: Any) -> bool:
        return type(o) is type(self) and self._element_type == o._element_type

    def __hash__(self) -> int:
        return hash((type(self).__name__, repr(self._element_type)))

    def __repr__(self) -> str:
        return "%s<%s>" % (self._label, self._element_type)


class PrimitiveArrayTypeInfo(_ElementTypeInfo):
    """Arrays of a primitive type."""
    _label = "PrimitiveArrayTypeInfo"


class BasicArrayTypeInfo(_ElementTypeInfo):
    """Arrays of a basic type."""
    _label = "BasicArrayTypeInfo"


class ObjectArrayTypeInfo(_ElementTypeInfo):
    """Arrays of any type."""
    _label = "ObjectArrayTypeInfo"


class PickledBytesTypeInfo(TypeInformation):
    """Python objects, pickled: the type of records without a declared type."""

    def __eq__(self, o: object) -> bool:
        return isinstance(o, PickledBytesTypeInfo)

    def __hash__(self) -> int:
        return hash("PickledByteArrayTypeInfo")

    def __repr__(self) -> str:
        return "PickledByteArrayTypeInfo"


class RowTypeInfo(TypeInformation):
    """Rows of the given field types; fields are named ``f0``, ``f1``... unless names are given."""

    def __init__(self, field_types: List[TypeInformation], field_names: Optional[List[str]] = None):
        self._field_types = field_types
        self._field_names = field_names
        super(RowTypeInfo, self).__init__()

    def get_field_names(self) -> List[str]:
        if not self._field_names:
            self._field_names = ["f%d" % i for i in range(len(self._field_types))]
        return self._field_names

    def get_field_index(self, field_name: str) -> int:
        if self._field_names:
            return self._field_names.index(field_name)
        return -1

    def get_field_types(self) -> List[TypeInformation]:
        return self._field_types

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, RowTypeInfo) and self._field_types == other._field_types

    def __hash__(self) -> int:
        return hash(repr(self._field_types))

    def __repr__(self) -> str:
        if self._field_names:
            return "RowTypeInfo(%s)" % ', '.join(
                name + ': ' + str(kind) for name, kind in zip(self.get_field_names(), self._field_types))
        return "RowTypeInfo(%s)" % ', '.join(str(kind) for kind in self._field_types)

    def need_conversion(self) -> bool:
        return True


class TupleTypeInfo(TypeInformation):
    """Tuples of the given field types."""

    def __init__(self, field_types: List[TypeInformation]):
        self._field_types = field_types
        super(TupleTypeInfo, self).__init__()

    def get_field_types(self) -> List[TypeInformation]:
        return self._field_types

    def need_conversion(self) -> bool:
        return True

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, TupleTypeInfo) and self._field_types == other._field_types

    def __hash__(self) -> int:
        return hash(repr(self._field_types))

    def __repr__(self) -> str:
        return "TupleTypeInfo(%s)" % ', '.join(str(kind) for kind in self._field_types)


class _NamedTypeInfo(TypeInformation):
    _label = ""

    def __eq__(self, o: object) -> bool:
        return type(o) is type(self)

    def __hash__(self) -> int:
        return hash(self._label)

    def __repr__(self) -> str:
        return self._label


class DateTypeInfo(_NamedTypeInfo):
    """``datetime.date`` values."""
    _label = "DateTypeInfo"
    EPOCH_ORDINAL = 719163


class TimeTypeInfo(_NamedTypeInfo):
    """``datetime.time`` values."""
    _label = "TimeTypeInfo"


class TimestampTypeInfo(_NamedTypeInfo):
    """``datetime.datetime`` values."""
    _label = "TimestampTypeInfo"


class ListTypeInfo(TypeInformation):
    """Lists of one element type."""

    def __init__(self, element_type: TypeInformation):
        self.elem_type = element_type
        super(ListTypeInfo, self).__init__()

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ListTypeInfo) and self.elem_type == other.elem_type

    def __hash__(self) -> int:
        return hash(("list", repr(self.elem_type)))

    def __repr__(self) -> str:
        return "ListTypeInfo<%s>" % self.elem_type


class MapTypeInfo(TypeInformation):
    """Dicts of one key type and one value type."""

    def __init__(self, key_type_info: TypeInformation, value_type_info: TypeInformation):
        self._key_type_info = key_type_info
        self._value_type_info = value_type_info
        super(MapTypeInfo, self).__init__()

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, MapTypeInfo) and (self._key_type_info, self._value_type_info) == \
            (other._key_type_info, other._value_type_info)

    def __hash__(self) -> int:
        return hash(("map", repr(self._key_type_info), repr(self._value_type_info)))

    def __repr__(self) -> str:
        return 'MapTypeInfo<{}, {}>'.format(self._key_type_info, self._value_type_info)


class LocalTimeTypeInfo(TypeInformation):
    """``datetime`` dates, times and date-times without a time zone."""

    class TimeType(Enum):
        LOCAL_DATE = 0
        LOCAL_TIME = 1
        LOCAL_DATE_TIME = 2

    def __init__(self, time_type: 'LocalTimeTypeInfo.TimeType'):
        self._time_type = time_type
        super(LocalTimeTypeInfo, self).__init__()

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, LocalTimeTypeInfo) and self._time_type == other._time_type

    def __hash__(self) -> int:
        return hash(self._time_type)

    def __repr__(self) -> str:
        return 'LocalTimeTypeInfo<{}>'.format(self._time_type.name)


class ExternalTypeInfo(TypeInformation):
    """A type as the Table API hands it to a DataStream."""

    def __init__(self, type_info: TypeInformation):
        self._type_info = type_info
        super(ExternalTypeInfo, self).__init__()

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ExternalTypeInfo) and self._type_info == other._type_info

    def __hash__(self) -> int:
        return hash(("external", repr(self._type_info)))

    def __repr__(self) -> str:
        return 'ExternalTypeInfo<{}>'.format(self._type_info)


class Types(object):
    """Factories of every :class:`TypeInformation`."""

    @staticmethod
    def STRING() -> TypeInformation:
        return BasicTypeInfo.STRING_TYPE_INFO()

    @staticmethod
    def BYTE() -> TypeInformation:
        return BasicTypeInfo.BYTE_TYPE_INFO()

    @staticmethod
    def BOOLEAN() -> TypeInformation:
        return BasicTypeInfo.BOOLEAN_TYPE_INFO()

    @staticmethod
    def SHORT() -> TypeInformation:
        return BasicTypeInfo.SHORT_TYPE_INFO()

    @staticmethod
    def INT() -> TypeInformation:
        return BasicTypeInfo.INT_TYPE_INFO()

    @staticmethod
    def LONG() -> TypeInformation:
        return BasicTypeInfo.LONG_TYPE_INFO()

    @staticmethod
    def FLOAT() -> TypeInformation:
        return BasicTypeInfo.FLOAT_TYPE_INFO()

    @staticmethod
    def DOUBLE() -> TypeInformation:
        return BasicTypeInfo.DOUBLE_TYPE_INFO()

    @staticmethod
    def CHAR() -> TypeInformation:
        return BasicTypeInfo.CHAR_TYPE_INFO()

    @staticmethod
    def BIG_INT() -> TypeInformation:
        return BasicTypeInfo.BIG_INT_TYPE_INFO()

    @staticmethod
    def BIG_DEC() -> TypeInformation:
        return BasicTypeInfo.BIG_DEC_TYPE_INFO()

    @staticmethod
    def INSTANT() -> TypeInformation:
        return BasicTypeInfo.INSTANT_TYPE_INFO()

    @staticmethod
    def SQL_DATE() -> TypeInformation:
        return SqlTimeTypeInfo.DATE()

    @staticmethod
    def SQL_TIME() -> TypeInformation:
        return SqlTimeTypeInfo.TIME()

    @staticmethod
    def SQL_TIMESTAMP() -> TypeInformation:
        return SqlTimeTypeInfo.TIMESTAMP()

    @staticmethod
    def PICKLED_BYTE_ARRAY() -> TypeInformation:
        return PickledBytesTypeInfo()

    @staticmethod
    def ROW(field_types: List[TypeInformation]) -> RowTypeInfo:
        return RowTypeInfo(field_types)

    @staticmethod
    def ROW_NAMED(field_names: List[str], field_types: List[TypeInformation]) -> RowTypeInfo:
        return RowTypeInfo(field_types, field_names)

    @staticmethod
    def TUPLE(field_types: List[TypeInformation]) -> TupleTypeInfo:
        return TupleTypeInfo(field_types)

    @staticmethod
    def PRIMITIVE_ARRAY(element_type: TypeInformation) -> TypeInformation:
        return PrimitiveArrayTypeInfo(element_type)

    @staticmethod
    def BASIC_ARRAY(element_type: TypeInformation) -> TypeInformation:
        return BasicArrayTypeInfo(element_type)

    @staticmethod
    def OBJECT_ARRAY(element_type: TypeInformation) -> TypeInformation:
        return ObjectArrayTypeInfo(element_type)

    @staticmethod
    def MAP(key_type_info: TypeInformation, value_type_info: TypeInformation) -> TypeInformation:
        return MapTypeInfo(key_type_info, value_type_info)

    @staticmethod
    def LIST(element_type_info: TypeInformation) -> TypeInformation:
        return ListTypeInfo(element_type_info)

    @staticmethod
    def LOCAL_DATE() -> TypeInformation:
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE)

    @staticmethod
    def LOCAL_TIME() -> TypeInformation:
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_TIME)

    @staticmethod
    def LOCAL_DATE_TIME() -> TypeInformation:
        return LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE_TIME)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
