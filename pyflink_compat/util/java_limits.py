"""The ranges of Java's ``int`` and ``long``, which PyFlink's calls into the JVM enforce."""

from __future__ import annotations

__all__ = ["INT_MIN", "INT_MAX", "LONG_MIN", "LONG_MAX"]

#: Java's ``Integer.MIN_VALUE`` and ``Integer.MAX_VALUE``.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
#: Java's ``Long.MIN_VALUE`` and ``Long.MAX_VALUE``.
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
