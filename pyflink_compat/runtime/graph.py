"""The graph of a DataStream job: each operator call of the API adds one :class:`Node`.

Nodes are plain values; the Spark plan is built from them when a sink is added
(:func:`pyflink_compat.runtime.plan.build_sink`).
"""

from __future__ import annotations

import itertools
from typing import Any, List, Optional, Tuple

__all__ = ["Node", "SOURCE", "CHAIN", "KEY_BY", "KEYED", "UNION", "SIDE", "STATELESS_KINDS"]

#: A bounded collection of values.
SOURCE = "source"
#: A per-record operator (map, flat_map, filter, process, timestamps, project).
CHAIN = "chain"
#: Gives each record its key.
KEY_BY = "key_by"
#: A keyed function with state and timers (reduce, sum..., KeyedProcessFunction).
KEYED = "keyed"
#: Several streams as one.
UNION = "union"
#: The side output (the op: its tag) of the operator before it.
SIDE = "side"

#: The per-record operators a chain node may hold.
STATELESS_KINDS = ("map", "flat_map", "filter", "process", "timestamps", "project", "input",
                   "replicate")

_ids = itertools.count(1)


class Node(object):
    """One operator of the graph.

    :param env: The environment the job is built in.
    :param kind: One of :data:`SOURCE`, :data:`CHAIN`, :data:`KEY_BY`, :data:`KEYED`,
        :data:`UNION`.
    :param parents: The nodes feeding this one.
    :param op: What the operator does: for a chain ``(name, function)``; for a source the
        values; for key_by the key selector; for a keyed node the function.
    :param output_type: The declared type of the records (``None``: pickled objects).
    """

    def __init__(self, env: Any, kind: str, parents: Tuple['Node', ...], op: Any,
                 output_type: Any = None, name: Optional[str] = None):
        self.env = env
        self.kind = kind
        self.parents = parents
        self.op = op
        self.output_type = output_type
        self.id = next(_ids)
        self.name = name or "{}-{}".format(kind, self.id)
        self.uid: Optional[str] = None
        self.parallelism: Optional[int] = None

    def ancestors(self) -> List['Node']:
        """This node and every node before it."""
        seen: List[Node] = []
        stack = [self]
        while stack:
            node = stack.pop()
            if node not in seen:
                seen.append(node)
                stack.extend(node.parents)
        return seen

    def has_event_time(self) -> bool:
        """Whether a timestamp assigner, or a table with a time attribute, precedes this node."""
        return any((n.kind == CHAIN and n.op[0] == "timestamps") or _table_watermark(n) is not None
                   for n in self.ancestors())

    def watermark_delay_ms(self) -> int:
        """The out-of-orderness of the nearest watermark strategy (or table watermark) before
        this node."""
        for node in self.ancestors():
            if node.kind == CHAIN and node.op[0] == "timestamps":
                delay = node.op[1]._out_of_orderness_ms
                return int(delay or 0)
            table_delay = _table_watermark(node)
            if table_delay is not None:
                return table_delay
        return 0


def _table_watermark(node: Node) -> Optional[int]:
    """The watermark delay of a table's rows read as a stream (``to_data_stream``)."""
    if node.kind != SOURCE:
        return None
    delay = getattr(node.op, "watermark_delay_ms", None)
    return None if delay is None else int(delay)
