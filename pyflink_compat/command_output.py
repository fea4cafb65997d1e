"""What a ``pyflink-compat`` command gives back when it fails, and how it shows tables.

Every command fails the same way: a :class:`CommandError` carries the message, the exit code
and a finer reason. The exit codes are Flink's CLI's, so that scripts written for ``flink``
read them unchanged:

* ``0`` (:data:`EXIT_OK`): done;
* ``1`` (:data:`EXIT_FAILED`): the command failed (a wrong command line, no such job, a job that
  is not running or does not answer, a refused request, a failed verification, a file that
  cannot be read or written);
* ``31`` (:data:`EXIT_CONFIGURATION`): the configuration cannot be read (``FLINK_CONF_DIR``
  names no directory, or one without ``config.yaml`` or ``flink-conf.yaml``, or the file is
  malformed), as ``flink`` exits when it cannot load its configuration.

With ``--json``, a failure prints one JSON document, the same for every command
(:meth:`CommandError.to_json`): ``{"error": message, "exit_code": code, "reason": reason,
"path": path or null}``, where ``reason`` is one of :data:`REASONS`.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

__all__ = ["EXIT_OK", "EXIT_FAILED", "EXIT_CONFIGURATION", "REASONS", "CommandError", "table"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_CONFIGURATION = 31

#: The finer reasons of a failure, each with its exit code.
REASONS: Dict[str, int] = {
    "usage": EXIT_FAILED,            # the command line is wrong
    "not-supported": EXIT_FAILED,    # asks for what Spark cannot do (stop --drain)
    "no-job": EXIT_FAILED,           # no job matches, or no checkpoint directory is configured
    "not-running": EXIT_FAILED,      # the job ended, or its driver is gone
    "no-answer": EXIT_FAILED,        # the job did not answer within client.timeout
    "failed": EXIT_FAILED,           # the job, the program or the request failed
    "storage": EXIT_FAILED,          # a checkpoint or savepoint is not what the command needs
    "permission": EXIT_FAILED,       # a file or directory this account may not read or write
    "configuration": EXIT_CONFIGURATION,  # the Flink configuration cannot be read
}


class CommandError(Exception):
    """A command that cannot be done.

    :param message: What went wrong, for the person reading it.
    :param reason: One of :data:`REASONS`; it gives the exit code.
    :param path: The file or directory concerned, when there is one.
    """

    def __init__(self, message: str, reason: str = "failed", path: Optional[str] = None):
        super().__init__(message)
        if reason not in REASONS:
            raise ValueError("unknown reason {!r}".format(reason))
        self.reason = reason
        self.code = REASONS[reason]
        self.path = path

    def to_json(self) -> Dict[str, Any]:
        """The failure as the one JSON document every command prints with ``--json``."""
        return {"error": str(self), "exit_code": self.code, "reason": self.reason, "path": self.path}


def table(rows: Sequence[Sequence[str]], indent: int = 2) -> List[str]:
    """Rows of cells as aligned text lines (the first row is the heading), each line indented
    by ``indent`` spaces, with no trailing spaces."""
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [" " * indent + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip()
            for row in rows]
