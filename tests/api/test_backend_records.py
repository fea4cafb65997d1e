"""A backend made here is set without reading it back from the JVM, and every change made to it
afterwards is what an environment then stores."""

from __future__ import annotations

from pyflink_compat.datastream import (
    EmbeddedRocksDBStateBackend,
    PredefinedOptions,
    RocksDBStateBackend,
    StreamExecutionEnvironment,
)


def _stored(backend):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_state_backend(backend)
    env._j_state_backend = None  # read the stored record, not the shared JVM object
    return env.get_state_backend()


def test_each_change_to_an_embedded_rocksdb_backend_is_stored(tmp_path):
    backend = EmbeddedRocksDBStateBackend(True)
    assert _stored(backend).get_number_of_transfer_threads() == 4
    backend.set_number_of_transfer_threads(7)
    assert _stored(backend).get_number_of_transfer_threads() == 7
    backend.set_predefined_options(PredefinedOptions.SPINNING_DISK_OPTIMIZED)
    assert _stored(backend).get_predefined_options() == PredefinedOptions.SPINNING_DISK_OPTIMIZED
    backend.set_db_storage_paths(str(tmp_path / "a"), str(tmp_path / "b"))
    assert _stored(backend).get_db_storage_paths() == [str(tmp_path / "a"), str(tmp_path / "b")]
    backend.set_db_storage_paths()
    assert _stored(backend).get_predefined_options() == PredefinedOptions.SPINNING_DISK_OPTIMIZED
    backend.set_options("org.apache.flink.contrib.streaming.state.DefaultConfigurableOptionsFactory")
    assert _stored(backend).get_options() == \
        "org.apache.flink.contrib.streaming.state.DefaultConfigurableOptionsFactory"


def test_a_change_through_another_wrapper_of_the_same_backend_is_stored():
    env = StreamExecutionEnvironment.get_execution_environment()
    backend = EmbeddedRocksDBStateBackend(True)
    env.set_state_backend(backend)
    env.get_state_backend().set_number_of_transfer_threads(9)  # wraps the same JVM object
    assert _stored(backend).get_number_of_transfer_threads() == 9


def test_each_change_to_a_legacy_rocksdb_backend_is_stored(tmp_path):
    backend = RocksDBStateBackend("file://" + str(tmp_path / "cp"), True)
    backend.set_number_of_transfering_threads(5)
    assert _stored(backend).get_number_of_transfering_threads() == 5


def test_the_text_stored_for_a_backend_made_here_is_the_json_of_what_its_jvm_object_holds():
    import json

    from pyflink_compat.util.descriptors import descriptor_json, descriptor_record

    env = StreamExecutionEnvironment.get_execution_environment()
    backend = EmbeddedRocksDBStateBackend(True)
    env.set_state_backend(backend)
    env.get_job_plan()  # sends the held record to the JVM conf
    stored = env.spark_session.conf.get("spark.flink.object.state-backend")
    assert stored == descriptor_json(backend._j_state_backend)
    assert json.loads(stored) == descriptor_record(backend._j_state_backend)
    backend.set_number_of_transfer_threads(5)  # the known text no longer describes it
    assert descriptor_json(backend._j_state_backend) is None
    env.set_state_backend(backend)
    env.get_job_plan()
    assert json.loads(env.spark_session.conf.get("spark.flink.object.state-backend"))[
        "number_of_transfer_threads"] == 5
