"""Fixtures of the Table API / SQL tests: table environments over the test run's Spark session,
closed (their jobs cancelled) when each test ends."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import pytest

from tests._helpers.jobs import job_temp_dir, make_env  # noqa: F401 - fixtures of these tests


@pytest.fixture
def t_env(make_env: Callable[..., Any], spark: Any) -> Iterator[Any]:  # noqa: F811
    """A ``StreamTableEnvironment`` over a fresh environment, in streaming mode."""
    from pyflink_compat.table import EnvironmentSettings, StreamTableEnvironment

    env = make_env()
    yield StreamTableEnvironment.create(env, EnvironmentSettings.in_streaming_mode())


@pytest.fixture
def in_dir(tmp_path: Any, monkeypatch: Any) -> Any:
    """The test's directory as the working directory, with the words file of the recorded jobs."""
    (tmp_path / "in.csv").write_text("a,1\nb,2\na,3\nc,4\na,5\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path
