"""Reading JVM maps into Python: keys and values stay paired whatever text they hold."""

from __future__ import annotations

from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.settings.registry import SETTINGS_BY_NAME
from pyflink_compat.util.java_classes import java_class
from pyflink_compat.util.java_maps import map_to_dict, string_map_to_dict
from pyflink_compat.settings.store import store_of


def _j_map(entries: dict) -> object:
    j_map = java_class("java.util.LinkedHashMap")()
    for key, value in entries.items():
        j_map.put(key, value)
    return j_map


def test_a_string_map_reads_back_as_the_same_dict():
    entries = {"a": "1", "b": "", "c.d": "x y"}
    assert string_map_to_dict(_j_map(entries)) == entries


def test_an_empty_map_reads_back_as_an_empty_dict():
    assert string_map_to_dict(_j_map({})) == {}
    assert map_to_dict(_j_map({})) == {}


def test_a_value_holding_the_join_separator_keeps_keys_and_values_paired():
    entries = {"first": "\x01one\x01", "second": "two", "third": "\x01"}
    assert string_map_to_dict(_j_map(entries)) == entries


def test_a_key_holding_the_join_separator_keeps_keys_and_values_paired():
    entries = {"a\x01b": "1", "c": "2\x01", "\x01": "3"}
    assert string_map_to_dict(_j_map(entries)) == entries
    assert map_to_dict(_j_map(entries)) == entries


def test_a_savepoint_directory_holding_the_separator_leaves_the_other_settings_readable():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(1234)
    env.set_default_savepoint_directory("file:///tmp/\x01sp\x01")
    env.get_checkpoint_config().set_checkpoint_timeout(4321)
    settings = store_of(env).snapshot()
    assert env.get_checkpoint_interval() == 1234
    assert env.get_checkpoint_config().get_checkpoint_timeout() == 4321
    assert env.get_default_savepoint_directory() == "file:/tmp/\x01sp\x01"
    assert settings.savepoint_dir.endswith("/tmp/\x01sp\x01")
    assert settings.checkpoint_interval == store_of(env).get(SETTINGS_BY_NAME["checkpoint_interval"], "")


def test_text_with_backslashes_and_line_breaks_reaches_the_jvm_conf_unchanged():
    from pyflink_compat.util.py4j_calls import StringCalls

    env = StreamExecutionEnvironment.get_execution_environment()
    call = StringCalls(env.spark_session._jsparkSession.conf())
    for text in ["C:\\dir\\n", "two\nlines\r\n", "\\\\n", "", "tab\there", "ünïcode €"]:
        call("set", "spark.flink.test.text", text)
        assert call("get", "spark.flink.test.text") == text
        assert env.spark_session.conf.get("spark.flink.test.text") == text
    call("unset", "spark.flink.test.text")
    assert call("getOption", "spark.flink.test.text").isEmpty()
