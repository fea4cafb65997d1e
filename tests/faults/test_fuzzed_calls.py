"""Property-based tests: any call either applies and reads back, or is rejected and changes nothing.

Every setter of :class:`CheckpointConfig` and the environment, every storage and backend
constructor, and every Flink key through ``configure()`` is called with generated values
(integers past Java's limits, floats, text, ``None``, booleans, members of the wrong enum). A
rejected call must raise one of the exception classes PyFlink raises for such calls (a py4j
error or the ``AttributeError`` of a missing ``name``) and leave every getter as it was; an
accepted one must read back what was set, through the getter of what it sets. Each test also
checks that its calls took both branches, so neither check can go unexercised.
"""

from __future__ import annotations

import math
import re
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Set, Tuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from py4j.protocol import Py4JError, Py4JJavaError

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
from pyflink_compat.settings.store import store_of

#: The exception classes PyFlink 1.20.5 raises for bad arguments of these calls.
PYFLINK_ERRORS = (Py4JError, AttributeError)

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
                 suppress_health_check=[HealthCheck.too_slow])


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


def _call(env: StreamExecutionEnvironment, call: Callable[[], Any], read_back: Callable[[], None]) -> bool:
    """Make ``call`` and check the rule of its outcome; return whether it was accepted.

    A rejected call must raise one of :data:`PYFLINK_ERRORS` and leave every getter as it was;
    an accepted one must pass ``read_back``.
    """
    before = getters(env)
    try:
        call()
    except PYFLINK_ERRORS:
        assert getters(env) == before, "a rejected call changed a getter"
        return False
    read_back()
    return True


def _both_branches(outcomes: Set[bool]) -> None:
    assert outcomes == {True, False}, "the fuzzed calls took only one branch: {}".format(
        "accepted" if True in outcomes else "rejected")


def _equal(read: Any, expected: Any) -> None:
    assert read == expected and type(read) is type(expected), (read, expected)


def _same_location(read: Optional[str], value: str) -> bool:
    """Whether a path read back names the location set: Flink's ``Path`` writes ``file:///a/``
    as ``file:/a``, so repeated and trailing slashes and surrounding blanks do not count."""
    def canonical(text: str) -> Tuple[str, str]:
        text = text.strip()
        scheme = re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", text)
        prefix = scheme.group(0) if scheme else ""
        return prefix, re.sub("/+", "/", text[len(prefix):]).rstrip("/")

    return read is not None and canonical(read) == canonical(value)


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
def test_a_numeric_setter_applies_exactly_or_changes_nothing(env, setter, getter):
    config = env.get_checkpoint_config()
    outcomes: Set[bool] = set()

    @_FUZZ
    @given(value=ANY_VALUE)
    def check(value: Any) -> None:
        def read_back() -> None:
            assert getattr(config, getter)() == value

        outcomes.add(_call(env, lambda: getattr(config, setter)(value), read_back))

    check()
    _both_branches(outcomes)


def _read_storage_dir(storage: Any, value: Any) -> None:
    assert isinstance(storage, FileSystemCheckpointStorage), storage
    assert _same_location(storage.get_checkpoint_path(), value), (storage.get_checkpoint_path(), value)


def _read_storage(storage: Any, value: Any) -> None:
    assert type(storage) is type(value) and str(storage) == str(value), (storage, value)


#: A storage directory in each form Flink writes differently when it reads it back.
_DIRECTORIES = st.sampled_from(["file:///tmp/fuzz", "file:///tmp/fuzz/", "file:/tmp/fuzz//a", "hdfs://nn:8020/cp",
                                "s3://bucket/a//b/"])

#: Per setter of :class:`CheckpointConfig` not fuzzed above: the getter that reads it back, a
#: check of what the getter returns after ``setter(value)``, and values of the kind the setter
#: takes that :data:`ANY_VALUE` does not generate, so that calls are accepted too.
_OTHER_SETTERS: Dict[str, Tuple[str, Callable[[Any, Any], None], Any]] = {
    "set_checkpointing_mode": (
        "get_checkpointing_mode", _equal, st.nothing()),
    "set_fail_on_checkpointing_errors": (
        "is_fail_on_checkpointing_errors", _equal, st.nothing()),
    "enable_externalized_checkpoints": (
        "get_externalized_checkpoint_cleanup",
        lambda read, value: _equal(read, ExternalizedCheckpointCleanup[value.name]), st.nothing()),
    "set_externalized_checkpoint_cleanup": (
        "get_externalized_checkpoint_cleanup",
        lambda read, value: _equal(read, ExternalizedCheckpointCleanup[value.name]), st.nothing()),
    "set_externalized_checkpoint_retention": (
        "get_externalized_checkpoint_retention",
        lambda read, value: _equal(read, ExternalizedCheckpointRetention[value.name]), st.nothing()),
    "enable_unaligned_checkpoints": (
        "is_unaligned_checkpoints_enabled", _equal, st.nothing()),
    "set_force_unaligned_checkpoints": (
        "is_force_unaligned_checkpoints", _equal, st.nothing()),
    "set_checkpoint_storage_dir": ("get_checkpoint_storage", _read_storage_dir, _DIRECTORIES),
    "set_alignment_timeout": (
        "get_alignment_timeout", _equal,
        st.integers(min_value=0, max_value=10**9).map(Duration.of_millis)),
    "set_checkpoint_storage": (
        "get_checkpoint_storage", _read_storage,
        st.one_of(_DIRECTORIES.map(FileSystemCheckpointStorage),
                  st.integers(min_value=1, max_value=2**31 - 1).map(
                      lambda size: JobManagerCheckpointStorage(None, size)))),
}


