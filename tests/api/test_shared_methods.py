"""Methods written once for several classes: each class has its own copy and PyFlink's bases."""

from pyflink_compat.datastream import EmbeddedRocksDBStateBackend, RocksDBStateBackend, StreamExecutionEnvironment
from pyflink_compat.datastream.state_backend import StateBackend

ROCKSDB_SETTINGS = ["set_db_storage_paths", "get_db_storage_paths", "is_incremental_checkpoints_enabled",
                    "set_predefined_options", "get_predefined_options", "set_options", "get_options"]


def test_both_rocksdb_backends_keep_pyflinks_bases_and_have_the_shared_settings_as_their_own():
    for cls in (EmbeddedRocksDBStateBackend, RocksDBStateBackend):
        assert cls.__mro__ == (cls, StateBackend, object)
        for name in ROCKSDB_SETTINGS:
            assert name in vars(cls)
            assert vars(cls)[name].__qualname__ == "{}.{}".format(cls.__name__, name)
            assert vars(cls)[name].__module__ == cls.__module__
    assert EmbeddedRocksDBStateBackend.set_options is not RocksDBStateBackend.set_options


def test_the_environment_keeps_object_as_its_only_base_and_names_its_installed_methods():
    assert StreamExecutionEnvironment.__mro__ == (StreamExecutionEnvironment, object)
    assert StreamExecutionEnvironment.set_parallelism.__qualname__ == "StreamExecutionEnvironment.set_parallelism"
