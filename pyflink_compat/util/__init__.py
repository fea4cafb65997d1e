"""Internal helpers shared by the API modules.

As in PyFlink, ``exceptions`` and ``java_utils`` are reachable as attributes of the package.
"""

from pyflink_compat._reexports import with_reexports

__getattr__ = with_reexports(__name__)
