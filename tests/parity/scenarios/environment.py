"""StreamExecutionEnvironment: checkpointing, savepoint dir, changelog, independence, close."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._helpers import INT_EDGES, PATH_FORMS, WRONG_TYPES, storage_summary

if TYPE_CHECKING:
    from ..battery import Api, Recorder

ENABLE_CASES = [
    ("valid_1000", 1000),
    ("min_10", 10),
    ("below_9", 9),
    ("zero", 0),
    ("minus_1", -1),
    *INT_EDGES,
    *WRONG_TYPES,
]


def scenario_enable_checkpointing(api: Api, rec: Recorder) -> None:
    for label, value in ENABLE_CASES:
        env = api.new_env()
        rec.step(f"{label}", lambda e=env, v=value: e.enable_checkpointing(v) is e)
        rec.step(f"{label}.interval", env.get_checkpoint_interval)
        rec.step(f"{label}.enabled", env.get_checkpoint_config().is_checkpointing_enabled)
        rec.step(f"{label}.mode", env.get_checkpointing_mode)


def scenario_enable_checkpointing_sequence(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    mode = api.CheckpointingMode
    rec.step("first", lambda: env.enable_checkpointing(5000, mode.AT_LEAST_ONCE) is env)
    rec.step("first.state", lambda: [env.get_checkpoint_interval(),
                                     env.get_checkpointing_mode()])
    rec.step("keeps_mode", lambda: env.enable_checkpointing(6000) is env)
    rec.step("keeps_mode.state", lambda: [env.get_checkpoint_interval(),
                                          env.get_checkpointing_mode()])
    rec.step("explicit_none", lambda: env.enable_checkpointing(7000, None) is env)
    rec.step("explicit_none.state", lambda: [env.get_checkpoint_interval(),
                                             env.get_checkpointing_mode()])
    rec.step("keywords", lambda: env.enable_checkpointing(
        interval=8000, mode=mode.EXACTLY_ONCE) is env)
    rec.step("keywords.state", lambda: [env.get_checkpoint_interval(),
                                        env.get_checkpointing_mode()])
    rec.step("bad_keyword", lambda: env.enable_checkpointing(checkpoint_interval=9000))
    rec.step("no_args", lambda: env.enable_checkpointing())
    rec.step("three_args", lambda: env.enable_checkpointing(1000, mode.EXACTLY_ONCE, True))
    rec.step("config_view", lambda: [env.get_checkpoint_config().get_checkpoint_interval(),
                                     env.get_checkpoint_config().get_checkpointing_mode()])


def scenario_enable_checkpointing_partial(api: Api, rec: Recorder) -> None:
    """A rejected interval with an explicit mode: does the mode still change?"""
    mode = api.CheckpointingMode
    env = api.new_env()
    rec.step("bad_interval_with_mode", lambda: env.enable_checkpointing(9, mode.AT_LEAST_ONCE))
    rec.step("mode_after", env.get_checkpointing_mode)
    rec.step("interval_after", env.get_checkpoint_interval)
    rec.step("enabled_after", env.get_checkpoint_config().is_checkpointing_enabled)
    env2 = api.new_env()
    rec.step("str_interval_with_mode",
             lambda: env2.enable_checkpointing("1000", mode.AT_LEAST_ONCE))
    rec.step("str_interval.mode_after", env2.get_checkpointing_mode)
    env3 = api.new_env()
    rec.step("set_then_bad", lambda: env3.enable_checkpointing(2000, mode.AT_LEAST_ONCE) is env3)
    rec.step("bad_with_exactly_once",
             lambda: env3.enable_checkpointing(0, mode.EXACTLY_ONCE))
    rec.step("after.state", lambda: [env3.get_checkpoint_interval(),
                                     env3.get_checkpointing_mode()])
    rec.step("bad_without_mode", lambda: env3.enable_checkpointing(5))
    rec.step("after_without_mode.state", lambda: [env3.get_checkpoint_interval(),
                                                  env3.get_checkpointing_mode()])


def scenario_checkpointing_mode_getters(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    for member in api.CheckpointingMode:
        rec.step(f"{member.name}.set", lambda m=member: cfg.set_checkpointing_mode(m) is cfg)
        rec.step(f"{member.name}.env_mode", env.get_checkpointing_mode)
        rec.step(f"{member.name}.env_consistency", env.get_checkpointing_consistency_mode)
        rec.step(f"{member.name}.same",
                 lambda: env.get_checkpointing_mode() is env.get_checkpointing_consistency_mode())


def scenario_default_savepoint_directory(api: Api, rec: Recorder) -> None:
    for label, path in PATH_FORMS:
        env = api.new_env()
        rec.step(f"{label}", lambda e=env, p=path: e.set_default_savepoint_directory(p) is e)
        rec.step(f"{label}.get", env.get_default_savepoint_directory)
        rec.step(f"{label}.storage", lambda e=env: storage_summary(
            e.get_checkpoint_config().get_checkpoint_storage()))
    env = api.new_env()
    rec.step("keyword", lambda: env.set_default_savepoint_directory(
        directory="file:///tmp/sp-kw") is env)
    rec.step("keyword.get", env.get_default_savepoint_directory)
    rec.step("overwrite", lambda: env.set_default_savepoint_directory("s3://b/sp2") is env)
    rec.step("overwrite.get", env.get_default_savepoint_directory)
    rec.step("bad_keyword", lambda: env.set_default_savepoint_directory(path="file:///x"))
    rec.step("tmp_dir", lambda: env.set_default_savepoint_directory(api.tmp_uri("sp")) is env)
    rec.step("tmp_dir.get", env.get_default_savepoint_directory)
    rec.step("config_storage_untouched", lambda: storage_summary(
        env.get_checkpoint_config().get_checkpoint_storage()))
    rec.step("interval_untouched", env.get_checkpoint_interval)


def scenario_savepoint_directory_after_bad_value(api: Api, rec: Recorder) -> None:
    """A bad directory is accepted by the setter; what happens when it is read back?"""
    env = api.new_env()
    rec.step("set_good", lambda: env.set_default_savepoint_directory("file:///tmp/good") is env)
    rec.step("set_relative", lambda: env.set_default_savepoint_directory("rel/sp") is env)
    rec.step("get_relative", env.get_default_savepoint_directory)
    rec.step("set_empty", lambda: env.set_default_savepoint_directory("") is env)
    rec.step("get_empty", env.get_default_savepoint_directory)
    rec.step("get_empty_again", env.get_default_savepoint_directory)
    rec.step("set_none", lambda: env.set_default_savepoint_directory(None))
    rec.step("get_after_none", env.get_default_savepoint_directory)
    rec.step("set_good_again",
             lambda: env.set_default_savepoint_directory("file:///tmp/good2") is env)
    rec.step("get_good_again", env.get_default_savepoint_directory)


def scenario_changelog(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    rec.step("default", env.is_changelog_state_backend_enabled)
    cases: list[tuple[str, Any]] = [
        ("true", True), ("false", False), ("true_again", True),
        ("int_1", 1), ("none", None), ("str", "true"), ("float", 1.0),
    ]
    for label, value in cases:
        rec.step(f"enable.{label}",
                 lambda v=value: env.enable_changelog_state_backend(v) is env)
        rec.step(f"enable.{label}.get", env.is_changelog_state_backend_enabled)
    rec.step("keyword", lambda: env.enable_changelog_state_backend(enabled=False) is env)
    rec.step("keyword.get", env.is_changelog_state_backend_enabled)
    rec.step("no_args", lambda: env.enable_changelog_state_backend())
    rec.step("backend_untouched", env.get_state_backend)
    env2 = api.new_env()
    rec.step("false_on_fresh", lambda: env2.enable_changelog_state_backend(False) is env2)
    rec.step("false_on_fresh.get", env2.is_changelog_state_backend_enabled)


def _setters(api: Api) -> list[tuple[str, Callable[[Any], Any]]]:
    mode = api.CheckpointingMode
    return [
        ("interval", lambda e: e.enable_checkpointing(1234, mode.AT_LEAST_ONCE)),
        ("timeout", lambda e: e.get_checkpoint_config().set_checkpoint_timeout(4321)),
        ("min_pause", lambda e: e.get_checkpoint_config().set_min_pause_between_checkpoints(9)),
        ("max_concurrent", lambda e: e.get_checkpoint_config().set_max_concurrent_checkpoints(5)),
        ("tolerable", lambda e: e.get_checkpoint_config()
         .set_tolerable_checkpoint_failure_number(8)),
        ("unaligned", lambda e: e.get_checkpoint_config().enable_unaligned_checkpoints()),
        ("force", lambda e: e.get_checkpoint_config().set_force_unaligned_checkpoints()),
        ("cleanup", lambda e: e.get_checkpoint_config().set_externalized_checkpoint_cleanup(
            api.ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)),
        ("alignment", lambda e: e.get_checkpoint_config().set_alignment_timeout(
            api.Duration.of_millis(55))),
        ("storage", lambda e: e.get_checkpoint_config().set_checkpoint_storage_dir(
            "file:///tmp/indep")),
        ("backend", lambda e: e.set_state_backend(api.HashMapStateBackend())),
        ("changelog", lambda e: e.enable_changelog_state_backend(True)),
        ("savepoint", lambda e: e.set_default_savepoint_directory("file:///tmp/indep-sp")),
    ]


def _snapshot(api: Api, env: Any) -> list[Any]:
    cfg = env.get_checkpoint_config()
    return [
        env.get_checkpoint_interval(), env.get_checkpointing_mode(),
        cfg.get_checkpoint_timeout(), cfg.get_min_pause_between_checkpoints(),
        cfg.get_max_concurrent_checkpoints(), cfg.get_tolerable_checkpoint_failure_number(),
        cfg.is_unaligned_checkpoints_enabled(), cfg.is_force_unaligned_checkpoints(),
        cfg.get_externalized_checkpoint_cleanup(),
        cfg.get_alignment_timeout() == api.Duration.of_millis(0),
        storage_summary(cfg.get_checkpoint_storage()),
        env.get_state_backend() is None, env.is_changelog_state_backend_enabled(),
        env.get_default_savepoint_directory(),
    ]


def scenario_env_independence(api: Api, rec: Recorder) -> None:
    one = api.new_env()
    two = api.new_env()
    for label, setter in _setters(api):
        rec.step(f"set_on_one.{label}", lambda s=setter: type(s(one)).__name__)
    rec.step("one.snapshot", lambda: _snapshot(api, one))
    rec.step("two.snapshot", lambda: _snapshot(api, two))
    three = api.new_env()
    rec.step("later_env.snapshot", lambda: _snapshot(api, three))


def scenario_env_close(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    env.enable_checkpointing(3000)
    rec.step("close", env.close)
    rec.step("close_again", env.close)
    rec.step("interval_after_close", env.get_checkpoint_interval)
    rec.step("config_after_close", lambda: env.get_checkpoint_config().get_checkpoint_interval())
    rec.step("set_after_close", lambda: env.enable_checkpointing(4000) is env)
    rec.step("interval_after_set", env.get_checkpoint_interval)
    rec.step("close_with_arg", lambda: env.close(True))
    fresh = api.new_env()
    rec.step("fresh_env_after_close", fresh.get_checkpoint_interval)


def scenario_env_own_configuration(api: Api, rec: Recorder) -> None:
    """The environment's own configuration, as jobs reach it through PyFlink's helper."""
    env = api.new_env()
    j_env_configuration = api.mod("util.java_utils").get_j_env_configuration

    def own() -> Any:
        return api.Configuration(j_configuration=j_env_configuration(env._j_stream_execution_environment))

    rec.step("keys", lambda: sorted(own().key_set()))
    rec.step("set_integer", lambda: own().set_integer("parallelism.default", 3) is not None)
    rec.step("parallelism_after", env.get_parallelism)
    rec.step("set_string", lambda: own().set_string("execution.checkpointing.interval", "4 s") is not None)
    rec.step("interval_after", env.get_checkpoint_interval)
    rec.step("get_string", lambda: own().get_string("execution.checkpointing.interval", ""))
    rec.step("set_bytearray", lambda: own().set_bytearray("own.bytes", bytearray(b"\x01ab")) is not None)
    rec.step("get_bytearray", lambda: list(own().get_bytearray("own.bytes", bytearray())))


def scenario_get_execution_environment_args(api: Api, rec: Recorder) -> None:
    see = api.StreamExecutionEnvironment
    rec.step("none", lambda: see.get_execution_environment(None).get_checkpoint_interval())
    rec.step("empty_config", lambda: see.get_execution_environment(
        api.Configuration()).get_checkpoint_interval())
    rec.step("keyword", lambda: see.get_execution_environment(
        configuration=api.Configuration()).get_checkpoint_interval())
    rec.step("str", lambda: see.get_execution_environment("x"))
    rec.step("empty_str", lambda: type(see.get_execution_environment("")).__name__)
    rec.step("dict", lambda: see.get_execution_environment(
        {"execution.checkpointing.interval": "1 s"}))
    rec.step("empty_dict", lambda: type(see.get_execution_environment({})).__name__)
    rec.step("zero", lambda: type(see.get_execution_environment(0)).__name__)
    rec.step("bad_keyword", lambda: see.get_execution_environment(config=None))
    rec.step("via_instance", lambda: type(api.new_env().get_execution_environment()).__name__)
    rec.step("is_static", lambda: isinstance(
        see.__dict__["get_execution_environment"], staticmethod))


def scenario_deprecation_warnings(api: Api, rec: Recorder) -> None:
    """Which calls warn (each step records its warnings), including failing calls."""
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    cleanup = api.ExternalizedCheckpointCleanup
    calls: list[tuple[str, Callable[[], Any]]] = [
        ("set_checkpoint_storage", lambda: cfg.set_checkpoint_storage(
            api.JobManagerCheckpointStorage()) is cfg),
        ("set_checkpoint_storage.failing", lambda: cfg.set_checkpoint_storage(None)),
        ("set_checkpoint_storage_dir",
         lambda: cfg.set_checkpoint_storage_dir("file:///tmp/dep") is cfg),
        ("set_checkpoint_storage_dir.failing", lambda: cfg.set_checkpoint_storage_dir("")),
        ("get_checkpoint_storage", lambda: type(cfg.get_checkpoint_storage()).__name__),
        ("set_state_backend", lambda: env.set_state_backend(api.HashMapStateBackend()) is env),
        ("set_state_backend.failing", lambda: env.set_state_backend(None)),
        ("get_state_backend", lambda: type(env.get_state_backend()).__name__),
        ("enable_externalized_checkpoints", lambda: cfg.enable_externalized_checkpoints(
            cleanup.RETAIN_ON_CANCELLATION) is cfg),
        ("set_externalized_checkpoint_cleanup", lambda: cfg.set_externalized_checkpoint_cleanup(
            cleanup.RETAIN_ON_CANCELLATION) is cfg),
        ("get_externalized_checkpoint_cleanup", cfg.get_externalized_checkpoint_cleanup),
        ("set_externalized_checkpoint_retention",
         lambda: cfg.set_externalized_checkpoint_retention(
             api.ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)),
        ("is_fail_on_checkpointing_errors", cfg.is_fail_on_checkpointing_errors),
        ("set_fail_on_checkpointing_errors",
         lambda: cfg.set_fail_on_checkpointing_errors(True) is cfg),
        ("set_alignment_timeout",
         lambda: cfg.set_alignment_timeout(api.Duration.of_millis(1)) is cfg),
        ("get_checkpointing_mode", env.get_checkpointing_mode),
        ("memory_backend", lambda: type(api.MemoryStateBackend()).__name__),
        ("fs_backend", lambda: type(api.FsStateBackend("file:///tmp/dep-fs")).__name__),
        ("rocksdb_backend", lambda: type(api.RocksDBStateBackend("file:///tmp/dep-r")).__name__),
        ("enable_changelog", lambda: env.enable_changelog_state_backend(True) is env),
        ("set_default_savepoint_directory",
         lambda: env.set_default_savepoint_directory("file:///tmp/dep-sp") is env),
        ("configure", lambda: env.configure(api.Configuration())),
        ("close", env.close),
    ]
    for label, call in calls:
        rec.step(label, call)
