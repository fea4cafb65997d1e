"""LibCST visitors whose ``visit_*`` / ``leave_*`` methods are looked up once per class.

LibCST finds a visitor's method for each node it meets by name (``visit_`` and the node's class
name, then once per child attribute), which for most nodes finds one of its empty stubs. The
classes here keep LibCST's walk and semantics, and read the method a visitor class has for a
node class (or that it has none) from a table filled on first use; the lookups were about a
tenth of the time the porting tool spends on a file. LibCST's scope provider is used as it is
(:class:`Scopes` only remembers the names of its visitor methods).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, Union

import libcst as cst
from libcst.metadata import ScopeProvider

__all__ = ["Scopes", "Transformer", "Visitor"]

_Key = Tuple[type, type, str, str]
_TABLE: Dict[_Key, Optional[Callable[..., Any]]] = {}


def _method(visitor: type, node: type, prefix: str, attribute: str = "") -> Optional[Callable[..., Any]]:
    key = (visitor, node, prefix, attribute)
    try:
        return _TABLE[key]
    except KeyError:
        pass
    name = prefix + node.__name__ + ("_" + attribute if attribute else "")
    found = getattr(visitor, name, None)
    if found is not None and getattr(found, "_is_no_op", False):
        found = None  # one of LibCST's empty stubs
    _TABLE[key] = found
    return found


class _TableDispatch(object):
    """The visits and attribute hooks both kinds of visitor dispatch alike, through the table."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        method = _method(type(self), type(node), "visit_")
        return True if method is None else method(self, node) is not False

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        method = _method(type(self), type(node), "visit_", attribute)
        if method is not None:
            method(self, node)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        method = _method(type(self), type(original_node), "leave_", attribute)
        if method is not None:
            method(self, original_node)


class Visitor(_TableDispatch, cst.CSTVisitor):
    """A :class:`libcst.CSTVisitor` dispatching through the table."""

    def on_leave(self, original_node: cst.CSTNode) -> None:
        method = _method(type(self), type(original_node), "leave_")
        if method is not None:
            method(self, original_node)


class Transformer(_TableDispatch, cst.CSTTransformer):
    """A :class:`libcst.CSTTransformer` dispatching through the table."""

    def on_leave(self, original_node: Any, updated_node: Any
                 ) -> Union[Any, cst.RemovalSentinel, cst.FlattenSentinel[Any]]:
        method = _method(type(self), type(original_node), "leave_")
        return updated_node if method is None else method(self, original_node, updated_node)


_VISITOR_NAMES: Dict[type, List[str]] = {}


class Scopes(ScopeProvider):
    """LibCST's :class:`~libcst.metadata.ScopeProvider`, unchanged but for the names of its
    visitor methods, read once per class (LibCST reads them with ``inspect.getmembers`` for
    every file)."""

    def get_visitors(self) -> Mapping[str, Callable[..., Any]]:
        names = _VISITOR_NAMES.get(type(self))
        if names is None:
            names = _VISITOR_NAMES[type(self)] = list(super().get_visitors())
        return {name: getattr(self, name) for name in names}
