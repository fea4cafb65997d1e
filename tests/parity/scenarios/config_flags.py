"""Boolean CheckpointConfig setters, alignment timeout, return-self and chaining."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._helpers import BOOL_WRONG_TYPES, duration_checks, fresh_config, probe_setter

if TYPE_CHECKING:
    from ..battery import Api, Recorder


def scenario_fail_on_checkpointing_errors(api: Api, rec: Recorder) -> None:
    cfg = fresh_config(api)
    cases = [("false", False), ("true", True), *BOOL_WRONG_TYPES, ("false_again", False)]
    for label, value in cases:
        rec.step(f"set.{label}",
                 lambda v=value: cfg.set_fail_on_checkpointing_errors(v) is cfg)
        rec.step(f"set.{label}.get", cfg.is_fail_on_checkpointing_errors)
        rec.step(f"set.{label}.tolerable", cfg.get_tolerable_checkpoint_failure_number)


def scenario_fail_on_errors_vs_tolerable(api: Api, rec: Recorder) -> None:
    """The deprecated flag and the tolerable-failure number share state."""
    cfg = fresh_config(api)
    rec.step("tolerable_set_5", lambda: cfg.set_tolerable_checkpoint_failure_number(5) is cfg)
    rec.step("tolerable_set_5.fail_on", cfg.is_fail_on_checkpointing_errors)
    rec.step("fail_on_true", lambda: cfg.set_fail_on_checkpointing_errors(True) is cfg)
    rec.step("fail_on_true.tolerable", cfg.get_tolerable_checkpoint_failure_number)
    rec.step("fail_on_true.fail_on", cfg.is_fail_on_checkpointing_errors)
    rec.step("tolerable_set_0", lambda: cfg.set_tolerable_checkpoint_failure_number(0) is cfg)
    rec.step("tolerable_set_0.fail_on", cfg.is_fail_on_checkpointing_errors)
    rec.step("fail_on_false", lambda: cfg.set_fail_on_checkpointing_errors(False) is cfg)
    rec.step("fail_on_false.tolerable", cfg.get_tolerable_checkpoint_failure_number)
    other = fresh_config(api)
    rec.step("fresh.fail_on_false", lambda: other.set_fail_on_checkpointing_errors(False))
    rec.step("fresh.fail_on_false.tolerable", other.get_tolerable_checkpoint_failure_number)
    rec.step("fresh.fail_on_false.fail_on", other.is_fail_on_checkpointing_errors)
    rec.step("fresh.fail_on_true", lambda: other.set_fail_on_checkpointing_errors(True))
    rec.step("fresh.fail_on_true.tolerable", other.get_tolerable_checkpoint_failure_number)


def scenario_unaligned_checkpoints(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    rec.step("enable_default", lambda: cfg.enable_unaligned_checkpoints() is cfg)
    rec.step("enable_default.get", cfg.is_unaligned_checkpoints_enabled)
    rec.step("enable_default.env", env.is_unaligned_checkpoints_enabled)
    rec.step("disable", lambda: cfg.disable_unaligned_checkpoints() is cfg)
    rec.step("disable.get", cfg.is_unaligned_checkpoints_enabled)
    rec.step("disable.env", env.is_unaligned_checkpoints_enabled)
    probe_setter(rec, "enable", cfg, "enable_unaligned_checkpoints",
                 "is_unaligned_checkpoints_enabled",
                 [("true", True), ("false", False), ("true_again", True), *BOOL_WRONG_TYPES])
    rec.step("keyword", lambda: cfg.enable_unaligned_checkpoints(enabled=False) is cfg)
    rec.step("keyword.get", cfg.is_unaligned_checkpoints_enabled)
    rec.step("disable_with_arg", lambda: cfg.disable_unaligned_checkpoints(True))
    rec.step("disable_with_arg.get", cfg.is_unaligned_checkpoints_enabled)


def scenario_unaligned_in_at_least_once(api: Api, rec: Recorder) -> None:
    cfg = fresh_config(api)
    rec.step("set_mode", lambda: cfg.set_checkpointing_mode(
        api.CheckpointingMode.AT_LEAST_ONCE) is cfg)
    rec.step("enable", lambda: cfg.enable_unaligned_checkpoints() is cfg)
    rec.step("enabled", cfg.is_unaligned_checkpoints_enabled)
    rec.step("force", lambda: cfg.set_force_unaligned_checkpoints() is cfg)
    rec.step("forced", cfg.is_force_unaligned_checkpoints)
    rec.step("mode", cfg.get_checkpointing_mode)


def scenario_force_unaligned(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    rec.step("force_default", lambda: cfg.set_force_unaligned_checkpoints() is cfg)
    rec.step("force_default.get", cfg.is_force_unaligned_checkpoints)
    rec.step("force_default.env", env.is_force_unaligned_checkpoints)
    rec.step("force_default.unaligned", cfg.is_unaligned_checkpoints_enabled)
    probe_setter(rec, "force", cfg, "set_force_unaligned_checkpoints",
                 "is_force_unaligned_checkpoints",
                 [("false", False), ("true", True), *BOOL_WRONG_TYPES])
    rec.step("keyword", lambda: cfg.set_force_unaligned_checkpoints(
        force_unaligned_checkpoints=False) is cfg)
    rec.step("keyword.get", cfg.is_force_unaligned_checkpoints)
    rec.step("env.after_false", env.is_force_unaligned_checkpoints)


def scenario_alignment_timeout(api: Api, rec: Recorder) -> None:
    cfg = fresh_config(api)
    d = api.Duration
    cases: list[tuple[str, Callable[[], Any], tuple[int, ...], tuple[int, ...]]] = [
        ("millis_500", lambda: d.of_millis(500), (500, 0), ()),
        ("seconds_3", lambda: d.of_seconds(3), (3000,), ()),
        ("zero", lambda: d.of_millis(0), (0,), (0,)),
        ("negative", lambda: d.of_millis(-1), (-1, 0), ()),
        ("nanos_1500000", lambda: d.of_nanos(1500000), (1, 2), (1500000,)),
        ("minutes_2", lambda: d.of_minutes(2), (120000,), ()),
        ("hours_1", lambda: d.of_hours(1), (3600000,), ()),
        ("days_1", lambda: d.of_days(1), (86400000,), ()),
    ]
    for label, make, millis, nanos in cases:
        rec.step(f"set.{label}", lambda m=make: cfg.set_alignment_timeout(m()) is cfg)
        rec.step(f"set.{label}.get_type", lambda: type(cfg.get_alignment_timeout()).__name__)
        duration_checks(api, rec, f"set.{label}.get", cfg.get_alignment_timeout,
                        millis=millis, nanos=nanos)
    for label, value in [("int", 1000), ("none", None), ("str", "1 s"), ("float", 1.5)]:
        rec.step(f"bad.{label}", lambda v=value: cfg.set_alignment_timeout(v))
        duration_checks(api, rec, f"bad.{label}.get", cfg.get_alignment_timeout,
                        millis=(86400000,))
    rec.step("keyword", lambda: cfg.set_alignment_timeout(
        alignment_timeout=d.of_millis(42)) is cfg)
    duration_checks(api, rec, "keyword.get", cfg.get_alignment_timeout, millis=(42,))
    rec.step("unaligned_untouched", cfg.is_unaligned_checkpoints_enabled)


SETTER_CALLS: list[tuple[str, Callable[[Api, Any], Any]]] = [
    ("set_checkpointing_mode", lambda api, c: c.set_checkpointing_mode(
        api.CheckpointingMode.AT_LEAST_ONCE)),
    ("set_checkpoint_interval", lambda api, c: c.set_checkpoint_interval(1000)),
    ("set_checkpoint_timeout", lambda api, c: c.set_checkpoint_timeout(2000)),
    ("set_min_pause_between_checkpoints",
     lambda api, c: c.set_min_pause_between_checkpoints(30)),
    ("set_max_concurrent_checkpoints", lambda api, c: c.set_max_concurrent_checkpoints(2)),
    ("set_fail_on_checkpointing_errors",
     lambda api, c: c.set_fail_on_checkpointing_errors(False)),
    ("set_tolerable_checkpoint_failure_number",
     lambda api, c: c.set_tolerable_checkpoint_failure_number(3)),
    ("enable_externalized_checkpoints", lambda api, c: c.enable_externalized_checkpoints(
        api.ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)),
    ("set_externalized_checkpoint_cleanup", lambda api, c: c.set_externalized_checkpoint_cleanup(
        api.ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION)),
    ("enable_unaligned_checkpoints", lambda api, c: c.enable_unaligned_checkpoints()),
    ("disable_unaligned_checkpoints", lambda api, c: c.disable_unaligned_checkpoints()),
    ("set_alignment_timeout",
     lambda api, c: c.set_alignment_timeout(api.Duration.of_millis(100))),
    ("set_force_unaligned_checkpoints", lambda api, c: c.set_force_unaligned_checkpoints()),
    ("set_checkpoint_storage", lambda api, c: c.set_checkpoint_storage(
        api.JobManagerCheckpointStorage())),
    ("set_checkpoint_storage_dir",
     lambda api, c: c.set_checkpoint_storage_dir("file:///tmp/returns-self")),
]


def scenario_setters_return_self(api: Api, rec: Recorder) -> None:
    cfg = fresh_config(api)
    for name, call in SETTER_CALLS:
        rec.step(f"{name}.is_self", lambda c=call: c(api, cfg) is cfg)
        rec.step(f"{name}.type", lambda c=call: type(c(api, cfg)).__name__)


def scenario_chaining(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    rec.step("chain", lambda: cfg.set_checkpoint_interval(5000)
             .set_checkpoint_timeout(60000)
             .set_min_pause_between_checkpoints(100)
             .set_max_concurrent_checkpoints(2)
             .set_tolerable_checkpoint_failure_number(4)
             .set_checkpointing_mode(api.CheckpointingMode.AT_LEAST_ONCE)
             .enable_unaligned_checkpoints()
             .set_force_unaligned_checkpoints(True)
             .set_alignment_timeout(api.Duration.of_seconds(2)) is cfg)
    rec.step("chain.values", lambda: [
        cfg.get_checkpoint_interval(), cfg.get_checkpoint_timeout(),
        cfg.get_min_pause_between_checkpoints(), cfg.get_max_concurrent_checkpoints(),
        cfg.get_tolerable_checkpoint_failure_number(), cfg.get_checkpointing_mode(),
        cfg.is_unaligned_checkpoints_enabled(), cfg.is_force_unaligned_checkpoints(),
        cfg.get_alignment_timeout() == api.Duration.of_seconds(2)])
    rec.step("chain.env", lambda: [env.get_checkpoint_interval(), env.get_checkpointing_mode(),
                                   env.is_unaligned_checkpoints_enabled(),
                                   env.is_force_unaligned_checkpoints()])


def scenario_chaining_partial(api: Api, rec: Recorder) -> None:
    """A chain stops at the first failing link; earlier links stay applied."""
    cfg = fresh_config(api)
    rec.step("chain", lambda: cfg.set_checkpoint_timeout(30000)
             .set_max_concurrent_checkpoints(3)
             .set_checkpoint_interval(5)
             .set_min_pause_between_checkpoints(99))
    rec.step("timeout", cfg.get_checkpoint_timeout)
    rec.step("max_concurrent", cfg.get_max_concurrent_checkpoints)
    rec.step("interval", cfg.get_checkpoint_interval)
    rec.step("min_pause", cfg.get_min_pause_between_checkpoints)
    rec.step("chain_type_error", lambda: cfg.set_tolerable_checkpoint_failure_number(2)
             .set_checkpoint_timeout("x").set_max_concurrent_checkpoints(7))
    rec.step("tolerable", cfg.get_tolerable_checkpoint_failure_number)
    rec.step("max_concurrent_after_type_error", cfg.get_max_concurrent_checkpoints)


def scenario_getters_type(api: Api, rec: Recorder) -> None:
    """Type names of what getters return after values were set."""
    cfg = fresh_config(api)
    cfg.set_checkpoint_interval(1000)
    for getter in ("is_checkpointing_enabled", "get_checkpoint_interval",
                   "get_checkpoint_timeout", "get_min_pause_between_checkpoints",
                   "get_max_concurrent_checkpoints", "is_fail_on_checkpointing_errors",
                   "get_tolerable_checkpoint_failure_number",
                   "is_externalized_checkpoints_enabled", "is_unaligned_checkpoints_enabled",
                   "is_force_unaligned_checkpoints"):
        rec.step(getter, lambda g=getter: type(getattr(cfg, g)()).__name__)
