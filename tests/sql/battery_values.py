"""Values of the SQL battery in a comparable, JSON-storable form, the same for the values PyFlink
and PySpark give in Python (no import of either)."""

from __future__ import annotations

import datetime
import decimal
import math
from typing import Any


def normalize(value: Any) -> Any:
    """``value`` as JSON data that compares equal exactly when the values are the same value of
    the same Python kind (a Decimal keeps its scale, a float its repr)."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return {"float": repr(value)}
        return {"float": repr(value)}
    if isinstance(value, decimal.Decimal):
        return {"decimal": str(value)}
    if isinstance(value, datetime.datetime):
        return {"datetime": value.isoformat()}
    if isinstance(value, datetime.date):
        return {"date": value.isoformat()}
    if isinstance(value, datetime.time):
        return {"time": value.isoformat()}
    if isinstance(value, datetime.timedelta):
        return {"timedelta": value.total_seconds()}
    if isinstance(value, (bytes, bytearray)):
        return {"bytes": bytes(value).hex()}
    if isinstance(value, dict):
        return {"map": sorted(([normalize(k), normalize(v)] for k, v in value.items()), key=repr)}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "Row":
        # PyFlink's and PySpark's Row are tuples
        return [normalize(v) for v in value]
    return {"other": repr(value)}
