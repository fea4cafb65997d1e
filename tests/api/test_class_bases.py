"""The classes PyFlink defines whole are whole here too: PyFlink's bases, and every method
defined in the class's own body, in the module PyFlink has it in."""

from pyflink_compat.datastream import (
    CheckpointConfig,
    EmbeddedRocksDBStateBackend,
    RocksDBStateBackend,
    StreamExecutionEnvironment,
)
from pyflink_compat.datastream.state_backend import StateBackend

ROCKSDB_SETTINGS = ["set_db_storage_paths", "get_db_storage_paths", "is_incremental_checkpoints_enabled",
                    "set_predefined_options", "get_predefined_options", "set_options", "get_options"]


def _defined_in_its_body(cls, name):
    method = vars(cls)[name]
    return method.__qualname__ == "{}.{}".format(cls.__name__, name) and method.__module__ == cls.__module__


def test_both_rocksdb_backends_keep_pyflinks_bases_and_define_the_rocksdb_settings_themselves():
    for cls in (EmbeddedRocksDBStateBackend, RocksDBStateBackend):
        assert cls.__mro__ == (cls, StateBackend, object)
        for name in ROCKSDB_SETTINGS:
            assert _defined_in_its_body(cls, name)
    assert EmbeddedRocksDBStateBackend.set_options is not RocksDBStateBackend.set_options


def test_the_environment_and_the_checkpoint_config_keep_object_as_their_only_base():
    for cls in (StreamExecutionEnvironment, CheckpointConfig):
        assert cls.__mro__ == (cls, object)
    assert _defined_in_its_body(StreamExecutionEnvironment, "set_parallelism")
    assert _defined_in_its_body(StreamExecutionEnvironment, "execute")
    assert _defined_in_its_body(CheckpointConfig, "set_checkpoint_storage")
