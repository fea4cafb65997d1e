"""The operators of a query's analyzed plan, read from the JVM in one walk before it starts.

Whether a query keeps state and which streaming sources it reads (in the order of its
checkpoint's offsets) both come from its analyzed plan. Rendering that plan as text costs more
in a fresh JVM than asking each node for its name, so :func:`plan_nodes` walks the tree once
(its children and the plans nested in its expressions) and keeps the answer for the writer.
"""

from __future__ import annotations

import re
import weakref
from typing import Any, List, Tuple

import attrs

__all__ = ["PlanNodes", "plan_nodes", "STATEFUL_NODES"]

#: Operators that keep state across micro-batches (a limit keeps the count it has emitted).
STATEFUL_NODES = frozenset((
    "Aggregate", "Deduplicate", "DeduplicateWithinWatermark", "FlatMapGroupsWithState",
    "TransformWithState", "FlatMapGroupsInPandasWithState", "GlobalLimit", "Join"))

_IDS = re.compile(r"#\d+L?|@[0-9a-f]{4,}")
_known: "weakref.WeakKeyDictionary[Any, PlanNodes]" = weakref.WeakKeyDictionary()


@attrs.frozen
class PlanNodes:
    """What the walk found.

    :param streaming_sources: One line per streaming source, in plan order, without the
        expression ids and object hashes that change from one process to the next.
    :param stateful: Whether an operator keeps state: one of :data:`STATEFUL_NODES` over
        streaming input (the same operator over static data only runs once per batch).
    """

    streaming_sources: Tuple[str, ...]
    stateful: bool


def _items(j_seq: Any) -> List[Any]:
    found = []
    iterator = j_seq.iterator()
    while iterator.hasNext():
        found.append(iterator.next())
    return found


def _walk(j_plan: Any) -> PlanNodes:
    sources: List[str] = []
    stateful = False
    # (node, whether it is on the plan's own tree, where its sources count)
    stack: List[Tuple[Any, bool]] = [(j_plan, True)]
    while stack:
        node, own_tree = stack.pop()
        name = str(node.nodeName())
        if not stateful and name in STATEFUL_NODES:
            stateful = bool(node.isStreaming())
        children = _items(node.children())
        if own_tree and not children and "Streaming" in name:
            sources.append(_IDS.sub("", str(node.simpleString(200))))
        nested = _items(node.innerChildren())
        # pushed in reverse, so that the first child is walked first
        stack.extend((child, False) for child in reversed(nested))
        stack.extend((child, own_tree) for child in reversed(children))
    return PlanNodes(tuple(sources), stateful)


def plan_nodes(writer: Any) -> PlanNodes:
    """The operators of the query behind a PySpark ``DataStreamWriter`` (walked once per
    writer: a writer's DataFrame does not change).

    :raises Exception: whatever the JVM raises when the plan cannot be read.
    """
    try:
        return _known[writer]
    except (KeyError, TypeError):
        pass
    found = _walk(writer._df._jdf.queryExecution().analyzed())
    try:
        _known[writer] = found
    except TypeError:  # not weakly referable: walked again next time
        pass
    return found
