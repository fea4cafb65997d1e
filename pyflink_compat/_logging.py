"""The job log on the console when the application has not configured logging.

A Flink job's log (checkpoints completed, restarts, what happened to the checkpoints at the
end) is visible without any set-up; a Python library's INFO records are not, because Python
shows only warnings until the application configures logging. :func:`install_default_handler`
closes that gap the way :data:`logging.lastResort` does for warnings, but at INFO and for the
``pyflink_compat`` loggers only:

* it does nothing when the application has configured logging (a handler on the root logger or
  on the ``pyflink_compat`` logger) or has set the ``pyflink_compat`` logger's level itself;
* otherwise it attaches one handler writing to standard error and lowers that logger's level
  to INFO;
* the handler steps aside for good (removing itself, restoring the level) as soon as the
  application configures logging later, so no record is printed twice;
* it prints one line per record: a multi-line INFO message is cut to its first line (a handler
  the application configures gets it whole).
"""

from __future__ import annotations

import logging
import sys
import threading
from typing import Optional

__all__ = ["LOGGER_NAME", "install_default_handler", "remove_default_handler"]

#: The logger every module of the package logs under (``pyflink_compat.job``, ...).
LOGGER_NAME = "pyflink_compat"

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_lock = threading.Lock()


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
    return bool(logging.getLogger().handlers)


def install_default_handler() -> bool:
    """Show the package's INFO log on standard error, unless the application configured logging.

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
