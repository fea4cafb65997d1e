"""Reading state rows of real checkpoints and savepoints through Spark's state data source,
from Python and through the command (Spark 4 reads them; Spark 3.5 is refused clearly)."""

from __future__ import annotations

import datetime
import decimal
import json
import os
import shutil
import subprocess
import sys
from typing import Any, Dict, List

import pytest

from pyflink_compat.checkpoints import CheckpointFileError
from pyflink_compat.checkpoints.state_reader import json_ready, read_state

from tests._helpers.files import digest, write_input
from tests.savepoints._queries import rows_of, run_until_idle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def spark_4() -> bool:
    import pyspark

    return int(pyspark.__version__.split(".")[0]) >= 4


needs_spark_4 = pytest.mark.skipif("not spark_4()", reason="the state data source exists from Spark 4.0 on")


def command(*argv: str) -> "subprocess.CompletedProcess[str]":
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "pyflink_compat.cli", "checkpoints", "state"] + list(argv),
                          env=env, capture_output=True, text=True, timeout=300)


def by_key(result: Dict[str, Any]) -> Dict[str, int]:
    return {row["key"]["k"]: row["value"]["count"] for row in result["rows"]}


@needs_spark_4
def test_the_counts_of_a_checkpoint_are_read_with_its_operator(spark: Any, saved_job: Dict[str, str]) -> None:
    result = read_state(os.path.join(saved_job["job_dir"], "counts"), spark=spark)
    assert result["batch_id"] == 1 and result["operator_id"] == 0 and result["store_name"] == "default"
    (operator,) = result["operators"]
    assert operator["name"] == "stateStoreSave" and operator["partitions"] == 2
    assert operator["stores"] == [{"store_name": "default", "min_batch_id": 0, "max_batch_id": 1}]
    assert by_key(result) == {"a": 2, "b": 2, "c": 1} and result["total_rows"] == 3
    assert sorted(row["partition"] for row in result["rows"]) in ([0, 0, 1], [0, 1, 1])
    json.dumps(result, allow_nan=False)


@needs_spark_4
def test_an_older_batch_one_partition_and_a_limit_narrow_the_rows(spark: Any, saved_job: Dict[str, str]) -> None:
    checkpoint = os.path.join(saved_job["job_dir"], "counts")
    assert by_key(read_state(checkpoint, batch_id=0, spark=spark)) == {"a": 2, "b": 1}
    parts = [read_state(checkpoint, partition=p, spark=spark) for p in (0, 1)]
    assert all(row["partition"] == p for p, part in enumerate(parts) for row in part["rows"])
    assert {**by_key(parts[0]), **by_key(parts[1])} == {"a": 2, "b": 2, "c": 1}
    limited = read_state(checkpoint, limit=1, spark=spark)
    assert len(limited["rows"]) == 1 and limited["total_rows"] == 3 and limited["limit"] == 1


@needs_spark_4
def test_a_savepoint_query_is_read_at_its_batch_and_the_savepoint_stays_unchanged(
        spark: Any, saved_job: Dict[str, str]) -> None:
    before = digest(saved_job["savepoint"])
    with pytest.raises(CheckpointFileError, match="several queries \\(counts, rows\\): name one with --sink"):
        read_state(saved_job["savepoint"], spark=spark)
    result = read_state(saved_job["savepoint"], sink="counts", spark=spark)
    assert result["checkpoint"] == saved_job["savepoint"] + "/counts" and result["batch_id"] == 1
    assert by_key(result) == {"a": 2, "b": 2, "c": 1}
    assert by_key(read_state(saved_job["savepoint"] + "/counts", spark=spark)) == {"a": 2, "b": 2, "c": 1}
    with pytest.raises(CheckpointFileError, match="batch 0 is not a committed batch of this checkpoint"):
        read_state(saved_job["savepoint"] + "/counts", batch_id=0, spark=spark)
    assert digest(saved_job["savepoint"]) == before


@needs_spark_4
def test_a_query_with_two_stateful_operators_is_listed_until_one_is_named(spark: Any, tmp_path: Any) -> None:
    input_dir = str(tmp_path / "in")
    write_input(input_dir, "f0.json", rows_of("abca", 0) + rows_of("a", 0))
    events = spark.readStream.schema("k string, v int").json(input_dir)
    query = (events.dropDuplicates(["k", "v"]).groupBy("k").count().writeStream.outputMode("complete")
             .format("memory").queryName("two_operators").option("checkpointLocation", str(tmp_path / "ck"))
             .start())
    try:
        run_until_idle(query)
    finally:
        query.stop()
    listed = read_state(str(tmp_path / "ck"), spark=spark)
    assert "rows" not in listed
    names = {op["operator_id"]: op["name"] for op in listed["operators"]}
    assert sorted(names.values()) == ["dedupe", "stateStoreSave"]
    dedupe = next(k for k, v in names.items() if v == "dedupe")
    rows = read_state(str(tmp_path / "ck"), operator=dedupe, spark=spark)["rows"]
    assert sorted((r["key"]["k"], r["key"]["v"]) for r in rows) == [("a", 0), ("a", 3), ("b", 1), ("c", 2)]


