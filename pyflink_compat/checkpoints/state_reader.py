"""Reading the state rows of a query checkpoint or of a savepoint, through Spark.

Unlike the rest of :mod:`pyflink_compat.checkpoints`, this needs a JVM: the rows are read with
Spark's state data source (``spark.read.format("statestore")``) and the operators are listed
with its metadata source (``format("state-metadata")``). Both exist from Spark 4.0 on; Spark
3.5 has neither, and reading state there is refused with a clear error.

A savepoint holds, per query, a trimmed copy of the query's checkpoint at one committed batch;
that copy is a checkpoint Spark can read, at that batch only. Reading never writes into the
checkpoint or the savepoint.

The state of a DataStream keyed function is read by its descriptor names (``--state-var
count``) and its timers (``--state-var timers``); its keys and values, pickled in the state
store, are shown as the job sees them.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import json
import math
from typing import Any, Callable, Dict, List, Optional

from pyflink_compat.checkpoints.errors import CheckpointFileError
from pyflink_compat.checkpoints.access import file_access_for
from pyflink_compat.checkpoints.file_access import FileAccess
from pyflink_compat.checkpoints.layout import QueryCheckpoint, is_query_checkpoint
from pyflink_compat.checkpoints.manifest import MANIFEST_NAME, read_manifest
from pyflink_compat.checkpoints.savepoint import job_queries

__all__ = ["read_state", "read_broadcast_state", "find_query_checkpoint", "json_ready", "DEFAULT_LIMIT"]

#: How many state rows are returned when no limit is given.
DEFAULT_LIMIT = 20


def _pick(path: str, names: List[str], sink: Optional[str], what: str) -> str:
    if sink is not None:
        if sink not in names:
            raise CheckpointFileError(path, "has no query for sink '{}' (it has: {})".format(sink, ", ".join(names)))
        return sink
    if len(names) != 1:
        raise CheckpointFileError(path, "{} several queries ({}): name one with --sink".format(what, ", ".join(names)))
    return names[0]


def find_query_checkpoint(fs: FileAccess, path: str, sink: Optional[str] = None) -> str:
    """The query checkpoint directory that ``path`` stands for.

    :param path: A query checkpoint, a savepoint (``sink`` names the query when it holds
                 several), one query directory inside a savepoint, or a job directory.
    :raises CheckpointFileError: when ``path`` is none of these.
    """
    if not fs.exists(path):
        raise CheckpointFileError(path, "does not exist")
    if not fs.isdir(path):
        raise CheckpointFileError(path, "is not a directory")
    if fs.isfile(path + "/" + MANIFEST_NAME):
        names = sorted(str(q["path"]) for q in read_manifest(fs, path)["queries"])
        return path + "/" + _pick(path, names, sink, "the savepoint holds")
    if is_query_checkpoint(fs, path):
        return path
    queries = dict(job_queries(fs, path))
    if queries:
        return queries[_pick(path, sorted(queries), sink, "the job directory holds")]
    raise CheckpointFileError(path, "not a Spark query checkpoint (no metadata file and offsets/ log), nor a savepoint "
                         "or job directory")


def json_ready(value: Any) -> Any:
    """A state value as plain JSON: rows and maps become objects, bytes base64 text, dates,
    times and decimals their text, and non-finite floats their name."""
    if hasattr(value, "asDict"):
        value = value.asDict(recursive=True)
    if isinstance(value, dict):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def _require_spark_4(path: str, version: str) -> None:
    head = version.split(".")[0]
    if not head.isdigit() or int(head) < 4:
        raise CheckpointFileError(path, "reading state needs Spark 4.0 or later, whose state data source reads "
                             "checkpoints (this is Spark {}; Spark 3.5 has no such reader)".format(version))


def _spark_error(path: str, error: Exception) -> CheckpointFileError:
    lines = [line for line in str(error).splitlines() if line.strip()]
    return CheckpointFileError(path, "Spark could not read the state: {}".format(lines[0] if lines else repr(error)))


def _operators(spark: Any, checkpoint: QueryCheckpoint) -> List[Dict[str, Any]]:
    """The stateful operators: Spark's operator metadata where it exists (checkpoints written
    by Spark 4), completed from the directories on disk (Spark 3.5 writes no metadata)."""
    found: Dict[int, Dict[str, Any]] = {}
    for op in checkpoint.operators():
        found[op.operator_id] = {"operator_id": op.operator_id, "name": op.name, "partitions": len(op.partitions),
                                 "stores": [{"store_name": s, "min_batch_id": None, "max_batch_id": None}
                                            for s in op.stores]}
    try:
        rows = spark.read.format("state-metadata").load(checkpoint.root).collect()
    except Exception:  # no operator metadata: the directories are all there is
        rows = []
    for row in rows:
        entry = found.setdefault(int(row["operatorId"]), {"operator_id": int(row["operatorId"]), "name": None,
                                                          "partitions": 0, "stores": []})
        entry["name"] = row["operatorName"] or entry["name"]
        entry["partitions"] = max(entry["partitions"], int(row["numPartitions"] or 0))
        stores = [s for s in entry["stores"] if s["store_name"] != row["stateStoreName"]]
        stores.append({"store_name": row["stateStoreName"], "min_batch_id": row["minBatchId"],
                       "max_batch_id": row["maxBatchId"]})
        entry["stores"] = sorted(stores, key=lambda s: str(s["store_name"]))
        variables = _state_variables(row["operatorProperties"] if "operatorProperties" in row else None)
        if variables:
            entry["state_variables"] = variables
    return [found[k] for k in sorted(found)]


#: The name ``--state-var`` gives the timers of a keyed function.
TIMERS = "timers"
#: What pyflink_compat's keyed functions name their states, by state kind (see
#: :mod:`pyflink_compat.runtime.keyed`).
_STATE_PREFIX = "s_"
_PROCESSING_TIMERS = "t_processing"
#: The state variable holding each key's event-time timers (only the earliest is Spark's timer).
_EVENT_TIMERS = "t_event"


def _keyed_function_states(variables: List[str]) -> Dict[str, str]:
    """The states of a DataStream keyed function (Spark state variable by descriptor name),
    or nothing when the operator is not one."""
    if _PROCESSING_TIMERS not in variables:
        return {}
    return {v[len(_STATE_PREFIX):]: v for v in variables if v.startswith(_STATE_PREFIX)}


def _unpickled(data: Any, stamped: bool) -> Any:
    """A key or value of a keyed function's state as the job saw it: its bytes unpickled, as
    the job itself reads them on restore (values are kept with their time-to-live stamp)."""
    import pickle

    try:
        value = pickle.loads(bytes(data))
    except Exception:  # e.g. a class of the job that this process cannot import
        return {"pickled": base64.b64encode(bytes(data)).decode("ascii")}
    if stamped and isinstance(value, tuple) and len(value) == 2:
        value = value[0]
    return value if isinstance(value, (str, int, float, bool, type(None), list, tuple, dict)) else repr(value)


def _keyed_row(row: Dict[str, Any]) -> Dict[str, Any]:
    """A state row of a keyed function with its pickled keys and values read."""
    decoded: Dict[str, Any] = {}
    for name, value in row.items():
        if isinstance(value, dict) and set(value) == {"k"} and value["k"] is not None:
            data = bytes(value["k"])
            # a reserved key holds a partition's broadcast state (its first byte is no pickle's)
            decoded[name] = BROADCAST_KEY if data[:1] == b"\x00" else _unpickled(data, False)
        elif isinstance(value, dict) and set(value) == {"v"} and value["v"] is not None:
            decoded[name] = _unpickled(value["v"], True)
        else:
            decoded[name] = value
    if "user_map_key" in decoded:  # one entry of a MapState
        decoded["value"] = {"user_key": decoded.pop("user_map_key"), "value": decoded.pop("user_map_value", None)}
    others = [name for name in decoded if name not in ("key", "value", "partition_id")]
    if decoded.get("value") is None and len(others) == 1:  # a timer: its time is the value
        decoded["value"] = decoded.pop(others[0])
    return decoded


def _timer_rows(frame: Any, kept_in_state: bool) -> List[Dict[str, Any]]:
    """The event-time timers of a keyed function, one row per timer: read from the state
    variable holding each key's timers (``kept_in_state``), else from Spark's timers (a
    checkpoint written before the timers were kept in state)."""
    rows: List[Dict[str, Any]] = []
    for row in frame.collect():
        found = row.asDict(recursive=True)
        if kept_in_state:
            times = _unpickled(found["value"]["v"], True) or []
        else:
            times = [value for name, value in found.items() if name not in ("key", "value", "partition_id")][:1]
        rows += [{"partition_id": found.get("partition_id"), "key": found["key"], "value": t,
                  "domain": "EVENT_TIME"} for t in times]
    return rows


def _state_variables(properties: Optional[str]) -> List[Dict[str, Any]]:
    """The state variables a transformWithState operator declares in its properties."""
    try:
        found = json.loads(properties or "{}").get("stateVariables") or []
        return [{"name": str(v["stateName"]), "type": v.get("stateVariableType"), "ttl": v.get("ttlEnabled")}
                for v in found]
    except (ValueError, AttributeError, KeyError, TypeError):
        return []


#: How the reserved key of a state partition's broadcast state is shown.
BROADCAST_KEY = "(broadcast state)"

#: What a broadcast function names the state variable of a broadcast state (by descriptor name),
#: see :mod:`pyflink_compat.runtime.broadcast`.
BROADCAST_PREFIX = "b_"


def read_broadcast_state(query_dir: str, batch_id: int, spark: Any) -> Dict[int, Dict[str, Dict[bytes, bytes]]]:
    """The broadcast states of a query's broadcast functions at a committed batch, as stored:
    per stateful operator keeping any, per descriptor name, the stored bytes by grouping key
    (each state partition keeps its copy under a reserved key of its own).

    :param query_dir: A query checkpoint, or one query directory of a savepoint.
    :param batch_id: The committed batch to read (a savepoint holds its saved batch only).
    :param spark: The SparkSession to read with (Spark 4.0 or later).
    """
    fs, local = file_access_for(query_dir)
    checkpoint = QueryCheckpoint(fs, local)
    _require_spark_4(local, str(spark.version))
    found: Dict[int, Dict[str, Dict[bytes, bytes]]] = {}
    for op in _operators(spark, checkpoint):
        names = [str(v["name"]) for v in op.get("state_variables", []) if str(v["name"]).startswith(BROADCAST_PREFIX)]
        for variable in names:
            reader = spark.read.format("statestore").option("operatorId", str(op["operator_id"])) \
                .option("batchId", str(batch_id)).option("stateVarName", variable)
            try:
                rows = reader.load(local).collect()
            except Exception as error:  # py4j and analysis errors alike
                raise _spark_error(local, error) from None
            entries = found.setdefault(int(op["operator_id"]), {}).setdefault(variable[len(BROADCAST_PREFIX):], {})
            for row in rows:
                key, value = row["key"], row["value"]
                if key is not None and value is not None and key[0] is not None and value[0] is not None:
                    entries[bytes(key[0])] = bytes(value[0])
    return found


def _seeded_rows(spark: Any, root: str, batch_id: int, operator: int, name: str, pending: Dict[str, Any],
                 partition: Optional[int]) -> List[Dict[str, Any]]:
    """The broadcast state ``name`` of each state partition of a checkpoint whose partitions
    have a pending seed (:meth:`~pyflink_compat.checkpoints.layout.QueryCheckpoint.pending_broadcast_seed`):
    what is stored under the partition's reserved key, else the seed's copy for it."""
    from pyflink_compat.runtime.broadcast import read_seed, reserved_keys, spread

    stored = read_broadcast_state(root, batch_id, spark).get(operator, {}).get(name, {})
    partitions = int(pending["partitions"])
    seeds, _ = read_seed(str(pending["seed"]))
    copies = next((spread(c, partitions) for names, c in seeds.items() if name in names), [])
    rows = []
    for index, key in enumerate(reserved_keys(partitions)):
        data = stored.get(key, copies[index].get(name) if copies else None)
        if data is not None and partition in (None, index):
            rows.append({"partition": index, "key": BROADCAST_KEY, "value": json_ready(_unpickled(data, True))})
    return rows


def read_state(path: str, operator: Optional[int] = None, store_name: Optional[str] = None,
               batch_id: Optional[int] = None, partition: Optional[int] = None, limit: int = DEFAULT_LIMIT,
               sink: Optional[str] = None, state_var: Optional[str] = None, spark: Any = None,
               new_session: Optional[Callable[[], Any]] = None) -> Dict[str, Any]:
    """The stateful operators of a query checkpoint and the state rows of one of them.

    :param path: A query checkpoint, a savepoint, one query directory of a savepoint, or a job
                 directory (``sink`` picks the query when there are several).
    :param operator: The operator whose rows to read. When left out, the rows of the only
                     operator are read if there is exactly one (with one store); with several,
                     only the operators are listed.
    :param store_name: The state store of the operator (stream-stream joins have several).
    :param batch_id: The committed batch whose state to read; the newest one by default. A
                     savepoint holds the state of its saved batch only.
    :param partition: Only the rows of this state partition.
    :param limit: At most this many rows are returned (``total_rows`` counts them all).
    :param sink: The query to read when ``path`` holds several.
    :param state_var: The state variable of a transformWithState operator (needed when it has
                      several; Spark reads one at a time).
    :param spark: The SparkSession to read with; the active one by default.
    :param new_session: Makes the SparkSession when there is none (after the checkpoint was
                        found and checked, so that a wrong path never starts a JVM);
                        ``SparkSession.builder.getOrCreate`` by default.
    :return: A JSON-ready dictionary: ``path``, ``checkpoint``, ``batch_id``, ``operators``
             (with the ``state_variables`` of transformWithState operators) and, when an
             operator was read, ``operator_id``, ``store_name``, ``state_var``, ``partition``,
             ``rows`` (each ``{"partition", "key", "value"}``, plus any other column Spark
             returns), ``total_rows`` and ``limit``.
    :raises CheckpointFileError: when the path is not a checkpoint or savepoint, has no state, the
                            operator, store, batch or partition does not exist, or Spark is
                            older than 4.0.
    """
    if limit < 0:
        raise CheckpointFileError(path, "the row limit must not be negative")
    fs, local = file_access_for(path)
    root = find_query_checkpoint(fs, local, sink)
    checkpoint = QueryCheckpoint(fs, root)
    committed = checkpoint.committed_batches()
    if not committed:
        raise CheckpointFileError(root, "the checkpoint has no committed batch, so no state to read")
    if batch_id is not None and batch_id not in committed:
        raise CheckpointFileError(root, "batch {} is not a committed batch of this checkpoint (committed: {})".format(
            batch_id, ", ".join(str(b) for b in committed[-10:])))
    on_disk = checkpoint.operators()
    if not on_disk:
        raise CheckpointFileError(root, "has no state: the query has no stateful operator")
    if operator is not None and operator not in [op.operator_id for op in on_disk]:
        raise CheckpointFileError(root, "has no stateful operator {} (it has: {})".format(
            operator, ", ".join(str(op.operator_id) for op in on_disk)))
    if spark is None:
        import pyspark
        from pyspark.sql import SparkSession

        _require_spark_4(root, pyspark.__version__)
        spark = SparkSession.getActiveSession() or (new_session or SparkSession.builder.getOrCreate)()
    _require_spark_4(root, str(spark.version))
    result: Dict[str, Any] = {"path": local, "checkpoint": root,
                              "batch_id": committed[-1] if batch_id is None else batch_id,
                              "operators": _operators(spark, checkpoint)}
    known = {op["operator_id"]: op for op in result["operators"]}
    if operator is None:
        if len(known) != 1 or len(next(iter(known.values()))["stores"]) != 1:
            return result
        operator = next(iter(known))
    if operator not in known:
        raise CheckpointFileError(root, "has no stateful operator {} (it has: {})".format(
            operator, ", ".join(str(k) for k in sorted(known))))
    stores = [str(s["store_name"]) for s in known[operator]["stores"]]
    if store_name is None:
        store_name = "default" if "default" in stores or len(stores) != 1 else stores[0]
    if store_name not in stores:
        raise CheckpointFileError(root, "operator {} has no state store '{}' (it has: {})".format(
            operator, store_name, ", ".join(stores)))
    if partition is not None and not 0 <= partition < max(known[operator]["partitions"], 1):
        raise CheckpointFileError(root, "operator {} has no state partition {} (it has {} partitions)".format(
            operator, partition, known[operator]["partitions"]))
    variables = [str(v["name"]) for v in known[operator].get("state_variables", [])]
    keyed = _keyed_function_states(variables)
    # a keyed function keeps its timers in state even when it declares no state of its own
    is_keyed = _PROCESSING_TIMERS in variables
    # a broadcast function's broadcast states, by descriptor name
    broadcast = {v[len(BROADCAST_PREFIX):]: v for v in variables if v.startswith(BROADCAST_PREFIX)}
    timers = False
    if is_keyed:
        # a keyed function of a DataStream job: its states by descriptor name, and its timers
        result["keyed_state"] = sorted(keyed) + [TIMERS]
        if broadcast:
            result["broadcast_state"] = sorted(broadcast)
        if state_var in broadcast and state_var not in keyed:
            keyed = dict(keyed, **{state_var: broadcast[state_var]})
        if state_var is None and len(keyed) <= 1:
            state_var = next(iter(keyed), TIMERS)
        if state_var is None:
            raise CheckpointFileError(root, "operator {} is a keyed function with the states {}: name one with "
                                 "--state-var (or --state-var {} for its timers)".format(
                                     operator, ", ".join(result["keyed_state"][:-1]), TIMERS))
        timers = state_var == TIMERS
        if not timers and state_var not in keyed:
            raise CheckpointFileError(root, "operator {} has no state '{}' (it has: {})".format(
                operator, state_var, ", ".join(result["keyed_state"])))
    if variables and state_var is None:
        if len(variables) != 1:
            raise CheckpointFileError(root, "operator {} keeps several state variables ({}): name one with "
                                 "--state-var".format(operator, ", ".join(variables)))
        state_var = variables[0]
    if is_keyed:
        pass
    elif state_var is not None and state_var not in variables:
        raise CheckpointFileError(root, "operator {} has no state variable '{}' ({})".format(
            operator, state_var, "it has: " + ", ".join(variables) if variables
            else "only transformWithState operators have state variables"))
    def new_reader() -> Any:  # a reader's options are set in place: one reader per read
        made = spark.read.format("statestore").option("operatorId", str(operator)).option(
            "batchId", str(result["batch_id"]))
        return made.option("storeName", store_name) if store_name != "default" else made

    reader = new_reader()
    event_timers = timers and _EVENT_TIMERS in variables
    if event_timers:
        reader = reader.option("stateVarName", _EVENT_TIMERS)
    elif timers:
        reader = reader.option("readRegisteredTimers", "true")
    elif state_var is not None:
        reader = reader.option("stateVarName", keyed[state_var] if keyed else state_var)
    try:
        frame = reader.load(root)
        if partition is not None:
            frame = frame.where(frame["partition_id"] == partition)
        rows: List[Any]
        if timers:
            rows = _timer_rows(frame, event_timers)
            processing = new_reader().option("stateVarName", _PROCESSING_TIMERS).load(root)
            if partition is not None:
                processing = processing.where(processing["partition_id"] == partition)
            rows += [{"partition_id": row["partition_id"], "key": row["key"].asDict(),
                      "value": _unpickled(row["user_map_key"]["k"], False), "domain": "PROCESSING_TIME"}
                     for row in processing.collect()]
            total, rows = len(rows), rows[:limit]
        else:
            total = frame.count()
            rows = frame.limit(limit).collect()
    except Exception as error:  # py4j and analysis errors alike
        raise _spark_error(root, error) from None
    found = []
    for row in rows:
        data = json_ready(_keyed_row(row if isinstance(row, dict) else row.asDict(recursive=True))
                          if is_keyed else row)
        entry = {"partition": data.pop("partition_id", None), "key": data.pop("key", None),
                 "value": data.pop("value", None)}
        entry.update(data)
        found.append(entry)
    pending = checkpoint.pending_broadcast_seed(int(result["batch_id"])) if state_var in broadcast else None
    if pending is not None:
        # restored at another number of partitions, no batch has seeded them yet: each shows
        # the copy it starts with, as the job will see it
        found = _seeded_rows(spark, root, int(result["batch_id"]), operator, str(state_var), pending, partition)
        total, found = len(found), found[:limit]
    result.update({"operator_id": operator, "store_name": store_name, "state_var": state_var,
                   "partition": partition, "rows": found,
                   "total_rows": total, "limit": limit})
    return result
