"""Enum classes and the setters that take enum members."""
from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Any

from ._helpers import fresh_config

if TYPE_CHECKING:
    from ..battery import Api, Recorder

ENUMS = ("CheckpointingMode", "ExternalizedCheckpointCleanup",
         "ExternalizedCheckpointRetention", "PredefinedOptions")


class _Foreign(enum.Enum):
    """An unrelated enum whose member names collide with Flink's."""

    EXACTLY_ONCE = 0
    RETAIN_ON_CANCELLATION = 1


def scenario_enum_classes(api: Api, rec: Recorder) -> None:
    for name in ENUMS:
        cls = api.cls(name)
        rec.step(f"{name}.members", lambda c=cls: [(m.name, m.value) for m in c])
        rec.step(f"{name}.len", lambda c=cls: len(c))
        rec.step(f"{name}.is_enum", lambda c=cls: issubclass(c, enum.Enum))
        rec.step(f"{name}.is_int_enum", lambda c=cls: issubclass(c, int))
        rec.step(f"{name}.mro", lambda c=cls: [k.__name__ for k in c.__mro__])
        rec.step(f"{name}.members_map", lambda c=cls: list(c.__members__))
        first = next(iter(cls))
        rec.step(f"{name}.first.str", lambda m=first: str(m))
        rec.step(f"{name}.first.repr", lambda m=first: repr(m))
        rec.step(f"{name}.first.format", lambda m=first: f"{m}")
        rec.step(f"{name}.first.name", lambda m=first: m.name)
        rec.step(f"{name}.first.value", lambda m=first: m.value)
        rec.step(f"{name}.first.hash_is_int", lambda m=first: isinstance(hash(m), int))
        rec.step(f"{name}.first.eq_value", lambda m=first: m == m.value)
        rec.step(f"{name}.by_value_0", lambda c=cls: c(0))
        rec.step(f"{name}.by_value_1", lambda c=cls: c(1))
        rec.step(f"{name}.by_value_bad", lambda c=cls: c(99))
        rec.step(f"{name}.by_value_str", lambda c=cls: c("0"))
        rec.step(f"{name}.by_value_none", lambda c=cls: c(None))
        rec.step(f"{name}.by_name", lambda c=cls, m=first: c[m.name])
        rec.step(f"{name}.by_name_lower", lambda c=cls, m=first: c[m.name.lower()])
        rec.step(f"{name}.by_name_bad", lambda c=cls: c["NONE"])
        rec.step(f"{name}.getattr", lambda c=cls, m=first: getattr(c, m.name) is m)
        rec.step(f"{name}.by_member", lambda c=cls, m=first: c(m) is m)
        rec.step(f"{name}.contains", lambda c=cls, m=first: m in c)
        rec.step(f"{name}.sorted_by_value", lambda c=cls: [m.name for m in
                                                           sorted(c, key=lambda x: x.value)])
        rec.step(f"{name}.lt", lambda c=cls: next(iter(c)) < list(c)[1])


def scenario_enum_cross_equality(api: Api, rec: Recorder) -> None:
    cleanup = api.ExternalizedCheckpointCleanup
    retention = api.ExternalizedCheckpointRetention
    mode = api.CheckpointingMode
    rec.step("cleanup_vs_retention.eq",
             lambda: cleanup.RETAIN_ON_CANCELLATION == retention.RETAIN_ON_CANCELLATION)
    rec.step("cleanup_vs_retention.is",
             lambda: cleanup.RETAIN_ON_CANCELLATION is retention.RETAIN_ON_CANCELLATION)
    rec.step("cleanup_vs_retention.same_class", lambda: cleanup is retention)
    rec.step("cleanup_vs_retention.value_eq",
             lambda: cleanup.RETAIN_ON_CANCELLATION.value == retention.RETAIN_ON_CANCELLATION.value)
    rec.step("mode_vs_cleanup.eq", lambda: mode.EXACTLY_ONCE == cleanup.DELETE_ON_CANCELLATION)
    rec.step("mode_vs_int", lambda: mode.EXACTLY_ONCE == 0)
    rec.step("mode_vs_str", lambda: mode.EXACTLY_ONCE == "EXACTLY_ONCE")
    rec.step("mode_vs_foreign", lambda: mode.EXACTLY_ONCE == _Foreign.EXACTLY_ONCE)
    rec.step("datastream_reexport_is",
             lambda: api.datastream.CheckpointingMode.EXACTLY_ONCE is mode.EXACTLY_ONCE)
    rec.step("cleanup_via_datastream",
             lambda: api.datastream.ExternalizedCheckpointCleanup is cleanup)
    rec.step("retention_via_datastream",
             lambda: api.datastream.ExternalizedCheckpointRetention is retention)


def _mode_args(api: Api) -> list[tuple[str, Any]]:
    return [
        ("at_least_once", api.CheckpointingMode.AT_LEAST_ONCE),
        ("exactly_once", api.CheckpointingMode.EXACTLY_ONCE),
        ("retention_member", api.ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION),
        ("cleanup_member", api.ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION),
        ("predefined_member", api.PredefinedOptions.DEFAULT),
        ("foreign_same_name", _Foreign.EXACTLY_ONCE),
        ("none", None),
        ("str_name", "AT_LEAST_ONCE"),
        ("int_value", 1),
        ("at_least_once_again", api.CheckpointingMode.AT_LEAST_ONCE),
    ]


