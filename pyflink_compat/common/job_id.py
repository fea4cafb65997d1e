"""Job identifiers."""
import uuid

__all__ = ['JobID']


class JobID(object):
    """The identifier of one run of a job: 16 random bytes, shown as 32 hex digits.

    :param hex_string: An existing identifier; a new random one when omitted.
    """

    def __init__(self, hex_string: str = None):
        self._hex = uuid.uuid4().hex if hex_string is None else str(hex_string)

    def to_hex_string(self) -> str:
        """The identifier as 32 lower-case hex digits."""
        return self._hex

    def __eq__(self, other):
        return isinstance(other, JobID) and other._hex == self._hex

    def __hash__(self):
        return hash(self._hex)

    def __str__(self):
        return self._hex

    def __repr__(self):
        return "JobID('%s')" % self._hex
