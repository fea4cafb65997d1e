"""Where the job log goes: its own place, as a Flink job's log, never the application's output.

A Flink job's log (checkpoints completed, restarts, what happened to the checkpoints at the
end) is written by the cluster, apart from anything the Python application prints or logs: a
PyFlink script that sends its own logging to standard output (``logging.basicConfig(
stream=sys.stdout, level=logging.INFO)``, as PyFlink's examples do) sees its records there and
nothing of the job's. pyflink_compat keeps that separation:

* the ``pyflink_compat`` loggers do not pass their records on to the root logger (the
  application's handlers), unless the application sets ``propagate`` back to ``True`` itself;
* unless the application configured the ``pyflink_compat`` logger (gave it a handler or a
  level), one handler writes its INFO records to standard error, as a Flink client shows its
  job's progress;
* that handler steps aside for good (removing itself, restoring the level) as soon as the
  application configures the ``pyflink_compat`` logger later, or lets it propagate to a
  configured root logger, so no record is printed twice;
* it prints one line per record: a multi-line INFO message is cut to its first line (a handler
  the application configures gets it whole);
* py4j's own INFO lines (its callback server starting, connections closing) are held back as in
  PyFlink, whose py4j loggers are at WARNING: :func:`quiet_py4j`.
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import Optional

__all__ = ["LOGGER_NAME", "install_default_handler", "quiet_py4j", "remove_default_handler"]

#: The logger every module of the package logs under (``pyflink_compat.job``, ...).
LOGGER_NAME = "pyflink_compat"

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_lock = threading.Lock()

#: py4j's loggers that write INFO lines while a job runs (PyFlink's are at WARNING).
_PY4J_LOGGERS = ("py4j.java_gateway", "py4j.clientserver")

# The job log is the job's, not the application's (module docstring).
logging.getLogger(LOGGER_NAME).propagate = False


class _DefaultHandler(logging.Handler):
    """Writes the package's records to standard error until the application configures logging."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(_OneLineFormatter(_FORMAT))

    def handle(self, record: logging.LogRecord) -> bool:
        if _application_configured(ignore=self):
            remove_default_handler()
            return False
        return bool(super().handle(record))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            # standard error as it is now (a test or the application may have replaced it)
            sys.stderr.write(self.format(record) + "\n")
            sys.stderr.flush()
        except Exception:
            self.handleError(record)


class _OneLineFormatter(logging.Formatter):
    """The first line of an INFO message; warnings and errors whole."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        text = super().formatMessage(record)
        if record.levelno < logging.WARNING and "\n" in text:
            return text.split("\n", 1)[0]
        return text


_installed: Optional[_DefaultHandler] = None


def _application_configured(ignore: Optional[logging.Handler] = None) -> bool:
    package = logging.getLogger(LOGGER_NAME)
    if any(h is not ignore for h in package.handlers):
        return True
    return package.propagate and bool(logging.getLogger().handlers)


def install_default_handler() -> bool:
    """Show the package's INFO log on standard error, unless the application configured it.

    Safe to call any number of times and from any thread.

    :return: Whether the default handler is in place after the call.
    """
    global _installed
    with _lock:
        if _installed is not None:
            return True
        package = logging.getLogger(LOGGER_NAME)
        if _application_configured() or package.level != logging.NOTSET:
            return False
        _installed = _DefaultHandler()
        package.addHandler(_installed)
        package.setLevel(logging.INFO)
        return True


def remove_default_handler() -> None:
    """Take the default handler away again and give the logger back its unset level."""
    global _installed
    with _lock:
        if _installed is None:
            return
        package = logging.getLogger(LOGGER_NAME)
        # a new list, not list.remove(): a record may be going through the old one right now
        package.handlers = [h for h in package.handlers if h is not _installed]
        if package.level == logging.INFO:
            package.setLevel(logging.NOTSET)
        _installed = None


def quiet_py4j() -> None:
    """Hold back py4j's INFO lines, as PyFlink does, unless the application set their levels."""
    for name in _PY4J_LOGGERS:
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)
