"""Records as a DataStream job sees and prints them, without Spark: ``Row`` as PyFlink's, and
the text ``print()`` writes for each type (recorded from live PyFlink 1.20.5)."""

from __future__ import annotations

import pickle

import pytest

from pyflink_compat.common import Row, RowKind, Types
from pyflink_compat.common.time import Instant
from pyflink_compat.datastream.functions import ProcessWindowFunction
from pyflink_compat.datastream.window import TimeWindow
from pyflink_compat.runtime.records import collected, conform, dumps, loads, print_text


def test_a_row_reads_by_position_name_and_attribute_and_prints_as_pyflinks():
    row = Row(name="Alice", age=11)
    assert (row[0], row["age"], row.name) == ("Alice", 11, "Alice")
    assert repr(row) == "Row(name='Alice', age=11)"
    assert repr(Row(1, "a")) == "<Row(1, 'a')>"
    assert row.as_dict() == {"name": "Alice", "age": 11} and "name" in row
    assert Row("name", "age")("Bob", 3) == Row(name="Bob", age=3)
    assert pickle.loads(pickle.dumps(Row.of_kind(RowKind.DELETE, 1))).get_row_kind() is RowKind.DELETE
    with pytest.raises(ValueError, match="Can not use both args and kwargs to create Row"):
        Row(1, a=2)


@pytest.mark.parametrize("value, type_info, text", [
    ((1, "a"), None, "(1, 'a')"),
    (None, None, "None"),
    ([1, None], None, "[1, None]"),
    ("plain", None, "plain"),
    ((1, "a"), Types.TUPLE([Types.INT(), Types.STRING()]), "(1,a)"),
    (Row(1, "x"), Types.ROW([Types.INT(), Types.STRING()]), "+I[1,x]"),
    ((2, "bob", 1e8), Types.ROW([Types.INT(), Types.STRING(), Types.DOUBLE()]), "+I[2,bob,100000000.0]"),
    (1e7, Types.DOUBLE(), "1.0E7"),
    (0.5, Types.DOUBLE(), "0.5"),
    (0.001, Types.DOUBLE(), "0.001"),
    (False, Types.BOOLEAN(), "false"),
    (3, Types.INT(), "3"),
    (Instant.of_epoch_milli(1000), Types.INSTANT(), "1970-01-01T00:00:01Z"),
    (Instant.of_epoch_milli(1500), Types.INSTANT(), "1970-01-01T00:00:01.500Z"),
    # PyFlink hands Flink to_epoch_milli() of the instant, -901 here
    (Instant.of_epoch_milli(-1), Types.INSTANT(), "1969-12-31T23:59:59.099Z"),
])
def test_print_writes_what_pyflink_prints_for_each_type(value, type_info, text):
    assert print_text(value, type_info) == text


def test_typed_records_read_back_as_pyflink_gives_them():
    assert repr(conform((1, "a"), Types.ROW([Types.INT(), Types.STRING()]))) == "<Row(1, 'a')>"
    named = Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()])
    assert repr(conform((1, "x"), named)) == "Row(a=1, b='x')"
    assert conform([1, "a"], Types.TUPLE([Types.INT(), Types.STRING()])) == (1, "a")
    assert repr(collected((1, "x"), Types.ROW([Types.INT(), Types.STRING()]))) == "Row(f0=1, f1='x')"


def test_a_window_function_on_a_subscripted_base_defines_and_instantiates():
    class Count(ProcessWindowFunction[tuple, tuple, str, TimeWindow]):
        def process(self, key, context, elements):
            return [(key, len(list(elements)))]

    assert Count().process("k", None, [1, 2]) == [("k", 2)]


def test_types_read_back_as_pyflinks():
    assert repr(Types.ROW_NAMED(["a"], [Types.INT()])) == "RowTypeInfo(a: Integer)"
    assert repr(Types.TUPLE([Types.STRING(), Types.LONG()])) == "TupleTypeInfo(String, Long)"
    assert Types.INT() == Types.INT() and Types.INT() != Types.LONG()
    assert repr(Types.PICKLED_BYTE_ARRAY()) == "PickledByteArrayTypeInfo"


@pytest.mark.parametrize("value", [
    "word", "", 7, -2 ** 70, 1.5, float("inf"), True, None, b"\x00raw",
    ("w1", 1, 1234.5), ("same", "same"), (), (1, (2, 3)), ["a", 1], {"k": 1}, Row(1, "x"),
])
def test_a_record_pickles_to_the_bytes_cloudpickle_gives_it(value):
    from pyspark import cloudpickle

    assert dumps(value) == bytes(cloudpickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    assert loads(dumps(value)) == value or value != value


def test_an_instance_of_a_class_without_an_importable_home_travels_by_value():
    namespace: dict = {"__name__": "__main__"}
    exec("class Point(tuple):\n    pass\n", namespace)
    point = namespace["Point"]((1, 2))
    data = dumps(point)
    assert b"Point" in data and b"_make_skeleton_class" in data  # the class itself is in the bytes
