"""Fixtures of the cluster tests: a standalone Spark cluster started for the session, and the
test run's local session built while the cluster boots."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from tests._helpers.commands import drivers  # noqa: F401 - fixture of these tests
from tests.cluster._standalone import Cluster


@pytest.fixture(scope="session")
def launched_cluster(tmp_path_factory: Any) -> Iterator[Cluster]:
    """The cluster's processes, started (not yet waited for); stopped by pid at the end."""
    launched = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield launched.launch()
    finally:
        launched.stop()


@pytest.fixture(scope="session", autouse=True)
def spark(launched_cluster: Cluster, spark: Any) -> Any:
    """The test run's local session (reads the jobs' output), built while the cluster boots."""
    return spark


@pytest.fixture(scope="session")
def cluster(launched_cluster: Cluster, spark: Any) -> Cluster:
    """A standalone Spark cluster (one master, one worker with one core) ready for jobs."""
    return launched_cluster.wait_ready()
