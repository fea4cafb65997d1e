"""Checkpoint storages: constructors, path forms, getters, str(), config round trips."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._helpers import PATH_FORMS, fresh_config, record_storage, storage_summary

if TYPE_CHECKING:
    from ..battery import Api, Recorder

JM_SIZE_CASES = [
    ("one", 1),
    ("default", 5 * 1024 * 1024),
    ("zero", 0),
    ("minus_1", -1),
    ("int_max", 2**31 - 1),
    ("int_max_plus1", 2**31),
    ("str", "100"),
    ("float", 1.5),
    ("bool", True),
    ("none", None),
]

FS_THRESHOLD_CASES = [
    ("minus_1", -1),
    ("zero", 0),
    ("one", 1),
    ("max", 1024 * 1024),
    ("max_plus1", 1024 * 1024 + 1),
    ("minus_2", -2),
    ("int_max_plus1", 2**31),
    ("str", "100"),
    ("float", 1.5),
    ("none", None),
]

FS_BUFFER_CASES = [
    ("minus_1", -1),
    ("zero", 0),
    ("one", 1),
    ("default_4096", 4096),
    ("minus_2", -2),
    ("int_max", 2**31 - 1),
    ("int_max_plus1", 2**31),
    ("str", "100"),
    ("float", 1.5),
    ("none", None),
]


def scenario_jobmanager_storage_defaults(api: Api, rec: Recorder) -> None:
    jm = api.JobManagerCheckpointStorage
    st = rec.step("new", lambda: jm())
    rec.step("summary", lambda: storage_summary(st))
    rec.step("str", lambda: str(st))
    rec.step("repr", lambda: repr(st))
    rec.step("isinstance_base", lambda: isinstance(st, api.CheckpointStorage))
    rec.step("isinstance_fs", lambda: isinstance(st, api.FileSystemCheckpointStorage))
    rec.step("isinstance_state_backend", lambda: isinstance(st, api.StateBackend))
    rec.step("eq_other", lambda: st == jm())
    rec.step("eq_self", lambda: st == st)  # identity equality is the point
    rec.step("hashable", lambda: isinstance(hash(st), int))


def scenario_jobmanager_storage_paths(api: Api, rec: Recorder) -> None:
    jm = api.JobManagerCheckpointStorage
    for label, path in PATH_FORMS:
        record_storage(rec, f"{label}", lambda p=path: jm(p))
    record_storage(rec, "keyword", lambda: jm(checkpoint_path="file:///tmp/kw"))
    record_storage(rec, "tmp_dir", lambda: jm(api.tmp_uri("jm")))


def scenario_jobmanager_storage_sizes(api: Api, rec: Recorder) -> None:
    jm = api.JobManagerCheckpointStorage
    for label, size in JM_SIZE_CASES:
        record_storage(rec, f"keyword.{label}", lambda s=size: jm(max_state_size=s))
        record_storage(rec, f"positional.{label}", lambda s=size: jm("file:///tmp/jm", s))
    record_storage(rec, "both_keywords",
                   lambda: jm(checkpoint_path="hdfs://nn:9000/jm", max_state_size=1024))
    rec.step("bad_keyword", lambda: jm(path="file:///tmp/x"))
    rec.step("too_many_args", lambda: jm("file:///tmp/x", 1, None, 4))


def scenario_filesystem_storage_defaults(api: Api, rec: Recorder) -> None:
    fs = api.FileSystemCheckpointStorage
    rec.step("no_args", lambda: fs())
    rec.step("none", lambda: fs(None))
    rec.step("none_with_threshold", lambda: fs(None, 100))
    rec.step("none_keyword", lambda: fs(checkpoint_path=None, write_buffer_size=10))
    st = rec.step("new", lambda: fs("file:///tmp/fs-defaults"))
    rec.step("summary", lambda: storage_summary(st))
    rec.step("str", lambda: str(st))
    rec.step("repr", lambda: repr(st))
    rec.step("isinstance_base", lambda: isinstance(st, api.CheckpointStorage))
    rec.step("isinstance_jm", lambda: isinstance(st, api.JobManagerCheckpointStorage))
    rec.step("eq_other", lambda: st == fs("file:///tmp/fs-defaults"))
    rec.step("str_equals_other_str", lambda: str(st) == str(fs("file:///tmp/fs-defaults")))
    rec.step("hashable", lambda: isinstance(hash(st), int))


def scenario_filesystem_storage_paths(api: Api, rec: Recorder) -> None:
    fs = api.FileSystemCheckpointStorage
    for label, path in PATH_FORMS:
        record_storage(rec, f"{label}", lambda p=path: fs(p))
    record_storage(rec, "keyword", lambda: fs(checkpoint_path="s3://bucket/kw"))
    record_storage(rec, "tmp_dir", lambda: fs(api.tmp_uri("fs")))


def scenario_filesystem_storage_sizes(api: Api, rec: Recorder) -> None:
    fs = api.FileSystemCheckpointStorage
    path = "file:///tmp/fs-sizes"
    for label, value in FS_THRESHOLD_CASES:
        record_storage(rec, f"threshold.{label}", lambda v=value: fs(path, v))
    for label, value in FS_BUFFER_CASES:
        record_storage(rec, f"buffer.{label}", lambda v=value: fs(path, write_buffer_size=v))
    record_storage(rec, "all_keywords", lambda: fs(
        checkpoint_path=path, file_state_size_threshold=512, write_buffer_size=8192))
    record_storage(rec, "all_positional", lambda: fs(path, 256, 2048))
    rec.step("bad_keyword", lambda: fs(path, threshold=10))


def scenario_custom_and_base_storage(api: Api, rec: Recorder) -> None:
    rec.step("base_with_none", lambda: type(api.CheckpointStorage(None)).__name__)
    rec.step("base_no_args", lambda: api.CheckpointStorage())
    rec.step("custom_with_none", lambda: type(api.CustomCheckpointStorage(None)).__name__)
    rec.step("custom_no_args", lambda: api.CustomCheckpointStorage())
    rec.step("custom_is_storage",
             lambda: issubclass(api.CustomCheckpointStorage, api.CheckpointStorage))
    rec.step("jm_is_storage",
             lambda: issubclass(api.JobManagerCheckpointStorage, api.CheckpointStorage))
    rec.step("fs_is_jm", lambda: issubclass(api.FileSystemCheckpointStorage,
                                            api.JobManagerCheckpointStorage))
    rec.step("memory_backend_is_storage",
             lambda: issubclass(api.MemoryStateBackend, api.CheckpointStorage))
    module = api.mod("datastream.checkpoint_storage")
    rec.step("from_j_none", lambda: module._from_j_checkpoint_storage(None), tier="internal")
    # Real jobs pass a path string to the base class.
    config = api.new_env().get_checkpoint_config()
    rec.step("base_with_path.set", lambda: config.set_checkpoint_storage(
        api.CheckpointStorage("file:///tmp/parity-base-storage-cp")) is config)
    rec.step("base_with_path.get", lambda: [
        type(config.get_checkpoint_storage()).__name__,
        config.get_checkpoint_storage().get_checkpoint_path()])


def scenario_storage_round_trip(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    jm = api.JobManagerCheckpointStorage("file:///tmp/rt-jm", 4096)
    rec.step("set_jm", lambda: cfg.set_checkpoint_storage(jm) is cfg)
    got = rec.step("get_jm", cfg.get_checkpoint_storage)
    rec.step("get_jm.summary", lambda: storage_summary(got))
    rec.step("get_jm.str", lambda: str(got))
    rec.step("get_jm.is_same", lambda: got is jm)
    rec.step("get_jm.str_equal", lambda: str(got) == str(jm))
    jm_default = api.JobManagerCheckpointStorage()
    rec.step("set_jm_default", lambda: cfg.set_checkpoint_storage(jm_default) is cfg)
    rec.step("get_jm_default", lambda: storage_summary(cfg.get_checkpoint_storage()))
    fs = api.FileSystemCheckpointStorage("hdfs://nn:9000/rt-fs", 100, 8192)
    rec.step("set_fs", lambda: cfg.set_checkpoint_storage(fs) is cfg)
    got_fs = rec.step("get_fs", cfg.get_checkpoint_storage)
    rec.step("get_fs.summary", lambda: storage_summary(got_fs))
    rec.step("get_fs.str", lambda: str(got_fs))
    rec.step("get_fs.str_equal", lambda: str(got_fs) == str(fs))
    rec.step("get_fs.type_is_fs", lambda: type(got_fs) is api.FileSystemCheckpointStorage)
    for label, bad in [("none", None), ("str", "file:///tmp/as-str"),
                       ("state_backend", api.HashMapStateBackend()), ("int", 5)]:
        rec.step(f"set_bad.{label}", lambda b=bad: cfg.set_checkpoint_storage(b))
        rec.step(f"set_bad.{label}.get", lambda: storage_summary(cfg.get_checkpoint_storage()))
    custom = api.CustomCheckpointStorage(None)
    rec.step("set_custom_none", lambda: cfg.set_checkpoint_storage(custom), tier="internal")
    rec.step("set_custom_none.get", lambda: storage_summary(cfg.get_checkpoint_storage()),
             tier="internal")
    rec.step("keyword", lambda: cfg.set_checkpoint_storage(storage=jm) is cfg)
    rec.step("keyword.get", lambda: storage_summary(cfg.get_checkpoint_storage()))
    rec.step("state_backend_untouched", env.get_state_backend)


def scenario_storage_dir(api: Api, rec: Recorder) -> None:
    for label, path in PATH_FORMS:
        cfg = fresh_config(api)
        rec.step(f"{label}", lambda c=cfg, p=path: c.set_checkpoint_storage_dir(p) is c)
        rec.step(f"{label}.get", lambda c=cfg: storage_summary(c.get_checkpoint_storage()))
    cfg = fresh_config(api)
    rec.step("jm_object", lambda: cfg.set_checkpoint_storage_dir(
        api.JobManagerCheckpointStorage()))
    rec.step("jm_object.get", lambda: storage_summary(cfg.get_checkpoint_storage()))
    rec.step("keyword", lambda: cfg.set_checkpoint_storage_dir(
        checkpoint_path="file:///tmp/kw-dir") is cfg)
    rec.step("keyword.get", lambda: storage_summary(cfg.get_checkpoint_storage()))
    rec.step("tmp_dir", lambda: cfg.set_checkpoint_storage_dir(api.tmp_uri("dir")) is cfg)
    rec.step("tmp_dir.get", lambda: storage_summary(cfg.get_checkpoint_storage()))


def scenario_storage_last_write_wins(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    rec.step("dir_first", lambda: cfg.set_checkpoint_storage_dir("file:///tmp/first") is cfg)
    rec.step("then_jm", lambda: cfg.set_checkpoint_storage(
        api.JobManagerCheckpointStorage("file:///tmp/second")) is cfg)
    rec.step("get_after_jm", lambda: storage_summary(cfg.get_checkpoint_storage()))
    rec.step("then_dir", lambda: cfg.set_checkpoint_storage_dir("file:///tmp/third") is cfg)
    rec.step("get_after_dir", lambda: storage_summary(cfg.get_checkpoint_storage()))
    rec.step("failed_dir", lambda: cfg.set_checkpoint_storage_dir("relative/path"))
    rec.step("get_after_failed_dir", lambda: storage_summary(cfg.get_checkpoint_storage()))
    rec.step("failed_storage", lambda: cfg.set_checkpoint_storage(None))
    rec.step("get_after_failed_storage", lambda: storage_summary(cfg.get_checkpoint_storage()))
    rec.step("other_wrapper", lambda: storage_summary(
        env.get_checkpoint_config().get_checkpoint_storage()))
    rec.step("backend_untouched", env.get_state_backend)
    rec.step("savepoint_dir_untouched", env.get_default_savepoint_directory)


def scenario_storage_vs_state_backend(api: Api, rec: Recorder) -> None:
    env = api.new_env()
    cfg = env.get_checkpoint_config()
    rec.step("set_backend", lambda: env.set_state_backend(api.HashMapStateBackend()) is env)
    rec.step("storage_after_backend", lambda: storage_summary(cfg.get_checkpoint_storage()))
    rec.step("set_storage", lambda: cfg.set_checkpoint_storage_dir("file:///tmp/sv") is cfg)
    rec.step("backend_after_storage", lambda: type(env.get_state_backend()).__name__)
    rec.step("set_memory_backend", lambda: env.set_state_backend(
        api.MemoryStateBackend("file:///tmp/mem-ckpt")) is env)
    rec.step("storage_after_memory_backend",
             lambda: storage_summary(cfg.get_checkpoint_storage()))


def scenario_storage_str(api: Api, rec: Recorder) -> None:
    jm = api.JobManagerCheckpointStorage
    fs = api.FileSystemCheckpointStorage
    rec.step("jm.default", lambda: str(jm()))
    rec.step("jm.path", lambda: str(jm("file:///tmp/s")))
    rec.step("jm.size", lambda: str(jm(max_state_size=12345)))
    rec.step("jm.format", lambda: f"{jm(max_state_size=7)}")
    rec.step("fs.str", lambda: str(fs("file:///tmp/s")))
    rec.step("fs.str_starts", lambda: str(fs("file:///tmp/s")).split("@")[0])
    rec.step("fs.repr_is_object_repr",
             lambda: repr(fs("file:///tmp/s")).startswith("<") and " object at " in repr(
                 fs("file:///tmp/s")))
    rec.step("custom.str", lambda: str(api.CustomCheckpointStorage(None)))
    rec.step("base.str", lambda: str(api.CheckpointStorage(None)))
