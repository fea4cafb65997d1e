"""What a job's DataStream functions print in Spark's Python workers, written to the driver's
standard output.

In PyFlink the functions of a local job run in Python workers whose standard output is the
job's own: a ``print`` in a ``MapFunction`` shows among the print sinks' lines. Spark copies its
workers' standard output to the executor's standard error. So that the lines land where PyFlink
puts them, the driver names a directory (one per driver process), the worker side of each
operator makes ``sys.stdout`` of its worker process append to a file of that directory while a
function of the job runs (Spark's own lines stay where Spark puts them), and the
driver writes every whole line it finds there to its own ``sys.stdout``: as they come, from a
polling thread, and all of them before ``execute`` returns (:func:`drain`).

A worker that does not see the directory (executors on other machines) prints as Spark's
workers do.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import os
import shutil
import sys
import tempfile
import threading
from typing import Dict, Iterable, Iterator, Optional, Tuple, TypeVar

__all__ = ["directory", "drain", "forwarded", "printing_to"]

_POLL_S = 0.2
_DRIVER_FILE = "driver.pid"
_SUFFIX = ".out"
T = TypeVar("T")

_lock = threading.Lock()
_directory: Optional[str] = None
_offsets: Dict[str, int] = {}
_partial: Dict[str, bytes] = {}


def directory() -> str:
    """The directory the workers of this driver process write their output to, created (and
    its polling thread started) on the first call."""
    global _directory
    with _lock:
        if _directory is None:
            path = tempfile.mkdtemp(prefix="pyflink-compat-output-")
            with open(os.path.join(path, _DRIVER_FILE), "w", encoding="ascii") as marker:
                marker.write(str(os.getpid()))
            atexit.register(shutil.rmtree, path, True)
            _directory = path
            threading.Thread(target=_poll, name="worker-output", daemon=True).start()
        return _directory


def drain() -> None:
    """Write every line the workers wrote so far to ``sys.stdout``, a last unfinished line too."""
    if _directory is not None:
        _pump(final=True)


def _poll() -> None:
    stop = threading.Event()
    while not stop.wait(_POLL_S):
        _pump(final=False)


def _pump(final: bool) -> None:
    with _lock:
        if _directory is None:
            return
        try:
            names = sorted(n for n in os.listdir(_directory) if n.endswith(_SUFFIX))
        except OSError:
            return
        text = []
        for name in names:
            path = os.path.join(_directory, name)
            offset = _offsets.get(path, 0)
            try:
                with open(path, "rb") as file:
                    file.seek(offset)
                    data = file.read()
            except OSError:
                continue
            _offsets[path] = offset + len(data)
            data = _partial.pop(path, b"") + data
            whole, newline, rest = data.rpartition(b"\n")
            if newline:
                text.append(whole.decode("utf-8", "replace") + "\n")
            if rest and final:
                text.append(rest.decode("utf-8", "replace") + "\n")
            elif rest:
                _partial[path] = rest
        if text:
            sys.stdout.write("".join(text))
            sys.stdout.flush()


class _AppendingOutput(io.TextIOBase):
    """A worker process's standard output: each write appended (and flushed) to its file."""

    def __init__(self, path: str):
        self.path = path
        self.directory = os.path.dirname(path)
        self._file = open(path, "a", encoding="utf-8")

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._file.write(text)
        self._file.flush()
        return len(text)

    def flush(self) -> None:
        self._file.flush()


_outputs: Dict[Tuple[str, int], _AppendingOutput] = {}


def _output_for(output_directory: Optional[str]) -> Optional[_AppendingOutput]:
    """This worker process's file of ``output_directory``; ``None`` where the directory is not
    seen or in the driver itself."""
    if not output_directory:
        return None
    known = _outputs.get((output_directory, os.getpid()))
    if known is not None:
        return known
    try:
        with open(os.path.join(output_directory, _DRIVER_FILE), encoding="ascii") as marker:
            if int(marker.read() or "0") == os.getpid():
                return None
    except (OSError, ValueError):
        return None
    output = _AppendingOutput(os.path.join(output_directory, "%d%s" % (os.getpid(), _SUFFIX)))
    _outputs[(output_directory, os.getpid())] = output
    return output


@contextlib.contextmanager
def forwarded(output_directory: Optional[str]) -> Iterator[None]:
    """While the block runs (a job's function), ``sys.stdout`` of a worker process that sees
    ``output_directory`` appends to its file there; Spark's own lines stay where Spark puts
    them."""
    output = _output_for(output_directory)
    if output is None:
        yield
        return
    from pyflink_compat.runtime.worker_calls import watched_script

    with _forwarding(output, watched_script(output.directory)):
        yield


@contextlib.contextmanager
def _forwarding(output: _AppendingOutput, script: Optional[str]) -> Iterator[None]:
    from pyflink_compat.runtime.worker_calls import watched

    saved, sys.stdout = sys.stdout, output
    try:
        with watched(output.directory, script):
            yield
    finally:
        sys.stdout = saved


def printing_to(output_directory: Optional[str], items: Iterable[T]) -> Iterator[T]:
    """``items``, each produced with what it prints :func:`forwarded` (not while the consumer
    holds it)."""
    iterator = iter(items)
    output = _output_for(output_directory)
    if output is None:
        yield from iterator
        return
    from pyflink_compat.runtime.worker_calls import watched_script

    script = watched_script(output.directory)
    if script is not None:
        while True:
            with _forwarding(output, script):
                try:
                    item = next(iterator)
                except StopIteration:
                    return
            yield item
    # Unwatched (every run but the porting tool's checks): the same swap, without two
    # context managers per item, which cost more than many a job's function.
    while True:
        saved, sys.stdout = sys.stdout, output
        try:
            item = next(iterator)
        except StopIteration:
            return
        finally:
            sys.stdout = saved
        yield item
