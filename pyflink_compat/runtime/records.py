"""Records as the Spark plan holds them, and as a job sees and prints them.

Every record is a pickled Python object in a binary column, as PyFlink's records without a
declared type are. A declared type decides how records read back (:func:`conform`: rows for
``Types.ROW``, tuples for ``Types.TUPLE``) and how ``print()`` writes them
(:func:`print_text`): ``str(value)`` for pickled objects, ``+I[...]`` for rows, and the JVM's
text of the value for the other types (``(a,1)`` for tuples, ``true``, ``1.0E7``).
"""

from __future__ import annotations

import decimal
import math
import pickle
import struct
from typing import Any, List, Optional

__all__ = ["dumps", "loads", "conform", "print_text", "collected", "java_text", "LONG_MIN",
           "END_SEQ", "END_KEY", "END_TIMESTAMP", "LONG_MAX", "SIDE_PREFIX", "is_plain", "side_key",
           "is_side", "is_tagged", "arrow_schema"]

#: The timestamp a record without one reports to a timestamp assigner.
LONG_MIN = -9223372036854775808
#: First element of the order of records emitted by timers (after every input record).
END_SEQ = 1 << 62
#: The key of the records that mark the end of a bounded input.
END_KEY = b""
#: The timestamp of those records (Spark's greatest timestamp, 9999-12-31).
END_TIMESTAMP = 253402300799000
#: Java's greatest long.
LONG_MAX = 9223372036854775807


#: The start of the key column of a side output's records (pickled keys never start so).
SIDE_PREFIX = b"\x01side:"


def arrow_schema() -> Any:
    """The Arrow schema of a batch of records in a Python worker: pickled value ``v``, timestamp
    ``ts``, order ``seq`` and pickled key ``k`` (imports pyarrow: call it in workers only)."""
    import pyarrow as pa  # type: ignore[import-untyped]

    return pa.schema([("v", pa.binary()), ("ts", pa.int64()), ("seq", pa.list_(pa.int64())),
                      ("k", pa.binary())])


def side_key(tag_id: str) -> bytes:
    """The key column of the records of the side output named ``tag_id``."""
    return SIDE_PREFIX + tag_id.encode("utf-8")


def is_side(k: Any) -> bool:
    """Whether a record's key column marks it as a side output's record."""
    return k is not None and bytes(k[:len(SIDE_PREFIX)]) == SIDE_PREFIX


def is_tagged(value: Any) -> bool:
    """Whether a value a function yielded is ``(OutputTag, value)``: for a side output."""
    if not (isinstance(value, tuple) and len(value) == 2):
        return False
    from pyflink_compat.datastream.output_tag import OutputTag

    return isinstance(value[0], OutputTag)


#: Types whose exact instances pickle to the same bytes with or without cloudpickle.
_PLAIN = frozenset((str, int, float, bool, bytes, type(None)))


def send_job_modules_by_value() -> None:
    """Pickle the modules beside the job's script by value, as cloudpickle does the script's
    own classes: Python puts the script's directory on the driver's path only, so Spark's
    Python workers could not import them (call it on the driver, before pickling the job)."""
    import os
    import sys
    import sysconfig

    from pyspark import cloudpickle

    main_file = getattr(sys.modules.get("__main__"), "__file__", None)
    if not main_file:
        return
    job_dir = os.path.join(os.path.dirname(os.path.abspath(main_file)), "")
    installed = tuple(os.path.join(os.path.abspath(p), "") for p in sysconfig.get_paths().values())
    if job_dir.startswith(installed):
        return
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if name == "__main__" or not path or name.split(".")[0] in ("pyflink_compat", "pyspark"):
            continue
        path = os.path.abspath(path)
        if path.startswith(job_dir) and not path.startswith(installed) \
                and "site-packages" not in path and "dist-packages" not in path:
            cloudpickle.register_pickle_by_value(module)


def is_plain(value: Any) -> bool:
    """Whether ``value`` is a string, number, bytes, None, or a tuple of them: it cannot change,
    and pickles alike with or without cloudpickle."""
    kind = type(value)
    return kind in _PLAIN or (kind is tuple and all(type(item) in _PLAIN for item in value))


