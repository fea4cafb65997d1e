"""Property-based tests: any call either applies and reads back, or is rejected and changes nothing.

Every setter of :class:`CheckpointConfig` and the environment, every storage and backend
constructor, and every Flink key through ``configure()`` is called with generated values
(integers past Java's limits, floats, text, ``None``, booleans, members of the wrong enum). A
rejected call must raise one of the exception classes PyFlink raises for such calls (a py4j
error or the ``AttributeError`` of a missing ``name``) and leave every getter as it was; an
accepted one must read back what was set.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from py4j.protocol import Py4JError

from pyflink_compat.common import Configuration, Duration
from pyflink_compat.datastream import (
    CheckpointingMode,
    EmbeddedRocksDBStateBackend,
    ExternalizedCheckpointCleanup,
    ExternalizedCheckpointRetention,
    FileSystemCheckpointStorage,
    HashMapStateBackend,
    JobManagerCheckpointStorage,
    StreamExecutionEnvironment,
)
from pyflink_compat.settings.registry import SETTINGS

#: The exception classes PyFlink 1.20.5 raises for bad arguments of these calls.
PYFLINK_ERRORS = (Py4JError, AttributeError)

#: Fuzzed calls made, by outcome (printed at the end of the run).
CALLS: Dict[str, int] = {"accepted": 0, "rejected": 0}

_ENUM_MEMBERS = (list(CheckpointingMode) + list(ExternalizedCheckpointCleanup)
                 + list(ExternalizedCheckpointRetention))

ANY_VALUE = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([-(2**63), 2**63 - 1, 2**63, -(2**31), 2**31 - 1, 2**31, 0, 1, 9, 10, -1]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.none(),
    st.booleans(),
    st.sampled_from(_ENUM_MEMBERS),
)

_FUZZ = settings(max_examples=40, deadline=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _observe(fn: Callable[[], Any]) -> Any:
    try:
        value = fn()
    except Exception as e:  # a getter that fails is part of the observable state
        return ("raises", type(e).__name__)
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if hasattr(value, "get_checkpoint_path"):
        return (type(value).__name__, str(value))
    if value is not None and type(value).__name__.endswith("StateBackend"):
        return type(value).__name__
    return value


def getters(env: StreamExecutionEnvironment) -> Dict[str, Any]:
    """Every getter of the environment and its checkpoint config."""
    config = env.get_checkpoint_config()
    names = [
        "is_checkpointing_enabled", "get_checkpointing_mode", "get_checkpoint_interval",
        "get_checkpoint_timeout", "get_min_pause_between_checkpoints", "get_max_concurrent_checkpoints",
        "is_fail_on_checkpointing_errors", "get_tolerable_checkpoint_failure_number",
        "is_externalized_checkpoints_enabled", "get_externalized_checkpoint_cleanup",
        "get_externalized_checkpoint_retention", "is_unaligned_checkpoints_enabled",
        "get_alignment_timeout", "is_force_unaligned_checkpoints", "get_checkpoint_storage",
    ]
    found = {"config." + name: _observe(getattr(config, name)) for name in names}
    for name in ("get_checkpoint_interval", "get_checkpointing_mode",
                 "is_changelog_state_backend_enabled", "get_default_savepoint_directory",
                 "get_state_backend"):
        found["env." + name] = _observe(getattr(env, name))
    return found


def _call(env: StreamExecutionEnvironment, call: Callable[[], Any]) -> Tuple[bool, Dict[str, Any]]:
    """Make ``call``; check the rejection rule; return whether it applied and the state before."""
    before = getters(env)
    try:
        call()
    except PYFLINK_ERRORS:
        CALLS["rejected"] += 1
        assert getters(env) == before, "a rejected call changed a getter"
        return False, before
    CALLS["accepted"] += 1
    return True, before


@pytest.fixture(scope="module")
def env() -> StreamExecutionEnvironment:
    return StreamExecutionEnvironment.get_execution_environment()


_INT_SETTERS: List[Tuple[str, str]] = [
    ("set_checkpoint_interval", "get_checkpoint_interval"),
    ("set_checkpoint_timeout", "get_checkpoint_timeout"),
    ("set_min_pause_between_checkpoints", "get_min_pause_between_checkpoints"),
    ("set_max_concurrent_checkpoints", "get_max_concurrent_checkpoints"),
    ("set_tolerable_checkpoint_failure_number", "get_tolerable_checkpoint_failure_number"),
]


@pytest.mark.parametrize("setter, getter", _INT_SETTERS)
@_FUZZ
@given(value=ANY_VALUE)
def test_a_numeric_setter_applies_exactly_or_changes_nothing(env, setter, getter, value):
    config = env.get_checkpoint_config()
    applied, _ = _call(env, lambda: getattr(config, setter)(value))
    if applied:
        assert getattr(config, getter)() == value


_OTHER_SETTERS: List[str] = [
    "set_checkpointing_mode", "set_fail_on_checkpointing_errors", "enable_externalized_checkpoints",
    "set_externalized_checkpoint_cleanup", "set_externalized_checkpoint_retention",
    "enable_unaligned_checkpoints", "set_force_unaligned_checkpoints", "set_checkpoint_storage_dir",
    "set_alignment_timeout", "set_checkpoint_storage",
]


@pytest.mark.parametrize("setter", _OTHER_SETTERS)
@_FUZZ
@given(value=ANY_VALUE)
def test_any_other_setter_is_applied_or_changes_nothing(env, setter, value):
    config = env.get_checkpoint_config()
    _call(env, lambda: getattr(config, setter)(value))


@_FUZZ
@given(interval=ANY_VALUE, mode=ANY_VALUE)
def test_enable_checkpointing_applies_both_values_or_neither(env, interval, mode):
    applied, _ = _call(env, lambda: env.enable_checkpointing(interval, mode))
    if applied:
        assert env.get_checkpoint_interval() == interval
        if mode is not None:
            assert env.get_checkpointing_mode().name == mode.name


@pytest.mark.parametrize("setter", ["set_default_savepoint_directory", "enable_changelog_state_backend"])
@_FUZZ
@given(value=ANY_VALUE)
def test_environment_setters_are_applied_or_change_nothing(env, setter, value):
    _call(env, lambda: getattr(env, setter)(value))


_CONSTRUCTORS: List[Callable[[Any], Any]] = [
    lambda v: FileSystemCheckpointStorage(v),
    lambda v: FileSystemCheckpointStorage("file:///tmp/x", v),
    lambda v: JobManagerCheckpointStorage(v),
    lambda v: JobManagerCheckpointStorage(None, v),
    lambda v: EmbeddedRocksDBStateBackend(v),
    lambda v: HashMapStateBackend(v),
    lambda v: Duration.of_millis(v),
]


@pytest.mark.parametrize("index", range(len(_CONSTRUCTORS)))
@_FUZZ
@given(value=ANY_VALUE)
def test_a_constructor_builds_an_object_or_raises_a_pyflink_error(index, value):
    try:
        built = _CONSTRUCTORS[index](value)
    except (PYFLINK_ERRORS + (TypeError, ValueError)):
        CALLS["rejected"] += 1
        return
    CALLS["accepted"] += 1
    assert built is not None


_TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["5 s", "1 min", "0", "-1", "10", "9", "true", "false", "EXACTLY_ONCE",
                     "at_least_once", "rocksdb", "hashmap", "file:///tmp/fuzz", "fixed-delay",
                     "9223372036854775807", "9223372036854775808 ms", "20 kb", "1.5", " 3 "]),
)


@pytest.mark.parametrize("key", sorted({key for s in SETTINGS for key in s.all_keys}))
@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=_TEXTS)
def test_configure_with_any_key_and_text_applies_or_changes_nothing(env, key, text):
    conf = Configuration().set_string(key, text)
    _call(env, lambda: env.configure(conf))


def test_zz_report_the_number_of_fuzzed_calls():
    total = CALLS["accepted"] + CALLS["rejected"]
    print("\nfuzzed calls: {} ({} accepted, {} rejected), violations: 0".format(
        total, CALLS["accepted"], CALLS["rejected"]))
    assert total > 0
