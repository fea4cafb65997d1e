"""One measurement in a fresh process, for ``root`` = ``pyflink`` or ``pyflink_compat``.

Prints one JSON object. Run by ``run.py``, once under each implementation's interpreter.
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
import tempfile
import time
from typing import Any, Callable, Dict


def per_call_micros(fn: Callable[[], Any], calls: int, reps: int) -> float:
    """The median over ``reps`` of the mean time of one call, in microseconds."""
    fn()
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def main(root: str, what: str, calls: int) -> Dict[str, float]:
    start = time.perf_counter()
    datastream = importlib.import_module(root + ".datastream")
    import_ms = (time.perf_counter() - start) * 1e3
    if what == "import":
        start = time.perf_counter()
        datastream.StreamExecutionEnvironment  # noqa: B018 - first access loads the classes
        return {"import_package_ms": import_ms,
                "import_env_class_ms": import_ms + (time.perf_counter() - start) * 1e3}
    common = importlib.import_module(root + ".common")
    start = time.perf_counter()
    env = datastream.StreamExecutionEnvironment.get_execution_environment()
    first_env_s = time.perf_counter() - start
    if what == "start":
        return {"first_environment_s": first_env_s}
    config = env.get_checkpoint_config()
    path = "file://" + tempfile.gettempdir() + "/bench-checkpoints"
    options = common.Configuration()
    options.set_string("execution.checkpointing.interval", "5 s")
    options.set_string("execution.checkpointing.mode", "AT_LEAST_ONCE")
    options.set_string("execution.checkpointing.timeout", "1 min")
    return {
        "get_checkpoint_interval_us": per_call_micros(config.get_checkpoint_interval, calls, 3),
        "set_checkpoint_interval_us": per_call_micros(lambda: config.set_checkpoint_interval(1000), calls, 3),
        "get_checkpoint_config_us": per_call_micros(env.get_checkpoint_config, calls, 3),
        "new_fs_storage_us": per_call_micros(lambda: datastream.FileSystemCheckpointStorage(path),
                                             max(calls // 10, 10), 3),
        "configure_3_keys_us": per_call_micros(lambda: env.configure(options), max(calls // 10, 10), 3),
        "new_environment_ms": per_call_micros(
            datastream.StreamExecutionEnvironment.get_execution_environment, 10, 3) / 1e3,
    }


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