def dumps(value: Any) -> bytes:
    """The record as bytes; classes defined in the job's main module travel by value."""
    if is_plain(value):
        # cloudpickle only changes how classes and functions pickle: a per-record shortcut
        return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    from pyspark import cloudpickle

    return bytes(cloudpickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def loads(data: bytes) -> Any:
    """The record of :func:`dumps`'s bytes."""
    return pickle.loads(data)


def key_bytes(key: Any) -> bytes:
    """The bytes records of one key share (equal keys of the usual types pickle alike)."""
    return pickle.dumps(key, protocol=4)


def _float32(value: Any) -> Any:
    # A FLOAT travels as the JVM's 32-bit float: Python reads back the nearest one.
    if isinstance(value, float):
        return struct.unpack("f", struct.pack("f", value))[0]
    return value


def _fields(values: List[Any], kinds: List[Any]) -> List[Any]:
    return [conform(v, k) if i < len(kinds) else v for i, (v, k) in
            enumerate(zip(values, kinds + [None] * (len(values) - len(kinds))))]


def conform(value: Any, type_info: Any) -> Any:
    """``value`` as the next function (or a state's reader) reads it when its type is
    ``type_info``: rows for row types, tuples for tuple types, 32-bit floats for ``FLOAT``."""
    if value is None or type_info is None:
        return value
    from pyflink_compat.common.typeinfo import (
        BasicType, BasicTypeInfo, ExternalTypeInfo, RowTypeInfo, TupleTypeInfo)
    from pyflink_compat.common.types import Row

    if isinstance(type_info, ExternalTypeInfo):  # a table's rows: read as the inner type
        type_info = type_info._type_info
    if isinstance(type_info, BasicTypeInfo):
        return _float32(value) if type_info._basic_type is BasicType.FLOAT else value
    if isinstance(type_info, RowTypeInfo):
        names = type_info._field_names
        if isinstance(value, Row):
            values = list(value) if not (names and hasattr(value, "_fields")) \
                else [value[n] for n in names]
            row = Row(*values)
            row.set_row_kind(value.get_row_kind())
        elif isinstance(value, dict):
            row = Row(*[value.get(n) for n in type_info.get_field_names()])
        elif isinstance(value, (tuple, list)):
            row = Row(*value)
        else:
            raise ValueError("Unexpected tuple %r with RowTypeInfo" % (value,))
        kinds = list(type_info.get_field_types())
        if any(isinstance(k, (BasicTypeInfo, RowTypeInfo, TupleTypeInfo)) for k in kinds):
            row._values = _fields(list(row._values), kinds)
        if names:
            row.set_field_names(list(names))
        return row
    if isinstance(type_info, TupleTypeInfo):
        if isinstance(value, (tuple, list)):
            return tuple(_fields(list(value), list(type_info.get_field_types())))
        raise ValueError("Unexpected tuple %r with TupleTypeInfo" % (value,))
    return value


def collected(value: Any, type_info: Any) -> Any:
    """``value`` as ``execute_and_collect`` gives it: rows name their fields (``f0``...)."""
    from pyflink_compat.common.typeinfo import RowTypeInfo
    from pyflink_compat.common.types import Row

    value = conform(value, type_info)
    if isinstance(type_info, RowTypeInfo) and isinstance(value, Row):
        value.set_field_names(list(type_info.get_field_names()))
    return value


def _java_double(number: float) -> str:
    # The JVM's Double.toString: plain notation in [1e-3, 1e7), else d.dddE<n>.
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "-0.0" if math.copysign(1.0, number) < 0 else "0.0"
    magnitude = abs(number)
    if 1e-3 <= magnitude < 1e7:
        text = repr(number)
        if "e" in text:
            text = format(decimal.Decimal(text), "f")
        return text if "." in text else text + ".0"
    sign, digits, exponent = decimal.Decimal(repr(number)).as_tuple()
    figures = "".join(str(d) for d in digits).rstrip("0") or "0"
    power = len(digits) + int(exponent) - 1
    mantissa = figures[0] + "." + (figures[1:] or "0")
    return ("-" if sign else "") + mantissa + "E" + str(power)


def java_text(value: Any, type_info: Any = None) -> str:
    """The JVM's text of a value of a declared type (what Flink's print writes)."""
    from pyflink_compat.common.typeinfo import RowTypeInfo, TupleTypeInfo

    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return _java_double(value)
    if isinstance(type_info, RowTypeInfo) and hasattr(value, "get_row_kind"):
        # a row inside a tuple: Java's Row.toString()
        fields: List[Optional[Any]] = list(type_info.get_field_types())
        fields += [None] * (len(value) - len(fields))
        return "{}[{}]".format(value.get_row_kind(), ", ".join(
            java_text(v, k) for v, k in zip(value, fields)))
    if isinstance(type_info, TupleTypeInfo) and isinstance(value, (tuple, list)):
        kinds: List[Optional[Any]] = list(type_info.get_field_types())
        kinds += [None] * (len(value) - len(kinds))
        return "(" + ",".join(java_text(v, k) for v, k in zip(value, kinds)) + ")"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(java_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join("%s=%s" % (java_text(k), java_text(v)) for k, v in value.items()) + "}"
    if type(value).__name__ == "Instant" and hasattr(value, "to_epoch_milli"):
        return _instant_text(value.to_epoch_milli())
    return str(value)


def _instant_text(epoch_milli: int) -> str:
    # Java's Instant.toString(): UTC, seconds always, the milliseconds when there are any
    import datetime

    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=epoch_milli)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return text + (".%03d" % (epoch_milli % 1000) if epoch_milli % 1000 else "") + "Z"


def print_text(value: Any, type_info: Any) -> str:
    """The line ``print()`` writes for ``value`` of a stream of type ``type_info``."""
    from pyflink_compat.common.typeinfo import ExternalTypeInfo, PickledBytesTypeInfo, RowTypeInfo

    if isinstance(type_info, ExternalTypeInfo):
        type_info = type_info._type_info
    if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
        if isinstance(value, bytes):
            return value.decode("utf-8", "replace")
        return value if isinstance(value, str) else str(value)
    if isinstance(type_info, RowTypeInfo):
        row = conform(value, type_info)
        return "{}[{}]".format(row.get_row_kind(), ",".join(str(item) for item in row._values))
    return java_text(conform(value, type_info), type_info)
