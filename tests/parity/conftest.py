"""Print the parity totals at the end of a session that ran the compat comparison."""
from __future__ import annotations

from typing import Any

from . import compare


def pytest_terminal_summary(terminalreporter: Any) -> None:
    totals = compare.SESSION_TOTALS
    if totals.scenarios:
        terminalreporter.write_sep("-", "pyflink_compat parity")
        terminalreporter.write_line(totals.format())
