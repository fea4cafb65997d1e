"""Which lines of a job call pyflink_compat inside Spark's Python workers, seen from the driver.

A job's functions (``open``, ``process_element``, key selectors, timers...) run in Spark's
Python workers, where a profile set in the driver does not reach. While the driver watches a
job file (:func:`watching`), it leaves a marker naming the file in the directory its workers
write their output to (:mod:`~pyflink_compat.runtime.worker_output`); each time a worker runs
one of the job's functions (:func:`watched`), it records the lines of that file that call a
public function, method or constructor of pyflink_compat and appends them to a file of its own
there, which the driver reads back when the watch ends. Nothing is recorded without a marker:
the porting tool's tests use this to check that the report names every statement the job
runs against pyflink_compat.
"""

from __future__ import annotations

import contextlib
import glob
import os
import sys
from typing import Any, Iterator, Optional, Set

__all__ = ["recorder", "watching", "watched", "watched_script"]

_MARKER = "calls.watch"
_SUFFIX = ".calls"


def _package() -> str:
    import pyflink_compat

    return os.path.dirname(pyflink_compat.__file__ or "") + os.sep


def recorder(script: str, lines: Set[int]) -> Any:
    """A profile function adding to ``lines`` each line of ``script`` that calls a public
    function, method or constructor of pyflink_compat."""
    package = _package()
    # a worker's print writes to the standard output worker_output puts in place: the job's
    # print, not a call of pyflink_compat
    forwarding = os.path.join(package, "runtime", "worker_output.py")

    def profile(frame: Any, event: str, arg: Any) -> None:
        filename = frame.f_code.co_filename
        if event != "call" or not filename.startswith(package) or filename == forwarding:
            return
        caller = frame.f_back
        name = frame.f_code.co_name
        if caller is not None and caller.f_code.co_filename == script and (
                not name.startswith("_") or name == "__init__"):
            lines.add(caller.f_lineno)

    return profile


@contextlib.contextmanager
def watching(directory: str, script: str, lines: Set[int]) -> Iterator[None]:
    """(Driver.) While the block runs, the workers writing their output to ``directory`` (the
    driver's :func:`~pyflink_compat.runtime.worker_output.directory`) record the lines of
    ``script`` that call pyflink_compat; they are added to ``lines`` when it ends."""
    marker = os.path.join(directory, _MARKER)
    with open(marker, "w", encoding="utf-8") as out:
        out.write(script)
    try:
        yield
    finally:
        os.remove(marker)
        for path in glob.glob(os.path.join(directory, "*" + _SUFFIX)):
            with open(path, encoding="ascii") as recorded:
                lines.update(int(line) for line in recorded.read().split())
            os.remove(path)


def watched_script(output_directory: str) -> Optional[str]:
    """(Worker.) The job file the driver watches, else None."""
    try:
        with open(os.path.join(output_directory, _MARKER), encoding="utf-8") as marker:
            return marker.read()
    except OSError:
        return None


@contextlib.contextmanager
def watched(output_directory: str, script: Optional[str]) -> Iterator[None]:
    """(Worker.) While one of the job's functions runs, record its calls of pyflink_compat
    from ``script`` (the :func:`watched_script`; nothing is recorded for None)."""
    if script is None:
        yield
        return
    lines: Set[int] = set()
    previous: Optional[Any] = sys.getprofile()
    sys.setprofile(recorder(script, lines))
    try:
        yield
    finally:
        sys.setprofile(previous)
        if lines:
            with open(os.path.join(output_directory, "%d%s" % (os.getpid(), _SUFFIX)), "a",
                      encoding="ascii") as out:
                out.write("".join("%d\n" % line for line in sorted(lines)))
