"""The PyFlink 1.20.5 checkpointing API, backed by Spark Structured Streaming.

Swap ``pyflink`` for ``pyflink_compat`` in the imports of a PyFlink job: the checkpoint
configuration code stays as it is and configures the checkpoints of a pipeline written in
PySpark. Importing this package starts no JVM; the first call that needs one attaches to the
active :class:`pyspark.sql.SparkSession`, or starts a local one.
"""

import pyflink_compat._logging  # noqa: F401  (the job log stays apart from the application's)
from pyflink_compat.missing.declared import declared_function
from pyflink_compat._reexports import with_reexports

__version__ = "0.1.0"

# PyFlink's decorators for its own docstrings and signatures.
add_version_doc = declared_function(__name__, 'add_version_doc')
keyword = declared_function(__name__, 'keyword')

# The subpackages are attributes of the package, as in PyFlink, without importing them here.
__getattr__ = with_reexports(__name__)
