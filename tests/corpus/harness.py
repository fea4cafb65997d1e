"""Run one corpus preamble under a root package and probe the environments it built.

A preamble is the import lines and environment set-up of a real public PyFlink job, kept as
PyFlink code. Under a root other than ``pyflink`` the ``pyflink`` imports are rewritten to that
root when the file is compiled (the file itself stays untouched). The run gets a fresh namespace,
a fresh temporary directory (also the working directory, and the value of ``CORPUS_TMP``) and
the process environment is restored afterwards.

The outcome is ``ok`` with the probe values of every execution or table environment left in the
namespace, or ``rejected`` with the exception's class MRO names and message. Every value is made
deterministic: the run's temporary directory becomes ``<tmp>``, object addresses ``<addr>``,
Java identity hashes ``@<hash>`` and the machine's core count (the default parallelism of a
local environment) ``<cpu_count>``.

PyFlink 1.20.5 has no public getter for a stream environment's runtime mode or jar list; they
are probed only where a table environment shows them (``execution.runtime-mode`` and
``pipeline.jars`` in its configuration). A ``Duration`` has no public getter either: its
length is read from the ``java.time.Duration`` it wraps.
"""
from __future__ import annotations

import ast
import contextlib
import datetime
import enum
import io
import os
import re
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

PREAMBLE_DIR = Path(__file__).resolve().parent / "preambles"

STREAM_ENV = "StreamExecutionEnvironment"
TABLE_ENVS = ("StreamTableEnvironment", "TableEnvironment")

#: ``CheckpointConfig`` getters probed on every execution environment, in order.
CHECKPOINT_GETTERS = (
    "is_checkpointing_enabled",
    "get_checkpoint_interval",
    "get_checkpointing_mode",
    "get_checkpoint_timeout",
    "get_min_pause_between_checkpoints",
    "get_max_concurrent_checkpoints",
    "get_tolerable_checkpoint_failure_number",
    "is_externalized_checkpoints_enabled",
    "get_externalized_checkpoint_cleanup",
    "is_unaligned_checkpoints_enabled",
    "is_force_unaligned_checkpoints",
    "get_alignment_timeout",
)

#: ``StreamExecutionEnvironment`` getters probed directly.
ENV_GETTERS = (
    "get_parallelism",
    "get_max_parallelism",
    "get_checkpoint_interval",
    "get_checkpointing_mode",
    "is_changelog_state_backend_enabled",
    "get_buffer_timeout",
    "is_chaining_enabled",
    "get_stream_time_characteristic",
    "get_default_savepoint_directory",
)

#: ``ExecutionConfig`` getters (``env.get_config()``) probed on every execution environment.
EXECUTION_CONFIG_GETTERS = (
    "get_parallelism",
    "get_max_parallelism",
    "get_auto_watermark_interval",
    "get_global_job_parameters",
    "get_default_kryo_serializer_classes",
)

#: Getters of the restart strategy configurations, probed when the object has them.
RESTART_GETTERS = (
    "get_description",
    "get_restart_attempts",
    "get_delay_between_attempts_interval",
    "get_max_failure_rate",
    "get_failure_interval",
)

#: Table configuration keys read back with ``TableConfig.get(key, None)``.
TABLE_CONFIG_KEYS = (
    "execution.runtime-mode",
    "execution.checkpointing.interval",
    "execution.checkpointing.mode",
    "execution.checkpointing.timeout",
    "execution.checkpointing.min-pause",
    "execution.checkpointing.max-concurrent-checkpoints",
    "execution.checkpointing.tolerable-failed-checkpoints",
    "execution.checkpointing.externalized-checkpoint-retention",
    "execution.checkpointing.unaligned",
    "state.backend.type",
    "state.checkpoints.dir",
    "state.checkpoint-storage",
    "restart-strategy.type",
    "parallelism.default",
    "table.exec.resource.default-parallelism",
    "pipeline.name",
    "pipeline.jars",
    "pipeline.classpaths",
    "pipeline.operator-chaining.enabled",
    "table.exec.state.ttl",
    "table.exec.source.idle-timeout",
    "table.exec.mini-batch.enabled",
    "table.local-time-zone",
)

#: Keys of a table configuration whose value changes from run to run.
VOLATILE_KEYS = ("python.loopback-server.address",)


def preamble_names() -> List[str]:
    """The corpus, sorted by name."""
    return sorted(p.stem for p in PREAMBLE_DIR.glob("*.py") if not p.name.startswith("_"))


# -- loading ------------------------------------------------------------------------------
class _RootRewriter(ast.NodeTransformer):
    """Points ``pyflink`` imports at another root package."""

    def __init__(self, root: str) -> None:
        self.root = root

    def _rename(self, module: str) -> str:
        if module == "pyflink" or module.startswith("pyflink."):
            return self.root + module[len("pyflink"):]
        return module

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.ImportFrom:
        if node.level == 0 and node.module:
            node.module = self._rename(node.module)
        return node

    def visit_Import(self, node: ast.Import) -> Any:
        binds_pyflink = False
        for alias in node.names:
            renamed = self._rename(alias.name)
            if renamed != alias.name and alias.asname is None:
                binds_pyflink = True
            alias.name = renamed
        if not binds_pyflink:
            return node
        # ``import pyflink.x`` binds the name ``pyflink``: keep that name bound to the root.
        rebind = ast.parse("pyflink = {}".format(self.root)).body[0]
        return [node, ast.copy_location(rebind, node)]


