"""The rules a job start applies to its restore path and a query's schema failure, without Spark."""

from __future__ import annotations

from typing import Any, Optional

import pytest

from pyflink_compat.checkpoints.marker import JobMarker
from pyflink_compat.spark.failures import StateSchemaChanged, state_schema_change
from pyflink_compat.spark.restore_at_start import continues_from

SOURCE = "/sp/savepoint-0a1b2c-000000000000"


def marker(**record: Any) -> JobMarker:
    return JobMarker.from_json({"format": 2, "job_name": "j", "runs": [], "sinks": {"counts": record}})


@pytest.mark.parametrize("job_marker, query_id, reason", [
    (None, "q", "no run of this job created it"),
    (marker(created_by=None, query_id=None), "q", "no run of this job created it"),
    (marker(created_by="r1", query_id="q"), "q", "did not restore"),
    (marker(created_by="r1", query_id="q", restored_from="/sp/other"), "q", "another restore, of /sp/other"),
    (marker(created_by="r1", query_id=None, restored_from=SOURCE), None, "has no metadata file"),
    (marker(created_by="r1", query_id="q", restored_from=SOURCE), "other", "is not the one the job recorded"),
    (marker(created_by="r1", query_id="q", restored_from=SOURCE), "q", None),
    (marker(created_by="r1", query_id=None, restored_from=SOURCE), "q", None),  # killed before recording it
])
def test_a_checkpoint_continues_from_a_restore_only_when_the_marker_proves_it(
        job_marker: Optional[JobMarker], query_id: Optional[str], reason: Optional[str]) -> None:
    why = continues_from(job_marker, "counts", SOURCE, query_id)
    if reason is None:
        assert why is None
    else:
        assert why is not None and reason in why


SPARK_4 = ("[STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE] Provided key schema does not match existing state key schema.\n"
           "Please check number and type of fields.\n"
           "Existing key_schema=StructType(StructField(key,StringType,true)) and new "
           "key_schema=StructType(StructField(key,IntegerType,true)).\n"
           "If you want to force running the query without schema validation, please set "
           "spark.sql.streaming.stateStore.stateSchemaCheck to false.")
SPARK_35 = ("Provided schema doesn't match to the schema for existing state! Please note that Spark allow "
            "difference of field name: check count of fields and data type of each field.\n"
            "- Provided key schema: StructType(StructField(key,StringType,true))\n"
            "- Provided value schema: StructType(StructField(sum,DoubleType,true))\n"
            "- Existing key schema: StructType(StructField(key,StringType,true))\n"
            "- Existing value schema: StructType(StructField(count,LongType,true))\n"
            "If you want to force running query without schema validation, please set "
            "spark.sql.streaming.stateStore.stateSchemaCheck to false.")

#: Spark 3.5 when a task reads a saved state row before the schema check has run.
SPARK_35_ROW = ("org.apache.spark.sql.execution.streaming.state.InvalidUnsafeRowException: The streaming query "
                "failed by state format invalidation.\nError message is: Row total length invalid: calculated: 24 "
                "rowSizeInBytes: 16, UnsafeRow status: [UnsafeRowStatus] expectedSchema: "
                "StructType(StructField(sum,DoubleType,true),StructField(count,LongType,true)), "
                "expectedSchemaNumFields: 2, numFields: 2")


@pytest.mark.parametrize("text, change", [
    (SPARK_35_ROW, "a saved state row does not fit the schema the pipeline now needs, "
                   "StructType(StructField(sum,DoubleType,true),StructField(count,LongType,true))"),
    (SPARK_4, "its key schema was StructType(StructField(key,StringType,true)) when the state was saved and "
              "the pipeline now needs StructType(StructField(key,IntegerType,true))"),
    (SPARK_35, "its value schema was StructType(StructField(count,LongType,true)) when the state was saved and "
               "the pipeline now needs StructType(StructField(sum,DoubleType,true))"),
])
def test_a_state_schema_error_of_spark_4_or_3_5_is_a_non_recoverable_failure_naming_the_change(
        tmp_path: Any, text: str, change: str) -> None:
    failure = state_schema_change("counts", str(tmp_path / "missing"), RuntimeError(text))
    assert isinstance(failure, StateSchemaChanged)
    assert change in str(failure)
    assert "key schema was" not in str(failure) or "value schema was" not in str(failure)
    assert str(failure).startswith("Sink 'counts' cannot use the state in its checkpoint")


def test_other_query_errors_are_left_to_the_restart_strategy(tmp_path: Any) -> None:
    assert state_schema_change("counts", str(tmp_path), RuntimeError("[CANNOT_LOAD_STATE_STORE] boom")) is None
