"""The SQL battery: Flink SQL expressions whose value and type PyFlink 1.20.5 computes, grouped
by kind.

Each group evaluates its expressions either alone (``SELECT <expr>``) or over the table ``T``
(``SELECT <expr> FROM T``, one value per row, or one per group for aggregates). A case's id is
``<group>:<expr>``. ``T``'s schema and rows are :data:`TABLE_SCHEMA` and :data:`TABLE_ROWS`.
"""

from __future__ import annotations

import datetime
import decimal
from typing import Any, Dict, List, Tuple

#: The columns of ``T`` and their Flink types.
TABLE_SCHEMA: Tuple[Tuple[str, str], ...] = (
    ("i", "INT"), ("j", "INT"), ("b", "BIGINT"), ("d", "DOUBLE"), ("m", "DECIMAL(10, 2)"),
    ("s", "STRING"), ("n", "INT"), ("ts", "TIMESTAMP(3)"), ("dt", "DATE"),
    ("arr", "ARRAY<INT>"), ("mp", "MAP<STRING, INT>"), ("js", "STRING"), ("t", "TINYINT"),
    ("f", "FLOAT"),
)

#: The rows of ``T``.
TABLE_ROWS: Tuple[Tuple[Any, ...], ...] = (
    (1, 2, 10000000000, 1.5, decimal.Decimal("1.25"), "Hello World", None,
     datetime.datetime(2024, 1, 15, 10, 30, 45, 123000), datetime.date(2024, 1, 15), [1, 2, 3],
     {"a": 1}, '{"a": 1, "b": {"c": "x"}, "arr": [1, 2]}', 3, 0.5),
    (-7, 3, -5, -2.5, decimal.Decimal("-3.75"), " padded ", 4,
     datetime.datetime(2023, 12, 31, 23, 59, 59, 999000), datetime.date(2023, 2, 28), [],
     {}, '{"a": 2}', -4, 2.25),
    (10, -4, 0, 0.0, decimal.Decimal("0.00"), "", 7,
     datetime.datetime(2020, 2, 29, 0, 0, 0), datetime.date(2020, 2, 29), [5],
     {"x": 5}, "not json", 127, -1.0),
)

#: How a group is evaluated: "scalar" (``SELECT e``), "rows" (``SELECT e FROM T``) or
#: "aggregate" (``SELECT e FROM T``, one row).
GROUP_SOURCE: Dict[str, str] = {}

