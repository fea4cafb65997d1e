"""State backends: constructors, getters, RocksDB options, env round trips."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._helpers import record_object, summary

if TYPE_CHECKING:
    from ..battery import Api, Recorder

BACKEND_GETTERS: dict[str, tuple[str, ...]] = {
    "EmbeddedRocksDBStateBackend": (
        "is_incremental_checkpoints_enabled", "get_db_storage_paths", "get_predefined_options",
        "get_options", "get_number_of_transfer_threads"),
    "RocksDBStateBackend": (
        "is_incremental_checkpoints_enabled", "get_db_storage_paths", "get_predefined_options",
        "get_options", "get_number_of_transfering_threads"),
    "MemoryStateBackend": ("get_max_state_size", "is_using_asynchronous_snapshots"),
    "FsStateBackend": ("get_checkpoint_path", "get_min_file_size_threshold",
                       "is_using_asynchronous_snapshots", "get_write_buffer_size"),
}

DEFAULT_OPTIONS_FACTORY = (
    "org.apache.flink.contrib.streaming.state.DefaultConfigurableOptionsFactory")


def backend_summary(backend: Any) -> Any:
    """Public view of a state backend: class name, its getters (or error text) and ``str``."""
    if backend is None:
        return None
    return summary(backend, BACKEND_GETTERS.get(type(backend).__name__, ()))


def record_backend(rec: Recorder, step_id: str, make: Callable[..., Any]) -> None:
    """A state backend built by ``make``: its summary, then its ``str``."""
    record_object(rec, step_id, make, backend_summary)


def scenario_hashmap_backend(api: Api, rec: Recorder) -> None:
    hm = api.HashMapStateBackend
    b = rec.step("new", lambda: hm())
    rec.step("summary", lambda: backend_summary(b))
    rec.step("str", lambda: str(b))
    rec.step("repr", lambda: repr(b))
    rec.step("isinstance_state_backend", lambda: isinstance(b, api.StateBackend))
    rec.step("isinstance_storage", lambda: isinstance(b, api.CheckpointStorage))
    record_backend(rec, "none_arg", lambda: hm(None))
    rec.step("eq_other", lambda: b == hm())
    rec.step("hashable", lambda: isinstance(hash(b), int))
    rec.step("bad_keyword", lambda: hm(path="x"))


def scenario_embedded_rocksdb_backend(api: Api, rec: Recorder) -> None:
    rocks = api.EmbeddedRocksDBStateBackend
    record_backend(rec, "default", lambda: rocks())
    for label, value in [("true", True), ("false", False), ("none", None), ("int_1", 1),
                         ("int_0", 0), ("str", "true"), ("int_2", 2)]:
        record_backend(rec, f"incremental.{label}", lambda v=value: rocks(v))
    record_backend(rec, "incremental.keyword",
                   lambda: rocks(enable_incremental_checkpointing=True))
    _probe_rocks_options(api, rec, rocks(), "get_number_of_transfer_threads",
                         "set_number_of_transfer_threads")


def scenario_rocksdb_backend(api: Api, rec: Recorder) -> None:
    rocks = api.RocksDBStateBackend
    b: Any = rec.step("new", lambda: rocks("file:///tmp/rocks"))
    rec.step("summary", lambda: backend_summary(b))
    rec.step("str", lambda: str(b))
    rec.step("checkpoint_backend", lambda: type(b.get_checkpoint_backend()).__name__)
    rec.step("checkpoint_backend.summary",
             lambda: backend_summary(b.get_checkpoint_backend()))
    for label, value in [("true", True), ("false", False), ("none", None), ("str", "x")]:
        record_backend(rec, f"incremental.{label}", lambda v=value: rocks("file:///tmp/rocks", v))
    for label, path in [("hdfs", "hdfs://nn:9000/rocks"), ("relative", "relative/rocks"),
                        ("empty", ""), ("int", 5)]:
        record_backend(rec, f"path.{label}", lambda p=path: rocks(p))
    fs_backend = api.FsStateBackend("file:///tmp/rocks-stream")
    record_backend(rec, "stream_backend", lambda: rocks(checkpoint_stream_backend=fs_backend))
    rec.step("stream_backend.checkpoint_backend", lambda: backend_summary(
        rocks(checkpoint_stream_backend=fs_backend, enable_incremental_checkpointing=True)
        .get_checkpoint_backend()))
    rec.step("stream_backend_not_backend",
             lambda: type(rocks(checkpoint_stream_backend="x")).__name__)
    empty = rec.step("no_args", lambda: rocks())
    rec.step("no_args.type", lambda: type(empty).__name__)
    rec.step("no_args.summary", lambda: backend_summary(empty), tier="internal")
    _probe_rocks_options(api, rec, rocks("file:///tmp/rocks-opts"),
                         "get_number_of_transfering_threads",
                         "set_number_of_transfering_threads")


def _probe_rocks_options(api: Api, rec: Recorder, b: Any, threads_getter: str,
                         threads_setter: str) -> None:
    paths_cases: list[tuple[str, tuple[Any, ...]]] = [
        ("one", ("/tmp/rocks-a",)),
        ("two", ("/tmp/rocks-a", "/tmp/rocks-b")),
        ("file_uri", ("file:///tmp/rocks-c",)),
        ("reset", ()),
        ("relative", ("relative/dir",)),
        ("hdfs", ("hdfs://nn:9000/rocks",)),
        ("none_item", (None,)),
        ("int_item", (5,)),
    ]
    for label, paths in paths_cases:
        rec.step(f"db_paths.{label}", lambda p=paths: b.set_db_storage_paths(*p))
        rec.step(f"db_paths.{label}.get", b.get_db_storage_paths)
    rec.step("predefined.default", b.get_predefined_options)
    options = api.PredefinedOptions
    cases: list[tuple[str, Any]] = [(m.name, m) for m in options]
    cases += [("none", None), ("str", "DEFAULT"),
              ("mode_member", api.CheckpointingMode.EXACTLY_ONCE)]
    for label, value in cases:
        rec.step(f"predefined.set.{label}", lambda v=value: b.set_predefined_options(v))
        rec.step(f"predefined.set.{label}.get", b.get_predefined_options)
    rec.step("options.default", b.get_options)
    for label, name in [
        ("configurable", DEFAULT_OPTIONS_FACTORY),
        ("not_factory", "java.lang.String"),
        ("missing", "no.such.OptionsFactory"),
        ("none", None),
    ]:
        rec.step(f"options.set.{label}", lambda n=name: b.set_options(n))
        rec.step(f"options.set.{label}.get", b.get_options)
    rec.step("threads.default", getattr(b, threads_getter))
    for label, value in [("eight", 8), ("one", 1), ("zero", 0), ("minus_1", -1),
                         ("str", "2"), ("none", None), ("int_max_plus1", 2**31)]:
        rec.step(f"threads.set.{label}", lambda v=value: getattr(b, threads_setter)(v))
        rec.step(f"threads.set.{label}.get", getattr(b, threads_getter))
    rec.step("str_after_changes", lambda: str(b))


def scenario_memory_backend(api: Api, rec: Recorder) -> None:
    mem = api.MemoryStateBackend
    record_backend(rec, "default", lambda: mem())
    rec.step("isinstance_state_backend", lambda: isinstance(mem(), api.StateBackend))
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("checkpoint_path", lambda: mem("file:///tmp/mem")),
        ("both_paths", lambda: mem("file:///tmp/mem", "file:///tmp/mem-sp")),
        ("relative_path", lambda: mem("relative/mem")),
        ("empty_path", lambda: mem("")),
        ("size_1024", lambda: mem(max_state_size=1024)),
        ("size_zero", lambda: mem(max_state_size=0)),
        ("size_minus_1", lambda: mem(max_state_size=-1)),
        ("size_int_max_plus1", lambda: mem(max_state_size=2**31)),
        ("size_str", lambda: mem(max_state_size="1")),
        ("async_true", lambda: mem(using_asynchronous_snapshots=True)),
        ("async_false", lambda: mem(using_asynchronous_snapshots=False)),
        ("async_str", lambda: mem(using_asynchronous_snapshots="yes")),
        ("async_int_1", lambda: mem(using_asynchronous_snapshots=1)),
        ("path_int", lambda: mem(5)),
    ]
    for label, make in cases:
        record_backend(rec, label, lambda m=make: m())


def scenario_fs_backend(api: Api, rec: Recorder) -> None:
    fsb = api.FsStateBackend
    rec.step("no_args", lambda: fsb())
    rec.step("none", lambda: fsb(None))
    record_backend(rec, "default", lambda: fsb("file:///tmp/fsb"))
    rec.step("repr", lambda: repr(fsb("file:///tmp/fsb")))
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("hdfs", lambda: fsb("hdfs://nn:9000/fsb")),
        ("dotdot", lambda: fsb("file:///tmp/a/../fsb")),
        ("relative", lambda: fsb("relative/fsb")),
        ("absolute_no_scheme", lambda: fsb("/abs/fsb")),
        ("empty", lambda: fsb("")),
        ("root", lambda: fsb("file:///")),
        ("savepoint", lambda: fsb("file:///tmp/fsb", "file:///tmp/fsb-sp")),
        ("savepoint_relative", lambda: fsb("file:///tmp/fsb", "relative/sp")),
        ("threshold_0", lambda: fsb("file:///tmp/fsb", file_state_size_threshold=0)),
        ("threshold_max", lambda: fsb("file:///tmp/fsb", file_state_size_threshold=1048576)),
        ("threshold_over", lambda: fsb("file:///tmp/fsb", file_state_size_threshold=1048577)),
        ("threshold_minus_2", lambda: fsb("file:///tmp/fsb", file_state_size_threshold=-2)),
        ("buffer_0", lambda: fsb("file:///tmp/fsb", write_buffer_size=0)),
        ("buffer_8192", lambda: fsb("file:///tmp/fsb", write_buffer_size=8192)),
        ("buffer_minus_2", lambda: fsb("file:///tmp/fsb", write_buffer_size=-2)),
        ("buffer_below_threshold", lambda: fsb("file:///tmp/fsb", None, 4096, 100)),
        ("async_true", lambda: fsb("file:///tmp/fsb", using_asynchronous_snapshots=True)),
        ("async_false", lambda: fsb("file:///tmp/fsb", using_asynchronous_snapshots=False)),
        ("async_str", lambda: fsb("file:///tmp/fsb", using_asynchronous_snapshots="x")),
        ("tmp_dir", lambda: fsb(api.tmp_uri("fsb"))),
    ]
    for label, make in cases:
        record_backend(rec, label, lambda m=make: m())


def scenario_custom_and_base_backend(api: Api, rec: Recorder) -> None:
    rec.step("base_with_none", lambda: type(api.StateBackend(None)).__name__)
    rec.step("base_no_args", lambda: api.StateBackend())
    rec.step("custom_with_none", lambda: type(api.CustomStateBackend(None)).__name__)
    rec.step("custom_no_args", lambda: api.CustomStateBackend())
    for name in ("HashMapStateBackend", "EmbeddedRocksDBStateBackend", "MemoryStateBackend",
                 "FsStateBackend", "RocksDBStateBackend", "CustomStateBackend"):
        rec.step(f"subclass.{name}", lambda n=name: issubclass(api.cls(n), api.StateBackend))
    rec.step("rocks_is_embedded", lambda: issubclass(api.RocksDBStateBackend,
                                                     api.EmbeddedRocksDBStateBackend))
    rec.step("fs_is_memory", lambda: issubclass(api.FsStateBackend, api.MemoryStateBackend))


def _backend_factories(api: Api) -> list[tuple[str, Callable[[], Any]]]:
    return [
        ("hashmap", lambda: api.HashMapStateBackend()),
        ("embedded_rocksdb", lambda: api.EmbeddedRocksDBStateBackend(True)),
        ("memory", lambda: api.MemoryStateBackend(max_state_size=2048)),
        ("fs", lambda: api.FsStateBackend("file:///tmp/env-fs", write_buffer_size=1234)),
        ("rocksdb", lambda: api.RocksDBStateBackend("file:///tmp/env-rocks", False)),
    ]


def scenario_env_state_backend_round_trip(api: Api, rec: Recorder) -> None:
    for label, make in _backend_factories(api):
        env = api.new_env()
        backend = make()
        rec.step(f"{label}.set", lambda e=env, b=backend: e.set_state_backend(b) is e)
        got = rec.step(f"{label}.get", env.get_state_backend)
        rec.step(f"{label}.get.summary", lambda g=got: backend_summary(g))
        rec.step(f"{label}.get.str", lambda g=got: str(g))
        rec.step(f"{label}.get.same_class", lambda g=got, b=backend: type(g) is type(b))
        rec.step(f"{label}.get.is_same", lambda g=got, b=backend: g is b)
        rec.step(f"{label}.str_equal", lambda g=got, b=backend: str(g) == str(b))
        rec.step(f"{label}.storage", lambda e=env: e.get_checkpoint_config()
                 .get_checkpoint_storage())
    env = api.new_env()
    rec.step("rocksdb_options.set", lambda: env.set_state_backend(_tuned_rocks(api)) is env)
    rec.step("rocksdb_options.get", lambda: backend_summary(env.get_state_backend()))
    rec.step("rocksdb_options.get.str", lambda: str(env.get_state_backend()))


def _tuned_rocks(api: Api) -> Any:
    b = api.EmbeddedRocksDBStateBackend(False)
    b.set_predefined_options(api.PredefinedOptions.FLASH_SSD_OPTIMIZED)
    b.set_number_of_transfer_threads(3)
    b.set_db_storage_paths("/tmp/tuned-a", "/tmp/tuned-b")
    return b


def scenario_env_state_backend_errors(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    rec.step("set_hashmap", lambda: env.set_state_backend(api.HashMapStateBackend()) is env)
    for label, bad in [("none", None), ("str", "hashmap"),
                       ("storage", api.JobManagerCheckpointStorage()), ("int", 1)]:
        rec.step(f"set.{label}", lambda b=bad: env.set_state_backend(b))
        rec.step(f"set.{label}.get", lambda: type(env.get_state_backend()).__name__)
    rec.step("set_custom_none", lambda: env.set_state_backend(api.CustomStateBackend(None)),
             tier="internal")
    rec.step("set_custom_none.get", lambda: type(env.get_state_backend()).__name__,
             tier="internal")
    rec.step("keyword", lambda: env.set_state_backend(
        state_backend=api.MemoryStateBackend()) is env)
    rec.step("keyword.get", lambda: type(env.get_state_backend()).__name__)
    rec.step("bad_keyword", lambda: env.set_state_backend(backend=api.HashMapStateBackend()))
    rec.step("last_write_wins", lambda: [
        env.set_state_backend(api.FsStateBackend("file:///tmp/lw")) is env,
        type(env.get_state_backend()).__name__])


def scenario_env_state_backend_is_shared(api: Api, rec: Recorder) -> None:
    """The environment shares the backend object it was given: later setter calls, on the
    original or on a wrapper read back, change what the environment holds."""
    env = api.new_env()
    backend = api.EmbeddedRocksDBStateBackend()
    rec.step("set", lambda: env.set_state_backend(backend) is env)
    rec.step("mutate_original.threads", lambda: backend.set_number_of_transfer_threads(8))
    rec.step("mutate_original.options",
             lambda: backend.set_predefined_options(api.PredefinedOptions.FLASH_SSD_OPTIMIZED))
    rec.step("read_back", lambda: backend_summary(env.get_state_backend()))
    got = rec.step("get", env.get_state_backend)
    rec.step("mutate_read_back", lambda: got.set_number_of_transfer_threads(3))
    rec.step("original_sees_it", lambda: backend.get_number_of_transfer_threads())
    rec.step("env_sees_it", lambda: env.get_state_backend().get_number_of_transfer_threads())
    other = api.new_env()
    rec.step("other_env_unaffected", lambda: other.get_state_backend())
    rec.step("replace", lambda: env.set_state_backend(api.HashMapStateBackend()) is env)
    rec.step("mutate_after_replace", lambda: backend.set_number_of_transfer_threads(5))
    rec.step("replaced_type", lambda: type(env.get_state_backend()).__name__)
