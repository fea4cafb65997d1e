"""The configuration part of PyFlink's Table API: settings, table config, table environments.

Names are imported on first use, so that importing this package is cheap and starts nothing.
"""
from typing import TYPE_CHECKING

from pyflink_compat._lazy import lazy_exports

__all__ = [
    'EnvironmentSettings',
    'TableConfig',
    'TableEnvironment',
    'StreamTableEnvironment',
]

_EXPORTS = {
    'EnvironmentSettings': 'environment_settings',
    'TableConfig': 'table_config',
    'TableEnvironment': 'table_environment',
    'StreamTableEnvironment': 'table_environment',
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())

if TYPE_CHECKING:
    from pyflink_compat.table.environment_settings import EnvironmentSettings  # noqa: F401
    from pyflink_compat.table.table_config import TableConfig  # noqa: F401
    from pyflink_compat.table.table_environment import (  # noqa: F401
        StreamTableEnvironment, TableEnvironment)
