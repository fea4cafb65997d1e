"""Defaults of a fresh environment and CheckpointConfig, class constants, wrapper identity."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._helpers import duration_checks, storage_summary

if TYPE_CHECKING:
    from ..battery import Api, Recorder

CONFIG_GETTERS = (
    "is_checkpointing_enabled",
    "get_checkpointing_mode",
    "get_checkpoint_interval",
    "get_checkpoint_timeout",
    "get_min_pause_between_checkpoints",
    "get_max_concurrent_checkpoints",
    "is_fail_on_checkpointing_errors",
    "get_tolerable_checkpoint_failure_number",
    "is_externalized_checkpoints_enabled",
    "get_externalized_checkpoint_cleanup",
    "get_externalized_checkpoint_retention",
    "is_unaligned_checkpoints_enabled",
    "is_force_unaligned_checkpoints",
)

ENV_GETTERS = (
    "get_checkpoint_interval",
    "get_checkpointing_mode",
    "get_checkpointing_consistency_mode",
    "get_state_backend",
    "is_changelog_state_backend_enabled",
    "get_default_savepoint_directory",
    "is_unaligned_checkpoints_enabled",
    "is_force_unaligned_checkpoints",
)


def scenario_env_defaults(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    rec.step("env_type", lambda: type(env) is api.StreamExecutionEnvironment)
    for getter in ENV_GETTERS:
        rec.step(getter, getattr(env, getter))
    rec.step("get_checkpoint_config.type", lambda: type(env.get_checkpoint_config()).__name__)


def scenario_config_defaults(api: Api, rec: Recorder) -> None:
    cfg = api.new_env().get_checkpoint_config()
    for getter in CONFIG_GETTERS:
        rec.step(getter, getattr(cfg, getter))
    rec.step("get_alignment_timeout", cfg.get_alignment_timeout)
    duration_checks(api, rec, "get_alignment_timeout", cfg.get_alignment_timeout,
                    millis=(0, 1), nanos=(0,))
    rec.step("get_alignment_timeout.eq_seconds_0",
             lambda: cfg.get_alignment_timeout() == api.Duration.of_seconds(0))
    rec.step("get_alignment_timeout.eq_int_0", lambda: cfg.get_alignment_timeout() == 0)
    rec.step("get_checkpoint_storage", cfg.get_checkpoint_storage)
    rec.step("get_checkpoint_storage.summary",
             lambda: storage_summary(cfg.get_checkpoint_storage()))
    # reading defaults twice gives the same answers (getters have no side effects)
    rec.step("getters_stable",
             lambda: [getattr(cfg, g)() for g in CONFIG_GETTERS]
             == [getattr(cfg, g)() for g in CONFIG_GETTERS])


def scenario_class_constants(api: Api, rec: Recorder) -> None:
    cc = api.CheckpointConfig
    for name in ("DEFAULT_MODE", "DEFAULT_TIMEOUT", "DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS",
                 "DEFAULT_MAX_CONCURRENT_CHECKPOINTS"):
        rec.step(f"CheckpointConfig.{name}", lambda n=name: getattr(cc, n))
    rec.step("CheckpointConfig.DEFAULT_MODE.is_member",
             lambda: cc.DEFAULT_MODE is api.CheckpointingMode.EXACTLY_ONCE)
    rec.step("JobManagerCheckpointStorage.DEFAULT_MAX_STATE_SIZE",
             lambda: api.JobManagerCheckpointStorage.DEFAULT_MAX_STATE_SIZE)
    rec.step("FileSystemCheckpointStorage.MAX_FILE_STATE_THRESHOLD",
             lambda: api.FileSystemCheckpointStorage.MAX_FILE_STATE_THRESHOLD)
    rec.step("MemoryStateBackend.DEFAULT_MAX_STATE_SIZE",
             lambda: api.MemoryStateBackend.DEFAULT_MAX_STATE_SIZE)
    cfg = api.new_env().get_checkpoint_config()
    rec.step("instance.DEFAULT_TIMEOUT", lambda: cfg.DEFAULT_TIMEOUT)
    rec.step("defaults_match_fresh_config", lambda: [
        cfg.get_checkpointing_mode() == cc.DEFAULT_MODE,
        cfg.get_checkpoint_timeout() == cc.DEFAULT_TIMEOUT,
        cfg.get_min_pause_between_checkpoints() == cc.DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS,
        cfg.get_max_concurrent_checkpoints() == cc.DEFAULT_MAX_CONCURRENT_CHECKPOINTS,
    ])


def scenario_wrapper_identity(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    a = env.get_checkpoint_config()
    b = env.get_checkpoint_config()
    rec.step("config.is", lambda: a is b)
    rec.step("config.eq", lambda: a == b)
    rec.step("config.ne", lambda: a != b)
    rec.step("config.self_eq", lambda: a == a)  # identity equality is the point
    rec.step("config.hashable", lambda: isinstance(hash(a), int))
    rec.step("config.hash_differs", lambda: hash(a) != hash(b))
    rec.step("config.type_same", lambda: type(a) is type(b))
    rec.step("config.shared_state.set", lambda: a.set_checkpoint_timeout(12345) is a)
    rec.step("config.shared_state.get_other", b.get_checkpoint_timeout)
    rec.step("config.shared_state.get_new", lambda: env.get_checkpoint_config()
             .get_checkpoint_timeout())
    rec.step("config.set_interval_on_wrapper", lambda: b.set_checkpoint_interval(4321) is b)
    rec.step("config.env_sees_interval", env.get_checkpoint_interval)
    rec.step("config.other_wrapper_sees_interval", a.get_checkpoint_interval)

    rec.step("alignment_timeout.is",
             lambda: a.get_alignment_timeout() is a.get_alignment_timeout())
    rec.step("alignment_timeout.eq",
             lambda: a.get_alignment_timeout() == a.get_alignment_timeout())
    duration = api.Duration.of_millis(777)
    rec.step("alignment_timeout.set", lambda: a.set_alignment_timeout(duration) is a)
    rec.step("alignment_timeout.is_passed_object", lambda: a.get_alignment_timeout() is duration)
    rec.step("alignment_timeout.eq_passed_object", lambda: a.get_alignment_timeout() == duration)

    storage = api.JobManagerCheckpointStorage("file:///tmp/identity")
    rec.step("storage.set", lambda: a.set_checkpoint_storage(storage) is a)
    rec.step("storage.is_passed_object", lambda: a.get_checkpoint_storage() is storage)
    rec.step("storage.eq_passed_object", lambda: a.get_checkpoint_storage() == storage)
    rec.step("storage.is", lambda: a.get_checkpoint_storage() is a.get_checkpoint_storage())
    rec.step("storage.eq", lambda: a.get_checkpoint_storage() == a.get_checkpoint_storage())
    rec.step("storage.other_wrapper", lambda: storage_summary(b.get_checkpoint_storage()))

    backend = api.HashMapStateBackend()
    rec.step("backend.set", lambda: env.set_state_backend(backend) is env)
    rec.step("backend.is_passed_object", lambda: env.get_state_backend() is backend)
    rec.step("backend.eq_passed_object", lambda: env.get_state_backend() == backend)
    rec.step("backend.is", lambda: env.get_state_backend() is env.get_state_backend())
    rec.step("backend.eq", lambda: env.get_state_backend() == env.get_state_backend())
    rec.step("backend.type", lambda: type(env.get_state_backend()).__name__)

    mode = api.CheckpointingMode.AT_LEAST_ONCE
    rec.step("mode.set", lambda: a.set_checkpointing_mode(mode) is a)
    rec.step("mode.is_member", lambda: a.get_checkpointing_mode() is mode)
    rec.step("mode.env_is_member", lambda: env.get_checkpointing_mode() is mode)


def scenario_env_identity(api: Api, rec: Recorder) -> None:
    see = api.StreamExecutionEnvironment
    env1 = see.get_execution_environment()
    env2 = see.get_execution_environment()
    rec.step("two_envs.is", lambda: env1 is env2)
    rec.step("two_envs.eq", lambda: env1 == env2)
    rec.step("two_envs.same_type", lambda: type(env1) is type(env2))
    rec.step("configs.is", lambda: env1.get_checkpoint_config() is env2.get_checkpoint_config())
    rec.step("enable_returns_self", lambda: env1.enable_checkpointing(1000) is env1)
    rec.step("after_enable.config_type",
             lambda: type(env1.get_checkpoint_config()).__name__)
