"""The shape of a query's pipeline, as far as its checkpoint can be checked against it.

A Spark checkpoint records one offset per source (in the order of the plan's sources) and
state per stateful operator. :func:`pipeline_shape` reads the matching facts from the query's
analyzed plan before it starts, and the marker keeps them with each directory a run creates, so
that a different pipeline started under the same job name is refused before it runs (see
:func:`pyflink_compat.spark.rules.checkpoint_misfit`).
"""

from __future__ import annotations

import re
from typing import Any, Dict, List

from pyflink_compat.spark.plan import QueryPlan
from pyflink_compat.spark.query_introspection import plan_nodes

__all__ = ["pipeline_shape", "source_descriptions"]


def source_descriptions(writer: Any) -> List[str]:
    """One line per streaming source of the writer's query, in plan order, without the
    expression ids and object hashes that change from one process to the next."""
    return list(plan_nodes(writer).streaming_sources)


def _kind(description: str) -> str:
    """The part of a source description that names its kind (``StreamingRelation FileSource``)."""
    return re.split(r"[\[,(]", description, maxsplit=1)[0].strip()


def pipeline_shape(writer: Any, plan: QueryPlan) -> Dict[str, Any]:
    """What the marker records about a query's pipeline: its sources (kinds and descriptions),
    whether it keeps state, and its sink format."""
    try:
        sources = source_descriptions(writer)
    except Exception:  # a writer without a readable plan: nothing to compare
        sources = []
    return {"sources": [_kind(s) for s in sources], "source_descriptions": sources,
            "stateful": plan.stateful, "format": plan.sink_format}
