"""The one table of PyFlink APIs that are declared but not supported, with the PySpark way.

Keys are PyFlink names: a class (``Types``), a method (``StreamExecutionEnvironment.from_source``)
or a module path (``pyflink.datastream.connectors.kafka``). A lookup tries the exact name,
then its class, then the longest matching module prefix.
"""

from __future__ import annotations

from typing import Dict

__all__ = ["HINTS", "hint_for", "DEFAULT_HINT"]

DEFAULT_HINT = ("Write this part of the pipeline with PySpark (Structured Streaming) from "
                "env.spark_session.")

HINTS: Dict[str, str] = {
    "Types": "Declare the schema with pyspark.sql.types (StructType, StringType, ...).",
    "WatermarkStrategy": "Use DataFrame.withWatermark(column, delay) on the streaming DataFrame.",
    "StreamExecutionEnvironment.from_source":
        "Read the source with spark.readStream (for example spark.readStream.format(\"kafka\")).",
    "TableEnvironment.execute_sql": "Run SQL with spark.sql(...) on views of streaming DataFrames.",
}


def hint_for(api: str) -> str:
    """The PySpark way for ``api``, or :data:`DEFAULT_HINT`."""
    if api in HINTS:
        return HINTS[api]
    owner = api.rsplit(".", 1)[0] if "." in api else None
    if owner is not None and owner in HINTS:
        return HINTS[owner]
    prefix = api
    while "." in prefix:
        prefix = prefix.rsplit(".", 1)[0]
        if prefix in HINTS:
            return HINTS[prefix]
    return DEFAULT_HINT
