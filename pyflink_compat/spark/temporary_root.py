"""The local directory one run of a job owns for its temporary checkpoint locations.

A job whose checkpoints need not survive it (no durable checkpoint storage) still needs a
checkpoint location per query; they go under a fresh directory made for the run and removed
when it ends. Only a directory whose name shows it was made here is ever removed.
"""

from __future__ import annotations

import os
import shutil
import tempfile

__all__ = ["make_temporary_root", "remove_temporary_root"]

_PREFIX = "pyflink_compat-"


def make_temporary_root(job_name: str) -> str:
    """A new local directory owned by one run of a job, as a ``file:`` URI."""
    safe = "".join(c if c.isalnum() else "-" for c in job_name)[:40]
    return "file:" + tempfile.mkdtemp(prefix="{}{}-".format(_PREFIX, safe))


def remove_temporary_root(root: str) -> None:
    """Remove a directory made by :func:`make_temporary_root`."""
    local = root[len("file:"):] if root.startswith("file:") else root
    if os.path.basename(local).startswith(_PREFIX):
        shutil.rmtree(local, ignore_errors=True)
