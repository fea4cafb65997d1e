"""Members of pyflink_compat's classes that PyFlink 1.20.5 does not have, marked as such.

A ported job can call everything in this reference on PyFlink too, except the members listed
in :data:`COMPAT_ONLY`: the ones that connect the Flink API to the PySpark pipeline
(``spark_session``, ``add_sink``...) and a few conveniences. Their pages carry a note saying
so, and their class pages list them apart from the members PyFlink has.

The list is data, compared against live PyFlink 1.20.5 by hand when it changes: for each class
of ``pyflink.datastream`` and ``pyflink.common`` of the same name, the public names defined
anywhere in its MRO, against the public names the pyflink_compat class defines itself. The
build checks that every entry still names a member of pyflink_compat.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Dict, List, Tuple

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

#: Per documented class, its members that the PyFlink 1.20.5 class of the same name lacks.
COMPAT_ONLY: Dict[str, Tuple[str, ...]] = {
    "pyflink_compat.datastream.StreamExecutionEnvironment": (
        "spark_session", "add_sink", "get_job_plan", "configure_writer"),
    "pyflink_compat.common.JobClient": ("get_checkpoint_statistics",),
    "pyflink_compat.common.JobID": ("to_hex_string",),
    "pyflink_compat.common.CompletableFuture": ("add_done_callback",),
}

NOTE = ("pyflink_compat only: PyFlink 1.20.5's ``{cls}`` has no ``{member}``. Code that must "
        "also run on PyFlink cannot use it.")


def compat_only_names() -> Dict[str, List[str]]:
    """:data:`COMPAT_ONLY` for the autosummary templates (class full name to member names)."""
    return {cls: list(members) for cls, members in COMPAT_ONLY.items()}


def _split(full_name: str) -> Tuple[str, str]:
    cls, _, member = full_name.rpartition(".")
    return cls, member


def mark_docstring(app: Any, what: str, name: str, obj: Any, options: Any, lines: List[str]) -> None:
    cls, member = _split(name)
    if member in COMPAT_ONLY.get(cls, ()):
        lines.extend(["", ".. note:: " + NOTE.format(cls=cls.rsplit(".", 1)[-1], member=member)])


def check_entries(app: Any, env: Any) -> None:
    """Warn (an error under ``-W``) for an entry naming nothing in pyflink_compat."""
    from sphinx.util import logging

    logger = logging.getLogger("pyflink_compat.docs")
    for cls, members in COMPAT_ONLY.items():
        module, _, name = cls.rpartition(".")
        owner = getattr(importlib.import_module(module), name, None)
        for member in members:
            if owner is None or member not in vars(owner):
                logger.warning("compat_only lists %s.%s, which pyflink_compat does not define", cls, member)


def setup(app: "Sphinx") -> "ExtensionMetadata":
    app.connect("autodoc-process-docstring", mark_docstring)
    app.connect("env-check-consistency", check_entries)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
