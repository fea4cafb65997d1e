"""Table API configuration: table environment creation, EnvironmentSettings, TableConfig."""
from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

from ._helpers import raised_class

if TYPE_CHECKING:
    from ..battery import Api, Recorder

#: PyFlink's table environments set this key themselves (the address of the Python UDF worker
#: server they start); pyflink_compat starts no such server.
_LOOPBACK_KEY = "python.loopback-server.address"


def _table(api: Api) -> Any:
    return api.mod("table")


def _own_keys(config: Any) -> list[str]:
    return sorted(k for k in config.get_configuration().key_set() if k != _LOOPBACK_KEY)


def _type_name(value: Any) -> str:
    return type(value).__qualname__


def scenario_table_env_creation(api: Api, rec: Recorder) -> None:
    table = _table(api)
    ste, te, settings = table.StreamTableEnvironment, table.TableEnvironment, table.EnvironmentSettings
    env = api.new_env()
    rec.step("stream.from_env", lambda: _type_name(ste.create(env)))
    rec.step("stream.from_env_keyword",
             lambda: _type_name(ste.create(stream_execution_environment=env)))
    rec.step("stream.env_and_settings",
             lambda: _type_name(ste.create(env, settings.in_streaming_mode())))
    rec.step("stream.env_and_batch_settings",
             lambda: _type_name(ste.create(env, settings.in_batch_mode())))
    rec.step("stream.settings_only",
             lambda: _type_name(ste.create(environment_settings=settings.in_streaming_mode())))
    rec.step("stream.no_args", lambda: ste.create())
    rec.step("stream.str_env", lambda: ste.create("env"))
    rec.step("stream.str_settings", lambda: ste.create(env, "settings"))
    rec.step("table.streaming", lambda: _type_name(te.create(settings.in_streaming_mode())))
    rec.step("table.batch", lambda: _type_name(te.create(settings.in_batch_mode())))
    rec.step("table.configuration",
             lambda: _type_name(te.create(api.conf({"execution.checkpointing.interval": "4 s"}))))
    rec.step("table.none", lambda: te.create(None))
    rec.step("table.str", lambda: te.create("x"))
    t_env = ste.create(env)
    rec.step("config.type", lambda: _type_name(t_env.get_config()))
    rec.step("config.same_object", lambda: t_env.get_config() is t_env.get_config())
    rec.step("config.attribute", lambda: t_env.table_config is t_env.get_config())
    rec.step("config.keys.raw", lambda: sorted(t_env.get_config().get_configuration().key_set()))
    rec.step("config.keys", lambda: _own_keys(t_env.get_config()))
    t_streaming = te.create(settings.in_streaming_mode())
    rec.step("table.streaming.keys", lambda: _own_keys(t_streaming.get_config()))
    rec.step("table.streaming.mode",
             lambda: t_streaming.get_config().get("execution.runtime-mode", None))
    rec.step("table.streaming.interval",
             lambda: t_streaming.get_config().get("execution.checkpointing.interval", None))
    t_conf = te.create(api.conf({"execution.checkpointing.interval": "4 s"}))
    rec.step("table.configuration.keys", lambda: _own_keys(t_conf.get_config()))
    rec.step("table.configuration.interval",
             lambda: t_conf.get_config().get("execution.checkpointing.interval", None))
    built = settings.new_instance().with_configuration(
        api.conf({"execution.checkpointing.interval": "4 s"})).build()
    env2 = api.new_env()
    t_both = ste.create(env2, built)
    rec.step("stream.env_and_settings.keys", lambda: _own_keys(t_both.get_config()))
    rec.step("stream.env_and_settings.env_interval", env2.get_checkpoint_interval)