def scenario_set_checkpointing_mode(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    for label, value in _mode_args(api):
        rec.step(f"set.{label}", lambda v=value: cfg.set_checkpointing_mode(v) is cfg)
        rec.step(f"set.{label}.get", cfg.get_checkpointing_mode)
        rec.step(f"set.{label}.env", env.get_checkpointing_consistency_mode)
    rec.step("keyword", lambda: cfg.set_checkpointing_mode(
        checkpointing_mode=api.CheckpointingMode.EXACTLY_ONCE) is cfg)
    rec.step("keyword.get", cfg.get_checkpointing_mode)
    rec.step("interval_untouched", cfg.get_checkpoint_interval)
    rec.step("enabled_untouched", cfg.is_checkpointing_enabled)


def _cleanup_args(api: Api) -> list[tuple[str, Any]]:
    cleanup = api.ExternalizedCheckpointCleanup
    retention = api.ExternalizedCheckpointRetention
    return [
        ("retain", cleanup.RETAIN_ON_CANCELLATION),
        ("delete", cleanup.DELETE_ON_CANCELLATION),
        ("no_externalized", cleanup.NO_EXTERNALIZED_CHECKPOINTS),
        ("retention_retain", retention.RETAIN_ON_CANCELLATION),
        ("retention_none", retention.NO_EXTERNALIZED_CHECKPOINTS),
        ("mode_member", api.CheckpointingMode.EXACTLY_ONCE),
        ("foreign_same_name", _Foreign.RETAIN_ON_CANCELLATION),
        ("none", None),
        ("str_name", "RETAIN_ON_CANCELLATION"),
        ("int_value", 1),
    ]


def _probe_cleanup_setter(api: Api, rec: Recorder, setter: str) -> None:
    cfg = fresh_config(api)
    for label, value in _cleanup_args(api):
        rec.step(f"set.{label}", lambda v=value: getattr(cfg, setter)(v) is cfg)
        rec.step(f"set.{label}.cleanup", cfg.get_externalized_checkpoint_cleanup)
        rec.step(f"set.{label}.retention", cfg.get_externalized_checkpoint_retention)
        rec.step(f"set.{label}.enabled", cfg.is_externalized_checkpoints_enabled)
    rec.step("keyword", lambda: getattr(cfg, setter)(
        cleanup_mode=api.ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION) is cfg)
    rec.step("keyword.cleanup", cfg.get_externalized_checkpoint_cleanup)


def scenario_enable_externalized_checkpoints(api: Api, rec: Recorder) -> None:
    _probe_cleanup_setter(api, rec, "enable_externalized_checkpoints")


def scenario_set_externalized_checkpoint_cleanup(api: Api, rec: Recorder) -> None:
    _probe_cleanup_setter(api, rec, "set_externalized_checkpoint_cleanup")


def scenario_set_externalized_checkpoint_retention(api: Api, rec: Recorder) -> None:
    retention = api.ExternalizedCheckpointRetention
    cfg = fresh_config(api)
    rec.step("prepare", lambda: cfg.set_externalized_checkpoint_cleanup(
        api.ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION) is cfg)
    cases = [("retain", retention.RETAIN_ON_CANCELLATION),
             ("delete", retention.DELETE_ON_CANCELLATION),
             ("no_externalized", retention.NO_EXTERNALIZED_CHECKPOINTS),
             ("cleanup_member", api.ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION),
             ("none", None), ("str_name", "RETAIN_ON_CANCELLATION")]
    for label, value in cases:
        rec.step(f"set.{label}",
                 lambda v=value: cfg.set_externalized_checkpoint_retention(v) is cfg)
        rec.step(f"set.{label}.retention", cfg.get_externalized_checkpoint_retention)
        rec.step(f"set.{label}.cleanup", cfg.get_externalized_checkpoint_cleanup)
    rec.step("keyword", lambda: cfg.set_externalized_checkpoint_retention(
        retention_mode=retention.RETAIN_ON_CANCELLATION) is cfg)
    rec.step("bad_keyword", lambda: cfg.set_externalized_checkpoint_retention(
        cleanup_mode=retention.RETAIN_ON_CANCELLATION))


def scenario_externalized_getters_agree(api: Api, rec: Recorder) -> None:
    cleanup = api.ExternalizedCheckpointCleanup
    for member in cleanup:
        cfg = fresh_config(api)
        cfg.set_externalized_checkpoint_cleanup(member)
        rec.step(f"{member.name}.names", lambda c=cfg: [
            c.get_externalized_checkpoint_cleanup().name,
            c.get_externalized_checkpoint_retention().name])
        rec.step(f"{member.name}.cleanup_is_member",
                 lambda c=cfg, m=member: c.get_externalized_checkpoint_cleanup() is m)
        rec.step(f"{member.name}.retention_type",
                 lambda c=cfg: type(c.get_externalized_checkpoint_retention()).__name__)


def scenario_enable_checkpointing_modes(api: Api, rec: Recorder) -> None:
    """``env.enable_checkpointing(interval, mode)`` with every kind of mode argument."""
    for label, value in _mode_args(api):
        env = api.new_env()
        rec.step(f"{label}", lambda e=env, v=value: e.enable_checkpointing(1000, v) is e)
        rec.step(f"{label}.mode", env.get_checkpointing_mode)
        rec.step(f"{label}.interval", env.get_checkpoint_interval)
