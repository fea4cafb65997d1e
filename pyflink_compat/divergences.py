"""Every deliberate difference from PyFlink 1.20.5, in one place.

Each entry names the parity observations it allows (glob patterns over
``<scenario>/<step>``), says why, and is listed in the documentation. Nothing else may differ.
"""

from __future__ import annotations

from typing import Tuple

import attrs

__all__ = ["Divergence", "DIVERGENCES"]


@attrs.frozen
class Divergence:
    """One deliberate difference from PyFlink 1.20.5.

    :param id: A short stable name.
    :param summary: What differs, in one sentence.
    :param reason: Why pyflink_compat differs (PyFlink's behaviour is a bug or unsafe).
    :param steps: The parity observations it allows, as ``fnmatch`` patterns.
    """

    id: str
    summary: str
    reason: str
    steps: Tuple[str, ...] = ()


DIVERGENCES: Tuple[Divergence, ...] = (
    Divergence(
        id="retention-setter-works",
        summary="CheckpointConfig.set_externalized_checkpoint_retention() stores the mode.",
        reason="In PyFlink 1.20.5 every call raises Py4JError because the wrapper looks the "
        "Java enum up under a class path that no longer exists; the method is documented "
        "and its getter works.",
    ),
    Divergence(
        id="rejected-call-changes-nothing",
        summary="A call that raises leaves every setting as it was.",
        reason="PyFlink's enable_checkpointing(interval, mode) switches the mode before the "
        "interval is rejected, leaving a half-applied configuration.",
    ),
    Divergence(
        id="configure-is-atomic",
        summary="configure() and get_execution_environment(conf) check every value first and "
        "store nothing when one cannot be parsed or is out of range.",
        reason="PyFlink stores the bad value anyway, so that every later getter of that option "
        "raises, or returns the out-of-range value.",
    ),
    Divergence(
        id="informative-str",
        summary="str() of FileSystemCheckpointStorage and of state backends describes the "
        "object instead of printing a Java identity hash or a Java class.",
        reason="PyFlink prints Object.toString() (non-deterministic), and for a HashMap "
        "backend read back from the environment the Java Class object (an upstream bug).",
    ),
)