def scenario_environment_settings(api: Api, rec: Recorder) -> None:
    settings = _table(api).EnvironmentSettings

    def describe(s: Any) -> list[Any]:
        return [s.is_streaming_mode(), s.get_built_in_catalog_name(),
                s.get_built_in_database_name(), sorted(s.get_configuration().to_dict().items())]

    rec.step("streaming", lambda: describe(settings.in_streaming_mode()))
    rec.step("batch", lambda: describe(settings.in_batch_mode()))
    rec.step("default_build", lambda: describe(settings.new_instance().build()))
    builder = settings.new_instance()
    rec.step("builder.type", lambda: _type_name(builder))
    rec.step("builder.batch_returns_self", lambda: builder.in_batch_mode() is builder)
    rec.step("builder.catalog_returns_self",
             lambda: builder.with_built_in_catalog_name("c1") is builder)
    rec.step("builder.database_returns_self",
             lambda: builder.with_built_in_database_name("d1") is builder)
    rec.step("builder.catalog_none", lambda: builder.with_built_in_catalog_name(None))
    rec.step("builder.catalog_int", lambda: builder.with_built_in_catalog_name(5))
    rec.step("builder.database_none", lambda: builder.with_built_in_database_name(None))
    built = builder.build()
    rec.step("built", lambda: describe(built))
    rec.step("builder.streaming_returns_self", lambda: builder.in_streaming_mode() is builder)
    rec.step("built.after_builder_changed", lambda: describe(built))
    conf = api.conf({"execution.checkpointing.interval": "3 s", "execution.runtime-mode": "batch"})
    with_conf = settings.new_instance().with_configuration(conf).build()
    rec.step("with_configuration", lambda: describe(with_conf))
    conf.set_string("foo", "bar")
    rec.step("with_configuration.copied", lambda: with_conf.get_configuration().to_dict())
    rec.step("with_configuration.none", lambda: settings.new_instance().with_configuration(None))
    for label, mode in [("bogus", "bogus"), ("automatic", "automatic"), ("lower_streaming", "streaming"),
                        ("upper_batch", "BATCH")]:
        rec.step(f"runtime_mode.{label}", lambda m=mode: settings.new_instance().with_configuration(
            api.conf({"execution.runtime-mode": m})).build().is_streaming_mode())
    rec.step("to_configuration", lambda: settings.in_batch_mode().to_configuration().to_dict())
    rec.step("from_configuration", lambda: describe(settings.from_configuration(conf)))
    rec.step("from_configuration.none", lambda: settings.from_configuration(None))
    shared = settings.in_streaming_mode()
    rec.step("get_configuration.shared", lambda: (
        shared.get_configuration().set_string("a", "b"), shared.get_configuration().to_dict())[1])
    rec.step("get_configuration.new_wrapper",
             lambda: shared.get_configuration() is shared.get_configuration())


