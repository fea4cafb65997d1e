"""``env.configure(conf)`` and ``get_execution_environment(conf)``: keys, fallbacks, parsing."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._helpers import safe, storage_summary

if TYPE_CHECKING:
    from ..battery import Api, Recorder

CP = "execution.checkpointing."

#: Observable read-backs after configure(); each is (name, env -> value).
Getter = tuple[str, Callable[[Any], Any]]


def _getters(api: Api) -> dict[str, Callable[[Any], Any]]:
    def alignment(env: Any) -> Any:
        got = env.get_checkpoint_config().get_alignment_timeout()
        for ms in (0, 1000, 2000, 3000, 5000, 60000):
            if got == api.Duration.of_millis(ms):
                return f"eq_millis_{ms}"
        return "no_candidate_matched"

    def backend_class(env: Any) -> Any:
        backend = env.get_state_backend()
        return None if backend is None else type(backend).__name__

    return {
        "interval": lambda e: e.get_checkpoint_interval(),
        "enabled": lambda e: e.get_checkpoint_config().is_checkpointing_enabled(),
        "mode": lambda e: e.get_checkpoint_config().get_checkpointing_mode(),
        "timeout": lambda e: e.get_checkpoint_config().get_checkpoint_timeout(),
        "min_pause": lambda e: e.get_checkpoint_config().get_min_pause_between_checkpoints(),
        "max_concurrent": lambda e: e.get_checkpoint_config().get_max_concurrent_checkpoints(),
        "tolerable": lambda e: e.get_checkpoint_config()
        .get_tolerable_checkpoint_failure_number(),
        "retention": lambda e: e.get_checkpoint_config().get_externalized_checkpoint_retention(),
        "cleanup": lambda e: e.get_checkpoint_config().get_externalized_checkpoint_cleanup(),
        "externalized": lambda e: e.get_checkpoint_config().is_externalized_checkpoints_enabled(),
        "unaligned": lambda e: e.is_unaligned_checkpoints_enabled(),
        "forced": lambda e: e.is_force_unaligned_checkpoints(),
        "alignment": alignment,
        "storage": lambda e: storage_summary(e.get_checkpoint_config().get_checkpoint_storage()),
        "savepoint": lambda e: e.get_default_savepoint_directory(),
        "backend": backend_class,
        "changelog": lambda e: e.is_changelog_state_backend_enabled(),
    }


def _snapshot(getters: dict[str, Callable[[Any], Any]], env: Any) -> dict[str, Any]:
    """Every observable at once; a getter that raises shows as error text."""
    return {name: safe(functools.partial(get, env)) for name, get in getters.items()}


# (label, entries, names of the getters that the keys feed)
CASES: list[tuple[str, dict[str, str], tuple[str, ...]]] = [
    # -- interval and duration parsing
    ("interval.5_s", {CP + "interval": "5 s"}, ("interval", "enabled")),
    ("interval.1000", {CP + "interval": "1000"}, ("interval", "enabled")),
    ("interval.10_ms", {CP + "interval": "10 ms"}, ("interval", "enabled")),
    ("interval.1_min", {CP + "interval": "1 min"}, ("interval", "enabled")),
    ("interval.5000ms", {CP + "interval": "5000ms"}, ("interval",)),
    ("interval.1_h", {CP + "interval": "1 h"}, ("interval",)),
    ("interval.2_d", {CP + "interval": "2 d"}, ("interval",)),
    ("interval.30_sec", {CP + "interval": "30 sec"}, ("interval",)),
    ("interval.padded", {CP + "interval": "  3 s  "}, ("interval",)),
    ("interval.upper_unit", {CP + "interval": "3 S"}, ("interval",)),
    ("interval.iso_PT2S", {CP + "interval": "PT2S"}, ("interval", "enabled")),
    ("interval.minus_1", {CP + "interval": "-1"}, ("interval", "enabled")),
    ("interval.abc", {CP + "interval": "abc"}, ("interval", "enabled")),
    ("interval.fraction", {CP + "interval": "1.5 s"}, ("interval",)),
    ("interval.empty", {CP + "interval": ""}, ("interval",)),
    ("interval.9_ms", {CP + "interval": "9 ms"}, ("interval", "enabled")),
    ("interval.zero", {CP + "interval": "0"}, ("interval", "enabled")),
    ("interval.long_max", {CP + "interval": "9223372036854775807"}, ("interval",)),
    ("interval.overflow", {CP + "interval": "9223372036854775808"}, ("interval",)),
    # -- mode
    ("mode.upper", {CP + "mode": "AT_LEAST_ONCE"}, ("mode",)),
    ("mode.lower", {CP + "mode": "at_least_once"}, ("mode",)),
    ("mode.mixed", {CP + "mode": "At_Least_Once"}, ("mode",)),
    ("mode.exactly", {CP + "mode": "EXACTLY_ONCE"}, ("mode",)),
    ("mode.dashes", {CP + "mode": "at-least-once"}, ("mode",)),
    ("mode.bogus", {CP + "mode": "bogus"}, ("mode",)),
    ("mode.ordinal", {CP + "mode": "1"}, ("mode",)),
    # -- timeout, min pause, concurrency, tolerable failures
    ("timeout.5_s", {CP + "timeout": "5 s"}, ("timeout",)),
    ("timeout.10_min", {CP + "timeout": "10 min"}, ("timeout",)),
    ("timeout.5_ms", {CP + "timeout": "5 ms"}, ("timeout",)),
    ("timeout.abc", {CP + "timeout": "abc"}, ("timeout",)),
    ("min_pause.100_ms", {CP + "min-pause": "100 ms"}, ("min_pause",)),
    ("min_pause.zero", {CP + "min-pause": "0"}, ("min_pause",)),
    ("min_pause.abc", {CP + "min-pause": "abc"}, ("min_pause",)),
    ("max_concurrent.3", {CP + "max-concurrent-checkpoints": "3"}, ("max_concurrent",)),
    ("max_concurrent.0", {CP + "max-concurrent-checkpoints": "0"}, ("max_concurrent",)),
    ("max_concurrent.abc", {CP + "max-concurrent-checkpoints": "abc"}, ("max_concurrent",)),
    ("max_concurrent.too_big", {CP + "max-concurrent-checkpoints": "2147483648"},
     ("max_concurrent",)),
    ("tolerable.5", {CP + "tolerable-failed-checkpoints": "5"}, ("tolerable",)),
    ("tolerable.minus_1", {CP + "tolerable-failed-checkpoints": "-1"}, ("tolerable",)),
    ("tolerable.abc", {CP + "tolerable-failed-checkpoints": "abc"}, ("tolerable",)),
    # -- externalized checkpoint retention
    ("retention.retain", {CP + "externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION"},
     ("retention", "cleanup", "externalized")),
    ("retention.lower", {CP + "externalized-checkpoint-retention": "retain_on_cancellation"},
     ("retention", "externalized")),
    ("retention.delete", {CP + "externalized-checkpoint-retention": "DELETE_ON_CANCELLATION"},
     ("retention", "externalized")),
    ("retention.none", {CP + "externalized-checkpoint-retention":
                        "NO_EXTERNALIZED_CHECKPOINTS"}, ("retention", "externalized")),
    ("retention.bogus", {CP + "externalized-checkpoint-retention": "bogus"}, ("retention",)),
    # -- unaligned checkpoints and alignment timeout (with deprecated fallbacks)
    ("unaligned.enabled_true", {CP + "unaligned.enabled": "true"}, ("unaligned",)),
    ("unaligned.enabled_upper", {CP + "unaligned.enabled": "TRUE"}, ("unaligned",)),
    ("unaligned.enabled_yes", {CP + "unaligned.enabled": "yes"}, ("unaligned",)),
    ("unaligned.enabled_1", {CP + "unaligned.enabled": "1"}, ("unaligned",)),
    ("unaligned.deprecated_key", {CP + "unaligned": "true"}, ("unaligned",)),
    ("unaligned.both_keys", {CP + "unaligned.enabled": "false", CP + "unaligned": "true"},
     ("unaligned",)),
    ("unaligned.forced", {CP + "unaligned.forced": "true"}, ("forced", "unaligned")),
    ("unaligned.forced_bogus", {CP + "unaligned.forced": "bogus"}, ("forced",)),
    ("alignment.5_s", {CP + "aligned-checkpoint-timeout": "5 s"}, ("alignment",)),
    ("alignment.zero", {CP + "aligned-checkpoint-timeout": "0"}, ("alignment",)),
    ("alignment.abc", {CP + "aligned-checkpoint-timeout": "abc"}, ("alignment",)),
    ("alignment.deprecated_key", {CP + "alignment-timeout": "3 s"}, ("alignment",)),
    ("alignment.both_keys", {CP + "aligned-checkpoint-timeout": "2 s",
                             CP + "alignment-timeout": "3 s"}, ("alignment",)),
    # -- checkpoint directory and storage
    ("dir.new_key", {CP + "dir": "file:///tmp/cfg-dir"}, ("storage",)),
    ("dir.legacy_key", {"state.checkpoints.dir": "file:///tmp/legacy-dir"}, ("storage",)),
    ("dir.oldest_key", {"state.backend.fs.checkpointdir": "file:///tmp/oldest-dir"},
     ("storage",)),
    ("dir.both_keys", {CP + "dir": "file:///tmp/new-dir",
                       "state.checkpoints.dir": "file:///tmp/old-dir"}, ("storage",)),
    ("dir.relative", {CP + "dir": "relative/dir"}, ("storage",)),
    ("dir.empty", {CP + "dir": ""}, ("storage",)),
    ("dir.hdfs", {CP + "dir": "hdfs://nn:9000/cfg"}, ("storage",)),
    ("dir.with_sizes", {CP + "dir": "file:///tmp/cfg-sizes",
                        CP + "data-inline-threshold": "1 kb",
                        CP + "write-buffer-size": "8192"}, ("storage",)),
    ("dir.bad_sizes", {CP + "dir": "file:///tmp/cfg-bad",
                       CP + "data-inline-threshold": "abc",
                       CP + "write-buffer-size": "abc"}, ("storage",)),
    ("storage.jobmanager", {CP + "storage": "jobmanager"}, ("storage",)),
    ("storage.filesystem", {CP + "storage": "filesystem"}, ("storage",)),
    ("storage.bogus", {CP + "storage": "bogus"}, ("storage",)),
    ("storage.legacy_key", {"state.checkpoint-storage": "jobmanager"}, ("storage",)),
    ("storage.filesystem_with_dir", {CP + "storage": "filesystem",
                                     CP + "dir": "file:///tmp/cfg-fs"}, ("storage",)),
    ("storage.jobmanager_with_dir", {CP + "storage": "jobmanager",
                                     CP + "dir": "file:///tmp/cfg-jm"}, ("storage",)),
    ("retained.3", {CP + "num-retained": "3"}, ("storage",)),
    ("retained.abc", {CP + "num-retained": "abc"}, ("storage",)),
    ("retained.legacy_abc", {"state.checkpoints.num-retained": "abc"}, ("storage",)),
    ("inline_threshold.only", {CP + "data-inline-threshold": "1 kb"}, ("storage",)),
    ("write_buffer.only", {CP + "write-buffer-size": "8192"}, ("storage",)),
    # -- savepoint directory
    ("savepoint.new_key", {CP + "savepoint-dir": "file:///tmp/cfg-sp"}, ("savepoint",)),
    ("savepoint.legacy_key", {"state.savepoints.dir": "file:///tmp/legacy-sp"},
     ("savepoint",)),
    ("savepoint.both_keys", {CP + "savepoint-dir": "file:///tmp/new-sp",
                             "state.savepoints.dir": "file:///tmp/old-sp"}, ("savepoint",)),
    ("savepoint.relative", {CP + "savepoint-dir": "rel/sp"}, ("savepoint",)),
    # -- state backend and changelog
    ("backend.hashmap", {"state.backend.type": "hashmap"}, ("backend",)),
    ("backend.rocksdb", {"state.backend.type": "rocksdb"}, ("backend",)),
    ("backend.bogus", {"state.backend.type": "bogus"}, ("backend",)),
    ("backend.legacy_key", {"state.backend": "jobmanager"}, ("backend",)),
    ("changelog.true", {"state.changelog.enabled": "true"}, ("changelog",)),
    ("changelog.false", {"state.changelog.enabled": "false"}, ("changelog",)),
    ("changelog.bogus", {"state.changelog.enabled": "bogus"}, ("changelog",)),
    ("changelog.legacy_key", {"state.backend.changelog.enabled": "true"}, ("changelog",)),
    ("changelog.both_keys", {"state.changelog.enabled": "false",
                             "state.backend.changelog.enabled": "true"}, ("changelog",)),
    # -- unknown keys are ignored
    ("unknown.key", {"no.such.key": "x"}, ()),
    ("unknown.checkpointing_key", {CP + "no-such-option": "y"}, ()),
    ("unknown.with_known", {"no.such.key": "x", CP + "interval": "2 s"}, ("interval",)),
    # -- everything at once
    ("all.together", {
        CP + "interval": "7 s", CP + "mode": "AT_LEAST_ONCE", CP + "timeout": "1 min",
        CP + "min-pause": "2 s", CP + "max-concurrent-checkpoints": "2",
        CP + "tolerable-failed-checkpoints": "3",
        CP + "externalized-checkpoint-retention": "DELETE_ON_CANCELLATION",
        CP + "unaligned.enabled": "true", CP + "unaligned.forced": "true",
        CP + "aligned-checkpoint-timeout": "1 s", CP + "dir": "file:///tmp/all",
        CP + "savepoint-dir": "file:///tmp/all-sp", "state.changelog.enabled": "true",
    }, ()),
]


def scenario_configure_keys(api: Api, rec: Recorder) -> None:
    getters = _getters(api)
    for label, entries, names in CASES:
        env = api.new_env()
        conf = api.conf(entries)
        rec.step(f"{label}.configure", lambda e=env, c=conf: e.configure(c))
        for name in names:
            rec.step(f"{label}.{name}", lambda e=env, g=getters[name]: g(e))
        rec.step(f"{label}.snapshot", lambda e=env: _snapshot(getters, e))
    rec.step("fallback_key_bad_value.message", lambda: _parse_error(
        api, {"execution.checkpointing.unaligned": "bogus"},
        lambda e: e.get_checkpoint_config().is_unaligned_checkpoints_enabled()))


def _parse_error(api: Api, entries: dict, read: Any) -> Any:
    """The "Could not parse value" line of the error a bad value gives, whether configure()
    or the first read raises it."""
    env = api.new_env()
    try:
        env.configure(api.conf(entries))
        read(env)
    except Exception as exc:  # the message is what is recorded
        return [line.strip() for line in str(exc).splitlines() if "Could not parse" in line][:1]
    return None


def scenario_configure_keeps_absent_keys(api: Api, rec: Recorder) -> None:
    getters = _getters(api)
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    env.enable_checkpointing(4000, api.CheckpointingMode.AT_LEAST_ONCE)
    cfg.set_checkpoint_timeout(12345)
    env.set_default_savepoint_directory("file:///tmp/kept-sp")
    rec.step("configure_other_key", lambda: env.configure(api.conf({CP + "min-pause": "1 s"})))
    rec.step("after_other_key", lambda: _snapshot(getters, env))
    rec.step("configure_empty", lambda: env.configure(api.Configuration()))
    rec.step("after_empty", lambda: _snapshot(getters, env))
    rec.step("configure_interval", lambda: env.configure(api.conf({CP + "interval": "9 s"})))
    rec.step("after_interval", lambda: _snapshot(getters, env))
    rec.step("returns", lambda: env.configure(api.Configuration()) is None)


def scenario_configure_poisoned(api: Api, rec: Recorder) -> None:
    """An unparseable value fails configure() and stays stored."""
    getters = _getters(api)
    env = api.new_env()
    rec.step("configure_bad", lambda: env.configure(api.conf({CP + "interval": "abc"})))
    rec.step("interval", env.get_checkpoint_interval)
    rec.step("interval_again", env.get_checkpoint_interval)
    rec.step("config_interval", lambda: env.get_checkpoint_config().get_checkpoint_interval())
    rec.step("enabled", lambda: env.get_checkpoint_config().is_checkpointing_enabled())
    rec.step("set_interval", lambda: env.get_checkpoint_config().set_checkpoint_interval(2000))
    rec.step("interval_after_set", env.get_checkpoint_interval)
    rec.step("configure_good", lambda: env.configure(api.conf({CP + "interval": "3 s"})))
    rec.step("interval_after_good", env.get_checkpoint_interval)
    rec.step("snapshot", lambda: _snapshot(getters, env))
    env2 = api.new_env()
    rec.step("mode_bad", lambda: env2.configure(api.conf({CP + "mode": "bogus"})))
    rec.step("mode_after", env2.get_checkpointing_mode)
    rec.step("mode_set", lambda: env2.get_checkpoint_config().set_checkpointing_mode(
        api.CheckpointingMode.AT_LEAST_ONCE))
    rec.step("mode_after_set", env2.get_checkpointing_mode)
    env3 = api.new_env()
    rec.step("mixed_bad", lambda: env3.configure(api.conf(
        {CP + "timeout": "5 s", CP + "interval": "abc", CP + "max-concurrent-checkpoints": "4"})))
    rec.step("mixed_after", lambda: _snapshot(getters, env3))


def scenario_configure_arguments(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    for label, value in [("none", None), ("dict", {CP + "interval": "1 s"}), ("str", "x"),
                         ("int", 1)]:
        rec.step(f"{label}", lambda v=value: env.configure(v))
    rec.step("keyword", lambda: env.configure(configuration=api.conf({CP + "interval": "2 s"})))
    rec.step("keyword.interval", env.get_checkpoint_interval)
    rec.step("bad_keyword", lambda: env.configure(conf=api.Configuration()))
    rec.step("no_args", lambda: env.configure())


def scenario_configure_is_a_copy(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    conf = api.conf({CP + "interval": "2 s"})
    rec.step("configure", lambda: env.configure(conf))
    rec.step("mutate_conf", lambda: conf.set_string(CP + "interval", "8 s") is conf)
    rec.step("interval_unchanged", env.get_checkpoint_interval)
    rec.step("reconfigure", lambda: env.configure(conf))
    rec.step("interval_after_reconfigure", env.get_checkpoint_interval)
    rec.step("conf_unchanged_by_env", lambda: conf.get_string(CP + "interval", "none"))
    rec.step("set_on_env", lambda: type(env.enable_checkpointing(6000)).__name__)
    rec.step("conf_after_env_set", lambda: conf.to_dict())


GEE_CASES: list[tuple[str, dict[str, str], tuple[str, ...]]] = [
    ("interval", {CP + "interval": "5 s"}, ("interval", "enabled")),
    ("mode", {CP + "mode": "at_least_once"}, ("mode",)),
    ("timeout", {CP + "timeout": "2 min"}, ("timeout",)),
    ("max_concurrent", {CP + "max-concurrent-checkpoints": "3"}, ("max_concurrent",)),
    ("unaligned", {CP + "unaligned.enabled": "true"}, ("unaligned",)),
    ("retention", {CP + "externalized-checkpoint-retention": "RETAIN_ON_CANCELLATION"},
     ("retention",)),
    ("dir", {"state.checkpoints.dir": "file:///tmp/gee-dir"}, ("storage",)),
    ("savepoint", {"state.savepoints.dir": "file:///tmp/gee-sp"}, ("savepoint",)),
    ("changelog", {"state.changelog.enabled": "true"}, ("changelog",)),
    ("backend", {"state.backend.type": "rocksdb"}, ("backend",)),
    ("unknown", {"no.such.key": "x"}, ("interval",)),
    ("bad_interval", {CP + "interval": "abc"}, ()),
    ("bad_interval_range", {CP + "interval": "5 ms"}, ()),
    ("bad_mode", {CP + "mode": "bogus"}, ()),
    ("bad_timeout", {CP + "timeout": "1 ms"}, ()),
]


def scenario_get_execution_environment_conf(api: Api, rec: Recorder) -> None:
    getters = _getters(api)
    see = api.StreamExecutionEnvironment
    for label, entries, names in GEE_CASES:
        conf = api.conf(entries)
        env = rec.step(f"{label}.create",
                       lambda c=conf: see.get_execution_environment(c))
        for name in names:
            rec.step(f"{label}.{name}", lambda e=env, g=getters[name]: g(e))
    rec.step("fresh_env_unaffected", lambda: _snapshot(getters, api.new_env()))


def scenario_configure_duration_overflow(api: Api, rec: Recorder) -> None:
    """Durations that do not fit where Flink keeps them: milliseconds in a long, or a
    ``java.time.Duration``."""
    cases = [
        ("interval.long_max_s", "execution.checkpointing.interval", "9223372036854775807 s"),
        ("interval.just_fits", "execution.checkpointing.interval", "9223372036854775 s"),
        ("interval.just_over", "execution.checkpointing.interval", "9223372036854776 s"),
        ("timeout.long_max_s", "execution.checkpointing.timeout", "9223372036854775807 s"),
        ("min_pause.huge_min", "execution.checkpointing.min-pause", "99999999999999999 min"),
        ("alignment.long_max_s", "execution.checkpointing.aligned-checkpoint-timeout",
         "9223372036854775807 s"),
    ]
    for label, key, value in cases:
        env = api.new_env()
        conf = api.Configuration().set_string(key, value)
        rec.step(f"{label}.configure", lambda e=env, c=conf: e.configure(c))
    env = api.new_env()
    rec.step("just_fits.read", lambda: _configured(api, env, "execution.checkpointing.interval",
                                                   "9223372036854775 s").get_checkpoint_interval())
    env = api.new_env()
    config = env.get_checkpoint_config()
    rec.step("alignment.read", lambda: _configured(
        api, env, "execution.checkpointing.aligned-checkpoint-timeout",
        "9223372036854775807 s").get_alignment_timeout() == api.Duration.of_seconds(2**63 - 1))
    huge = api.Duration.of_days(2**40)
    rec.step("alignment.set_huge", lambda: config.set_alignment_timeout(huge) is config)
    rec.step("alignment.get_huge", lambda: config.get_alignment_timeout() == huge)


def _configured(api: Api, env: Any, key: str, value: str) -> Any:
    env.configure(api.Configuration().set_string(key, value))
    return env.get_checkpoint_config()