@pytest.mark.parametrize("setter", sorted(_OTHER_SETTERS))
def test_any_other_setter_is_applied_or_changes_nothing(env, setter):
    getter, check_read, accepted_kind = _OTHER_SETTERS[setter]
    outcomes: Set[bool] = set()

    @_FUZZ
    @given(value=st.one_of(ANY_VALUE, accepted_kind))
    def check(value: Any) -> None:
        # Once the tolerable failure number is set, Flink ignores set_fail_on_checkpointing_errors:
        # that setter is read back on an environment where it is not.
        target = StreamExecutionEnvironment.get_execution_environment() \
            if setter == "set_fail_on_checkpointing_errors" else env
        config = target.get_checkpoint_config()
        outcomes.add(_call(target, lambda: getattr(config, setter)(value),
                           lambda: check_read(getattr(config, getter)(), value)))

    check()
    _both_branches(outcomes)


def test_enable_checkpointing_applies_both_values_or_neither(env):
    outcomes: Set[bool] = set()

    @_FUZZ
    @given(interval=ANY_VALUE, mode=ANY_VALUE)
    def check(interval: Any, mode: Any) -> None:
        before_mode = env.get_checkpointing_mode()

        def read_back() -> None:
            assert env.get_checkpoint_interval() == interval
            assert env.get_checkpointing_mode() == (before_mode if mode is None else mode)

        outcomes.add(_call(env, lambda: env.enable_checkpointing(interval, mode), read_back))

    check()
    _both_branches(outcomes)


def _read_savepoint_directory(env: StreamExecutionEnvironment, value: Any) -> None:
    if isinstance(value, str) and not value.strip():
        # Flink stores the text and makes a Path of it when it is read: a blank one cannot be.
        with pytest.raises(Py4JJavaError, match="empty string"):
            env.get_default_savepoint_directory()
        return
    assert _same_location(env.get_default_savepoint_directory(), value), (
        env.get_default_savepoint_directory(), value)


#: Per environment setter: a check of what its getter reads after ``setter(value)``.
_ENVIRONMENT_SETTERS: Dict[str, Callable[[StreamExecutionEnvironment, Any], None]] = {
    "set_default_savepoint_directory": _read_savepoint_directory,
    "enable_changelog_state_backend": lambda env, value: _equal(env.is_changelog_state_backend_enabled(), value),
}


@pytest.mark.parametrize("setter", sorted(_ENVIRONMENT_SETTERS))
def test_environment_setters_are_applied_or_change_nothing(env, setter):
    outcomes: Set[bool] = set()

    @_FUZZ
    @given(value=st.one_of(ANY_VALUE, _DIRECTORIES))
    def check(value: Any) -> None:
        outcomes.add(_call(env, lambda: getattr(env, setter)(value),
                           lambda: _ENVIRONMENT_SETTERS[setter](env, value)))

    check()
    _both_branches(outcomes)


#: Flink's defaults where a constructor argument is left out: the file state size threshold
#: (20 KiB) and the largest state of a job manager checkpoint (5 MiB).
_DEFAULT_FILE_STATE_THRESHOLD = 20 * 1024
_DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024
_LONG_NANOS = 2**63 // 1_000_000


