"""Numeric CheckpointConfig setters: valid, boundary, invalid values and wrong types."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._helpers import INT_EDGES, WRONG_TYPES, fresh_config, probe_setter

if TYPE_CHECKING:
    from ..battery import Api, Recorder

# Each case list starts from a valid value so that the read-back after a rejected call
# shows whether the previous value survived.

INTERVAL_CASES = [
    ("valid_1000", 1000),
    ("min_10", 10),
    ("below_9", 9),
    ("zero", 0),
    ("minus_1", -1),
    ("valid_11", 11),
    ("negative_big", -1000),
    *INT_EDGES,
    ("valid_60000", 60000),
    *WRONG_TYPES,
]

TIMEOUT_CASES = [
    ("valid_30000", 30000),
    ("min_10", 10),
    ("below_9", 9),
    ("zero", 0),
    ("minus_1", -1),
    ("valid_11", 11),
    *INT_EDGES,
    ("valid_1000", 1000),
    *WRONG_TYPES,
]

MIN_PAUSE_CASES = [
    ("valid_500", 500),
    ("zero", 0),
    ("minus_1", -1),
    ("one", 1),
    ("valid_10", 10),
    *INT_EDGES,
    ("valid_250", 250),
    *WRONG_TYPES,
]

MAX_CONCURRENT_CASES = [
    ("valid_3", 3),
    ("min_1", 1),
    ("zero", 0),
    ("minus_1", -1),
    ("valid_2", 2),
    *INT_EDGES,
    ("valid_5", 5),
    *WRONG_TYPES,
]

TOLERABLE_CASES = [
    ("valid_3", 3),
    ("zero", 0),
    ("minus_1", -1),
    ("valid_1", 1),
    *INT_EDGES,
    ("valid_7", 7),
    *WRONG_TYPES,
]


def scenario_checkpoint_interval(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    probe_setter(rec, "set", cfg, "set_checkpoint_interval", "get_checkpoint_interval",
                 INTERVAL_CASES)
    rec.step("final.enabled", cfg.is_checkpointing_enabled)
    rec.step("final.env_interval", env.get_checkpoint_interval)


def scenario_checkpoint_interval_enables(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    rec.step("before.enabled", cfg.is_checkpointing_enabled)
    rec.step("rejected_9", lambda: cfg.set_checkpoint_interval(9))
    rec.step("after_rejected.enabled", cfg.is_checkpointing_enabled)
    rec.step("after_rejected.interval", cfg.get_checkpoint_interval)
    rec.step("set_10", lambda: cfg.set_checkpoint_interval(10) is cfg)
    rec.step("after_10.enabled", cfg.is_checkpointing_enabled)
    rec.step("after_10.env_interval", env.get_checkpoint_interval)
    rec.step("after_10.env_mode", env.get_checkpointing_mode)


def scenario_checkpoint_timeout(api: Api, rec: Recorder) -> None:
    cfg = fresh_config(api)
    probe_setter(rec, "set", cfg, "set_checkpoint_timeout", "get_checkpoint_timeout",
                 TIMEOUT_CASES)
    rec.step("final.enabled", cfg.is_checkpointing_enabled)


def scenario_min_pause(api: Api, rec: Recorder) -> None:
    cfg = fresh_config(api)
    probe_setter(rec, "set", cfg, "set_min_pause_between_checkpoints",
                 "get_min_pause_between_checkpoints", MIN_PAUSE_CASES)


def scenario_max_concurrent(api: Api, rec: Recorder) -> None:
    cfg = fresh_config(api)
    probe_setter(rec, "set", cfg, "set_max_concurrent_checkpoints",
                 "get_max_concurrent_checkpoints", MAX_CONCURRENT_CASES)


def scenario_tolerable_failures(api: Api, rec: Recorder) -> None:
    cfg = fresh_config(api)
    probe_setter(rec, "set", cfg, "set_tolerable_checkpoint_failure_number",
                 "get_tolerable_checkpoint_failure_number", TOLERABLE_CASES)
    rec.step("final.fail_on_errors", cfg.is_fail_on_checkpointing_errors)


def scenario_numeric_call_forms(api: Api, rec: Recorder) -> None:
    """Keyword names, arity errors and the parameter names that are part of the contract."""
    cfg = fresh_config(api)
    rec.step("interval.keyword",
             lambda: cfg.set_checkpoint_interval(checkpoint_interval=2000) is cfg)
    rec.step("interval.keyword.get", cfg.get_checkpoint_interval)
    rec.step("interval.bad_keyword", lambda: cfg.set_checkpoint_interval(interval=3000))
    rec.step("interval.no_args", lambda: cfg.set_checkpoint_interval())
    rec.step("interval.two_args", lambda: cfg.set_checkpoint_interval(1000, 2000))
    rec.step("interval.after_errors", cfg.get_checkpoint_interval)
    rec.step("timeout.keyword",
             lambda: cfg.set_checkpoint_timeout(checkpoint_timeout=5000) is cfg)
    rec.step("timeout.bad_keyword", lambda: cfg.set_checkpoint_timeout(timeout=5000))
    rec.step("timeout.get", cfg.get_checkpoint_timeout)
    rec.step("min_pause.keyword",
             lambda: cfg.set_min_pause_between_checkpoints(min_pause_between_checkpoints=77)
             is cfg)
    rec.step("min_pause.get", cfg.get_min_pause_between_checkpoints)
    rec.step("max_concurrent.keyword",
             lambda: cfg.set_max_concurrent_checkpoints(max_concurrent_checkpoints=4) is cfg)
    rec.step("max_concurrent.get", cfg.get_max_concurrent_checkpoints)
    rec.step("tolerable.keyword", lambda: cfg.set_tolerable_checkpoint_failure_number(
        tolerable_checkpoint_failure_number=6) is cfg)
    rec.step("tolerable.get", cfg.get_tolerable_checkpoint_failure_number)
    rec.step("getter_with_arg", lambda: cfg.get_checkpoint_interval(1))
    rec.step("getter_keyword", lambda: cfg.get_checkpoint_timeout(x=1))


def scenario_numeric_int_subclasses(api: Api, rec: Recorder) -> None:
    """Values that are ints in disguise: IntEnum members and int subclasses."""
    import enum

    class Num(enum.IntEnum):
        BIG = 5000

    class MyInt(int):
        pass

    cfg = fresh_config(api)
    rec.step("interval.int_enum", lambda: cfg.set_checkpoint_interval(Num.BIG) is cfg)
    rec.step("interval.int_enum.get", cfg.get_checkpoint_interval)
    rec.step("interval.int_subclass", lambda: cfg.set_checkpoint_interval(MyInt(6000)) is cfg)
    rec.step("interval.int_subclass.get", cfg.get_checkpoint_interval)
    rec.step("max_concurrent.int_subclass",
             lambda: cfg.set_max_concurrent_checkpoints(MyInt(2)) is cfg)
    rec.step("max_concurrent.int_subclass.get", cfg.get_max_concurrent_checkpoints)
    rec.step("getter_type.interval", lambda: type(cfg.get_checkpoint_interval()).__name__)
    rec.step("getter_type.max_concurrent",
             lambda: type(cfg.get_max_concurrent_checkpoints()).__name__)
