"""Serializers named in PyFlink signatures."""
import pickle
from typing import Any

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
