"""One measurement in a fresh process, for ``root`` = ``pyflink`` or ``pyflink_compat``.

Prints one JSON object. Run by ``calls.py``, once under each implementation's interpreter:
``import`` (package import time), ``start`` (the first environment), ``calls`` (per-call cost
of the configuration API, in microseconds).
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import sys
import tempfile
import time
import warnings
from typing import Any, Callable, Dict

from common import count_commands, stop_counting


#: Before it is timed, a call is made this many times, or for WARM_UP_S, whichever ends first
#: (and at least as many times as one repetition makes): enough for both JVMs to compile the
#: code the call runs, which a few dozen calls are not.
WARM_UP_CALLS = 2000
WARM_UP_S = 1.0

#: Before any call is timed, every call is made in turn for this many seconds, then the JVM is
#: left this long to finish compiling in the background: on one CPU its compiler threads take
#: turns with the calls being timed, and a call timed while they run measured twice its cost
#: (the first setters timed came out at 1.6x to 1.7x PyFlink's, run after run, and at 1.0x
#: when timed again later in the same process).
WARM_UP_ALL_S = 3.0
SETTLE_S = 1.0

#: Prefix of the result keys that count a call's py4j commands.
ROUND_TRIPS = "round trips: "


def per_call_micros(fn: Callable[[], Any], calls: int, reps: int) -> float:
    """The lowest over ``reps`` of the mean time of one call, in microseconds, after the
    warm-up (``WARM_UP_CALLS``): the lowest, as ``timeit`` advises, since noise only adds
    time."""
    made = 0
    start = time.perf_counter()
    while made < calls or (made < WARM_UP_CALLS and time.perf_counter() - start < WARM_UP_S):
        fn()
        made += 1
    samples = []
    for _ in range(reps):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return min(samples)


def gateway_client(root: str) -> Any:
    """The py4j client through which ``root`` talks to its JVM."""
    return importlib.import_module(root + ".java_gateway").get_gateway()._gateway_client


def round_trips(root: str, fn: Callable[[], Any], calls: int = 20) -> float:
    """The py4j commands one call sends, on average over ``calls`` calls: a count, which no
    noise changes. Releases of JVM objects the calls dropped are counted too, whichever thread
    sends them (PyFlink's py4j sends them from the caller; PySpark's, with pinned threads, from
    a finalizer thread, up to a second later, which is waited for)."""
    client = gateway_client(root)
    # what earlier calls left to release is released before counting starts
    finalizer_queue = getattr(client, "finalizer_deque", None)

    def settle() -> None:
        gc.collect()
        deadline = time.monotonic() + 5
        while finalizer_queue and time.monotonic() < deadline:
            time.sleep(0.01)
        if finalizer_queue is not None:
            time.sleep(0.05)  # the thread takes a release off the queue before it sends it

    settle()
    sent = count_commands(client, lambda command: True)
    try:
        for _ in range(calls):
            fn()
        settle()
    finally:
        stop_counting(client)
    return sent[0] / calls


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


def pin_to_one_cpu() -> None:
    """Run this process, and the JVM it starts, on one CPU (the highest-numbered one it may
    use, the same for both implementations). Between two CPUs a py4j round trip waits for the
    other CPU to wake up: on a shared virtual machine that turns about 25 microseconds into
    about 80, at random and for seconds at a time, which no number of repetitions averages
    out. On one CPU the JVM's thread answers as soon as the request is written."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {max(os.sched_getaffinity(0))})


def main(root: str, what: str, calls: int) -> Dict[str, float]:
    warnings.simplefilter("ignore")
    if what == "calls":
        pin_to_one_cpu()
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
    measured = cases(root, calls)
    start = time.perf_counter()
    while time.perf_counter() - start < WARM_UP_ALL_S:
        for fn, n in measured.values():
            for _ in range(n):
                fn()
    time.sleep(SETTLE_S)
    for name, (fn, n) in measured.items():
        results[name] = per_call_micros(fn, n, 7)
        results[ROUND_TRIPS + name] = round_trips(root, fn)
    return results


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
