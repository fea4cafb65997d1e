"""What a failed query's error says about its checkpoint, for the job's error message.

Spark reports some checkpoint problems without the file at fault (a state store it could not
load names no file); :func:`failure_context` adds the query, its checkpoint, the lines of the
error that name a file of it and, for state, the state files that cannot be read back.

Some failures no restart can cure: :func:`state_schema_change` recognises a query whose saved
state has another schema than its pipeline needs, which fails the job at once
(:class:`NonRecoverableFailure`).
"""

from __future__ import annotations

import re
from typing import Any, List, Optional, Tuple

from pyflink_compat.checkpoints.access import file_access_for
from pyflink_compat.checkpoints.layout import QueryCheckpoint
from pyflink_compat.spark.ownership import JobOwnership

__all__ = ["failure_context", "first_line", "is_checkpoint_write_failure", "state_schema_change",
           "CheckpointLost", "NonRecoverableFailure", "QueryStartFailure", "StateSchemaChanged"]

_CHECKPOINT_LOG_CLASSES = ("CheckpointFileManager", "HDFSMetadataLog", "CommitLog", "OffsetSeqLog")


class CheckpointLost(Exception):
    """A query's checkpoint lost batches this job had committed in it."""


class QueryStartFailure(Exception):
    """A query could not be started (the restart strategy decides what follows)."""


class NonRecoverableFailure(Exception):
    """A failure every restart would meet again: the job fails at once, whatever its restart
    strategy (Flink's suppressed restarts)."""


class StateSchemaChanged(NonRecoverableFailure):
    """A query's saved state has another key or value schema than its pipeline now needs."""


#: Spark 4's error classes for state saved with another schema, and Spark 3.5's: its schema
#: check, or, when a task read a state row before the check ran, its row format validation.
_SCHEMA_ERRORS = ("STATE_STORE_KEY_SCHEMA_NOT_COMPATIBLE", "STATE_STORE_VALUE_SCHEMA_NOT_COMPATIBLE",
                  "Provided schema doesn't match to the schema for existing state", "InvalidUnsafeRowException")
_SCHEMA_4 = re.compile(r"Existing (key|value)_schema=(.+?) and new \1_schema=(.+?)\.?\s*$", re.MULTILINE)
_SCHEMA_35 = re.compile(r"^\s*- (Provided|Existing) (key|value) schema: (.+?)\s*$", re.MULTILINE)
#: The schema Spark 3.5's row format validation expected of a state row.
_EXPECTED_SCHEMA = re.compile(r"expectedSchema: (StructType\(.*?\)\))")


def _schema_changes(text: str) -> List[Tuple[str, str, str]]:
    """``(key or value, saved schema, new schema)`` for each schema Spark's error says differs."""
    changes = [(m.group(1), m.group(2), m.group(3)) for m in _SCHEMA_4.finditer(text)]
    if changes:
        return changes
    found = {(m.group(1), m.group(2)): m.group(3) for m in _SCHEMA_35.finditer(text)}
    for part in ("key", "value"):
        saved, new = found.get(("Existing", part)), found.get(("Provided", part))
        if saved is not None and new is not None and saved != new:
            changes.append((part, saved, new))
    return changes


def _operators(location: str) -> str:
    """The stateful operators of a checkpoint, for the message (empty when unreadable)."""
    try:
        fs, local = file_access_for(location)
        operators = QueryCheckpoint(fs, local).operators()
    except Exception:  # the message does without
        return ""
    named = ["{}{}".format(o.operator_id, " ({})".format(o.name) if o.name else "") for o in operators]
    if len(named) == 1:
        return "its stateful operator {}".format(named[0])
    return "one of its stateful operators {}".format(", ".join(named)) if named else ""


def state_schema_change(sink: str, location: str, error: BaseException) -> Optional[StateSchemaChanged]:
    """The job's error when ``error`` says the query's saved state has another schema than its
    pipeline needs, else ``None``.

    :param sink: The query's sink name.
    :param location: Its checkpoint location.
    :param error: The error the query ended with.
    """
    text = str(getattr(error, "desc", None) or error)
    if not any(code in text for code in _SCHEMA_ERRORS):
        return None
    changes = _schema_changes(text)
    what = "; ".join("its {} schema was {} when the state was saved and the pipeline now needs {}".format(
        part, saved, new) for part, saved, new in changes)
    if not what:
        expected = _EXPECTED_SCHEMA.search(text)
        what = ("a saved state row does not fit the schema the pipeline now needs, {}".format(expected.group(1))
                if expected else first_line(error))
    operators = _operators(location)
    return StateSchemaChanged(
        "Sink '{}' cannot use the state in its checkpoint {}: the state of {} does not fit the job's "
        "pipeline: {}. Restoring or resuming state needs the same state schema (the same grouping keys "
        "and aggregations, of the same types): run the pipeline the state was saved with, or start the "
        "changed pipeline without this state (a new job name, without execution.state-recovery.path). "
        "The job is not restarted: every restart would fail the same way.".format(
            sink, location, operators or "a stateful operator", what))


def is_checkpoint_write_failure(exc: Any) -> bool:
    """Whether a query failed writing one of its checkpoint logs (a failed checkpoint, not a
    failed job, by Flink's rules)."""
    text = "{} {}".format(getattr(exc, "desc", ""), getattr(exc, "stackTrace", ""))
    return any(name in text for name in _CHECKPOINT_LOG_CLASSES)


_STATE_LOAD_ERRORS = ("CANNOT_LOAD_STATE_STORE", "CANNOT_READ_DELTA_FILE", "CANNOT_READ_SNAPSHOT_FILE",
                     "CANNOT_LOAD_STATE")


def failure_context(sink: str, location: str, j_query: Any, dirs: Optional[JobOwnership]) -> str:
    """The failed query, its checkpoint, the lines of its error that name a file of that
    checkpoint, and for state that Spark could not load, the state files that cannot be read.

    :param sink: The query's sink name.
    :param location: Its checkpoint location.
    :param j_query: The JVM ``StreamingQuery`` that ended with an error.
    :param dirs: The job's checkpoint directories (``None``: a temporary location).
    """
    local = location.split(":", 1)[1] if location.startswith("file:") else location
    local = "/" + local.lstrip("/")
    context = "query '{}' (checkpoint {})".format(sink, location)
    texts = []
    try:
        j_error = j_query.exception().get()
        for _ in range(20):
            if j_error is None:
                break
            texts.append(str(j_error.toString()))
            j_error = j_error.getCause()
    except Exception:  # the context is a courtesy
        return context
    named = []
    for text in texts:
        for line in text.splitlines():
            line = line.strip()
            if local in line and line not in named and not line.startswith("at "):
                named.append(line)
    if named:
        context += "; the error names: " + " | ".join(named[:5])
    if any(code in text for text in texts for code in _STATE_LOAD_ERRORS):
        context += "; Spark could not load the state stored under {}/state".format(location)
        bad = [] if dirs is None else dirs.unreadable_files(sink)
        if bad:
            context += "; state files that cannot be read: " + ", ".join(bad[:10])
        else:
            context += " (a state file there is corrupt or missing; no file fails its checksum)"
    return context


def first_line(error: BaseException) -> str:
    """The first line of an error's description (py4j errors carry a Java stack trace)."""
    text = str(getattr(error, "desc", None) or getattr(error, "java_exception", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__
