"""Print the corpus totals at the end of a session that ran the corpus comparison."""
from __future__ import annotations

from typing import Any

from . import compare


def pytest_terminal_summary(terminalreporter: Any) -> None:
    tallies = [t for t in (compare.SESSION, compare.WHOLE_FILES) if t.results]
    if tallies:
        terminalreporter.write_sep("-", "PyFlink job corpus")
    for tally in tallies:
        terminalreporter.write_line(tally.summary())
        for line in tally.details():
            terminalreporter.write_line(line)
