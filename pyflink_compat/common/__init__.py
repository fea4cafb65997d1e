"""Values shared by the APIs: configurations, durations and job handles.

Names are imported on first use, so that importing this package is cheap.
"""
from typing import TYPE_CHECKING

from pyflink_compat._lazy import lazy_exports

__all__ = ['Configuration', 'Duration']

_EXPORTS = {
    'Configuration': 'configuration',
    'Duration': 'time',
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from pyflink_compat.common.configuration import Configuration  # noqa: F401
    from pyflink_compat.common.time import Duration  # noqa: F401
