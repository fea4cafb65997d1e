"""Turn the outcome of one battery step into a JSON-able observation.

The same code runs for both roots (``pyflink`` and ``pyflink_compat``), so everything that
legitimately differs between runs (memory addresses, Java identity hashes, py4j object ids,
the temp directory, the root package name) is normalised here.

Nothing in this module imports pyflink, pyspark or py4j: exception classes are recognised by
the qualified names in their MRO.
"""
from __future__ import annotations

import enum
import math
import os
import re
import warnings
from collections.abc import Iterable
from typing import Any

Observation = dict[str, Any]

PY4J_ERROR = "py4j.protocol.Py4JError"
_SHADED_PREFIX = "org.apache.flink.api.python.shaded."
_PY4J_EXCEPTION_PREFIX = "py4j.Py4JException: "
#: Warning categories that depend on garbage-collection timing, not on the API under test.
IGNORED_WARNING_CATEGORIES = (ResourceWarning,)

_ADDR_RE = re.compile(r"0x[0-9a-fA-F]+")
_JAVA_HASH_RE = re.compile(r"@[0-9a-f]{1,8}\b")
_PY4J_ID_RE = re.compile(r"(?<![\w.])o\d+\b")


def qualname(cls: type) -> str:
    """``module.QualName`` of a class (``builtins.int`` for builtins)."""
    return f"{cls.__module__}.{cls.__qualname__}"


def _ordered_repr(value: Any) -> str:
    """``repr``, except that sets and dicts list their items sorted.

    Their order comes from string hashing (randomised per process) or from a Java
    ``HashMap``, so it is not part of the behaviour under test.
    """
    if type(value) in (set, frozenset):
        items = ", ".join(sorted(repr(item) for item in value))
        if type(value) is set:
            return "{" + items + "}" if items else "set()"
        return "frozenset({" + items + "})" if items else "frozenset()"
    if type(value) is dict:
        pairs = sorted((repr(k), repr(v)) for k, v in value.items())
        return "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
    return repr(value)


class Observer:
    """Builds observations for one root; ``tmp`` is the battery's temp directory."""

    def __init__(self, root: str, tmp: str | None = None) -> None:
        self.root = root
        self._root_re = re.compile(r"\b" + re.escape(root) + r"\b")
        tmp_forms: list[str] = []
        if tmp:
            for form in (tmp, os.path.realpath(tmp)):
                if form not in tmp_forms:
                    tmp_forms.append(form)
        # longest first so that a realpath that extends the plain path is replaced whole
        self._tmp_forms = sorted(tmp_forms, key=len, reverse=True)

    # -- text -------------------------------------------------------------------------
    def normalise(self, text: str) -> str:
        for form in self._tmp_forms:
            text = text.replace(form, "<tmp>")
        text = _ADDR_RE.sub("<addr>", text)
        text = _JAVA_HASH_RE.sub("@<hash>", text)
        text = _PY4J_ID_RE.sub("o<id>", text)
        return self._root_re.sub("<root>", text)

    def type_name(self, cls: type) -> str:
        return self.normalise(qualname(cls))

    def safe_repr(self, value: Any) -> str:
        try:
            text = _ordered_repr(value)
        except Exception as exc:  # a failing repr is an observable fact
            text = f"<repr raised {qualname(type(exc))}>"
        return self.normalise(text)

    # -- values -----------------------------------------------------------------------
    def jsonable(self, value: Any, nested: bool = False) -> Any:
        """JSON form of ``value``; unrepresentable objects give None (nested: their repr)."""
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, enum.Enum):
            return f"{type(value).__qualname__}.{value.name}"
        if isinstance(value, int):
            return int(value)
        if isinstance(value, float):
            return value if math.isfinite(value) else repr(value)
        if isinstance(value, str):
            return self.normalise(value)
        if isinstance(value, (list, tuple)):
            return [self.jsonable(item, nested=True) for item in value]
        if isinstance(value, (set, frozenset)):
            items = [self.jsonable(item, nested=True) for item in value]
            return sorted(items, key=repr)
        if isinstance(value, dict):
            return {
                self.normalise(str(key)): self.jsonable(item, nested=True)
                for key, item in sorted(value.items(), key=lambda kv: str(kv[0]))
            }
        return self.safe_repr(value) if nested else None

    def value(self, value: Any) -> Observation:
        return {
            "kind": "value",
            "type": self.type_name(type(value)),
            "repr": self.safe_repr(value),
            "value": self.jsonable(value),
        }

    # -- errors -----------------------------------------------------------------------
    def error(self, exc: BaseException) -> Observation:
        mro = [self.type_name(cls) for cls in type(exc).__mro__]
        is_py4j = PY4J_ERROR in mro
        java_exc = getattr(exc, "java_exception", None)
        java_class: str | None = None
        java_message: str | None = None
        if java_exc is not None:
            java_class, java_message = self._java_details(java_exc)
        detail: str | None = None
        if not is_py4j:
            detail = self.normalise(str(exc))
        elif java_exc is None:
            detail = self.py4j_detail(str(exc))
        return {
            "kind": "error",
            "type": mro[0],
            "mro": mro,
            "java_class": java_class,
            "java_message": java_message,
            "detail": detail,
        }

    def _java_details(self, java_exc: Any) -> tuple[str | None, str | None]:
        try:
            java_class: str | None = str(java_exc.getClass().getName())
        except Exception as exc:  # keep observing
            java_class = f"<getClass failed: {qualname(type(exc))}>"
        try:
            message = java_exc.getMessage()
            java_message = None if message is None else self.normalise(str(message))
        except Exception as exc:  # keep observing
            java_message = f"<getMessage failed: {qualname(type(exc))}>"
        return java_class, java_message

    def py4j_detail(self, text: str) -> str:
        """The line of a py4j error text that says what went wrong."""
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines and lines[0].startswith("An error occurred while calling"):
            lines = lines[1:]
        line = lines[0] if lines else ""
        line = line.removeprefix(_SHADED_PREFIX)
        line = line.removeprefix(_PY4J_EXCEPTION_PREFIX)
        return self.normalise(line)

    # -- warnings ---------------------------------------------------------------------
    def warnings(self, caught: Iterable[warnings.WarningMessage]) -> list[dict[str, str]]:
        out: list[dict[str, str]] = []
        for item in caught:
            if issubclass(item.category, IGNORED_WARNING_CATEGORIES):
                continue
            out.append({"category": item.category.__name__,
                        "message": self.normalise(str(item.message))})
        return out

    def crash(self, exc: BaseException) -> Observation:
        """Observation for an exception that escaped a scenario outside any step."""
        obs = self.error(exc)
        obs["warnings"] = []
        return obs