def parse_preamble(name: str, root: str) -> ast.Module:
    """The preamble's syntax tree, its ``pyflink`` imports pointed at ``root``."""
    path = PREAMBLE_DIR / (name + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    if root != "pyflink":
        tree = ast.fix_missing_locations(_RootRewriter(root).visit(tree))
    return tree


def compile_preamble(name: str, root: str) -> Any:
    """The preamble's code object, its ``pyflink`` imports pointed at ``root``."""
    return compile(parse_preamble(name, root), "<corpus:{}>".format(name), "exec")


# -- normalising --------------------------------------------------------------------------
class _Normaliser:
    def __init__(self, tmp: str) -> None:
        self.tmp_forms = sorted({tmp, os.path.realpath(tmp)}, key=len, reverse=True)

    def text(self, value: str) -> str:
        for form in self.tmp_forms:
            value = value.replace(form, "<tmp>")
        value = re.sub(r"0x[0-9a-fA-F]+", "<addr>", value)
        value = re.sub(r"@[0-9a-f]{5,}\b", "@<hash>", value)
        value = re.sub(r"\bo[0-9]+\b", "o<id>", value)
        return value

    def message(self, value: str) -> str:
        """An error message, without source file paths and with the root package as ``<root>``."""
        value = re.sub(r"\((?:/|[A-Za-z]:\\)[^()]*\.py\)", "(<file>)", self.text(value))
        return re.sub(r"\bpyflink(?:_compat)?(?=[.'\s]|$)", "<root>", value)

    def plain(self, value: Any) -> Any:
        """A JSON-able, deterministic form of a probed value."""
        if value is None or isinstance(value, (bool, int, float)):
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, enum.Enum):
            return "{}.{}".format(type(value).__name__, value.name)
        if isinstance(value, datetime.timedelta):
            return {"timedelta_ms": int(value / datetime.timedelta(milliseconds=1))}
        if type(value).__name__ == "Duration" and hasattr(value, "_j_duration"):
            # PyFlink's Duration has no public getter: read the java.time.Duration it wraps
            return {"duration_ms": int(value._j_duration.toMillis())}
        if type(value).__name__ == "Time" and hasattr(value, "to_milliseconds"):
            return {"time_ms": value.to_milliseconds()}
        if isinstance(value, (list, tuple)):
            return [self.plain(item) for item in value]
        if isinstance(value, dict):
            return {str(k): self.plain(value[k]) for k in sorted(value, key=str)}
        return {"class": type(value).__name__}


def class_chain(exc: BaseException) -> List[str]:
    """The exception's class MRO names, most specific first, without ``object``."""
    return [cls.__name__ for cls in type(exc).__mro__ if cls is not object]


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def error_record(exc: BaseException, norm: _Normaliser) -> Dict[str, Any]:
    record: Dict[str, Any] = {"mro": class_chain(exc), "message": norm.message(_first_line(str(exc)))}
    java = getattr(exc, "java_exception", None)
    if java is not None:
        with contextlib.suppress(Exception):
            record["java"] = norm.message(_first_line(java.toString()))
    return record


# -- probing ------------------------------------------------------------------------------
def _is_kind(obj: Any, names: tuple) -> Optional[str]:
    if isinstance(obj, type):
        return None
    for cls in type(obj).__mro__:
        if cls.__name__ in names:
            return cls.__name__
    return None


