"""Declared PyFlink module ``pyflink.metrics``.

Its names are imported from their modules on first use, so that importing the
package is cheap. Declared-only names raise
:class:`~pyflink_compat.missing.NotSupportedError` when used, naming the PySpark
way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat._lazy import lazy_exports
from pyflink_compat._reexports import with_reexports

__all__ = ['MetricGroup', 'Metric', 'Counter', 'Meter', 'Distribution']

_EXPORTS = {
    'Counter': 'metricbase',
    'Distribution': 'metricbase',
    'Meter': 'metricbase',
    'Metric': 'metricbase',
    'MetricGroup': 'metricbase',
}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())
__getattr__ = with_reexports(__name__, __getattr__)
