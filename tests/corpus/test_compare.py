"""The corpus comparison rules, on outcomes written out by hand."""
from __future__ import annotations

from typing import Any, Dict

from .compare import Tally, differences


def _ok(interval: Any) -> Dict[str, Any]:
    return {"outcome": "ok", "environments": {"env": {
        "kind": "StreamExecutionEnvironment",
        "checkpoint_config": {"get_checkpoint_interval": interval}}}}


def test_equal_probe_values_are_a_match() -> None:
    assert differences(_ok({"value": 5000}), _ok({"value": 5000})) == []


def test_a_different_probe_value_is_reported_with_its_path() -> None:
    diffs = differences(_ok({"value": 5000}), _ok({"value": 1000}))
    assert diffs == ["env.checkpoint_config.get_checkpoint_interval: PyFlink {'value': 5000}, "
                     "shim {'value': 1000}"]


def test_a_probe_pyflink_fails_must_fail_with_pyflink_s_class_in_the_mro() -> None:
    recorded = _ok({"raises": ["Py4JJavaError", "Py4JError", "Exception", "BaseException"]})
    assert differences(recorded, _ok({"raises": ["SparkError", "Py4JJavaError", "Exception"]})) == []
    assert differences(recorded, _ok({"raises": ["ValueError", "Exception"]})) != []
    assert differences(recorded, _ok({"value": 1})) != []


def test_a_probe_missing_under_the_shim_is_reported() -> None:
    actual = _ok({"value": 5000})
    del actual["environments"]["env"]["checkpoint_config"]["get_checkpoint_interval"]
    assert differences(_ok({"value": 5000}), actual) == [
        "env.checkpoint_config.get_checkpoint_interval: missing under the shim (PyFlink: {'value': 5000})"]


def test_a_rejection_matches_when_the_shim_s_mro_contains_pyflink_s_class() -> None:
    recorded = {"outcome": "rejected", "error": {"mro": ["ImportError", "Exception"], "message": "m"}}
    subclass = {"outcome": "rejected", "error": {"mro": ["ModuleNotFoundError", "ImportError"], "message": "m"}}
    other = {"outcome": "rejected", "error": {"mro": ["AttributeError", "Exception"], "message": "m"}}
    assert differences(recorded, subclass) == []
    assert differences(recorded, other) == [
        "PyFlink rejects it with ImportError, the shim with AttributeError: m"]
    assert differences(recorded, _ok({"value": 1})) == ["PyFlink rejects it with ImportError, the shim runs it"]


def test_a_run_pyflink_accepts_but_the_shim_rejects_is_reported_with_the_error() -> None:
    rejected = {"outcome": "rejected", "error": {"mro": ["AttributeError"], "message": "no set_parallelism"}}
    assert differences(_ok({"value": 1}), rejected) == [
        "rejected by the shim: AttributeError: no set_parallelism"]


def test_the_summary_line_counts_matches_and_differences() -> None:
    tally = Tally()
    tally.add("a", [])
    tally.add("b", ["x", "y"])
    assert tally.summary() == "corpus: 2 preambles, 1 match PyFlink, 1 differ"
    assert tally.details() == ["  b: x (+1 more)"]
