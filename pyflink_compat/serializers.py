"""Serializers named in PyFlink signatures."""
import pickle
from typing import Any

from pyflink_compat.missing.declared import Declared, declared_function

__all__ = ['PickleSerializer']


class PickleSerializer(object):
    """Serialises Python objects with :mod:`pickle` (kept for signature compatibility)."""

    def dumps(self, obj: Any) -> bytes:
        return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)

    def loads(self, data: bytes) -> Any:
        return pickle.loads(data)

    def __eq__(self, other):
        return isinstance(other, PickleSerializer)

    def __hash__(self):
        return hash(PickleSerializer)

    def __repr__(self):
        return "PickleSerializer()"


# The serializers of PyFlink's Python worker: Spark serializes rows itself.
read_int = declared_function(__name__, 'read_int')
write_int = declared_function(__name__, 'write_int')


class BatchedSerializer(Declared):
    pass


class IterableSerializer(Declared):
    pass


class SpecialLengths(Declared):
    pass


class VarLengthDataSerializer(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
