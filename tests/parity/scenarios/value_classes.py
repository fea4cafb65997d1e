"""Restart strategy configurations, Time, RuntimeExecutionMode and TimeCharacteristic."""
from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from ._helpers import record_object, summary

if TYPE_CHECKING:
    from ..battery import Api, Recorder

RESTART_GETTERS: dict[str, tuple[str, ...]] = {
    "NoRestartStrategyConfiguration": ("get_description",),
    "FallbackRestartStrategyConfiguration": ("get_description",),
    "FixedDelayRestartStrategyConfiguration": (
        "get_description", "get_restart_attempts", "get_delay_between_attempts_interval"),
    "FailureRateRestartStrategyConfiguration": (
        "get_description", "get_max_failure_rate", "get_failure_interval",
        "get_delay_between_attempts_interval"),
}


def restart_summary(config: Any) -> Any:
    """Class name, description and getters of a restart strategy configuration."""
    if config is None:
        return None
    return summary(config, RESTART_GETTERS.get(type(config).__name__, ("get_description",)))


FIXED_DELAY_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("valid", (3, 10000)),
    ("zero_zero", (0, 0)),
    ("minus_attempts", (-1, 1000)),
    ("minus_delay", (3, -1)),
    ("int_max_attempts", (2**31 - 1, 1000)),
    ("long_attempts", (2**31, 1000)),
    ("long_delay", (3, 2**40)),
    ("long_max_delay", (3, 2**63 - 1)),
    ("beyond_long_delay", (3, 2**63)),
    ("timedelta", (3, timedelta(seconds=10))),
    ("timedelta_micros", (3, timedelta(microseconds=1500))),
    ("timedelta_negative", (3, timedelta(seconds=-2))),
    ("timedelta_days", (2, timedelta(days=3))),
    ("str_attempts", ("3", 1000)),
    ("float_attempts", (3.0, 1000)),
    ("bool_attempts", (True, 1000)),
    ("none_attempts", (None, 1000)),
    ("str_delay", (3, "1000")),
    ("float_delay", (3, 1.5)),
    ("none_delay", (3, None)),
    ("bool_delay", (3, True)),
]

FAILURE_RATE_CASES: list[tuple[str, tuple[Any, ...]]] = [
    ("valid", (3, 60000, 10000)),
    ("timedeltas", (2, timedelta(minutes=5), timedelta(seconds=10))),
    ("mixed", (1, timedelta(seconds=1), 500)),
    ("zeros", (0, 0, 0)),
    ("negatives", (-1, -1, -1)),
    ("long_rate", (2**31, 1000, 1000)),
    ("long_interval", (1, 2**40, 1000)),
    ("beyond_long_interval", (1, 2**63, 1000)),
    ("str_rate", ("3", 1000, 1000)),
    ("none_rate", (None, 1000, 1000)),
    ("float_rate", (1.0, 1000, 1000)),
    ("str_interval", (3, "1000", 1000)),
    ("none_interval", (3, None, 1000)),
    ("float_delay", (3, 1000, 2.5)),
    ("none_delay", (3, 1000, None)),
    ("both_bad", (3, "x", "y")),
]


def scenario_restart_strategy_factories(api: Api, rec: Recorder) -> None:
    strategies = api.RestartStrategies
    record_object(rec, "no_restart", strategies.no_restart, restart_summary)
    record_object(rec, "fall_back_restart", strategies.fall_back_restart, restart_summary)
    for label, args in FIXED_DELAY_CASES:
        record_object(rec, f"fixed_delay.{label}",
                      lambda a=args: strategies.fixed_delay_restart(*a), restart_summary)
    for label, args in FAILURE_RATE_CASES:
        record_object(rec, f"failure_rate.{label}",
                      lambda a=args: strategies.failure_rate_restart(*a), restart_summary)
    rec.step("has_exponential_delay_restart",
             lambda: hasattr(strategies, "exponential_delay_restart"))
    rec.step("keywords.fixed_delay", lambda: restart_summary(strategies.fixed_delay_restart(
        restart_attempts=4, delay_between_attempts=200)))
    rec.step("keywords.failure_rate", lambda: restart_summary(strategies.failure_rate_restart(
        failure_rate=2, failure_interval=100, delay_interval=10)))
    rec.step("missing_argument", lambda: strategies.fixed_delay_restart(3))


def scenario_restart_strategy_classes(api: Api, rec: Recorder) -> None:
    strategies = api.RestartStrategies
    base = api.RestartStrategyConfiguration
    for name in ("NoRestartStrategyConfiguration", "FallbackRestartStrategyConfiguration",
                 "FixedDelayRestartStrategyConfiguration",
                 "FailureRateRestartStrategyConfiguration"):
        rec.step(f"{name}.is_nested", lambda n=name: isinstance(getattr(strategies, n), type))
        rec.step(f"{name}.subclass", lambda n=name: issubclass(getattr(strategies, n), base))
        rec.step(f"{name}.qualname", lambda n=name: getattr(strategies, n).__qualname__)
    rec.step("no_restart.direct",
             lambda: restart_summary(strategies.NoRestartStrategyConfiguration()))
    rec.step("fallback.direct",
             lambda: restart_summary(strategies.FallbackRestartStrategyConfiguration()))
    rec.step("fixed_delay.direct", lambda: restart_summary(
        strategies.FixedDelayRestartStrategyConfiguration(5, 100)))
    rec.step("failure_rate.direct", lambda: restart_summary(
        strategies.FailureRateRestartStrategyConfiguration(5, 100, 10)))
    rec.step("fixed_delay.direct_no_args",
             lambda: strategies.FixedDelayRestartStrategyConfiguration())
    rec.step("failure_rate.direct_no_args",
             lambda: strategies.FailureRateRestartStrategyConfiguration())


