"""What a failed query's error says about its checkpoint, for the job's error message.

Spark reports some checkpoint problems without the file at fault (a state store it could not
load names no file); :func:`failure_context` adds the query, its checkpoint, the lines of the
error that name a file of it and, for state, the state files that cannot be read back.
"""

from __future__ import annotations

from typing import Any, Optional

from pyflink_compat.spark.ownership import JobOwnership

__all__ = ["failure_context", "first_line", "is_checkpoint_write_failure", "CheckpointLost",
           "QueryStartFailure"]

_CHECKPOINT_LOG_CLASSES = ("CheckpointFileManager", "HDFSMetadataLog", "CommitLog", "OffsetSeqLog")


class CheckpointLost(Exception):
    """A query's checkpoint lost batches this job had committed in it."""


class QueryStartFailure(Exception):
    """A query could not be started (the restart strategy decides what follows)."""


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
