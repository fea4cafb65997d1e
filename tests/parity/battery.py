"""Parity scenario battery: the api facade, the step recorder, the registry and the runner.

Importable with neither pyflink nor pyspark installed: the root package is only imported
when a scenario runs (through :class:`Api`).

A scenario is a plain function ``scenario_<name>(api, rec) -> None`` defined in one of the
modules listed in :data:`SCENARIO_MODULES`; the registry ``SCENARIOS`` (also
:func:`get_scenarios`) keeps them in module order, then in definition order.
"""
from __future__ import annotations

import faulthandler
import importlib
import os
import shutil
import tempfile
import warnings
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, TypeVar

from .observe import Observation, Observer

T = TypeVar("T")
ScenarioFn = Callable[["Api", "Recorder"], None]

ROOTS = ("pyflink", "pyflink_compat")
TIERS = ("public", "internal")

#: Scenario modules under ``tests/parity/scenarios``, in run order.
SCENARIO_MODULES: tuple[str, ...] = (
    "defaults",
    "config_numeric",
    "config_flags",
    "enums",
    "storage",
    "state_backends",
    "environment",
    "configure",
    "common_api",
    "docs_snippets",
    "table_api",
    "value_classes",
    "env_methods",
)

#: Where each in-scope class lives, relative to the root package.
CLASS_HOMES: dict[str, str] = {
    "CheckpointConfig": "datastream.checkpoint_config",
    "ExternalizedCheckpointCleanup": "datastream.checkpoint_config",
    "CheckpointingMode": "datastream.checkpointing_mode",
    "ExternalizedCheckpointRetention": "datastream.externalized_checkpoint_retention",
    "CheckpointStorage": "datastream.checkpoint_storage",
    "JobManagerCheckpointStorage": "datastream.checkpoint_storage",
    "FileSystemCheckpointStorage": "datastream.checkpoint_storage",
    "CustomCheckpointStorage": "datastream.checkpoint_storage",
    "StateBackend": "datastream.state_backend",
    "HashMapStateBackend": "datastream.state_backend",
    "EmbeddedRocksDBStateBackend": "datastream.state_backend",
    "MemoryStateBackend": "datastream.state_backend",
    "FsStateBackend": "datastream.state_backend",
    "RocksDBStateBackend": "datastream.state_backend",
    "CustomStateBackend": "datastream.state_backend",
    "PredefinedOptions": "datastream.state_backend",
    "StreamExecutionEnvironment": "datastream.stream_execution_environment",
    "Duration": "common.time",
    "Configuration": "common.configuration",
    "EnvironmentSettings": "table.environment_settings",
    "TableConfig": "table.table_config",
    "TableEnvironment": "table.table_environment",
    "StreamTableEnvironment": "table.table_environment",
    "Time": "common.time",
    "RestartStrategies": "common.restart_strategy",
    "RestartStrategyConfiguration": "common.restart_strategy",
    "ExecutionConfig": "common.execution_config",
    "ExecutionMode": "common.execution_mode",
    "InputDependencyConstraint": "common.input_dependency_constraint",
    "RuntimeExecutionMode": "datastream.execution_mode",
    "TimeCharacteristic": "datastream.time_characteristic",
}


class Api:
    """What a scenario may touch: modules and classes of one root package."""

    def __init__(self, root: str, tmp: str) -> None:
        if root not in ROOTS:
            raise ValueError(f"unknown root {root!r}; expected one of {ROOTS}")
        self.root = root
        #: a fresh temp directory for this run; normalised to ``<tmp>`` in observations
        self.tmp = tmp

    def mod(self, rel: str = "") -> ModuleType:
        """Import ``<root>.<rel>`` (the root package itself for ``''``)."""
        return importlib.import_module(f"{self.root}.{rel}" if rel else self.root)

    @property
    def datastream(self) -> ModuleType:
        return self.mod("datastream")

    @property
    def common(self) -> ModuleType:
        return self.mod("common")

    def cls(self, name: str) -> Any:
        """An in-scope class, taken from its defining module."""
        return getattr(self.mod(CLASS_HOMES[name]), name)

    def __getattr__(self, name: str) -> Any:
        if name in CLASS_HOMES:
            return self.cls(name)
        raise AttributeError(name)

    def new_env(self, configuration: Any = None) -> Any:
        """A fresh ``StreamExecutionEnvironment`` (one per scenario or per case)."""
        see = self.cls("StreamExecutionEnvironment")
        if configuration is None:
            return see.get_execution_environment()
        return see.get_execution_environment(configuration)

    def conf(self, entries: dict[str, str]) -> Any:
        """A ``Configuration`` holding ``entries`` (set with ``set_string``)."""
        conf = self.cls("Configuration")()
        for key, value in entries.items():
            conf.set_string(key, value)
        return conf

    def tmp_uri(self, name: str) -> str:
        """``file://`` URI of a (not created) path below the run's temp directory."""
        return "file://" + self.tmp.rstrip("/") + "/" + name


