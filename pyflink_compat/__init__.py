"""The PyFlink 1.20.5 checkpointing API, backed by Spark Structured Streaming.

Swap ``pyflink`` for ``pyflink_compat`` in the imports of a PyFlink job: the checkpoint
configuration code stays as it is and configures the checkpoints of a pipeline written in
PySpark. Importing this package starts no JVM; the first call that needs one attaches to the
active :class:`pyspark.sql.SparkSession`, or starts a local one.
"""

__version__ = "0.1.0"
