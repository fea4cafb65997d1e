"""``DataTypes`` builds PyFlink's types, and each maps onto one Flink SQL type and Spark type.

Every expected ``repr``, ``str`` and type text was printed by PyFlink 1.20.5 (the text by
Flink's ``DataType#toString`` of the same ``DataTypes`` call).
"""

import pytest

from pyflink_compat.sql.data_types import parse_data_type, to_spark_type, type_text
from pyflink_compat.table import DataTypes
from pyflink_compat.table.types import (DayTimeIntervalType, RowField, RowType,
                                        YearMonthIntervalType)

D = DataTypes

# (type, repr, str, Flink's text)
RECORDED = [
    (D.NULL(), "NullType(true)", "NULL", "NULL"),
    (D.CHAR(3), "CharType(3, true)", "CHAR", "CHAR(3)"),
    (D.VARCHAR(10), "VarCharType(10, true)", "VARCHAR", "VARCHAR(10)"),
    (D.STRING(), "VarCharType(2147483647, true)", "VARCHAR", "STRING"),
    (D.STRING(False), "VarCharType(2147483647, false)", "VARCHAR", "STRING NOT NULL"),
    (D.BOOLEAN(), "BooleanType(true)", "BOOLEAN", "BOOLEAN"),
    (D.BINARY(2), "BinaryType(2, true)", "BINARY", "BINARY(2)"),
    (D.VARBINARY(5), "VarBinaryType(5, true)", "VARBINARY", "VARBINARY(5)"),
    (D.BYTES(), "VarBinaryType(2147483647, true)", "VARBINARY", "BYTES"),
    (D.DECIMAL(10, 2), "DecimalType(10, 2, true)", "DECIMAL", "DECIMAL(10, 2)"),
    (D.TINYINT(), "TinyIntType(true)", "TINYINT", "TINYINT"),
    (D.SMALLINT(), "SmallIntType(true)", "SMALLINT", "SMALLINT"),
    (D.INT(), "IntType(true)", "INT", "INT"),
    (D.INT().not_null(), "IntType(false)", "INT", "INT NOT NULL"),
    (D.BIGINT(), "BigIntType(true)", "BIGINT", "BIGINT"),
    (D.FLOAT(), "FloatType(true)", "FLOAT", "FLOAT"),
    (D.DOUBLE(), "DoubleType(true)", "DOUBLE", "DOUBLE"),
    (D.DATE(), "DateType(true)", "DATE", "DATE"),
    (D.TIME(), "TimeType(0, true)", "TIME", "TIME(0)"),
    (D.TIMESTAMP(), "TimestampType(6, true)", "TIMESTAMP", "TIMESTAMP(6)"),
    (D.TIMESTAMP(3), "TimestampType(3, true)", "TIMESTAMP", "TIMESTAMP(3)"),
    (D.TIMESTAMP_LTZ(3), "LocalZonedTimestampType(3, true)", "LOCALZONEDTIMESTAMP",
     "TIMESTAMP_LTZ(3)"),
    (D.TIMESTAMP_WITH_LOCAL_TIME_ZONE(), "LocalZonedTimestampType(6, true)", "LOCALZONEDTIMESTAMP",
     "TIMESTAMP_LTZ(6)"),
    (D.ARRAY(D.INT()), "ArrayType(IntType(true), true)", "ARRAY", "ARRAY<INT>"),
    (D.ARRAY(D.INT(False), False), "ArrayType(IntType(false), false)", "ARRAY",
     "ARRAY<INT NOT NULL> NOT NULL"),
    (D.MAP(D.STRING(), D.INT()), "MapType(VarCharType(2147483647, true), IntType(true), true)", "MAP",
     "MAP<STRING, INT>"),
    (D.MULTISET(D.STRING()), "MultisetType(VarCharType(2147483647, true), true)", "MULTISET",
     "MULTISET<STRING>"),
    (D.ROW([D.FIELD("a", D.INT()), D.FIELD("b", D.STRING(), "desc")]),
     "RowType(RowField(a, IntType(true), ...),RowField(b, VarCharType(2147483647, true), desc))",
     "ROW", "ROW<`a` INT, `b` STRING>"),
    (D.INTERVAL(D.DAY()), "DayTimeIntervalType(true)", "DAYTIMEINTERVAL", "INTERVAL DAY(2)"),
    (D.INTERVAL(D.SECOND(3)), "DayTimeIntervalType(true)", "DAYTIMEINTERVAL", "INTERVAL SECOND(3)"),
    (D.INTERVAL(D.DAY(), D.SECOND(3)), "DayTimeIntervalType(true)", "DAYTIMEINTERVAL",
     "INTERVAL DAY(2) TO SECOND(3)"),
    (D.INTERVAL(D.HOUR(), D.MINUTE()), "DayTimeIntervalType(true)", "DAYTIMEINTERVAL",
     "INTERVAL HOUR TO MINUTE"),
    (D.INTERVAL(D.MINUTE(), D.SECOND()), "DayTimeIntervalType(true)", "DAYTIMEINTERVAL",
     "INTERVAL MINUTE TO SECOND(6)"),
    (D.INTERVAL(D.YEAR(), D.MONTH()), "YearMonthIntervalType(true)", "YEARMONTHINTERVAL",
     "INTERVAL YEAR(2) TO MONTH"),
    (D.INTERVAL(D.MONTH()), "YearMonthIntervalType(true)", "YEARMONTHINTERVAL", "INTERVAL MONTH"),
    (D.INTERVAL(D.YEAR(4)), "YearMonthIntervalType(true)", "YEARMONTHINTERVAL", "INTERVAL YEAR(4)"),
]


