"""One measurement in a fresh process, for ``root`` = ``pyflink`` or ``pyflink_compat``.

Prints one JSON object. Run by ``calls.py``, once under each implementation's interpreter:
``import`` (package import time), ``start`` (the first environment), ``calls`` (per-call cost
of the configuration API, in microseconds).
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
import tempfile
import time
import warnings
from typing import Any, Callable, Dict


def per_call_micros(fn: Callable[[], Any], calls: int, reps: int) -> float:
    """The median over ``reps`` of the mean time of one call, in microseconds, after as many
    calls again as one repetition makes (both JVMs then run the calls' code compiled)."""
    for _ in range(calls):
        fn()
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def cases(root: str, calls: int) -> Dict[str, Any]:
    """Name -> (function, calls per repetition)."""
    datastream = importlib.import_module(root + ".datastream")
    common = importlib.import_module(root + ".common")
    env = datastream.StreamExecutionEnvironment.get_execution_environment()
    config = env.get_checkpoint_config()
    path = "file://" + tempfile.gettempdir() + "/bench-checkpoints"
    options = common.Configuration()
    options.set_string("execution.checkpointing.interval", "5 s")
    options.set_string("execution.checkpointing.mode", "AT_LEAST_ONCE")
    options.set_string("execution.checkpointing.timeout", "1 min")
    mode = datastream.CheckpointingMode.EXACTLY_ONCE
    backend = datastream.HashMapStateBackend()
    backends = [datastream.EmbeddedRocksDBStateBackend(True), backend]
    storage = datastream.FileSystemCheckpointStorage(path)
    few = max(calls // 10, 10)

    def change_state_backend() -> None:
        # a different backend each call, so that every call has something to write
        backends.reverse()
        env.set_state_backend(backends[0])
    return {
        # CheckpointConfig getters
        "get_checkpoint_interval": (config.get_checkpoint_interval, calls),
        "get_checkpointing_mode": (config.get_checkpointing_mode, calls),
        "get_checkpoint_timeout": (config.get_checkpoint_timeout, calls),
        "get_min_pause_between_checkpoints": (config.get_min_pause_between_checkpoints, calls),
        "get_max_concurrent_checkpoints": (config.get_max_concurrent_checkpoints, calls),
        "get_tolerable_checkpoint_failure_number": (
            config.get_tolerable_checkpoint_failure_number, calls),
        "is_unaligned_checkpoints_enabled": (config.is_unaligned_checkpoints_enabled, calls),
        # CheckpointConfig setters
        "set_checkpoint_interval": (lambda: config.set_checkpoint_interval(1000), calls),
        "set_checkpointing_mode": (lambda: config.set_checkpointing_mode(mode), calls),
        "set_checkpoint_timeout": (lambda: config.set_checkpoint_timeout(60000), calls),
        "set_min_pause_between_checkpoints": (
            lambda: config.set_min_pause_between_checkpoints(500), calls),
        "set_max_concurrent_checkpoints": (lambda: config.set_max_concurrent_checkpoints(1), calls),
        "set_tolerable_checkpoint_failure_number": (
            lambda: config.set_tolerable_checkpoint_failure_number(2), calls),
        # the environment
        "env.get_checkpoint_config": (env.get_checkpoint_config, calls),
        "env.get_checkpoint_interval": (env.get_checkpoint_interval, calls),
        "env.get_checkpointing_mode": (env.get_checkpointing_mode, calls),
        "env.enable_checkpointing": (lambda: env.enable_checkpointing(1000), calls),
        "env.set_state_backend": (lambda: env.set_state_backend(backend), few),
        "env.set_state_backend (HashMap / RocksDB in turn)": (change_state_backend, few),
        "set_checkpoint_storage": (lambda: config.set_checkpoint_storage(storage), few),
        "set_checkpoint_storage_dir": (lambda: config.set_checkpoint_storage_dir(path), few),
        "env.configure (3 keys)": (lambda: env.configure(options), few),
        # construction
        "new FileSystemCheckpointStorage": (
            lambda: datastream.FileSystemCheckpointStorage(path), few),
        "new HashMapStateBackend": (datastream.HashMapStateBackend, few),
        "new EmbeddedRocksDBStateBackend(True)": (
            lambda: datastream.EmbeddedRocksDBStateBackend(True), few),
        "further get_execution_environment": (
            datastream.StreamExecutionEnvironment.get_execution_environment, 10),
    }


def main(root: str, what: str, calls: int) -> Dict[str, float]:
    warnings.simplefilter("ignore")
    start = time.perf_counter()
    datastream = importlib.import_module(root + ".datastream")
    import_ms = (time.perf_counter() - start) * 1e3
    if what == "import":
        start = time.perf_counter()
        datastream.StreamExecutionEnvironment  # noqa: B018 - first access loads the classes
        env_class_ms = import_ms + (time.perf_counter() - start) * 1e3
        jvm_started = False
        if root == "pyflink_compat" and "pyspark" in sys.modules:
            from pyspark import SparkContext

            jvm_started = SparkContext._gateway is not None
        return {"import_package_ms": import_ms, "import_env_class_ms": env_class_ms,
                "jvm_started": float(jvm_started)}
    if what == "start":
        start = time.perf_counter()
        datastream.StreamExecutionEnvironment.get_execution_environment()
        return {"first_environment_s": time.perf_counter() - start}
    results = {}
    for name, (fn, n) in cases(root, calls).items():
        results[name] = per_call_micros(fn, n, 5)
    return results


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