def _read_duration(built: Any, millis: int) -> None:
    """A Duration has no getter: it must equal the same amount built another way, or else (past
    what nanoseconds hold) differ from its neighbour by a millisecond."""
    if -_LONG_NANOS < millis < _LONG_NANOS:
        _equal(built, Duration.of_nanos(millis * 1_000_000))
    elif millis % 1000 == 0:
        _equal(built, Duration.of_seconds(millis // 1000))
    else:
        neighbour = millis + 1 if millis < 0 else millis - 1
        assert built == Duration.of_millis(millis) and built != Duration.of_millis(neighbour)


def _read_storage_path(built: Any, value: Any) -> None:
    if value is None:
        _equal(built.get_checkpoint_path(), None)
    else:
        assert _same_location(built.get_checkpoint_path(), value), (built.get_checkpoint_path(), value)


def _read_hash_map_backend(built: Any, value: Any) -> None:
    assert type(built) is HashMapStateBackend
    if value is None:  # anything else is taken, unchecked as in PyFlink, for the JVM object
        env = StreamExecutionEnvironment.get_execution_environment()
        env.set_state_backend(built)
        assert type(env.get_state_backend()) is HashMapStateBackend


class _Constructor(NamedTuple):
    """A constructor fuzzed in one argument."""

    #: Builds the object from the fuzzed value.
    build: Callable[[Any], Any]
    #: Checks what the built object's getters read back, given the value.
    read_back: Callable[[Any, Any], None]
    #: Whether some values are refused (``HashMapStateBackend`` refuses none, as in PyFlink).
    refuses: bool = True


#: PyFlink checks some of these arguments in Python first and raises ``TypeError`` or
#: ``ValueError`` for them; a value of ``enable_incremental_checkpointing`` other than ``True``
#: or ``None`` (even ``1``) turns it off.
_CONSTRUCTORS: List[_Constructor] = [
    _Constructor(lambda v: FileSystemCheckpointStorage(v), _read_storage_dir),
    _Constructor(lambda v: FileSystemCheckpointStorage("file:///tmp/x", v),
                 lambda built, v: _equal(built.get_min_file_size_threshold(),
                                         _DEFAULT_FILE_STATE_THRESHOLD if v is None or v == -1 else v)),
    _Constructor(lambda v: JobManagerCheckpointStorage(v), _read_storage_path),
    _Constructor(lambda v: JobManagerCheckpointStorage(None, v),
                 lambda built, v: _equal(built.get_max_state_size(), _DEFAULT_MAX_STATE_SIZE if v is None else v)),
    _Constructor(lambda v: EmbeddedRocksDBStateBackend(v),
                 lambda built, v: _equal(built.is_incremental_checkpoints_enabled(), v is True)),
    _Constructor(lambda v: HashMapStateBackend(v), _read_hash_map_backend, refuses=False),
    _Constructor(lambda v: Duration.of_millis(v), _read_duration),
]


@pytest.mark.parametrize("index", range(len(_CONSTRUCTORS)))
def test_a_constructor_builds_an_object_or_raises_a_pyflink_error(index):
    constructor = _CONSTRUCTORS[index]
    outcomes: Set[bool] = set()

    @_FUZZ
    @given(value=st.one_of(ANY_VALUE, _DIRECTORIES))
    def check(value: Any) -> None:
        try:
            built = constructor.build(value)
        except (PYFLINK_ERRORS + (TypeError, ValueError)):
            outcomes.add(False)
            return
        constructor.read_back(built, value)
        outcomes.add(True)

    check()
    if constructor.refuses:
        _both_branches(outcomes)
    else:
        assert outcomes == {True}


_TEXTS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["5 s", "1 min", "0", "-1", "10", "9", "true", "false", "EXACTLY_ONCE",
                     "at_least_once", "rocksdb", "hashmap", "file:///tmp/fuzz", "fixed-delay",
                     "9223372036854775807", "9223372036854775808 ms", "20 kb", "1.5", " 3 "]),
)


#: Text each kind of setting takes, so that configure() calls are accepted too.
_VALID_TEXTS: Dict[str, Tuple[str, ...]] = {
    "duration": ("5 s", "1 min", "250 ms"),
    "integer": ("1", "3"),
    "boolean": ("true", "false"),
    "memory size": ("20 kb", "1 mb"),
    "float": ("0.5", "2.0"),
    "string": ("file:///tmp/fuzz", "hashmap", "rocksdb", "jobmanager", "filesystem"),
}


#: Keys that configure() takes with any text: paths, lists of files, and the storage and state
#: backend names, which Flink resolves (to a factory class, for a name it does not know) only
#: when a job starts.
_ANY_TEXT_KEYS = frozenset({
    "execution.checkpointing.savepoint-dir", "state.savepoints.dir",
    "execution.state-recovery.path", "execution.savepoint.path",
    "execution.checkpointing.storage", "state.checkpoint-storage",
    "state.backend.type", "state.backend",
    "pipeline.classpaths", "pipeline.jars",
    "python.archives", "python.executable", "python.files", "python.requirements",
})


def _texts_for(key: str) -> Any:
    setting = next(s for s in SETTINGS if key in s.all_keys)
    valid = setting.codec.choices or _VALID_TEXTS[setting.codec.name]
    return st.one_of(_TEXTS, st.sampled_from(valid))


@pytest.mark.parametrize("key", sorted({key for s in SETTINGS for key in s.all_keys}))
def test_configure_with_any_key_and_text_applies_or_changes_nothing(env, key):
    outcomes: Set[bool] = set()
    setting = next(s for s in SETTINGS if key in s.all_keys)

    @settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(text=_texts_for(key))
    def check(text: str) -> None:
        conf = Configuration().set_string(key, text)

        def read_back() -> None:
            # What configure() applied is the setting's value parsed from the text, as Flink's
            # ConfigOption parses it, and the environment reads it back as that value.
            assert store_of(env).get(setting, "configure") == setting.codec.parse(text)

        outcomes.add(_call(env, lambda: env.configure(conf), read_back))

    check()
    if key in _ANY_TEXT_KEYS:
        assert outcomes == {True}
    else:
        _both_branches(outcomes)
