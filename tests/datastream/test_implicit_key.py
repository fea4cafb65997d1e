"""The private PySpark API that broadcast state reads another key's state with
(:mod:`pyflink_compat.spark.implicit_key`): these tests fail as soon as a pyspark release
renames or reshapes it, before any job misreads its broadcast state (the broadcast job of
``test_broadcast_state.py`` reads through it on a running query)."""

from __future__ import annotations

import inspect
from typing import Tuple

import pytest


def test_pysparks_processor_handle_keeps_its_state_client_where_broadcast_state_reads_it():
    pytest.importorskip("pyspark.sql.streaming.stateful_processor_api_client")
    from pyspark.sql.streaming.stateful_processor import StatefulProcessorHandle
    from pyspark.sql.streaming.stateful_processor_api_client import StatefulProcessorApiClient

    from pyflink_compat.spark.implicit_key import CLIENT_ATTRIBUTE, state_client

    assert list(inspect.signature(StatefulProcessorApiClient.set_implicit_key).parameters) == ["self", "key"]
    # a rescaled restore seeds broadcast state in the processor's init, then leaves no key set
    assert list(inspect.signature(StatefulProcessorApiClient.remove_implicit_key).parameters) == ["self"]

    class Client(object):
        def set_implicit_key(self, key: Tuple) -> None:
            pass

    client = Client()
    handle = StatefulProcessorHandle(client)  # type: ignore[arg-type]
    assert getattr(handle, CLIENT_ATTRIBUTE) is client
    assert state_client(handle) is client


def test_a_handle_without_the_private_client_fails_naming_it():
    from pyflink_compat.spark.implicit_key import state_client

    with pytest.raises(RuntimeError, match="_statefulProcessorApiClient.set_implicit_key"):
        state_client(object())
