"""Compare a preamble's outcome under the shim with PyFlink's recorded outcome.

A preamble PyFlink runs must run under the shim and give the same probe values; a probe that
raised under PyFlink must raise an exception whose MRO contains PyFlink's class name. A preamble
PyFlink rejects must be rejected with an exception whose MRO contains PyFlink's class name,
unless PyFlink rejected it only because a connector's Java class was missing: the PyFlink
environment of the recordings holds no connector jars (a job's ``KafkaSource.builder()`` fails
there), while the shim builds connectors without any, so such a preamble is not compared.
"""
from __future__ import annotations

from typing import Any, Dict, List

#: PyFlink's message for a connector class its environment does not have.
MISSING_CONNECTOR_CLASS = "Could not found the Java class 'org.apache.flink.connector."


class Tally:
    """Per-session results, for the summary line."""

    def __init__(self, label: str = "corpus: {} preambles") -> None:
        self.label = label
        self.results: Dict[str, List[str]] = {}

    def add(self, name: str, differences: List[str]) -> None:
        self.results[name] = differences

    def summary(self) -> str:
        differ = sum(1 for diffs in self.results.values() if diffs)
        return (self.label + ", {} match PyFlink, {} differ").format(
            len(self.results), len(self.results) - differ, differ)

    def details(self) -> List[str]:
        return ["  {}: {}".format(name, diffs[0] + (" (+{} more)".format(len(diffs) - 1)
                                                    if len(diffs) > 1 else ""))
                for name, diffs in sorted(self.results.items()) if diffs]


SESSION = Tally()
WHOLE_FILES = Tally("whole job files: {} preambles")


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def _raises_like(expected: Dict[str, Any], actual: Any) -> bool:
    return isinstance(actual, dict) and "raises" in actual and expected["raises"][0] in actual["raises"]


def _compare_values(path: str, expected: Any, actual: Any, out: List[str]) -> None:
    if isinstance(expected, dict) and "raises" in expected and len(expected) == 1:
        if not _raises_like(expected, actual):
            out.append("{}: PyFlink raises {}, shim gives {}".format(
                path, expected["raises"][0], _short(actual)))
        return
    if isinstance(expected, dict) and isinstance(actual, dict) and "value" not in expected:
        for key in sorted(set(expected) | set(actual)):
            sub = "{}.{}".format(path, key)
            if key not in actual:
                out.append("{}: missing under the shim (PyFlink: {})".format(sub, _short(expected[key])))
            elif key not in expected:
                out.append("{}: extra under the shim ({})".format(sub, _short(actual[key])))
            else:
                _compare_values(sub, expected[key], actual[key], out)
        return
    if expected != actual:
        out.append("{}: PyFlink {}, shim {}".format(path, _short(expected), _short(actual)))


def differences(recorded: Dict[str, Any], actual: Dict[str, Any]) -> List[str]:
    """Every way the shim's outcome differs from PyFlink's recorded one (empty: a match)."""
    out: List[str] = []
    if recorded["outcome"] == "rejected":
        if recorded["error"]["message"].startswith(MISSING_CONNECTOR_CLASS):
            return out
        expected_class = recorded["error"]["mro"][0]
        if actual["outcome"] != "rejected":
            out.append("PyFlink rejects it with {}, the shim runs it".format(expected_class))
        elif expected_class not in actual["error"]["mro"]:
            out.append("PyFlink rejects it with {}, the shim with {}: {}".format(
                expected_class, actual["error"]["mro"][0], actual["error"]["message"]))
        return out
    if actual["outcome"] != "ok":
        error = actual["error"]
        out.append("rejected by the shim: {}: {}".format(error["mro"][0], error["message"]))
        return out
    _compare_values("", recorded["environments"], actual["environments"], out)
    return [line.lstrip(".") for line in out]
