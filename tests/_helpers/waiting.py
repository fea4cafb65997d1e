"""Waiting for something that happens in another thread or process."""

from __future__ import annotations

import time
from typing import Any, Callable

import pytest


def wait_until(predicate: Callable[[], Any], timeout: float = 90.0, what: str = "condition",
               interval: float = 0.1) -> Any:
    """Call ``predicate`` until it returns something truthy and return that; fail the test after
    ``timeout`` seconds, saying it waited for ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail("Timed out after {:.0f} s waiting for {}".format(timeout, what))
        time.sleep(interval)