#: Seconds a single step may run before the process is aborted with a traceback dump
#: (``PARITY_STEP_TIMEOUT``; 0 disables). A step stuck in C code (e.g. ``x in range(...)``
#: with an int subclass) cannot be interrupted from Python, so the watchdog is
#: ``faulthandler``'s: the run fails loudly, naming the stuck line, instead of hanging.
DEFAULT_STEP_TIMEOUT = 120.0


def step_timeout() -> float:
    try:
        return float(os.environ.get("PARITY_STEP_TIMEOUT", DEFAULT_STEP_TIMEOUT))
    except ValueError:
        return DEFAULT_STEP_TIMEOUT


class DuplicateStepError(RuntimeError):
    """Two steps of one scenario used the same id."""


class Recorder:
    """Runs steps of one scenario and keeps their observations in order."""

    def __init__(self, scenario: str, observer: Observer) -> None:
        self.scenario = scenario
        self.observer = observer
        self.observations: dict[str, Observation] = {}

    def key(self, step_id: str) -> str:
        return f"{self.scenario}/{step_id}"

    def step(self, step_id: str, fn: Callable[..., T], *, tier: str = "public") -> T | None:
        """Run ``fn``, record what happened under ``<scenario>/<step_id>``, return its value."""
        if tier not in TIERS:
            raise ValueError(f"unknown tier {tier!r}")
        key = self.key(step_id)
        if key in self.observations or "/" in step_id:
            raise DuplicateStepError(f"step id {key!r} is duplicated or contains '/'")
        value: T | None = None
        error: BaseException | None = None
        timeout = step_timeout()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if timeout > 0:
                faulthandler.dump_traceback_later(timeout, exit=True)
            try:
                value = fn()
            except Exception as exc:  # any failure is an observation
                error = exc
            finally:
                if timeout > 0:
                    faulthandler.cancel_dump_traceback_later()
        obs = self.observer.value(value) if error is None else self.observer.error(error)
        obs["warnings"] = self.observer.warnings(caught)
        if tier != "public":
            obs["tier"] = tier
        self.observations[key] = obs
        return value

    def crash(self, exc: BaseException) -> None:
        """Record an exception that escaped the scenario outside any step."""
        self.observations[self.key("<scenario crashed>")] = self.observer.crash(exc)


def _collect() -> dict[str, ScenarioFn]:
    registry: dict[str, ScenarioFn] = {}
    for modname in SCENARIO_MODULES:
        module = importlib.import_module(f"{__package__}.scenarios.{modname}")
        for attr, obj in vars(module).items():
            if not attr.startswith("scenario_") or not callable(obj):
                continue
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            name = attr[len("scenario_"):]
            if name in registry:
                raise RuntimeError(f"scenario {name!r} is defined twice")
            registry[name] = obj
    return registry


_REGISTRY: dict[str, ScenarioFn] = {}


def get_scenarios() -> dict[str, ScenarioFn]:
    """The ordered scenario registry (name -> function), collected on first use."""
    if not _REGISTRY:
        _REGISTRY.update(_collect())
    return _REGISTRY


def __getattr__(name: str) -> Any:
    # ``SCENARIOS`` is resolved lazily so that a scenario module may be imported first.
    if name == "SCENARIOS":
        return get_scenarios()
    raise AttributeError(name)


def warm_up(api: Api) -> None:
    """Import everything and start the backend once, outside any recorded step.

    Import-time warnings of third-party packages and the first-start cost must not leak
    into the first scenario's observations.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for home in sorted(set(CLASS_HOMES.values())) + ["datastream", "common"]:
            api.mod(home)
        env = api.new_env()
        env.get_checkpoint_config().get_checkpoint_interval()


def run_battery(root: str, only: Iterable[str] | None = None,
                ) -> tuple[dict[str, Observation], dict[str, str]]:
    """Run the battery (or the scenarios named in ``only``) against ``root``.

    Returns the observations keyed ``<scenario>/<step id>`` and, per scenario, the
    name of the scenario module that defined it.
    """
    scenarios = get_scenarios()
    wanted = None if only is None else set(only)
    if wanted is not None and not wanted <= set(scenarios):
        raise KeyError(f"unknown scenarios: {sorted(wanted - set(scenarios))}")
    tmp = tempfile.mkdtemp(prefix="parity-")
    observations: dict[str, Observation] = {}
    origins: dict[str, str] = {}
    try:
        api = Api(root, tmp)
        observer = Observer(root, tmp)
        warm_up(api)
        for name, fn in scenarios.items():
            if wanted is not None and name not in wanted:
                continue
            rec = Recorder(name, observer)
            try:
                fn(api, rec)
            except Exception as exc:  # recorded as a crash
                rec.crash(exc)
            observations.update(rec.observations)
            origins[name] = fn.__module__.rsplit(".", 1)[-1]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return observations, origins


def scenario_of(key: str) -> str:
    """The scenario part of an observation key."""
    return key.split("/", 1)[0]
