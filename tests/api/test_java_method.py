"""A mirrored Java method, declared once, checks arguments and fails as py4j does."""

from __future__ import annotations

import pytest

from pyflink_compat.util.exceptions import JavaMethodNotFoundError
from pyflink_compat.util.java_args import JavaMethod
from pyflink_compat.util.java_limits import INT_MAX, LONG_MAX


def test_a_declared_method_names_its_call_as_errors_do():
    assert JavaMethod("CheckpointConfig", "setCheckpointTimeout", ("long",)).target == \
        "CheckpointConfig.setCheckpointTimeout"


@pytest.mark.parametrize("kind, value, expected", [
    ("long", LONG_MAX, LONG_MAX), ("int", INT_MAX, INT_MAX), ("boolean", True, True),
    ("String", "file:///x", "file:///x")])
def test_an_argument_the_parameter_accepts_is_returned(kind, value, expected):
    assert JavaMethod("Owner", "call", (kind,)).arg(value) == expected


@pytest.mark.parametrize("kind, value", [
    ("long", LONG_MAX + 1), ("int", INT_MAX + 1), ("int", True), ("boolean", 1), ("String", 5),
    ("String", None)])
def test_an_argument_the_parameter_refuses_fails_as_a_missing_overload(kind, value):
    with pytest.raises(JavaMethodNotFoundError):
        JavaMethod("Owner", "call", (kind,)).arg(value)


def test_a_rejected_value_is_reported_as_pyflink_words_it_without_stack_frames_of_py4j():
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.util.exceptions import JavaIllegalArgumentError

    config = StreamExecutionEnvironment.get_execution_environment().get_checkpoint_config()
    with pytest.raises(JavaIllegalArgumentError) as raised:
        config.set_checkpoint_interval(5)
    assert str(raised.value) == ("An error occurred while calling CheckpointConfig.setCheckpointInterval.\n"
                                 ": java.lang.IllegalArgumentException: Checkpoint interval must be larger than "
                                 "or equal to 10 ms\n")
    assert raised.value.java_exception.getMessage() == "Checkpoint interval must be larger than or equal to 10 ms"
