"""LibCST visitors whose ``visit_*`` / ``leave_*`` methods are looked up once per class.

LibCST finds a visitor's method for each node it meets by name (``visit_`` and the node's class
name, then once per child attribute), which for most nodes finds one of its empty stubs. The
classes here keep LibCST's walk and semantics, and read the method a visitor class has for a
node class (or that it has none) from a table filled on first use; the lookups were about a
tenth of the time the porting tool spends on a file.

LibCST's scope provider is used as it is, but resolved by :func:`scopes` rather than through
``MetadataWrapper.resolve``: the wrapper resolves a batchable provider in a walk of the whole
tree that calls the provider's ``visit_Module``, which walks the tree itself and does all the
work; the wrapper's walk then goes on through every node for nothing. :func:`scopes` runs the
two providers' visitors alone, as their ``visit_Module`` does (the expression-context provider
the scope provider depends on, then the scope provider), which gives the same scopes in half
the walks; the visitors find their methods through the table too.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, FrozenSet, Mapping, Optional, Tuple, Union

import libcst as cst
from libcst.metadata import ExpressionContext, ExpressionContextProvider, Scope, ScopeProvider
from libcst.metadata.expression_context_provider import ExpressionContextVisitor
from libcst.metadata.scope_provider import ScopeVisitor
from libcst.metadata.base_provider import ProviderT

__all__ = ["Transformer", "Visitor", "scopes"]

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


_HOOKED: Dict[type, FrozenSet[str]] = {}


def _hooked(visitor: type) -> FrozenSet[str]:
    """The names of the node classes for which ``visitor`` has an attribute hook of its own
    (``visit_If_orelse``): LibCST calls the hooks for every child of every node, and for most
    nodes a visitor has none."""
    found = _HOOKED.get(visitor)
    if found is None:
        names = set()
        for name in dir(visitor):
            parts = name.split("_")
            if len(parts) >= 3 and parts[0] in ("visit", "leave") and parts[1] and \
                    not getattr(getattr(visitor, name), "_is_no_op", False):
                names.add(parts[1])
        found = _HOOKED[visitor] = frozenset(names)
    return found


class _TableDispatch(object):
    """The visits and attribute hooks both kinds of visitor dispatch alike, through the table."""

    def on_visit(self, node: cst.CSTNode) -> bool:
        method = _method(type(self), type(node), "visit_")
        return True if method is None else method(self, node) is not False

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        if type(node).__name__ in _hooked(type(self)):
            method = _method(type(self), type(node), "visit_", attribute)
            if method is not None:
                method(self, node)

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        if type(original_node).__name__ in _hooked(type(self)):
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


class _ContextWalk(ExpressionContextVisitor, Visitor):
    """LibCST's expression-context visitor, finding its methods through the table."""


class _ScopeWalk(ScopeVisitor, Visitor):
    """LibCST's scope visitor, finding its methods through the table (its ``on_leave``, which
    records each node's scope, then the table's)."""


class _Contexts(ExpressionContextProvider):
    """LibCST's expression-context provider, its work done by its visitor's walk alone."""

    def _gen_impl(self, module: cst.Module) -> None:
        module.visit(_ContextWalk(self, ExpressionContext.LOAD))


class _Scopes(ScopeProvider):
    """LibCST's scope provider, its work done by its visitor's walk alone."""

    def _gen_impl(self, module: cst.Module) -> None:
        walk = _ScopeWalk(self)
        module.visit(walk)
        walk.infer_accesses()


class _Resolved(object):
    """What a provider reads of a metadata wrapper: the module, and the metadata of the
    providers it depends on, already computed."""

    def __init__(self, module: cst.Module, metadata: Mapping[ProviderT, Mapping[cst.CSTNode, object]]):
        self.module = module
        self._metadata = metadata

    def resolve_many(self, providers: Any) -> Mapping[ProviderT, Mapping[cst.CSTNode, object]]:
        return {provider: self._metadata[provider] for provider in providers}


def scopes(module: cst.Module) -> Mapping[cst.CSTNode, Optional[Scope]]:
    """LibCST's :class:`~libcst.metadata.ScopeProvider` metadata of ``module`` (the scope of
    each node), as ``MetadataWrapper(module).resolve(ScopeProvider)`` gives it."""
    contexts = _Contexts()._gen(_Resolved(module, {}))  # type: ignore[arg-type]
    found = _Scopes()._gen(_Resolved(module, {ExpressionContextProvider: contexts}))  # type: ignore[arg-type]
    return found  # type: ignore[return-value]
