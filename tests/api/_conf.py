"""Reading a session's whole conf the same way on pyspark 3.5 and 4.x."""

from __future__ import annotations

from typing import Any, Dict

from pyflink_compat.settings.store import read_all_entries


def conf_of(env: Any) -> Dict[str, str]:
    """Every entry of the Spark session conf of ``env``."""
    return read_all_entries(env.spark_session._jsparkSession.conf())