class _Prober:
    def __init__(self, norm: _Normaliser) -> None:
        self.norm = norm
        self.cpu_count = os.cpu_count()

    def call(self, fn: Callable[[], Any], parallelism: bool = False) -> Dict[str, Any]:
        try:
            value = fn()
        except Exception as exc:  # a probe that raises is recorded, never fatal
            return {"raises": class_chain(exc)}
        if parallelism and value in (self.cpu_count, str(self.cpu_count)):
            return {"value": "<cpu_count>"}
        return {"value": self.norm.plain(value)}

    def getters(self, obj: Any, names: tuple, only_present: bool = False) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for name in names:
            if only_present and not hasattr(obj, name):
                continue
            out[name] = self.call(lambda n=name: getattr(obj, n)(),
                                  parallelism=name == "get_parallelism")
        return out

    def class_of(self, fn: Callable[[], Any]) -> Dict[str, Any]:
        try:
            value = fn()
        except Exception as exc:
            return {"raises": class_chain(exc)}
        return {"value": None if value is None else type(value).__name__}

    def stream_env(self, env: Any) -> Dict[str, Any]:
        probes: Dict[str, Any] = {"env": self.getters(env, ENV_GETTERS)}
        try:
            execution_config = env.get_config()
        except Exception as exc:
            probes["execution_config"] = {"raises": class_chain(exc)}
        else:
            probes["execution_config"] = self.getters(execution_config, EXECUTION_CONFIG_GETTERS)
        try:
            config = env.get_checkpoint_config()
        except Exception as exc:
            probes["checkpoint_config"] = {"raises": class_chain(exc)}
        else:
            probes["checkpoint_config"] = self.getters(config, CHECKPOINT_GETTERS)
            probes["checkpoint_storage"] = self.checkpoint_storage(config)
        probes["state_backend"] = self.class_of(lambda: env.get_state_backend())
        probes["restart_strategy"] = self.restart_strategy(env)
        return probes

    def checkpoint_storage(self, config: Any) -> Dict[str, Any]:
        try:
            storage = config.get_checkpoint_storage()
        except Exception as exc:
            return {"raises": class_chain(exc)}
        out: Dict[str, Any] = {"class": None if storage is None else type(storage).__name__}
        if storage is not None and hasattr(storage, "get_checkpoint_path"):
            out["path"] = self.call(lambda: storage.get_checkpoint_path())
        return out

    def restart_strategy(self, env: Any) -> Dict[str, Any]:
        try:
            strategy = env.get_restart_strategy()
        except Exception as exc:
            return {"raises": class_chain(exc)}
        out: Dict[str, Any] = {"class": None if strategy is None else type(strategy).__name__}
        if strategy is not None:
            out.update(self.getters(strategy, RESTART_GETTERS, only_present=True))
        return out

    def table_env(self, t_env: Any) -> Dict[str, Any]:
        try:
            config = t_env.get_config()
        except Exception as exc:
            return {"get_config": {"raises": class_chain(exc)}}
        probes: Dict[str, Any] = {
            "config": {key: self.call(lambda k=key: config.get(k, None),
                                      parallelism=key == "parallelism.default")
                       for key in TABLE_CONFIG_KEYS},
            "get_local_timezone": self.call(lambda: config.get_local_timezone()),
        }
        try:
            entries = config.get_configuration().to_dict()
        except Exception as exc:
            probes["configuration"] = {"raises": class_chain(exc)}
        else:
            probes["configuration"] = {"value": self.norm.plain(
                {k: v for k, v in entries.items() if k not in VOLATILE_KEYS})}
        return probes


def probe_namespace(namespace: Dict[str, Any], norm: _Normaliser) -> Dict[str, Any]:
    """Probe values of every environment bound to a name in the namespace."""
    prober = _Prober(norm)
    envs: Dict[str, Any] = {}
    for name in sorted(namespace):
        obj = namespace[name]
        if name.startswith("__"):
            continue
        kind = _is_kind(obj, (STREAM_ENV,))
        if kind:
            envs[name] = {"kind": kind, **prober.stream_env(obj)}
            continue
        kind = _is_kind(obj, TABLE_ENVS)
        if kind:
            envs[name] = {"kind": kind, **prober.table_env(obj)}
    return envs


# -- running ------------------------------------------------------------------------------
@contextlib.contextmanager
def sandbox(name: str) -> Iterator[Tuple[Dict[str, Any], "_Normaliser"]]:
    """A fresh namespace, temporary directory and working directory for one preamble run.

    The process environment, working directory and ``sys.path`` are restored afterwards, and
    the run's own temporary directory is removed.
    """
    tmp = tempfile.mkdtemp(prefix="corpus-")
    saved_environ = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_path = list(sys.path)
    namespace: Dict[str, Any] = {
        "__name__": "__corpus_preamble__",
        "__file__": os.path.join(tmp, name + ".py"),
        "__builtins__": __builtins__,
        "CORPUS_TMP": tmp,
    }
    try:
        os.chdir(tmp)
        yield namespace, _Normaliser(tmp)
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_environ)
        sys.path[:] = saved_path
        shutil.rmtree(tmp, ignore_errors=True)  # the run's own mkdtemp directory


def run_preamble(name: str, root: str = "pyflink") -> Dict[str, Any]:
    """Run preamble ``name`` with ``pyflink`` mapped to ``root``; its outcome and probes."""
    return run_code(name, lambda: compile_preamble(name, root))


def run_source(name: str, source: str) -> Dict[str, Any]:
    """Run a preamble given as source text (its imports already naming the root); its outcome
    and probes."""
    return run_code(name, lambda: compile(source, "<corpus:{}>".format(name), "exec"))


def run_code(name: str, make_code: Callable[[], Any]) -> Dict[str, Any]:
    """Compile (``make_code``) and run a preamble in a sandbox; its outcome and probes."""
    with sandbox(name) as (namespace, norm):
        try:
            code = make_code()
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(code, namespace)
        except Exception as exc:
            return {"outcome": "rejected", "error": error_record(exc, norm)}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            environments = probe_namespace(namespace, norm)
        return {"outcome": "ok", "environments": environments}
