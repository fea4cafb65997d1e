"""The settings registry and Flink's value syntax."""

from __future__ import annotations

import pytest

from pyflink_compat.settings import values
from pyflink_compat.settings.registry import SETTINGS, SETTINGS_BY_KEY, JobSettings, Support
from pyflink_compat.settings.store import parse_flink_options
from pyflink_compat.util.exceptions import JavaIllegalArgumentError


@pytest.mark.parametrize("text, nanos", [
    ("5 s", 5 * 10**9), ("1000", 10**9), ("10 ms", 10**7), ("1 min", 60 * 10**9),
    ("2h", 7200 * 10**9), ("3 days", 3 * 86400 * 10**9), ("15 ns", 15), ("7 µs", 7000),
    ("2 secs", 2 * 10**9), ("4 m", 240 * 10**9), ("3 micros", 3000), ("1 MS", 10**6),
])
def test_durations_parse_as_flink_parses_them(text, nanos):
    assert values.DURATION.parse(text) == nanos


# Flink adds a plural "s" only to its long labels, and has no "us" for microseconds.
@pytest.mark.parametrize("text", ["PT2S", "-1", "abc", "5 parsecs", "", "1 us", "2 mins", "3 ss", "4 ds"])
def test_durations_flink_rejects_are_rejected(text):
    with pytest.raises(ValueError):
        values.DURATION.parse(text)


def test_stored_durations_read_back_exactly_including_negative_ones():
    # a stored duration may come from a java.time.Duration longer than a long of nanoseconds
    for nanos in (0, 1, 1_500_000, -1_000_000, 10**15, (2**63 - 1) * 10**9, -(2**70)):
        assert values.DURATION.decode(values.DURATION.encode(nanos)) == nanos


@pytest.mark.parametrize("text, size", [("20 kb", 20480), ("1m", 1 << 20), ("512", 512), ("2 gb", 2 << 30)])
def test_memory_sizes_parse_as_flink_parses_them(text, size):
    assert values.MEMORY_SIZE.parse(text) == size


def test_keys_and_fallback_keys_are_unique():
    keys = [k for s in SETTINGS for k in s.all_keys]
    assert len(keys) == len(set(keys))


def test_every_setting_says_what_it_becomes_in_spark():
    assert all(s.spark for s in SETTINGS)
    assert {s.support for s in SETTINGS} == set(Support)


def test_a_fallback_key_is_read_when_the_current_key_is_absent(spark):
    parsed = parse_flink_options({"state.checkpoints.num-retained": "3"}, "test")
    assert parsed == {SETTINGS_BY_KEY["execution.checkpointing.num-retained"]: 3}
    both = parse_flink_options({"state.checkpoints.num-retained": "3",
                                "execution.checkpointing.num-retained": "5"}, "test")
    assert both == {SETTINGS_BY_KEY["execution.checkpointing.num-retained"]: 5}


def test_enum_values_are_case_insensitive(spark):
    parsed = parse_flink_options({"execution.checkpointing.mode": "at_least_once"}, "test")
    assert parsed == {SETTINGS_BY_KEY["execution.checkpointing.mode"]: "AT_LEAST_ONCE"}


def test_an_unparseable_value_names_the_value_and_the_key(spark):
    with pytest.raises(JavaIllegalArgumentError) as raised:
        parse_flink_options({"execution.checkpointing.interval": "abc"}, "test")
    assert raised.value.java_exception.getMessage() == \
        "Could not parse value 'abc' for key 'execution.checkpointing.interval'."


def test_durations_read_in_milliseconds_overflow_as_in_flink():
    from pyflink_compat.settings.registry import SETTINGS_BY_KEY

    interval = SETTINGS_BY_KEY["execution.checkpointing.interval"]
    assert interval.rejection((2**63) * 10**6) == ("java.lang.ArithmeticException", "long overflow")
    assert interval.rejection((2**63 - 1) * 10**6) is None
    assert interval.rejection(9 * 10**6) == (
        "java.lang.IllegalArgumentException", "Checkpoint interval must be larger than or equal to 10 ms")
    alignment = SETTINGS_BY_KEY["execution.checkpointing.aligned-checkpoint-timeout"]
    assert alignment.rejection((2**63) * 10**9) is None  # kept as a java.time.Duration


#: Texts tried as another value of each setting (each codec parses those it accepts).
_OTHER_VALUES = ("true", "false", "0", "4", "5000 ms", "rocksdb", "hashmap", "BATCH", "AT_LEAST_ONCE",
                 "CHECKPOINT_INTERVAL", "RETAIN_ON_CANCELLATION", "file:/tmp/x", "filesystem", "jobmanager",
                 "com.example.Storage")


def _settings_that_change_session_keys():
    import attrs

    from pyflink_compat.spark.translation import session_conf

    found = set()
    # RocksDB reads keys the heap backend does not: try each change under both
    for base in (JobSettings(), JobSettings(state_backend="rocksdb")):
        before = session_conf(base, None, None)
        for setting in SETTINGS:
            for text in _OTHER_VALUES:
                try:
                    value = setting.codec.parse(text)
                except Exception:  # a text this setting does not take
                    continue
                if session_conf(attrs.evolve(base, **{setting.name: value}), None, None) != before:
                    found.add(setting.key)
    return found


def test_a_setting_is_declared_native_exactly_when_changing_it_changes_the_spark_session_keys():
    changing = _settings_that_change_session_keys()
    native = {s.key for s in SETTINGS if s.native}
    assert native - changing == set()  # native, yet no session key follows it
    # a change the store must follow with the derived keys: native, or it discards an API object
    # (which makes the store derive them too)
    assert {k for k in changing - native if SETTINGS_BY_KEY[k].discards_object is None} == set()
    assert len(native) >= 5


def test_the_settings_layer_does_not_import_the_spark_layer():
    import subprocess
    import sys

    code = ("import sys, pyflink_compat.settings.store, pyflink_compat.settings.registry; "
            "print(sorted(m for m in sys.modules if m.startswith('pyflink_compat.spark')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_backend_and_storage_names_ignore_case_but_class_names_keep_theirs():
    backend = SETTINGS_BY_KEY["state.backend.type"].codec
    storage = SETTINGS_BY_KEY["execution.checkpointing.storage"].codec
    assert backend.parse(" RocksDB ") == "rocksdb"
    assert backend.parse("HashMap") == "hashmap"
    assert backend.parse("org.example.MyStateStoreProvider") == "org.example.MyStateStoreProvider"
    assert storage.parse("FileSystem") == "filesystem"
    assert storage.parse("org.example.MyFileManager") == "org.example.MyFileManager"


def test_a_configured_provider_class_reaches_spark_with_its_case():
    from pyflink_compat.common import Configuration
    from pyflink_compat.datastream import StreamExecutionEnvironment

    env = StreamExecutionEnvironment.get_execution_environment()
    env.configure(Configuration().set_string(
        "state.backend.type", "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"))
    assert env.spark_session.conf.get("spark.sql.streaming.stateStore.providerClass") == \
        "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider"