def scenario_table_config_checkpoint_keys(api: Api, rec: Recorder) -> None:
    table = _table(api)
    env = api.new_env()
    env.enable_checkpointing(1500, api.CheckpointingMode.AT_LEAST_ONCE)
    t_env = table.StreamTableEnvironment.create(env)
    config = t_env.get_config()
    for label, key in [("interval", "execution.checkpointing.interval"),
                       ("mode", "execution.checkpointing.mode"),
                       ("timeout", "execution.checkpointing.timeout"),
                       ("backend", "state.backend.type"),
                       ("restart", "restart-strategy.type")]:
        rec.step(f"env_value.{label}", lambda k=key: config.get(k, "DEF"))
    checkpoint_config = env.get_checkpoint_config()
    checkpoint_config.set_checkpoint_timeout(90000)
    checkpoint_config.set_min_pause_between_checkpoints(500)
    rec.step("env_value.timeout_after_set",
             lambda: config.get("execution.checkpointing.timeout", "DEF"))
    rec.step("env_value.min_pause_after_set",
             lambda: config.get("execution.checkpointing.min-pause", "DEF"))
    rec.step("set.interval", lambda: config.set("execution.checkpointing.interval", "2 s") is config)
    rec.step("get.interval", lambda: config.get("execution.checkpointing.interval", None))
    rec.step("env.interval", env.get_checkpoint_interval)
    rec.step("env.config_interval", lambda: env.get_checkpoint_config().get_checkpoint_interval())
    rec.step("set.mode", lambda: config.set("execution.checkpointing.mode", "EXACTLY_ONCE") is config)
    rec.step("env.mode", env.get_checkpointing_mode)
    rec.step("set.bad_interval", lambda: config.set("execution.checkpointing.interval", "abc") is config)
    rec.step("get.bad_interval", lambda: config.get("execution.checkpointing.interval", None))
    rec.step("env.interval_after_bad", env.get_checkpoint_interval)
    rec.step("set.bad_mode", lambda: config.set("execution.checkpointing.mode", "bogus") is config)
    rec.step("env.mode_after_bad", env.get_checkpointing_mode)
    for label, key, value in [("backend", "state.backend.type", "rocksdb"),
                              ("restart", "restart-strategy.type", "fixed-delay"),
                              ("runtime_mode", "execution.runtime-mode", "BATCH"),
                              ("parallelism", "parallelism.default", "4"),
                              ("jars", "pipeline.jars", "file:///tmp/a.jar"),
                              ("mini_batch", "table.exec.mini-batch.enabled", "true"),
                              ("python", "python.fn-execution.bundle.size", "1000")]:
        rec.step(f"set.{label}", lambda k=key, v=value: config.set(k, v) is config)
        rec.step(f"get.{label}", lambda k=key: config.get(k, None))
    rec.step("env.state_backend", lambda: env.get_state_backend())
    rec.step("get_configuration.set_string", lambda: _type_name(
        config.get_configuration().set_string("execution.checkpointing.timeout", "3 min")))
    rec.step("get_configuration.read_back",
             lambda: config.get("execution.checkpointing.timeout", None))
    rec.step("env.timeout", lambda: env.get_checkpoint_config().get_checkpoint_timeout())
    added = api.conf({"execution.checkpointing.tolerable-failed-checkpoints": "3",
                      "table.exec.source.idle-timeout": "5 s"})
    rec.step("add_configuration", lambda: config.add_configuration(added))
    rec.step("add_configuration.read_back", lambda: [
        config.get("execution.checkpointing.tolerable-failed-checkpoints", None),
        config.get("table.exec.source.idle-timeout", None)])
    rec.step("env.tolerable",
             lambda: env.get_checkpoint_config().get_tolerable_checkpoint_failure_number())
    rec.step("add_configuration.none", lambda: config.add_configuration(None))
    rec.step("keys", lambda: _own_keys(config))
    other = table.StreamTableEnvironment.create(env).get_config()
    rec.step("other_table_env.own_option", lambda: other.get("table.exec.mini-batch.enabled", None))
    rec.step("other_table_env.env_option",
             lambda: other.get("execution.checkpointing.timeout", None))
    # A null key matches both the String and the ConfigOption overloads of the Java methods
    # behind these calls; which one py4j picks, and so the message, changes between JVM runs.
    rec.step("get.none_key", lambda: raised_class(lambda: config.get(None, "x")))
    rec.step("get.int_default", lambda: config.get("zz", 5))
    rec.step("get.no_default", lambda: config.get("zz"))
    rec.step("set.none_key", lambda: raised_class(lambda: config.set(None, "x")))
    rec.step("set.none_value", lambda: config.set("a.b", None))
    rec.step("set.int_value", lambda: config.set("a.b", 5))


def scenario_table_config_idle_state(api: Api, rec: Recorder) -> None:
    config = _table(api).TableConfig()
    td = datetime.timedelta

    def state() -> list[Any]:
        return [config.get_idle_state_retention(), config.get_min_idle_state_retention_time(),
                config.get_max_idle_state_retention_time(), config.get("table.exec.state.ttl", None)]

    rec.step("default", state)
    for label, value in [("one_hour", td(hours=1)), ("ms_1500", td(milliseconds=1500)),
                         ("ms_3", td(milliseconds=3)), ("days_1_5", td(days=1, hours=12)),
                         ("s_61", td(seconds=61)), ("negative", td(seconds=-1)),
                         ("zero", td(0))]:
        rec.step(f"set.{label}", lambda v=value: config.set_idle_state_retention(v))
        rec.step(f"set.{label}.state", state)
    rec.step("set.int", lambda: config.set_idle_state_retention(1000))
    rec.step("set.before_rejected_pairs", lambda: config.set_idle_state_retention(td(hours=2)))
    rec.step("set.none", lambda: config.set_idle_state_retention(None))
    for label, low, high in [("one_and_two_min", td(minutes=1), td(minutes=2)),
                             ("reversed", td(minutes=10), td(minutes=5)),
                             ("zero_and_one_min", td(0), td(minutes=1)),
                             ("ten_and_fifteen_min", td(minutes=10), td(minutes=15)),
                             ("both_zero", td(0), td(0))]:
        rec.step(f"set_time.{label}", lambda a=low, b=high: config.set_idle_state_retention_time(a, b))
        rec.step(f"set_time.{label}.state", state)
    rec.step("set_time.none", lambda: config.set_idle_state_retention_time(None, None))
    for label, text in [("bare_millis", "90000"), ("days", "2 d"), ("minutes_word", "3 minutes"),
                        ("abc", "abc")]:
        rec.step(f"by_key.{label}", lambda t=text: config.set("table.exec.state.ttl", t) is config)
        rec.step(f"by_key.{label}.state", state)


