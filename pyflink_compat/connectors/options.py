"""Reviewing a table's connector options: each is mapped, dropped with a warning, or refused.

A connector reads the options it maps with :meth:`OptionReview.take`, names those it drops and
why with :meth:`OptionReview.drop`, and ends with :meth:`OptionReview.finish`, which refuses any
option nobody took: an option is never ignored without a word.
"""

from __future__ import annotations

import warnings
from typing import Dict, List, Mapping, Optional

from pyflink_compat.missing import NotSupportedError

__all__ = ["ConnectorOptionWarning", "OptionReview", "refuse"]


class ConnectorOptionWarning(UserWarning):
    """A connector option that has no effect on Spark (the message says why)."""


def refuse(connector: str, option: str, statement: str, hint: str) -> NotSupportedError:
    """The error for an option (or value) of ``connector`` that Spark cannot honour."""
    return NotSupportedError(
        "Option '{}' of connector '{}' (in: {})".format(option, connector, _short(statement)), hint)


def _short(statement: str) -> str:
    text = " ".join(statement.split())
    return text if len(text) <= 300 else text[:297] + "..."


class OptionReview(object):
    """The options of one table, as its connector goes through them.

    :param connector: The ``'connector'`` value.
    :param options: The table's options (``'connector'`` included).
    :param statement: The statement that declared the table, for messages.
    """

    def __init__(self, connector: str, options: Mapping[str, str], statement: str):
        self.connector = connector
        self.statement = statement
        self._left: Dict[str, str] = {k: v for k, v in options.items() if k != "connector"}
        self._all = dict(options)

    def take(self, key: str, default: Optional[str] = None) -> Optional[str]:
        """The value of ``key`` (``default`` when absent), which the connector maps."""
        self._left.pop(key, None)
        return self._all.get(key, default)

    def take_prefixed(self, prefix: str) -> Dict[str, str]:
        """Every option starting with ``prefix``, the prefix removed from their keys."""
        found = {k[len(prefix):]: v for k, v in self._all.items() if k.startswith(prefix)}
        for key in found:
            self._left.pop(prefix + key, None)
        return found

    def remaining(self) -> List[str]:
        """The keys no step has taken or dropped yet, sorted."""
        return sorted(self._left)

    def drop(self, key: str, reason: str) -> None:
        """Warn that ``key``, when given, has no effect on Spark, and why."""
        if key in self._left:
            value = self._left.pop(key)
            warnings.warn("Option '{}' = '{}' of connector '{}' has no effect on Spark: {} (in: {})"
                          .format(key, value, self.connector, reason, _short(self.statement)),
                          ConnectorOptionWarning, stacklevel=2)

    def refuse_if_given(self, key: str, hint: str) -> None:
        """Refuse ``key`` when it is given."""
        if key in self._left:
            raise refuse(self.connector, key, self.statement, hint)

    def finish(self) -> None:
        """Refuse the first option no step took."""
        for key in sorted(self._left):
            raise refuse(self.connector, key, self.statement,
                         "pyflink_compat does not know this option of the connector; remove it, "
                         "or write this table with PySpark's DataStreamReader/DataStreamWriter.")
