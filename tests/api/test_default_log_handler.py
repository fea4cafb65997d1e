"""The job log stays apart from the application's logging: on standard error unless the application
configured the ``pyflink_compat`` logger itself, never through the application's root handlers."""

from __future__ import annotations

import io
import logging
from typing import Any, Iterator

import pytest

from pyflink_compat import _logging


class Stderr:
    """What the code under test wrote to standard error so far."""

    def __init__(self, capsys: Any) -> None:
        self._capsys = capsys
        self._text = ""

    def getvalue(self) -> str:
        self._text += self._capsys.readouterr().err
        return self._text


@pytest.fixture
def bare_logging(capsys: Any) -> Iterator[Stderr]:
    """Logging as a plain script has it: no handlers (not even pytest's own), no levels set."""
    root = logging.getLogger()
    package = logging.getLogger(_logging.LOGGER_NAME)
    saved = (root.handlers, root.level, package.handlers, package.level, package.propagate)
    _logging.remove_default_handler()
    package.handlers = []
    root.setLevel(logging.WARNING)
    package.setLevel(logging.NOTSET)
    package.propagate = False
    yield Stderr(capsys)
    _logging.remove_default_handler()
    root.handlers, package.handlers = saved[0], saved[2]
    root.setLevel(saved[1])
    package.setLevel(saved[3])
    package.propagate = saved[4]


def plain_script() -> None:
    """Remove the handlers pytest's log capture adds for the test body (to the root logger and to
    every logger that does not propagate): a script has none."""
    logging.getLogger().handlers = []
    logging.getLogger(_logging.LOGGER_NAME).handlers = []


def test_a_plain_script_sees_the_job_log_at_info(bare_logging: Stderr) -> None:
    plain_script()
    assert _logging.install_default_handler() is True
    logging.getLogger("pyflink_compat.job").info("Job orders: completed checkpoint %d", 1)
    assert "INFO pyflink_compat.job: Job orders: completed checkpoint 1" in bare_logging.getvalue()


def test_a_multi_line_info_message_is_printed_as_its_first_line(bare_logging: Stderr) -> None:
    plain_script()
    _logging.install_default_handler()
    logging.getLogger("pyflink_compat.job").info("Starting job orders\nplan line 1\nplan line 2")
    logging.getLogger("pyflink_compat.job").warning("a failure\nwith its cause")
    lines = bare_logging.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0].endswith("Starting job orders")
    assert lines[2] == "with its cause"


def test_installing_twice_adds_one_handler(bare_logging: Stderr) -> None:
    plain_script()
    _logging.install_default_handler()
    _logging.install_default_handler()
    logging.getLogger("pyflink_compat.job").info("once")
    assert bare_logging.getvalue().count("once") == 1
    assert len(logging.getLogger(_logging.LOGGER_NAME).handlers) == 1


def test_an_application_logging_to_standard_output_gets_none_of_the_job_log(bare_logging: Stderr) -> None:
    plain_script()
    application = io.StringIO()
    logging.basicConfig(stream=application, level=logging.INFO, format="%(message)s")
    assert _logging.install_default_handler() is True
    logging.getLogger("pyflink_compat.job").info("Job orders: completed checkpoint 1")
    logging.getLogger("app").info("the application's own record")
    assert application.getvalue() == "the application's own record\n"
    assert "completed checkpoint 1" in bare_logging.getvalue()


def test_nothing_is_installed_when_the_application_gave_the_package_logger_a_handler(
        bare_logging: Stderr) -> None:
    plain_script()
    mine = io.StringIO()
    logging.getLogger(_logging.LOGGER_NAME).addHandler(logging.StreamHandler(mine))
    assert _logging.install_default_handler() is False
    logging.getLogger("pyflink_compat.job").warning("to the application's handler")
    assert mine.getvalue() == "to the application's handler\n"
    assert bare_logging.getvalue() == ""


def test_py4j_info_lines_are_held_back_as_in_pyflink_unless_the_application_set_their_level(
        bare_logging: Stderr) -> None:
    gateway, clientserver = logging.getLogger("py4j.java_gateway"), logging.getLogger("py4j.clientserver")
    saved = (gateway.level, clientserver.level)
    try:
        gateway.setLevel(logging.NOTSET)
        clientserver.setLevel(logging.DEBUG)
        _logging.quiet_py4j()
        assert (gateway.level, clientserver.level) == (logging.WARNING, logging.DEBUG)
    finally:
        gateway.setLevel(saved[0])
        clientserver.setLevel(saved[1])


def test_nothing_is_installed_when_the_application_set_the_package_level(bare_logging: Stderr) -> None:
    plain_script()
    logging.getLogger(_logging.LOGGER_NAME).setLevel(logging.ERROR)
    assert _logging.install_default_handler() is False
    logging.getLogger("pyflink_compat.job").info("hidden")
    assert bare_logging.getvalue() == ""


def test_the_handler_steps_aside_once_the_application_routes_the_job_log_to_its_own_logging(
        bare_logging: Stderr) -> None:
    plain_script()
    _logging.install_default_handler()
    application = io.StringIO()
    logging.getLogger().addHandler(logging.StreamHandler(application))
    logging.getLogger(_logging.LOGGER_NAME).propagate = True
    logging.getLogger("pyflink_compat.job").info("first record after the application's set-up")
    assert "first record" not in bare_logging.getvalue()  # printed by the application only
    assert application.getvalue().count("first record") == 1
    assert logging.getLogger(_logging.LOGGER_NAME).handlers == []
    assert logging.getLogger(_logging.LOGGER_NAME).level == logging.NOTSET
    logging.getLogger("pyflink_compat.job").info("an INFO record the application's WARNING level hides")
    assert "hides" not in application.getvalue()
