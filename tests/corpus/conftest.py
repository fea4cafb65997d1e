"""Print the corpus totals at the end of a session that ran the corpus comparison."""
from __future__ import annotations

from typing import Any

from . import compare


def pytest_terminal_summary(terminalreporter: Any) -> None:
    tally = compare.SESSION
    if tally.results:
        terminalreporter.write_sep("-", "PyFlink job corpus")
        terminalreporter.write_line(tally.summary())
        for line in tally.details():
            terminalreporter.write_line(line)
