"""StreamExecutionEnvironment's job-wide settings next to checkpointing, and its ExecutionConfig.

Each case uses a fresh environment, so that the default and the effect of one call are seen
alone.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ._helpers import WRONG_TYPES, Case
from .value_classes import restart_summary

if TYPE_CHECKING:
    from ..battery import Api, Recorder

PARALLELISM_CASES: list[Case] = [
    ("one", 1), ("four", 4), ("zero", 0), ("minus_1", -1), ("minus_2", -2),
    ("minus_3", -3), ("int_max", 2**31 - 1), ("long", 2**31), *WRONG_TYPES,
]
MAX_PARALLELISM_CASES: list[Case] = [
    ("one", 1), ("128", 128), ("32768", 32768), ("32769", 32769), ("zero", 0),
    ("minus_1", -1), ("minus_2", -2), ("long", 2**31), *WRONG_TYPES,
]
BUFFER_TIMEOUT_CASES: list[Case] = [
    ("100", 100), ("zero", 0), ("minus_1", -1), ("minus_2", -2), ("long", 2**40),
    *WRONG_TYPES,
]
INTERVAL_CASES: list[Case] = [
    ("100", 100), ("zero", 0), ("minus_1", -1), ("minus_2", -2), ("long", 2**40),
    *WRONG_TYPES,
]


def _set_get(api: Api, rec: Recorder, prefix: str, cases: list[Case],
             set_: Callable[[Any, Any], Any], gets: dict[str, Callable[[Any], Any]]) -> None:
    """Per case, a fresh environment: ``<prefix>.<label>`` = what the setter returned (``self``
    as the string ``"self"``); then each getter."""
    for label, value in cases:
        env = api.new_env()

        rec.step(f"{prefix}.{label}", lambda e=env, v=value: _returned(e, set_(e, v)))
        for name, get in gets.items():
            rec.step(f"{prefix}.{label}.{name}", lambda e=env, g=get: g(e))


def _returned(target: Any, out: Any) -> Any:
    return "self" if out is target else out


def _par(value: Any, local: Any) -> Any:
    """A parallelism, with the machine's local default (its processor count) shown as
    ``"<local default>"`` so that the recording does not depend on the machine."""
    return "<local default>" if value == local else value


def scenario_env_job_defaults(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    rec.step("parallelism_is_positive", lambda: env.get_parallelism() > 0)
    rec.step("max_parallelism", env.get_max_parallelism)
    rec.step("buffer_timeout", env.get_buffer_timeout)
    rec.step("chaining", env.is_chaining_enabled)
    rec.step("chaining_different_max",
             env.is_chaining_of_operators_with_different_max_parallelism_enabled)
    rec.step("restart_strategy", lambda: restart_summary(env.get_restart_strategy()))
    rec.step("time_characteristic", env.get_stream_time_characteristic)
    rec.step("default_local_parallelism_is_positive",
             lambda: env.get_default_local_parallelism() > 0)
    rec.step("get_config.type", lambda: type(env.get_config()).__name__)
    rec.step("get_config.same_object", lambda: env.get_config() is env.get_config())
    rec.step("get_config.equal", lambda: env.get_config() == env.get_config())


def scenario_env_parallelism(api: Api, rec: Recorder) -> None:
    local = api.new_env().get_parallelism()
    gets = {"get": lambda e: _par(e.get_parallelism(), local),
            "config": lambda e: _par(e.get_config().get_parallelism(), local)}
    _set_get(api, rec, "set", PARALLELISM_CASES, lambda e, v: e.set_parallelism(v), gets)
    env = api.new_env()
    rec.step("sequence.set_3", lambda: _returned(env, env.set_parallelism(3)))
    rec.step("sequence.bad_0", lambda: env.set_parallelism(0))
    rec.step("sequence.after_bad", lambda: _par(env.get_parallelism(), local))
    rec.step("sequence.keyword", lambda: _returned(env, env.set_parallelism(parallelism=5)))
    rec.step("sequence.after_keyword", lambda: _par(env.get_parallelism(), local))


def scenario_env_max_parallelism(api: Api, rec: Recorder) -> None:
    gets = {"get": lambda e: e.get_max_parallelism(),
            "config": lambda e: e.get_config().get_max_parallelism()}
    _set_get(api, rec, "set", MAX_PARALLELISM_CASES,
             lambda e, v: e.set_max_parallelism(v), gets)
    env = api.new_env()
    rec.step("sequence.set_64", lambda: _returned(env, env.set_max_parallelism(64)))
    rec.step("sequence.bad_0", lambda: env.set_max_parallelism(0))
    rec.step("sequence.after_bad", env.get_max_parallelism)
    rec.step("parallelism_above_max.set_par", lambda: _returned(env, env.set_parallelism(100)))
    rec.step("parallelism_above_max.state",
             lambda: [env.get_parallelism(), env.get_max_parallelism()])


def scenario_env_runtime_mode(api: Api, rec: Recorder) -> None:
    mode = api.RuntimeExecutionMode
    cases: list[Case] = [(m.name, m) for m in mode] + [
        ("str", "BATCH"), ("none", None), ("int", 1),
        ("time_characteristic", api.TimeCharacteristic.EventTime)]
    for label, value in cases:
        env = api.new_env()
        rec.step(f"{label}.returns_env_type",
                 lambda e=env, v=value: type(e.set_runtime_mode(v)).__name__)
        rec.step(f"{label}.parallelism_is_positive", lambda e=env: e.get_parallelism() > 0)
        rec.step(f"{label}.checkpoint_interval", lambda e=env: e.get_checkpoint_interval())


def scenario_env_buffer_timeout(api: Api, rec: Recorder) -> None:
    _set_get(api, rec, "set", BUFFER_TIMEOUT_CASES, lambda e, v: e.set_buffer_timeout(v),
             {"get": lambda e: e.get_buffer_timeout()})


def scenario_env_chaining(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    rec.step("disable", lambda: _returned(env, env.disable_operator_chaining()))
    rec.step("after", env.is_chaining_enabled)
    rec.step("disable_again", lambda: _returned(env, env.disable_operator_chaining()))
    rec.step("after_again", env.is_chaining_enabled)
    rec.step("different_max",
             env.is_chaining_of_operators_with_different_max_parallelism_enabled)


def scenario_env_restart_strategy(api: Api, rec: Recorder) -> None:
    s = api.RestartStrategies
    makers: list[tuple[str, Callable[[], Any]]] = [
        ("no_restart", s.no_restart),
        ("fall_back", s.fall_back_restart),
        ("fixed_delay", lambda: s.fixed_delay_restart(3, 10000)),
        ("fixed_delay_timedelta", lambda: s.fixed_delay_restart(2, timedelta(seconds=5))),
        ("fixed_delay_zero", lambda: s.fixed_delay_restart(0, 0)),
        ("failure_rate", lambda: s.failure_rate_restart(3, 60000, 1000)),
    ]
    for label, make in makers:
        env = api.new_env()
        rec.step(f"{label}.set", lambda e=env, m=make: _returned(e, e.set_restart_strategy(m())))
        rec.step(f"{label}.get", lambda e=env: restart_summary(e.get_restart_strategy()))
        rec.step(f"{label}.equal", lambda e=env, m=make: e.get_restart_strategy() == m())
        rec.step(f"{label}.config_get",
                 lambda e=env: restart_summary(e.get_config().get_restart_strategy()))
    for label, value in [("none", None), ("str", "fixed-delay"), ("int", 3)]:
        env = api.new_env()
        rec.step(f"bad_{label}.set", lambda e=env, v=value: e.set_restart_strategy(v))
        rec.step(f"bad_{label}.get", lambda e=env: restart_summary(e.get_restart_strategy()))
    env = api.new_env()
    rec.step("twice.first", lambda: env.set_restart_strategy(s.fixed_delay_restart(1, 1)))
    rec.step("twice.second", lambda: env.set_restart_strategy(s.no_restart()))
    rec.step("twice.get", lambda: restart_summary(env.get_restart_strategy()))
    conf_cases = {
        "fixed_delay": {"restart-strategy.type": "fixed-delay",
                        "restart-strategy.fixed-delay.attempts": "4",
                        "restart-strategy.fixed-delay.delay": "7 s"},
        "none": {"restart-strategy.type": "none"},
        "failure_rate": {"restart-strategy.type": "failure-rate",
                         "restart-strategy.failure-rate.max-failures-per-interval": "2",
                         "restart-strategy.failure-rate.failure-rate-interval": "1 min",
                         "restart-strategy.failure-rate.delay": "3 s"},
        "exponential": {"restart-strategy.type": "exponential-delay"},
    }
    for label, entries in conf_cases.items():
        env = api.new_env()
        rec.step(f"configure_{label}.configure", lambda e=env, c=entries: e.configure(api.conf(c)))
        rec.step(f"configure_{label}.get",
                 lambda e=env: restart_summary(e.get_restart_strategy()))
    env = api.new_env()
    rec.step("set_then_configure.set",
             lambda: env.set_restart_strategy(s.fixed_delay_restart(5, 500)))
    rec.step("set_then_configure.configure",
             lambda: env.configure(api.conf({"restart-strategy.type": "none"})))
    rec.step("set_then_configure.get", lambda: restart_summary(env.get_restart_strategy()))
    for label, entries in {"other_key": {"pipeline.name": "job"},
                           "attempts_only": {"restart-strategy.fixed-delay.attempts": "9"}}.items():
        env = api.new_env()
        rec.step(f"set_then_{label}.set",
                 lambda e=env: e.set_restart_strategy(s.fixed_delay_restart(5, 500)))
        rec.step(f"set_then_{label}.configure", lambda e=env, c=entries: e.configure(api.conf(c)))
        rec.step(f"set_then_{label}.get", lambda e=env: restart_summary(e.get_restart_strategy()))


def scenario_env_time_characteristic(api: Api, rec: Recorder) -> None:
    tc = api.TimeCharacteristic
    cases: list[Case] = [(m.name, m) for m in tc] + [
        ("str", "EventTime"), ("none", None),
        ("runtime_mode", api.RuntimeExecutionMode.BATCH)]
    for label, value in cases:
        env = api.new_env()
        rec.step(f"{label}.set", lambda e=env, v=value: _returned(
            e, e.set_stream_time_characteristic(v)))
        rec.step(f"{label}.get", lambda e=env: e.get_stream_time_characteristic())
        rec.step(f"{label}.auto_watermark",
                 lambda e=env: e.get_config().get_auto_watermark_interval())


def scenario_env_dependencies(api: Api, rec: Recorder) -> None:
    calls: list[tuple[str, Callable[[Any], Any]]] = [
        ("add_jars_one", lambda e: e.add_jars("file:///tmp/a.jar")),
        ("add_jars_two", lambda e: e.add_jars("file:///tmp/a.jar", "file:///tmp/b.jar")),
        ("add_jars_none", lambda e: e.add_jars()),
        ("add_jars_int", lambda e: e.add_jars(1)),
        ("add_classpaths_one", lambda e: e.add_classpaths("file:///tmp/c.jar")),
        ("add_classpaths_int", lambda e: e.add_classpaths(1)),
        ("add_python_file", lambda e: e.add_python_file("/tmp/udfs.py")),
        ("add_python_file_none", lambda e: e.add_python_file(None)),
        ("add_python_archive", lambda e: e.add_python_archive("/tmp/venv.zip")),
        ("add_python_archive_target",
         lambda e: e.add_python_archive("/tmp/venv.zip", "venv")),
        ("set_python_requirements", lambda e: e.set_python_requirements("/tmp/req.txt")),
        ("set_python_requirements_cache",
         lambda e: e.set_python_requirements("/tmp/req.txt", "/tmp/cache")),
        ("set_python_executable", lambda e: e.set_python_executable("venv/bin/python")),
        ("set_python_executable_int", lambda e: e.set_python_executable(3)),
    ]
    for label, call in calls:
        env = api.new_env()
        rec.step(label, lambda e=env, c=call: _returned(e, c(e)))
        rec.step(f"{label}.global_params",
                 lambda e=env: e.get_config().get_global_job_parameters())


def scenario_execution_config_numbers(api: Api, rec: Recorder) -> None:
    pairs = [
        ("parallelism", PARALLELISM_CASES),
        ("max_parallelism", MAX_PARALLELISM_CASES),
        ("auto_watermark_interval", INTERVAL_CASES),
        ("latency_tracking_interval", INTERVAL_CASES),
        ("task_cancellation_interval", INTERVAL_CASES),
        ("task_cancellation_timeout", INTERVAL_CASES),
    ]
    env0 = api.new_env()
    cfg0 = env0.get_config()
    local = env0.get_parallelism()
    for name, _ in pairs:
        rec.step(f"default.{name}", lambda n=name: _par(getattr(cfg0, f"get_{n}")(), local)
                 if n == "parallelism" else getattr(cfg0, f"get_{n}")())
    rec.step("constants", lambda: [api.ExecutionConfig.PARALLELISM_DEFAULT,
                                   api.ExecutionConfig.PARALLELISM_UNKNOWN])
    for name, cases in pairs:
        for label, value in cases:
            cfg = api.new_env().get_config()
            rec.step(f"{name}.{label}", lambda c=cfg, n=name, v=value: _returned(
                c, getattr(c, f"set_{n}")(v)))
            rec.step(f"{name}.{label}.get", lambda c=cfg, n=name: _par(
                getattr(c, f"get_{n}")(), local) if n == "parallelism" else getattr(c, f"get_{n}")())
    env = api.new_env()
    rec.step("env_view.set", lambda: _returned(env.get_config(),
                                               env.get_config().set_parallelism(6)))
    rec.step("env_view.get", env.get_parallelism)
    rec.step("env_view.set_max", lambda: env.get_config().set_max_parallelism(300) is not None)
    rec.step("env_view.get_max", env.get_max_parallelism)


def scenario_execution_config_flags(api: Api, rec: Recorder) -> None:
    flags = [
        ("closure_cleaner", "enable_closure_cleaner", "disable_closure_cleaner",
         "is_closure_cleaner_enabled"),
        ("force_kryo", "enable_force_kryo", "disable_force_kryo", "is_force_kryo_enabled"),
        ("generic_types", "enable_generic_types", "disable_generic_types",
         "has_generic_types_disabled"),
        ("auto_generated_uids", "enable_auto_generated_uids", "disable_auto_generated_uids",
         "has_auto_generated_uids_enabled"),
        ("force_avro", "enable_force_avro", "disable_force_avro", "is_force_avro_enabled"),
        ("object_reuse", "enable_object_reuse", "disable_object_reuse",
         "is_object_reuse_enabled"),
    ]
    for label, enable, disable, query in flags:
        cfg = api.new_env().get_config()
        rec.step(f"{label}.default", getattr(cfg, query))
        rec.step(f"{label}.disable", lambda c=cfg, m=disable: _returned(c, getattr(c, m)()))
        rec.step(f"{label}.after_disable", getattr(cfg, query))
        rec.step(f"{label}.enable", lambda c=cfg, m=enable: _returned(c, getattr(c, m)()))
        rec.step(f"{label}.after_enable", getattr(cfg, query))
    cfg = api.new_env().get_config()
    rec.step("auto_type_registration.default", cfg.is_auto_type_registration_disabled)
    rec.step("auto_type_registration.disable",
             lambda: _returned(cfg, cfg.disable_auto_type_registration()))
    rec.step("auto_type_registration.after", cfg.is_auto_type_registration_disabled)
    rec.step("snapshot_compression.default", cfg.is_use_snapshot_compression)
    for label, value in [("true", True), ("false", False), ("int", 1), ("none", None)]:
        rec.step(f"snapshot_compression.{label}",
                 lambda v=value: _returned(cfg, cfg.set_use_snapshot_compression(v)))
        rec.step(f"snapshot_compression.{label}.get", cfg.is_use_snapshot_compression)


def scenario_execution_config_objects(api: Api, rec: Recorder) -> None:
    cfg = api.new_env().get_config()
    rec.step("global_params.default", cfg.get_global_job_parameters)
    rec.step("global_params.set", lambda: _returned(
        cfg, cfg.set_global_job_parameters({"a": "1", "b": 2, "c": True})))
    rec.step("global_params.get", cfg.get_global_job_parameters)
    rec.step("global_params.replace", lambda: cfg.set_global_job_parameters({"z": "9"}))
    rec.step("global_params.get_after_replace", cfg.get_global_job_parameters)
    rec.step("global_params.empty", lambda: cfg.set_global_job_parameters({}))
    rec.step("global_params.get_after_empty", cfg.get_global_job_parameters)
    rec.step("global_params.none", lambda: cfg.set_global_job_parameters(None))
    rec.step("global_params.int_key", lambda: cfg.set_global_job_parameters({1: "x"}))
    rec.step("global_params.get_after_bad", cfg.get_global_job_parameters)
    s = api.RestartStrategies
    rec.step("restart.default", lambda: restart_summary(cfg.get_restart_strategy()))
    rec.step("restart.set", lambda: _returned(
        cfg, cfg.set_restart_strategy(s.fixed_delay_restart(2, 300))))
    rec.step("restart.get", lambda: restart_summary(cfg.get_restart_strategy()))
    rec.step("restart.bad", lambda: cfg.set_restart_strategy(None))
    rec.step("kryo.defaults", lambda: [cfg.get_registered_types_with_kryo_serializer_classes(),
                                       cfg.get_default_kryo_serializer_classes(),
                                       cfg.get_registered_kryo_types(),
                                       cfg.get_registered_pojo_types()])
    rec.step("kryo.register_missing_class", lambda: cfg.register_kryo_type("com.nope.Missing"))
    rec.step("kryo.register_pojo_missing", lambda: cfg.register_pojo_type("com.nope.Missing"))
    rec.step("kryo.register_jdk_class", lambda: _returned(
        cfg, cfg.register_kryo_type("java.util.ArrayList")))
    rec.step("kryo.registered", cfg.get_registered_kryo_types)
    rec.step("execution_mode.default", lambda: cfg.get_execution_mode().name)
    rec.step("execution_mode.set", lambda: _returned(
        cfg, cfg.set_execution_mode(api.ExecutionMode.BATCH)))
    rec.step("execution_mode.get", lambda: cfg.get_execution_mode().name)
    rec.step("execution_mode.bad", lambda: cfg.set_execution_mode("BATCH"))
    rec.step("input_constraint.default",
             lambda: cfg.get_default_input_dependency_constraint().name)
    rec.step("input_constraint.set", lambda: _returned(
        cfg, cfg.set_default_input_dependency_constraint(api.InputDependencyConstraint.ALL)))
    rec.step("input_constraint.get",
             lambda: cfg.get_default_input_dependency_constraint().name)
    rec.step("eq_other_env", lambda: cfg == api.new_env().get_config())
    rec.step("hash_is_int", lambda: isinstance(hash(cfg), int))
