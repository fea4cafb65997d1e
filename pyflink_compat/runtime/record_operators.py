"""What one record becomes through a run of per-record operators (``map``, ``flat_map``,
``filter``, ``process`` without timers, ``key_by``...): the step shared by a chain's Python stage
and a keyed function that runs the operators after it on each of its outputs; and the opening of
their rich functions."""

from __future__ import annotations

from typing import Any, Iterator, List, Optional, Tuple

from pyflink_compat.runtime.graph import KEY_BY
from pyflink_compat.runtime.records import LONG_MIN, conform, is_side, is_tagged, key_bytes, side_key

__all__ = ["apply_values", "open_all"]


def apply_values(ops: List[Tuple[str, Any, Any]], value: Any, ts: Optional[int], seq: List[int],
                 k: Optional[bytes] = None) -> List[Tuple[Any, Any, Any, Any]]:
    """The records (value, timestamp, order, key) that one record's value becomes through a
    run of per-record operators."""
    records = [(value, ts, seq, k)]
    for kind, function, output_type in ops:
        records = list(_apply(kind, function, output_type, records))
    return records


#: The method of a function object that each operator calls.
_METHODS = {"map": "map", "flat_map": "flat_map", "filter": "filter", KEY_BY: "get_key"}


#: ``pyflink_compat.datastream.functions.Function``, once imported (operators ask per record).
_FUNCTION: List[Any] = []


def _function_class() -> Any:
    if not _FUNCTION:
        from pyflink_compat.datastream.functions import Function

        _FUNCTION.append(Function)
    return _FUNCTION[0]


def _apply(kind: str, function: Any, output_type: Any, records: List[Tuple[Any, Any, Any, Any]]) \
        -> Iterator[Tuple[Any, Any, Any, Any]]:
    if isinstance(function, _function_class()) and kind in _METHODS:
        function = getattr(function, _METHODS[kind])
    for value, ts, seq, k in records:
        if is_side(k):  # a side output's record passes the operators after its own
            yield value, ts, seq, k
            continue
        if kind == "map":
            yield conform(function(value), output_type), ts, seq, k
        elif kind == "flat_map":
            produced = function(value)
            for index, item in enumerate(produced if produced is not None else ()):
                yield conform(item, output_type), ts, seq + [index], k
        elif kind == "filter":
            if function(value):
                yield value, ts, seq, k
        elif kind == "process":
            produced = function.process_element(value, _ProcessContext(ts))
            for index, item in enumerate(produced if produced is not None else ()):
                if is_tagged(item):
                    yield conform(item[1], item[0].type_info), ts, seq + [index], side_key(item[0].tag_id)
                    continue
                yield conform(item, output_type), ts, seq + [index], k
        elif kind == "input":  # a connected stream's input: its records go first by input
            yield (function, value), ts, [function] + seq, k
        elif kind == "replicate":  # a broadcast record, once per state partition
            for reserved in function.keys:
                yield value, ts, seq, reserved
        elif kind == "timestamps":
            assigner = function._timestamp_assigner
            if assigner is not None:
                ts = int(assigner.extract_timestamp(value, LONG_MIN if ts is None else ts))
            yield value, ts, seq, k
        elif kind == "project":
            yield conform(tuple(value[i] for i in function), output_type), ts, seq, k
        elif kind == KEY_BY:
            yield value, ts, seq, key_bytes(function(value))
        else:
            raise ValueError("Unknown operator %r" % kind)


class _ProcessContext(object):
    """The context a ``ProcessFunction`` sees for one record."""

    def __init__(self, ts: Optional[int]):
        self._ts = ts

    def timestamp(self) -> Optional[int]:
        return self._ts

    def timer_service(self) -> Any:
        return _NoTimers()


class _NoTimers(object):
    def current_processing_time(self) -> int:
        import time

        return int(time.time() * 1000)

    def current_watermark(self) -> int:
        return LONG_MIN

    def __getattr__(self, name: str) -> Any:
        def refuse(*args: Any) -> Any:
            raise RuntimeError("Setting timers is only supported on a keyed streams.")
        return refuse


def open_all(functions: List[Any]) -> List[Any]:
    """Open the rich functions among ``functions`` (with a context of no keyed state); those
    opened, to be closed."""
    from pyflink_compat.datastream.functions import Function

    opened = []
    for function in functions:
        if isinstance(function, Function):
            function.open(_StatelessContext())  # type: ignore[arg-type]
            opened.append(function)
    return opened


class _StatelessContext(object):
    """The runtime context of a per-record function (it has no keyed state)."""

    def get_index_of_this_subtask(self) -> int:
        from pyspark import TaskContext

        context = TaskContext.get()
        return int(context.partitionId()) if context is not None else 0

    def get_number_of_parallel_subtasks(self) -> int:
        return 1

    def get_task_name(self) -> str:
        return "Map"

    def get_attempt_number(self) -> int:
        return 0

    def get_job_parameter(self, key: str, default_value: str) -> str:
        return default_value

    def __getattr__(self, name: str) -> Any:
        if name.startswith("get_") and name.endswith("state"):
            def no_state(*args: Any) -> Any:
                raise RuntimeError("Keyed state can only be used on a 'keyed stream', i.e., after a "
                                   "'keyBy()' operation.")
            return no_state
        raise AttributeError(name)