def test_paths_without_state_are_refused_before_spark_is_asked(spark: Any, saved_job: Dict[str, str],
                                                              tmp_path: Any) -> None:
    with pytest.raises(CheckpointFileError, match="does not exist"):
        read_state(str(tmp_path / "missing"), spark=spark)
    with pytest.raises(CheckpointFileError, match="not a Spark query checkpoint"):
        read_state(saved_job["input"], spark=spark)
    with pytest.raises(CheckpointFileError, match="has no state: the query has no stateful operator"):
        read_state(os.path.join(saved_job["job_dir"], "rows"), spark=spark)
    with pytest.raises(CheckpointFileError, match=r"has no stateful operator 7 \(it has: 0\)"):
        read_state(os.path.join(saved_job["job_dir"], "counts"), operator=7, spark=spark)
    with pytest.raises(CheckpointFileError, match="batch 9 is not a committed batch"):
        read_state(os.path.join(saved_job["job_dir"], "counts"), batch_id=9, spark=spark)


@needs_spark_4
def test_an_unknown_store_or_partition_is_refused(spark: Any, saved_job: Dict[str, str]) -> None:
    checkpoint = os.path.join(saved_job["job_dir"], "counts")
    with pytest.raises(CheckpointFileError, match="operator 0 has no state store 'left' \\(it has: default\\)"):
        read_state(checkpoint, operator=0, store_name="left", spark=spark)
    with pytest.raises(CheckpointFileError, match="operator 0 has no state partition 2 \\(it has 2 partitions\\)"):
        read_state(checkpoint, partition=2, spark=spark)
    with pytest.raises(CheckpointFileError,
                       match="operator 0 has no state variable 'count' \\(only transformWithState"):
        read_state(checkpoint, state_var="count", spark=spark)


@pytest.mark.skipif("spark_4()", reason="Spark 4 reads state (the tests above)")
def test_reading_state_on_spark_3_5_is_refused_naming_the_version(spark: Any, saved_job: Dict[str, str]) -> None:
    with pytest.raises(CheckpointFileError, match="reading state needs Spark 4.0 or later") as info:
        read_state(os.path.join(saved_job["job_dir"], "counts"), spark=spark)
    assert "this is Spark {}".format(spark.version) in str(info.value)
    done = command(os.path.join(saved_job["job_dir"], "counts"))
    assert done.returncode == 1 and "reading state needs Spark 4.0 or later" in done.stderr


def test_state_values_become_plain_json() -> None:
    from pyspark.sql import Row

    value = Row(b=bytearray(b"\x00\x01"), d=datetime.date(2024, 5, 1), t=datetime.datetime(2024, 5, 1, 12, 30),
                n=decimal.Decimal("1.50"), f=float("nan"), m={1: [Row(x=2)]})
    assert json_ready(value) == {"b": "AAE=", "d": "2024-05-01", "t": "2024-05-01T12:30:00", "n": "1.50",
                                 "f": "nan", "m": {"1": [{"x": 2}]}}


@needs_spark_4
def test_the_command_prints_a_table_or_json_and_exits_with_1_on_errors(saved_job: Dict[str, str],
                                                                         tmp_path: Any) -> None:
    savepoint = str(tmp_path / "copy")
    shutil.copytree(saved_job["savepoint"], savepoint)
    done = command(savepoint, "--sink", "counts", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert by_key(result) == {"a": 2, "b": 2, "c": 1} and result["operators"][0]["name"] == "stateStoreSave"
    # Spark logs nothing: what is left is the JVM's own note about the incubator module Spark 4 uses
    assert [line for line in done.stderr.splitlines() if "jdk.incubator" not in line] == []
    done = command(os.path.join(saved_job["job_dir"], "counts"), "--limit", "2")
    assert done.returncode == 0, done.stderr
    lines: List[str] = done.stdout.splitlines()
    assert lines[0].endswith("counts at batch 1") and "0 stateStoreSave: 2 partitions" in lines[2]
    assert lines[3] == "operator 0, store default: 2 of 3 rows"
    assert lines[4].split() == ["partition", "key", "value"] and len(lines) == 7
    assert all('k="' in line and "count=" in line for line in lines[5:])
    done = command(os.path.join(saved_job["job_dir"], "counts"), "--operator", "3", "--json")
    failure = json.loads(done.stdout)
    assert done.returncode == 1 and failure["error"].endswith(": has no stateful operator 3 (it has: 0)")
    assert failure["path"].endswith("counts")
    done = command(saved_job["input"])
    assert done.returncode == 1 and "not a Spark query checkpoint" in done.stderr
