"""Checkpoint paths, parsed and normalised by Hadoop's ``Path`` in the Spark JVM.

Hadoop's ``Path`` normalises URIs the way Flink's does (``file:///tmp/x/`` becomes
``file:/tmp/x``, ``a/../b`` collapses), so paths read back exactly as under PyFlink.
"""

from __future__ import annotations

from typing import Any

from pyflink_compat.util.exceptions import call_java, illegal_argument, java_error
from pyflink_compat.util.java_args import java_string

__all__ = ["normalize_path", "checkpoint_path", "NO_SCHEME", "ROOT_DIRECTORY"]

NO_SCHEME = (
    "The scheme (hdfs://, file://, etc) is null. "
    "Please specify the file system scheme explicitly in the URI."
)
ROOT_DIRECTORY = "Cannot use the root directory for checkpoints."
_PATH_TARGET = "None.org.apache.flink.core.fs.Path"


def _hadoop_path(text: Any) -> Any:
    from pyflink_compat.java_gateway import get_gateway

    java_string(text, "org.apache.flink.core.fs.Path", _PATH_TARGET, constructor=True)
    return call_java(_PATH_TARGET, get_gateway().jvm.org.apache.hadoop.fs.Path, text)


def normalize_path(text: Any) -> str:
    """``text`` as a normalised path; only its syntax is checked."""
    return str(_hadoop_path(text).toString())


def checkpoint_path(text: Any, target: str) -> str:
    """``text`` as a normalised checkpoint location: it needs a scheme and may not be a root.

    :raises JavaIllegalArgumentError: with Flink's message for a bad location.
    """
    path = _hadoop_path(text)
    if path.toUri().getScheme() is None:
        raise illegal_argument(NO_SCHEME, target)
    if path.isRoot():
        raise illegal_argument(ROOT_DIRECTORY, target)
    return str(path.toString())


def null_pointer(message: Any, target: str) -> Exception:
    """PyFlink's ``NullPointerException`` for a missing required argument."""
    return java_error("java.lang.NullPointerException", message, target)