@pytest.mark.parametrize("data_type, shown, name, text", RECORDED,
                         ids=[r[3] for r in RECORDED])
def test_each_data_type_shows_and_prints_as_pyflinks(data_type, shown, name, text):
    assert repr(data_type) == shown
    assert str(data_type) == name
    assert type_text(data_type) == text


@pytest.mark.parametrize("data_type", [r[0] for r in RECORDED if "INTERVAL" not in r[3]
                                       and "desc" not in r[1]], ids=[r[3] for r in RECORDED
                                                                      if "INTERVAL" not in r[3]
                                                                      and "desc" not in r[1]])
def test_the_type_text_reads_back_as_the_same_data_type(data_type):
    assert parse_data_type(type_text(data_type)) == data_type


def test_intervals_read_back_with_their_resolution_and_precisions():
    day_second = parse_data_type("INTERVAL DAY(3) TO SECOND(2)")
    assert isinstance(day_second, DayTimeIntervalType)
    assert (day_second.resolution, day_second.day_precision, day_second.fractional_precision) == \
        (DayTimeIntervalType.DayTimeResolution.DAY_TO_SECOND, 3, 2)
    year_month = parse_data_type("INTERVAL YEAR(4) TO MONTH")
    assert isinstance(year_month, YearMonthIntervalType) and year_month.precision == 4


def test_nullability_is_a_copy_and_part_of_equality_but_not_of_the_hash():
    nullable = D.DECIMAL(10, 2)
    not_null = nullable.not_null()
    assert repr(nullable) == "DecimalType(10, 2, true)" and repr(not_null) == "DecimalType(10, 2, false)"
    assert nullable != not_null and not_null.nullable() == nullable
    assert hash(nullable) == hash(not_null)


def test_a_row_type_gives_its_fields_by_name_index_and_slice():
    row = D.ROW([D.FIELD("a", D.INT()), D.FIELD("b", D.STRING())])
    assert row.field_names() == ["a", "b"]
    assert row.field_types() == [D.INT(), D.STRING()]
    assert str(row["a"]) == "RowField(a, INT)" and row[1].name == "b" and len(row) == 2
    assert repr(row[0:1]) == "RowType(RowField(a, IntType(true), ...))"
    assert row.add("c", D.BIGINT()).field_names() == ["a", "b", "c"]
    assert isinstance(row[2], RowField) and isinstance(row, RowType)
    with pytest.raises(KeyError, match="No RowField named zz"):
        row["zz"]
    with pytest.raises(IndexError, match="RowType index out of range"):
        row[5]
    with pytest.raises(ValueError, match="Must specify DataType"):
        row.add("x")


def test_wrong_parameters_fail_as_in_pyflink():
    with pytest.raises(AssertionError):
        D.DECIMAL(40, 1)
    with pytest.raises(AssertionError):
        D.TIMESTAMP(10)
    with pytest.raises(KeyError):
        D.INTERVAL(D.YEAR(), D.DAY())


def test_a_row_value_comes_back_as_a_row_with_the_field_names():
    row = D.ROW([D.FIELD("a", D.INT()), D.FIELD("d", D.DATE())]).from_sql_type((1, 18262))
    assert row.as_dict() == {"a": 1, "d": __import__("datetime").date(2020, 1, 1)}


def test_each_data_type_has_the_spark_type_holding_its_values():
    from pyspark.sql import types as st

    row = D.ROW([D.FIELD("id", D.BIGINT(False)), D.FIELD("tags", D.ARRAY(D.STRING())),
                 D.FIELD("price", D.DECIMAL(10, 2)), D.FIELD("ts", D.TIMESTAMP(3)),
                 D.FIELD("at", D.TIMESTAMP_LTZ(3)), D.FIELD("m", D.MAP(D.STRING(), D.DOUBLE()))])
    assert to_spark_type(row) == st.StructType([
        st.StructField("id", st.LongType(), False),
        st.StructField("tags", st.ArrayType(st.StringType(), True), True),
        st.StructField("price", st.DecimalType(10, 2), True),
        st.StructField("ts", st.TimestampNTZType(), True),
        st.StructField("at", st.TimestampType(), True),
        st.StructField("m", st.MapType(st.StringType(), st.DoubleType(), True), True)])


def test_view_types_have_no_column_type():
    from pyflink_compat.missing import NotSupportedError

    with pytest.raises(NotSupportedError):
        type_text(D.LIST_VIEW(D.INT()))