def scenario_restart_strategy_equality(api: Api, rec: Recorder) -> None:
    s = api.RestartStrategies
    pairs = {
        "no_no": (s.no_restart, s.no_restart),
        "fallback_fallback": (s.fall_back_restart, s.fall_back_restart),
        "no_fallback": (s.no_restart, s.fall_back_restart),
        "fixed_same": (lambda: s.fixed_delay_restart(3, 1000),
                       lambda: s.fixed_delay_restart(3, 1000)),
        "fixed_timedelta_vs_int": (lambda: s.fixed_delay_restart(3, timedelta(seconds=1)),
                                   lambda: s.fixed_delay_restart(3, 1000)),
        "fixed_other_attempts": (lambda: s.fixed_delay_restart(3, 1000),
                                 lambda: s.fixed_delay_restart(4, 1000)),
        "fixed_other_delay": (lambda: s.fixed_delay_restart(3, 1000),
                              lambda: s.fixed_delay_restart(3, 1001)),
        "rate_same": (lambda: s.failure_rate_restart(1, 2, 3),
                      lambda: s.failure_rate_restart(1, 2, 3)),
        "rate_other": (lambda: s.failure_rate_restart(1, 2, 3),
                       lambda: s.failure_rate_restart(1, 2, 4)),
        "fixed_vs_rate": (lambda: s.fixed_delay_restart(1, 3),
                          lambda: s.failure_rate_restart(1, 3, 3)),
    }
    for label, (make_a, make_b) in pairs.items():
        rec.step(f"{label}.eq", lambda a=make_a, b=make_b: a() == b())
        rec.step(f"{label}.ne", lambda a=make_a, b=make_b: a() != b())
        rec.step(f"{label}.same_hash", lambda a=make_a, b=make_b: hash(a()) == hash(b()))
    rec.step("no_vs_none", lambda: s.no_restart() == None)  # noqa: E711
    rec.step("no_vs_str", lambda: s.no_restart() == "none")
    rec.step("hash_is_int", lambda: isinstance(hash(s.fixed_delay_restart(3, 1000)), int))
    rec.step("set_of_equal", lambda: len({s.fixed_delay_restart(3, 1000),
                                          s.fixed_delay_restart(3, 1000),
                                          s.no_restart(), s.no_restart()}))


TIME_FACTORIES: list[tuple[str, str, Any]] = [
    ("milliseconds", "milliseconds", 1500),
    ("seconds", "seconds", 10),
    ("minutes", "minutes", 2),
    ("hours", "hours", 3),
    ("days", "days", 1),
    ("zero", "seconds", 0),
    ("negative", "seconds", -5),
    ("huge", "days", 2**62),
    ("float", "seconds", 1.5),
    ("str", "milliseconds", "10"),
    ("none", "milliseconds", None),
    ("bool", "seconds", True),
]


def scenario_time_values(api: Api, rec: Recorder) -> None:
    time_cls = api.Time
    for label, factory, amount in TIME_FACTORIES:
        made: list[Any] = []

        def build(f: str = factory, a: Any = amount, out: list[Any] = made) -> Any:
            out.append(getattr(time_cls, f)(a))
            return out[0].to_milliseconds()

        rec.step(f"{label}.to_milliseconds", build)
        if made:
            rec.step(f"{label}.str", lambda t=made[0]: str(t))
    rec.step("constructor", lambda: time_cls(42).to_milliseconds())
    rec.step("constructor.keyword", lambda: time_cls(milliseconds=7).to_milliseconds())
    rec.step("eq.same", lambda: time_cls.seconds(60) == time_cls.minutes(1))
    rec.step("eq.other", lambda: time_cls.seconds(61) == time_cls.minutes(1))
    rec.step("ne.other", lambda: time_cls.seconds(61) != time_cls.minutes(1))
    rec.step("eq.int", lambda: time_cls.milliseconds(5) == 5)
    rec.step("eq.float_vs_int", lambda: time_cls.milliseconds(1000.0) == time_cls.seconds(1))
    rec.step("hash", lambda: hash(time_cls.seconds(1)))
    rec.step("unhashable", lambda: time_cls.__hash__ is None)
    rec.step("repr_is_default", lambda: repr(time_cls.seconds(1)).startswith("<"))


def scenario_execution_enums(api: Api, rec: Recorder) -> None:
    mode = api.RuntimeExecutionMode
    characteristic = api.TimeCharacteristic
    for enum_cls, label in ((mode, "runtime_mode"), (characteristic, "time_characteristic"),
                            (api.ExecutionMode, "execution_mode"),
                            (api.InputDependencyConstraint, "input_dependency_constraint")):
        rec.step(f"{label}.members", lambda e=enum_cls: [(m.name, m.value) for m in e])
        rec.step(f"{label}.by_value_1", lambda e=enum_cls: e(1))
        rec.step(f"{label}.by_name_bad", lambda e=enum_cls: e["NOPE"])
        rec.step(f"{label}.by_value_bad", lambda e=enum_cls: e(7))
    rec.step("runtime_mode.str", lambda: str(mode.BATCH))
    rec.step("runtime_mode.repr", lambda: repr(mode.AUTOMATIC))
    rec.step("time_characteristic.str", lambda: str(characteristic.EventTime))
    rec.step("time_characteristic.repr", lambda: repr(characteristic.IngestionTime))
    rec.step("runtime_mode.eq_int", lambda: mode.BATCH == 1)