_ZONES = ["Europe/Berlin", "UTC", "Z", "GMT+8", "+8", "-05:00", "GMT", "UT", "GMT0", "Etc/UTC",
          "EST5EDT", "UTC-5", "UTC+8", "utc", "PST", "Nope/Nope", "", "GMT+18"]


def scenario_table_config_timezone(api: Api, rec: Recorder) -> None:
    table_config = _table(api).TableConfig
    config = table_config()
    rec.step("default", config.get_local_timezone)
    rec.step("default.key", lambda: config.get("table.local-time-zone", None))
    for zone in _ZONES:
        label = zone.replace("/", "_") or "empty"
        rec.step(f"set.{label}", lambda z=zone: config.set_local_timezone(z))
        rec.step(f"set.{label}.get", config.get_local_timezone)
        rec.step(f"set.{label}.key", lambda: config.get("table.local-time-zone", None))
        by_key = table_config()
        rec.step(f"by_key.{label}", lambda c=by_key, z=zone: c.set("table.local-time-zone", z) is c)
        rec.step(f"by_key.{label}.get", by_key.get_local_timezone)
    for label, value in [("none", None), ("int", 5), ("bool", True)]:
        rec.step(f"set.{label}", lambda v=value: config.set_local_timezone(v))
    rec.step("by_key.default",
             lambda: config.set("table.local-time-zone", "default").get_local_timezone())


def scenario_table_config_options(api: Api, rec: Recorder) -> None:
    table_config = _table(api).TableConfig
    config = table_config()
    rec.step("code_length.default", config.get_max_generated_code_length)
    rec.step("code_length.set", lambda: config.set_max_generated_code_length(1000))
    rec.step("code_length.get", config.get_max_generated_code_length)
    rec.step("code_length.key", lambda: config.get("table.generated-code.max-length", None))
    for label, value in [("str", "x"), ("none", None), ("bool", True), ("float", 1.5),
                         ("too_big", 2**40)]:
        rec.step(f"code_length.set_{label}", lambda v=value: config.set_max_generated_code_length(v))
    rec.step("code_length.negative", lambda: config.set_max_generated_code_length(-5))
    rec.step("code_length.negative.get", config.get_max_generated_code_length)
    rec.step("code_length.by_key_abc",
             lambda: config.set("table.generated-code.max-length", "abc") is config)
    rec.step("code_length.by_key_abc.get", config.get_max_generated_code_length)
    rec.step("python_executable.default", config.get_python_executable)
    rec.step("python_executable.set", lambda: config.set_python_executable("/usr/bin/python3"))
    rec.step("python_executable.get", config.get_python_executable)
    rec.step("python_executable.key", lambda: config.get("python.executable", None))
    rec.step("to_map", config.to_map)
    rec.step("new.keys", lambda: sorted(table_config().get_configuration().key_set()))
    rec.step("get_default.keys", lambda: sorted(table_config.get_default().get_configuration().key_set()))
    rec.step("get_default.type", lambda: _type_name(table_config.get_default()))
    rec.step("get_configuration.new_wrapper",
             lambda: config.get_configuration() is config.get_configuration())


def scenario_table_pipeline_methods(api: Api, rec: Recorder) -> None:
    """Pipeline methods work in PyFlink; pyflink_compat declares them not supported."""
    table = _table(api)
    t_env = table.StreamTableEnvironment.create(api.new_env())
    rec.step("list_catalogs", t_env.list_catalogs)
    rec.step("get_current_catalog", t_env.get_current_catalog)
    rec.step("get_current_database", t_env.get_current_database)
    rec.step("list_temporary_views", t_env.list_temporary_views)
