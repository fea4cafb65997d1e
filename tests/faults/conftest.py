"""Helpers for the fault tests: the integration suite's fixtures and file helpers, plus a
snapshot of a directory tree to show that a failure deleted nothing."""

from __future__ import annotations

import hashlib
import os
from typing import Any, Dict

from tests.integration.conftest import job_temp_dir, make_env, pytest_configure  # noqa: F401


def tree(directory: Any) -> Dict[str, str]:
    """Every file below ``directory`` with a hash of its content (directories end in ``/``)."""
    found: Dict[str, str] = {}
    for root, dirs, names in os.walk(str(directory)):
        for name in dirs:
            found[os.path.relpath(os.path.join(root, name), str(directory)) + "/"] = ""
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, str(directory))] = hashlib.sha256(f.read()).hexdigest()
    return found
