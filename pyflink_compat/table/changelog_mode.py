"""PyFlink module ``pyflink.table.changelog_mode``: :class:`ChangelogMode`, the kinds of
change (``+I``, ``-U``, ``+U``, ``-D``) a changelog holds."""

from typing import Any, FrozenSet

__all__ = ['ChangelogMode']

#: The row kinds' short names, in Flink's order (``RowKind``'s values), and their names.
_KINDS = ("+I", "-U", "+U", "-D")
_NAMES = {"+I": "INSERT", "-U": "UPDATE_BEFORE", "+U": "UPDATE_AFTER", "-D": "DELETE"}


class ChangelogMode(object):
    """The kinds of change a changelog holds: only inserts (:meth:`insert_only`), inserts,
    updates and deletions by key (:meth:`upsert`, without ``-U``), or every kind (:meth:`all`).

    :param j_changelog_mode: The row kinds of the mode, as their short names (``"+I"``...); in
        PyFlink, the JVM's changelog mode.
    """

    def __init__(self, j_changelog_mode: Any):
        self._j_changelog_mode = j_changelog_mode

    @property
    def _kinds(self) -> FrozenSet[str]:
        return frozenset(self._j_changelog_mode)

    @property
    def _upserts(self) -> bool:
        """Whether an update comes as its new row only, a deletion by key."""
        return "+U" in self._kinds and "-U" not in self._kinds

    @staticmethod
    def insert_only() -> 'ChangelogMode':
        """The mode of a changelog of inserts only."""
        return ChangelogMode(("+I",))

    @staticmethod
    def upsert() -> 'ChangelogMode':
        """The mode of a changelog of inserts, updates as new rows (``+U``) and deletions, all
        by the table's primary key."""
        return ChangelogMode(("+I", "+U", "-D"))

    @staticmethod
    def all() -> 'ChangelogMode':
        """The mode of a changelog of every kind of change, updates as a ``-U`` / ``+U`` pair."""
        return ChangelogMode(_KINDS)

    def __repr__(self) -> str:
        # Flink's text of a changelog mode: its kinds' names
        return "[{}]".format(", ".join(_NAMES[kind] for kind in _KINDS if kind in self._kinds))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChangelogMode) and self._kinds == other._kinds

    def __hash__(self) -> int:
        return hash(self._kinds)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
