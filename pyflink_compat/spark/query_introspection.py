"""What Spark tells about a query before it starts, read from its ``DataStreamWriter``.

* :func:`sink_format` and :func:`sink_path` read the writer's sink format and output path by
  reflection.
* The operators of the query's analyzed plan, read from the JVM in one walk: whether the query
  keeps state (:func:`is_stateful`) and which streaming sources it reads, in the order of its
  checkpoint's offsets. Rendering that plan as text costs more in a fresh JVM than asking each
  node for its name, so :func:`plan_nodes` walks the tree once (its children and the plans
  nested in its expressions) and keeps the answer for the writer.
* :func:`sources_bounded` reads the leaves of the analyzed plan to tell whether every source
  is a file source.
"""

from __future__ import annotations

import re
import weakref
from typing import Any, List, Optional, Tuple

import attrs

__all__ = ["PlanNodes", "plan_nodes", "STATEFUL_NODES", "sink_format", "sink_path", "is_stateful",
           "sources_bounded"]

#: Operators that keep state across micro-batches (a limit keeps the count it has emitted).
STATEFUL_NODES = frozenset((
    "Aggregate", "Deduplicate", "DeduplicateWithinWatermark", "FlatMapGroupsWithState",
    "TransformWithState", "FlatMapGroupsInPandasWithState", "GlobalLimit", "Join",
    # Python's transformWithState (Spark 4.1 and later; 4.0 named it ...InPandas)
    "TransformWithStateInPySpark", "TransformWithStateInPandas"))

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


def sink_format(writer: Any) -> Optional[str]:
    """The format of a PySpark ``DataStreamWriter`` (read from the JVM object)."""
    try:
        j_writer = writer._jwrite
        field = j_writer.getClass().getDeclaredField("source")
        field.setAccessible(True)
        value = field.get(j_writer)
        return None if value is None else str(value).lower()
    except Exception:
        return None


def sink_path(writer: Any) -> Optional[str]:
    """The output path of a PySpark ``DataStreamWriter`` (its ``path`` option), or ``None``
    when it has none or it cannot be read."""
    try:
        j_writer = writer._jwrite
        field = j_writer.getClass().getDeclaredField("extraOptions")
        field.setAccessible(True)
        option = field.get(j_writer).get("path")
        return str(option.get()) if option.isDefined() else None
    except Exception:  # no readable path
        return None


def is_stateful(writer: Any) -> bool:
    """Whether the query behind a writer keeps state (aggregation, deduplication, join...)."""
    try:
        return plan_nodes(writer).stateful
    except Exception:
        return True


def sources_bounded(writer: Any) -> Optional[bool]:
    """Whether every source of the query behind ``writer`` is bounded, as far as Spark tells.

    File sources (``spark.readStream.text/csv/json/parquet...``) are bounded: their files are
    listed when a batch starts. Any other streaming source is taken as unbounded. ``None``
    when the plan cannot be read.
    """
    try:
        leaves = writer._df._jdf.queryExecution().analyzed().collectLeaves()
        streaming = []
        for index in range(int(leaves.size())):
            leaf = leaves.apply(index)
            if bool(leaf.isStreaming()):
                streaming.append(str(leaf.toString()))
    except Exception:
        return None
    if not streaming:
        return None
    # A file stream source's relation shows as FileSource[<path>].
    return all(text.startswith("FileSource[") for text in streaming)
