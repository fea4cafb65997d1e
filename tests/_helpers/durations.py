"""Each test's duration, kept in a file after every run.

When ``PYFLINK_COMPAT_DURATIONS`` names a file (tox sets it to ``.tox/durations-<env>.json``),
the run writes there, as JSON, its total time, the number of tests, and every test with its
setup, call and teardown time added up, slowest first. ``--durations`` prints the slowest in
the log; this file keeps them all, from the last run of each env.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, Dict

__all__ = ["pytest_sessionstart", "pytest_runtest_logreport", "pytest_sessionfinish"]

#: The environment variable naming the file to write.
DURATIONS_FILE = "PYFLINK_COMPAT_DURATIONS"

_durations: Dict[str, float] = {}
_outcomes: Dict[str, str] = {}
_started = [0.0]


def pytest_sessionstart(session: Any) -> None:
    _started[0] = time.time()


def pytest_runtest_logreport(report: Any) -> None:
    _durations[report.nodeid] = _durations.get(report.nodeid, 0.0) + float(report.duration)
    if report.when == "call" or report.outcome != "passed":
        _outcomes[report.nodeid] = report.outcome


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    target = os.environ.get(DURATIONS_FILE)
    if hasattr(session.config, "workerinput"):
        return  # a pytest-xdist worker: the controller gets every report and writes the file
    if not target or not _durations:
        return
    tests = sorted(_durations.items(), key=lambda item: -item[1])
    record = {
        "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "wall_seconds": round(time.time() - _started[0], 2),
        "exit_status": int(exitstatus),
        "tests": len(tests),
        "durations": [{"test": nodeid, "seconds": round(seconds, 3), "outcome": _outcomes.get(nodeid, "passed")}
                      for nodeid, seconds in tests],
    }
    os.makedirs(os.path.dirname(os.path.abspath(target)), exist_ok=True)
    with open(target, "w", encoding="utf-8") as out:
        json.dump(record, out, indent=1)
        out.write("\n")
