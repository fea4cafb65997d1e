"""A ``map``, ``flat_map`` or ``filter`` of a keyed stream whose function opens keyed state.

In Flink such a function reads and writes the state of each record's key; here it runs as a
keyed function (:class:`~pyflink_compat.runtime.keyed.KeyedProcessor`), one output per record
for ``map``, as many as it gives for ``flat_map``, the record itself when ``filter`` keeps it.
"""

from __future__ import annotations

from typing import Any, Iterator

from pyflink_compat.datastream.functions import Function, KeyedProcessFunction, RuntimeContext

__all__ = ["KeyedRecordFunction", "opens_state"]


def opens_state(function: Any) -> bool:
    """Whether ``function`` is a rich function with its own ``open`` (which may ask the
    runtime context for keyed state)."""
    return isinstance(function, Function) and type(function).open is not Function.open


class KeyedRecordFunction(KeyedProcessFunction):
    """``function``'s ``kind`` (``map``, ``flat_map``, ``filter``) as a keyed function."""

    def __init__(self, kind: str, function: Function):
        self.kind = kind
        self.function = function

    def open(self, runtime_context: RuntimeContext) -> None:
        self.function.open(runtime_context)

    def close(self) -> None:
        self.function.close()

    def process_element(self, value: Any, ctx: Any) -> Iterator[Any]:
        if self.kind == "map":
            yield self.function.map(value)  # type: ignore[attr-defined]
        elif self.kind == "flat_map":
            produced = self.function.flat_map(value)  # type: ignore[attr-defined]
            if produced is not None:
                yield from produced
        elif self.function.filter(value):  # type: ignore[attr-defined]
            yield value