_GROUPS: Dict[str, Tuple[str, List[str]]] = {
    "arithmetic": ("scalar", [
        "7 / 2", "-7 / 2", "7 / -2", "1 / 3", "7 % 3", "-7 % 3", "7 % -3", "MOD(7, 3)",
        "MOD(-7, 3)", "7.0 / 2", "7 / 2.0", "7.5 / 2.5", "1.0 / 3", "7e0 / 2", "CAST(7 AS DOUBLE) / 2",
        "CAST(7 AS BIGINT) / 2", "CAST(7 AS TINYINT) / CAST(2 AS TINYINT)", "2 * 3", "2 + 3",
        "2 - 3", "1.5 + 2", "1.5 * 2", "1.25 * 1.5", "0.1 + 0.2", "0.1e0 + 0.2e0",
        "CAST(10 AS DECIMAL(10, 2)) / 3", "CAST(10 AS DECIMAL(10, 2)) * CAST(3 AS DECIMAL(5, 1))",
        "CAST(10 AS DECIMAL(10, 2)) + 1", "CAST(10 AS DECIMAL(10, 2)) % 3", "MOD(7.5, 2)",
        "-(5)", "+5", "2147483647 + 1", "CAST(2147483647 AS BIGINT) + 1", "3000000000",
        "1 / 0.5", "5 / 2 * 2", "(1 + 2) * 3", "2 * 3.5e0", "CAST(1 AS FLOAT) + 1",
        "1 = 1.0", "7.0 % 2",
    ]),
    "columns": ("rows", [
        "i / j", "i % j", "MOD(i, j)", "i / 2", "b / 3", "d / 2", "m / 2", "m * m", "m + i",
        "i * 1.5", "i + b", "t + t", "t * 2", "f * 2", "d + f", "i / d", "-i", "ABS(i)",
        "i + n", "i > n", "n IS NULL", "COALESCE(n, i)", "CAST(i AS STRING)", "CAST(m AS STRING)",
        "CAST(d AS STRING)", "CAST(ts AS STRING)", "CAST(dt AS STRING)", "CAST(i AS DOUBLE) / j",
        "i / CAST(j AS DOUBLE)", "CASE WHEN i > 0 THEN 'pos' ELSE 'neg' END",
        "UPPER(s)", "CHAR_LENGTH(s)", "TRIM(s)", "s || '!'", "CONCAT(s, CAST(n AS STRING))",
        "CARDINALITY(arr)", "arr[1]", "mp['a']", "CARDINALITY(mp)",
        "YEAR(ts)", "MONTH(dt)", "HOUR(ts)", "EXTRACT(DAY FROM ts)", "DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss.SSS')",
        "ts + INTERVAL '1' DAY", "dt + INTERVAL '1' MONTH", "TIMESTAMPDIFF(DAY, ts, TIMESTAMP '2024-03-01 00:00:00')",
        "CAST(ts AS DATE)", "FLOOR(ts TO HOUR)", "CEIL(d)", "FLOOR(m)", "ROUND(m, 1)", "ROUND(d)",
        "JSON_VALUE(js, '$.a')", "JSON_VALUE(js, '$.b.c')", "JSON_EXISTS(js, '$.a')",
        "i BETWEEN 0 AND 5", "i IN (1, 10)", "n IN (4, NULL)", "s LIKE '%o%'",
        "IF(n IS NULL, -1, n)", "NULLIF(i, 1)", "i IS DISTINCT FROM n", "CAST(i AS DECIMAL(5, 1))",
        "SIGN(i)", "POWER(i, 2)", "t", "CAST(t AS INT) * 100", "b * 2",
    ]),
    "aggregate": ("aggregate", [
        "AVG(i)", "AVG(j)", "AVG(b)", "AVG(d)", "AVG(m)", "AVG(t)", "AVG(n)", "AVG(f)", "SUM(i)", "SUM(b)",
        "SUM(d)", "SUM(m)", "SUM(t)", "SUM(n)", "COUNT(*)", "COUNT(n)", "COUNT(DISTINCT i)", "MIN(s)",
        "MAX(ts)", "MIN(m)", "MAX(d)", "AVG(CAST(i AS DOUBLE))", "SUM(i) / COUNT(i)",
        "AVG(i * 1.0)", "STDDEV_POP(d)", "VAR_POP(i)", "MAX(i) - MIN(i)", "COUNT(*) * 2",
        "SUM(i) + 0.5", "AVG(DISTINCT j)", "FIRST_VALUE(i)", "LAST_VALUE(i)",
        "SUM(CASE WHEN i > 0 THEN 1 ELSE 0 END)", "COUNT(DISTINCT s)", "MAX(CHAR_LENGTH(s))",
        "LISTAGG(CAST(i AS STRING))", "BOOL_AND(i > -10)",
    ]),
    "cast": ("scalar", [
        "CAST('42' AS INT)", "CAST(' 42 ' AS INT)", "CAST('abc' AS INT)", "CAST('4.7' AS INT)",
        "CAST('1e3' AS DOUBLE)", "CAST('3.14159' AS DECIMAL(5, 2))", "CAST(3.14159 AS DECIMAL(5, 2))",
        "CAST(2.5 AS INT)", "CAST(-2.5 AS INT)", "CAST(2.7e0 AS INT)", "CAST(-2.7e0 AS BIGINT)",
        "CAST(1 AS BOOLEAN)", "CAST(0 AS BOOLEAN)", "CAST('true' AS BOOLEAN)", "CAST('yes' AS BOOLEAN)",
        "CAST('TRUE' AS BOOLEAN)", "CAST(TRUE AS INT)", "CAST(TRUE AS STRING)", "CAST(1.5e0 AS STRING)",
        "CAST(1e10 AS STRING)", "CAST(1.0E-5 AS STRING)", "CAST(1.50 AS STRING)", "CAST(100 AS STRING)",
        "CAST(CAST(1 AS DECIMAL(10, 2)) AS STRING)", "CAST('2024-01-15' AS DATE)",
        "CAST('2024-01-15 10:30:45' AS TIMESTAMP)", "CAST('2024-01-15 10:30:45.123' AS TIMESTAMP(3))",
        "CAST('2024-01-15T10:30:45' AS TIMESTAMP)", "CAST('2024-13-45' AS DATE)",
        "CAST(DATE '2024-01-15' AS TIMESTAMP)", "CAST(TIMESTAMP '2024-01-15 10:30:45.678' AS DATE)",
        "CAST(TIMESTAMP '2024-01-15 10:30:45.678' AS STRING)", "CAST(DATE '2024-01-15' AS STRING)",
        "CAST(TIMESTAMP '2024-01-15 10:30:45' AS TIMESTAMP(3))", "CAST(300 AS TINYINT)",
        "CAST(1 AS DECIMAL(3, 2))", "CAST(123.456 AS DECIMAL(4, 1))", "CAST('abc' AS CHAR(5))",
        "CAST('abcdef' AS VARCHAR(3))", "CAST('abcdef' AS CHAR(3))", "TRY_CAST('abc' AS INT)",
        "TRY_CAST('42' AS INT)", "TRY_CAST('2024-02-30' AS DATE)", "CAST(NULL AS STRING)",
        "CAST(ARRAY[1, 2] AS ARRAY<BIGINT>)", "CAST(12345678901 AS INT)", "CAST('12345678901' AS INT)",
        "CAST(1.999 AS DECIMAL(3, 2))", "CAST(-1.995 AS DECIMAL(3, 2))", "CAST(1.5e0 AS DECIMAL(5, 1))",
        "CAST(0.125e0 AS DECIMAL(5, 2))", "CAST('' AS INT)", "CAST(' ' AS DOUBLE)",
    ]),
    "string": ("scalar", [
        "REGEXP_EXTRACT('foo123bar', '[0-9]+')", "REGEXP_EXTRACT('foo123bar', '([a-z]+)([0-9]+)', 2)",
        "REGEXP_EXTRACT('foo123bar', '([a-z]+)([0-9]+)', 0)", "REGEXP_EXTRACT('foo123bar', '([a-z]+)([0-9]+)')",
        "REGEXP_EXTRACT('foo', '[0-9]+')", "REGEXP_EXTRACT('a1b2', '([a-z])([0-9])', 3)",
        "REGEXP_REPLACE('a1b2c3', '[0-9]', '#')", "REGEXP_REPLACE('abc', 'b', '$0$0')",
        "REGEXP_REPLACE('aaa', 'a*', 'X')", "REGEXP('abc', 'b')", "REGEXP('abc', '^b')",
        "SUBSTRING('Hello World', 1, 5)", "SUBSTRING('Hello World', 0, 5)", "SUBSTRING('Hello World', 7)",
        "SUBSTRING('Hello World', -5, 3)", "SUBSTRING('Hello World' FROM 2 FOR 3)", "SUBSTR('Hello', 2, 2)",
        "SUBSTR('Hello', 2)", "SUBSTRING('Hello', 10)", "SUBSTRING('Hello', 2, -1)",
        "CONCAT('a', 'b', 'c')", "CONCAT('a', CAST(NULL AS STRING), 'c')", "CONCAT_WS('-', 'a', 'b')",
        "CONCAT_WS('-', 'a', CAST(NULL AS STRING), 'c')", "CONCAT_WS(CAST(NULL AS STRING), 'a', 'b')",
        "'a' || 'b'", "'a' || CAST(NULL AS STRING)", "'x' || 1", "UPPER('aBc')", "LOWER('aBc')",
        "TRIM('  ab  ')", "LTRIM('  ab  ')", "RTRIM('  ab  ')", "TRIM(BOTH 'x' FROM 'xxabxx')",
        "TRIM(LEADING 'x' FROM 'xxabxx')", "TRIM(TRAILING 'x' FROM 'xxabxx')", "LPAD('ab', 5, 'xy')",
        "RPAD('ab', 5, 'xy')", "LPAD('abcdef', 3, 'x')", "LPAD('ab', 0, 'x')", "REPLACE('banana', 'an', 'AN')",
        "REPLACE('banana', 'x', 'y')", "POSITION('an' IN 'banana')", "POSITION('z' IN 'banana')",
        "LOCATE('an', 'banana')", "LOCATE('an', 'banana', 3)", "INSTR('banana', 'an')",
        "CHAR_LENGTH('héllo')", "CHARACTER_LENGTH('abc')", "SPLIT_INDEX('a,b,c', ',', 1)",
        "SPLIT_INDEX('a,b,c', ',', 5)", "SPLIT_INDEX('a,b,c', ',', -1)", "INITCAP('hello wORLD foo-bar')",
        "REVERSE('abc')", "REPEAT('ab', 3)", "REPEAT('ab', 0)", "LENGTH('abc')", "ASCII('A')", "CHR(65)",
        "LEFT('Hello', 2)", "RIGHT('Hello', 2)", "LEFT('Hello', -1)", "UPPER(CAST(NULL AS STRING))",
        "'abc' = 'abc '", "'b' > 'a'", "OVERLAY('Hello' PLACING 'XX' FROM 2 FOR 3)", "TO_BASE64('abc')",
        "FROM_BASE64('YWJj')", "LTRIM('xxab', 'x')", "STR_TO_MAP('a=1,b=2')", "SPLIT_INDEX('a,,c', ',', 1)",
        "REGEXP_EXTRACT('ABC', '(?i)b')", "TRANSLATE('abc', 'ab', 'xy')",
        "INITCAP('1abc x2yz ab_cd éa')", "INITCAP(CAST(NULL AS STRING))", "'It''s'", "CHAR_LENGTH('It''s')",
    ]),
    "math": ("scalar", [
        "CEIL(1.5e0)", "CEIL(-1.5e0)", "CEIL(1.5)", "CEIL(1.25)", "FLOOR(1.5e0)", "FLOOR(-1.5)",
        "CEILING(2.1)", "CEIL(5)", "FLOOR(CAST(7 AS BIGINT))", "ROUND(2.5)", "ROUND(-2.5)",
        "ROUND(2.5e0)", "ROUND(-2.5e0)", "ROUND(1.234, 2)", "ROUND(1.235, 2)", "ROUND(1235, -1)",
        "ROUND(1.5e0, 0)", "ROUND(0.125e0, 2)", "ROUND(12.5)", "TRUNCATE(1.789, 1)", "TRUNCATE(1.789e0, 2)",
        "TRUNCATE(-1.789, 0)", "TRUNCATE(123, -1)", "POWER(2, 10)", "POWER(2.0, 0.5)", "POWER(-8, 1.0 / 3)",
        "SQRT(16)", "SQRT(2)", "SQRT(-1)", "LN(1)", "LN(EXP(1.0e0))", "LOG(100)", "LOG(2, 8)", "LOG10(1000)",
        "LOG2(8)", "LN(0)", "ABS(-3)", "ABS(-3.5)", "ABS(-3.5e0)", "SIGN(-2)", "SIGN(0.0)", "SIGN(2.5e0)",
        "EXP(0)", "PI()", "DEGREES(PI())", "RADIANS(180)", "SIN(0)", "COS(0)", "TAN(0)", "ATAN2(1, 1)",
        "MOD(10, 0)", "10 / 0", "10.0 / 0", "10e0 / 0", "BIN(5)", "HEX(255)", "HEX('abc')", "1e10",
        "1.0E-5", "CAST(1e20 AS DOUBLE)", "123456789.123e0", "CAST(0.1 AS FLOAT)", "GREATEST(1, 3, 2)",
        "LEAST(1.5, 2, 0.5)", "GREATEST(1, CAST(NULL AS INT))", "CAST(1 AS DOUBLE)",
    ]),
    "temporal": ("scalar", [
        "DATE_FORMAT(TIMESTAMP '2024-01-05 08:09:10', 'yyyy-MM-dd')",
        "DATE_FORMAT(TIMESTAMP '2024-01-05 08:09:10', 'yyyy/MM/dd HH:mm:ss')",
        "DATE_FORMAT(TIMESTAMP '2024-01-05 08:09:10.5', 'HH:mm:ss.SSS')",
        "DATE_FORMAT(TIMESTAMP '2024-01-05 20:09:10', 'hh a')", "DATE_FORMAT(TIMESTAMP '2024-01-05 08:09:10', 'EEE MMM d yy')",  # noqa: E501
        "DATE_FORMAT('2024-01-05 08:09:10', 'yyyyMMdd')", "DATE_FORMAT(TIMESTAMP '2024-01-05 08:09:10', 'D w')",
        "TO_TIMESTAMP('2024-01-05 08:09:10')", "TO_TIMESTAMP('2024-01-05 08:09:10.123')",
        "TO_TIMESTAMP('05/01/2024 08:09', 'dd/MM/yyyy HH:mm')", "TO_TIMESTAMP('bad')", "TO_TIMESTAMP('2024-01-05')",
        "TO_DATE('2024-01-05')", "TO_DATE('05.01.2024', 'dd.MM.yyyy')", "TO_DATE('bad')",
        "UNIX_TIMESTAMP('2024-01-05 08:09:10')", "UNIX_TIMESTAMP('2024/01/05', 'yyyy/MM/dd')",
        "UNIX_TIMESTAMP('bad')", "FROM_UNIXTIME(0)", "FROM_UNIXTIME(1704442150)",
        "FROM_UNIXTIME(1704442150, 'yyyy-MM-dd')", "TO_TIMESTAMP_LTZ(0, 3)", "TO_TIMESTAMP_LTZ(1704442150, 0)",
        "TIMESTAMPADD(DAY, 1, TIMESTAMP '2024-01-31 10:00:00')", "TIMESTAMPADD(MONTH, 1, TIMESTAMP '2024-01-31 10:00:00')",  # noqa: E501
        "TIMESTAMPADD(HOUR, -3, TIMESTAMP '2024-01-01 01:00:00')", "TIMESTAMPADD(DAY, 1, DATE '2024-02-28')",
        "TIMESTAMPADD(SECOND, 90, TIMESTAMP '2024-01-01 00:00:00')",
        "TIMESTAMPDIFF(DAY, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-03-01 12:00:00')",
        "TIMESTAMPDIFF(HOUR, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 05:59:59')",
        "TIMESTAMPDIFF(MONTH, TIMESTAMP '2024-01-31 00:00:00', TIMESTAMP '2024-02-29 00:00:00')",
        "TIMESTAMPDIFF(SECOND, TIMESTAMP '2024-01-01 00:00:10', TIMESTAMP '2024-01-01 00:00:00')",
        "TIMESTAMPDIFF(YEAR, DATE '2020-02-29', DATE '2024-02-28')", "TIMESTAMPDIFF(MINUTE, TIMESTAMP '2024-01-01 00:00:00', TIMESTAMP '2024-01-01 01:30:00')",  # noqa: E501
        "EXTRACT(YEAR FROM DATE '2024-03-15')", "EXTRACT(MONTH FROM TIMESTAMP '2024-03-15 10:20:30')",
        "EXTRACT(DOW FROM DATE '2024-03-15')", "EXTRACT(DOY FROM DATE '2024-03-15')", "EXTRACT(QUARTER FROM DATE '2024-03-15')",  # noqa: E501
        "EXTRACT(WEEK FROM DATE '2024-03-15')", "EXTRACT(HOUR FROM TIMESTAMP '2024-03-15 10:20:30')",
        "EXTRACT(SECOND FROM TIMESTAMP '2024-03-15 10:20:30.5')", "EXTRACT(EPOCH FROM TIMESTAMP '2024-01-01 00:00:00')",
        "YEAR(DATE '2024-03-15')", "QUARTER(DATE '2024-03-15')", "MONTH(DATE '2024-03-15')", "WEEK(DATE '2024-03-15')",
        "DAYOFYEAR(DATE '2024-03-15')", "DAYOFMONTH(DATE '2024-03-15')", "DAYOFWEEK(DATE '2024-03-15')",
        "HOUR(TIMESTAMP '2024-03-15 10:20:30')", "MINUTE(TIMESTAMP '2024-03-15 10:20:30')",
        "SECOND(TIMESTAMP '2024-03-15 10:20:30')", "DATE '2024-01-31' + INTERVAL '1' DAY",
        "DATE '2024-01-31' + INTERVAL '1' MONTH", "DATE '2024-03-01' - INTERVAL '1' DAY",
        "TIMESTAMP '2024-01-01 10:00:00' + INTERVAL '90' MINUTE", "TIMESTAMP '2024-01-01 10:00:00' - INTERVAL '1' HOUR",
        "TIMESTAMP '2024-01-01 10:00:00' + INTERVAL '1 02:03:04' DAY TO SECOND",
        "TIMESTAMP '2024-01-31 10:00:00' + INTERVAL '1' MONTH", "TIMESTAMP '2024-01-01 10:00:00' + INTERVAL '2' YEAR",
        "TIMESTAMP '2024-01-01 10:00:00.123456'", "TIMESTAMP '2024-01-01 10:00:00'", "DATE '2024-02-29'",
        "FLOOR(TIMESTAMP '2024-03-15 10:20:30' TO DAY)", "CEIL(TIMESTAMP '2024-03-15 10:20:30' TO HOUR)",
        "FLOOR(TIMESTAMP '2024-03-15 10:20:30' TO MONTH)", "DATE '2024-01-01' < DATE '2024-01-02'",
        "TIMESTAMP '2024-01-01 00:00:00' = CAST(DATE '2024-01-01' AS TIMESTAMP)", "LAST_DAY(DATE '2024-02-10')",
        "DATEDIFF('2024-03-01', '2024-02-01')", "DATE_ADD('2024-02-28', 2)" ,
        "CONVERT_TZ('2024-01-01 00:00:00', 'UTC', 'Asia/Shanghai')",
    ]),
    "conditional": ("scalar", [
        "CASE WHEN 1 > 2 THEN 'a' ELSE 'bb' END", "CASE 2 WHEN 1 THEN 'one' WHEN 2 THEN 'two' END",
        "CASE 3 WHEN 1 THEN 'one' END", "CASE WHEN 1 = 1 THEN 1 ELSE 2.5 END", "CASE WHEN TRUE THEN 1 ELSE 2e0 END",
        "COALESCE(CAST(NULL AS INT), 2, 3)", "COALESCE(CAST(NULL AS STRING), 'x')", "COALESCE(1, 2.5)",
        "NULLIF(1, 1)", "NULLIF(1, 2)", "NULLIF('a', 'b')", "IF(1 > 2, 'yes', 'no')", "IF(CAST(NULL AS BOOLEAN), 1, 2)",
        "IFNULL(CAST(NULL AS INT), 5)", "IFNULL(3, 5)", "1 IS DISTINCT FROM 2", "1 IS NOT DISTINCT FROM 1",
        "CAST(NULL AS INT) IS DISTINCT FROM CAST(NULL AS INT)", "CAST(NULL AS INT) IS NOT DISTINCT FROM 1",
        "CAST(NULL AS INT) IS NULL", "1 IS NOT NULL", "IF(TRUE, 1, 2.5)", "COALESCE(CAST(NULL AS INT), CAST(NULL AS INT))",  # noqa: E501
        "CASE WHEN CAST(NULL AS BOOLEAN) THEN 1 ELSE 0 END", "IS_DIGIT('123')", "IS_ALPHA('ab1')", "IS_DECIMAL('1.5')",
    ]),
    "logic": ("scalar", [
        "TRUE AND CAST(NULL AS BOOLEAN)", "FALSE AND CAST(NULL AS BOOLEAN)", "TRUE OR CAST(NULL AS BOOLEAN)",
        "FALSE OR CAST(NULL AS BOOLEAN)", "NOT CAST(NULL AS BOOLEAN)", "1 = CAST(NULL AS INT)",
        "1 <> 2", "1 <> 1", "1 < 2", "2 <= 2", "'a' <> 'b'", "CAST(NULL AS INT) = CAST(NULL AS INT)",
        "TRUE IS TRUE", "CAST(NULL AS BOOLEAN) IS TRUE", "CAST(NULL AS BOOLEAN) IS NOT FALSE", "FALSE IS FALSE",
        "CAST(NULL AS BOOLEAN) IS UNKNOWN", "1 IN (1, 2)", "3 IN (1, 2)", "3 IN (1, CAST(NULL AS INT))",
        "3 NOT IN (1, CAST(NULL AS INT))", "1 NOT IN (2, 3)", "2 BETWEEN 1 AND 3", "2 BETWEEN 3 AND 1",
        "2 BETWEEN SYMMETRIC 3 AND 1", "2 NOT BETWEEN 1 AND 3", "'abc' LIKE 'a%'", "'abc' LIKE 'a_c'",
        "'abc' LIKE 'A%'", "'a_c' LIKE 'a!_c' ESCAPE '!'", "'abc' NOT LIKE '%b%'", "'abc' SIMILAR TO 'a(b|x)c'",
        "'abc' SIMILAR TO 'ab'", "'a%c' LIKE 'a%%c'", "CAST(NULL AS STRING) LIKE 'a'", "1 = 1 AND 2 = 2",
        "'abc' IN ('abc', 'x')", "1.0 IN (1, 2)", "'1' = '1'",
    ]),
    "json": ("scalar", [
        "JSON_VALUE('{\"a\": 1}', '$.a')", "JSON_VALUE('{\"a\": \"x\"}', '$.a')", "JSON_VALUE('{\"a\": 1}', '$.b')",
        "JSON_VALUE('{\"a\": {\"b\": 2}}', '$.a.b')", "JSON_VALUE('{\"a\": [1, 2]}', '$.a[1]')",
        "JSON_VALUE('{\"a\": [1, 2]}', '$.a')", "JSON_VALUE('bad', '$.a')", "JSON_VALUE('{\"a\": 1.5}', '$.a' RETURNING DOUBLE)",  # noqa: E501
        "JSON_VALUE('{\"a\": 1}', '$.a' RETURNING INT)", "JSON_VALUE('{\"a\": 1}', '$.b' DEFAULT 'd' ON EMPTY)",
        "JSON_VALUE('{\"a\": true}', '$.a')", "JSON_QUERY('{\"a\": [1, 2]}', '$.a')", "JSON_QUERY('{\"a\": {\"b\": 1}}', '$.a')",  # noqa: E501
        "JSON_QUERY('{\"a\": 1}', '$.a')", "JSON_QUERY('{\"a\": 1}', '$.b')", "JSON_EXISTS('{\"a\": 1}', '$.a')",
        "JSON_EXISTS('{\"a\": 1}', '$.b')", "JSON_EXISTS('bad', '$.a')", "'{\"a\": 1}' IS JSON",
        "'[1' IS JSON", "JSON_STRING(1)", "JSON_STRING('a')", "JSON_OBJECT('a' VALUE 1)", "JSON_ARRAY(1, 'a')",
    ]),
    "hash": ("scalar", [
        "MD5('abc')", "SHA256('abc')", "SHA1('abc')", "SHA2('abc', 256)", "SHA512('abc')", "MD5('')",
        "MD5(CAST(NULL AS STRING))", "SHA224('abc')",
    ]),
    "collection": ("scalar", [
        "ARRAY[1, 2, 3]", "CARDINALITY(ARRAY[1, 2, 3])", "ARRAY[1, 2, 3][1]", "ARRAY[1, 2, 3][4]",
        "ARRAY['a', 'bc']", "ELEMENT(ARRAY[7])", "MAP['a', 1, 'b', 2]", "MAP['a', 1, 'b', 2]['b']",
        "MAP['a', 1]['z']", "CARDINALITY(MAP['a', 1, 'b', 2])", "ARRAY_CONTAINS(ARRAY[1, 2], 2)",
        "ARRAY[1, CAST(NULL AS INT)]", "ARRAY_DISTINCT(ARRAY[1, 1, 2])", "ARRAY_POSITION(ARRAY[5, 6], 6)",
        "ARRAY_REVERSE(ARRAY[1, 2])", "ARRAY_JOIN(ARRAY['a', 'b'], '-')", "MAP_KEYS(MAP['a', 1])",
        "MAP_VALUES(MAP['a', 1])", "ARRAY_CONCAT(ARRAY[1], ARRAY[2, 3])", "ROW(1, 'a')", "ARRAY_MAX(ARRAY[3, 9, 1])",
        "SPLIT('a,b,c', ',')", "ARRAY_SLICE(ARRAY[1, 2, 3, 4], 2, 3)",
    ]),
    "statements": ("statement", [
        "SELECT 1 AS x UNION ALL SELECT 2",
        "SELECT x, COUNT(*) AS c FROM (VALUES (1), (1), (2)) AS V(x) GROUP BY x",
        "SELECT x / 2 AS h FROM (VALUES (5), (6)) AS V(x)",
        "SELECT AVG(x) AS a FROM (VALUES (1), (2)) AS V(x)",
        "SELECT i, j FROM T WHERE i > 0",
        "SELECT s, i / j AS q FROM T WHERE n IS NOT NULL",
        "SELECT COUNT(*) AS c FROM T WHERE n > 4 OR n IS NULL",
        "SELECT i FROM T ORDER BY i DESC LIMIT 2",
        "SELECT DISTINCT i > 0 AS p FROM T",
        "SELECT i % 2 AS k, AVG(i) AS a, SUM(m) AS s FROM T GROUP BY i % 2",
        "SELECT k, c FROM (SELECT i % 2 AS k, COUNT(*) AS c FROM T GROUP BY i % 2) WHERE c > 1",
        "SELECT a.i, b.j FROM T AS a JOIN T AS b ON a.i = b.i",
        "SELECT i, ROW_NUMBER() OVER (ORDER BY i) AS r FROM T",
        "SELECT i, SUM(i) OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS r FROM T",
        "SELECT UPPER(s) AS u FROM T WHERE s LIKE '%d%'",
        "SELECT CAST(x AS INT) AS y FROM (VALUES ('1'), ('2')) AS V(x)",
        "SELECT x FROM (VALUES (1.5), (2)) AS V(x)",
        "SELECT x FROM (VALUES ('a'), ('bcd')) AS V(x)",
        "SELECT i FROM T WHERE i IN (SELECT j FROM T) OR i = 1",
        "SELECT * FROM (SELECT i, i * 2 AS d2 FROM T) WHERE d2 > 0",
        "SELECT i, AVG(i) OVER (ORDER BY i ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS r FROM T",
        "SELECT i, MAX(d) OVER (ORDER BY i ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS r FROM T",
        "WITH w AS (SELECT i / 2 AS h, m FROM T) SELECT h, AVG(m) AS a FROM w GROUP BY h",
        "SELECT i % 2 AS k, AVG(i) AS a FROM T GROUP BY i % 2 HAVING AVG(i) > 0",
        "SELECT CASE WHEN i > 0 THEN 'p' ELSE 'n' END AS k, SUM(j) AS s FROM T GROUP BY CASE WHEN i > 0 THEN 'p' ELSE 'n' END",  # noqa: E501
        "SELECT s, REGEXP_EXTRACT(s, '([A-Za-z]+) ([A-Za-z]+)') AS w FROM T",
        "SELECT i, j FROM T WHERE i / j < 0",
        "SELECT COUNT(DISTINCT i % 3) AS c, AVG(t) AS a, SUM(f) AS sf FROM T",
        "SELECT DATE_FORMAT(ts, 'yyyy-MM-dd') AS d, COUNT(*) AS c FROM T GROUP BY DATE_FORMAT(ts, 'yyyy-MM-dd')",
        "SELECT i FROM T UNION ALL SELECT j FROM T",
    ]),
}

#: Every case as ``(id, group, source, expression)``.
CASES: List[Tuple[str, str, str, str]] = []
for _group, (_source, _exprs) in _GROUPS.items():
    GROUP_SOURCE[_group] = _source
    for _expr in _exprs:
        CASES.append(("{}:{}".format(_group, _expr), _group, _source, _expr))

_ids = [case[0] for case in CASES]
assert len(_ids) == len(set(_ids)), "duplicate battery case"


def query_of(source: str, expression: str, alias: str = "c") -> str:
    """The query evaluating one case alone."""
    if source == "statement":
        return expression
    if source == "scalar":
        return "SELECT {} AS {}".format(expression, alias)
    return "SELECT {} AS {} FROM T".format(expression, alias)
