"""Where each name of a job is bound: its scopes, and the line of each statement.

One walk of the parsed job (:class:`Layout`) finds, as Python does, the scope of every name
(module, function, class, lambda, comprehension; ``global`` and ``nonlocal`` followed), what
binds each name in each scope (an import, a ``def`` or ``class``, a parameter, or an
assignment), and the statements in source order. The line of each statement is read from
Python's own parser, whose statements come in the same order.

This is the part of LibCST's ``ScopeProvider`` and ``PositionProvider`` that porting uses,
computed in one walk instead of the several those providers take: porting many files stays
as fast as it was before names were resolved in their scopes.
"""

from __future__ import annotations

import ast
import dataclasses
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

import libcst as cst

__all__ = ["Scope", "Layout", "is_import"]

Binder = Union[cst.Import, cst.ImportFrom, cst.FunctionDef, cst.ClassDef, cst.Param, cst.Name]


class Scope:
    """A scope: the names bound in it, each with the nodes that bind it.

    :param parent: The enclosing scope (None for the module).
    :param is_class: A class body, whose names the functions inside it do not see.
    """

    __slots__ = ("parent", "is_class", "assignments", "declared")

    def __init__(self, parent: Optional["Scope"], is_class: bool = False):
        self.parent = parent
        self.is_class = is_class
        #: each name bound here, with the nodes that bind it, in source order
        self.assignments: Dict[str, List[Binder]] = {}
        #: names declared ``global`` or ``nonlocal`` here, with the scope they belong to
        self.declared: Dict[str, "Scope"] = {}

    def bind(self, name: str, node: Binder) -> None:
        owner = self.declared.get(name, self)
        owner.assignments.setdefault(name, []).append(node)


def is_import(node: Binder) -> bool:
    """Whether ``node`` binds its name by an import."""
    return isinstance(node, (cst.Import, cst.ImportFrom))


def _import_names(node: Union[cst.Import, cst.ImportFrom]) -> Iterator[str]:
    if isinstance(node.names, cst.ImportStar):
        return
    for alias in node.names:
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            yield alias.asname.name.value
        elif isinstance(node, cst.Import):
            # ``import a.b`` binds ``a``
            head: cst.BaseExpression = alias.name
            while isinstance(head, cst.Attribute):
                head = head.value
            if isinstance(head, cst.Name):
                yield head.value
        elif isinstance(alias.name, cst.Name):
            yield alias.name.value


#: Fields that hold only whitespace, comments and punctuation: no name or statement in them.
_SKIPPED_FIELDS = frozenset({"leading_lines", "lines_after_decorators", "header", "footer", "lpar", "rpar",
                             "comma", "semicolon", "equal", "colon", "dot", "star", "operator", "newline",
                             "indent", "arrow", "asynchronous", "trailing_whitespace"})
_FIELDS: Dict[type, Tuple[str, ...]] = {}


def _fields(kind: type) -> Tuple[str, ...]:
    found = _FIELDS.get(kind)
    if found is None:
        found = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(kind)
                                      if f.name not in _SKIPPED_FIELDS and not f.name.startswith("whitespace"))
    return found


_COMPOUND = (cst.If, cst.While, cst.Try, cst.TryStar, cst.Match)


class Layout:
    """One walk of a job: the scope of each name and import node, and its statements in order.

    The walk follows the nodes' fields itself rather than through LibCST's visitors, whose
    hooks for every node and field cost more than the work done here.

    :param module: The parsed job.
    :param text: Its source, for the statements' lines.
    """

    def __init__(self, module: cst.Module, text: str):
        self.root = Scope(None)
        #: the scope each :class:`~libcst.Name`, import and parameter node is in (by id)
        self.scopes: Dict[int, Scope] = {}
        self._current = self.root
        #: the statements in source order, each with how many statements Python counts in it
        self._statements: List[cst.CSTNode] = []
        self._weights: List[int] = []
        self._walk(module)
        self.lines = self._lines(text)

    # -- lines -----------------------------------------------------------------------------
    def _lines(self, text: str) -> Dict[int, int]:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return {}
        flat = list(_in_order(tree.body))
        if len(flat) != sum(self._weights):
            return {}
        lines: Dict[int, int] = {}
        index = 0
        for node, weight in zip(self._statements, self._weights):
            lines[id(node)] = flat[index].lineno
            index += weight
        return lines

    def _statement(self, node: cst.CSTNode, weight: int = 1) -> None:
        self._statements.append(node)
        self._weights.append(weight)

    # -- the walk --------------------------------------------------------------------------
    def _walk(self, node: cst.CSTNode) -> None:
        kind = type(node)
        if kind is cst.Name:
            self.scopes[id(node)] = self._current
            return
        special = _SPECIAL.get(kind)
        if special is not None:
            special(self, node)
            return
        if kind is cst.SimpleStatementLine or kind is cst.SimpleStatementSuite:
            self._statement(node, len(node.body))  # type: ignore[attr-defined]
        elif isinstance(node, _COMPOUND):
            self._statement(node)
        elif isinstance(node, (cst.Assign, cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For, cst.With,
                               cst.ExceptHandler, cst.ExceptStarHandler, cst.Import, cst.ImportFrom,
                               cst.Global, cst.Nonlocal)):
            self._binds(node)
        self._children(node)

    def _children(self, node: cst.CSTNode) -> None:
        for name in _fields(type(node)):
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                self._walk(value)
            elif type(value) is list or type(value) is tuple:
                for item in value:
                    if isinstance(item, cst.CSTNode):
                        self._walk(item)

    def _in(self, scope: Scope, nodes: Sequence[Optional[cst.CSTNode]]) -> None:
        outer, self._current = self._current, scope
        for node in nodes:
            if node is not None:
                self._walk(node)
        self._current = outer

    # -- what binds names ------------------------------------------------------------------
    def _targets(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self._current.bind(target.value, target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._targets(element.value)
        elif isinstance(target, cst.StarredElement):
            self._targets(target.value)

    def _binds(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.Assign):
            for target in node.targets:
                self._targets(target.target)
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.NamedExpr, cst.For)):
            if isinstance(node, cst.For):
                self._statement(node)
            self._targets(node.target)
        elif isinstance(node, cst.With):
            self._statement(node)
            for item in node.items:
                if item.asname is not None:
                    self._targets(item.asname.name)
        elif isinstance(node, (cst.ExceptHandler, cst.ExceptStarHandler)):
            if node.name is not None:
                self._targets(node.name.name)
        elif isinstance(node, (cst.Import, cst.ImportFrom)):
            self.scopes[id(node)] = self._current
            for name in _import_names(node):
                self._current.bind(name, node)
        elif isinstance(node, cst.Global):
            for declared in node.names:
                self._current.declared[declared.name.value] = self.root
        elif isinstance(node, cst.Nonlocal):
            outer = self._current.parent
            while outer is not None and outer.is_class:
                outer = outer.parent
            for declared in node.names:
                self._current.declared[declared.name.value] = outer or self.root

    # -- what opens a scope ----------------------------------------------------------------
    def _function(self, node: cst.FunctionDef) -> None:
        self._statement(node)
        self._current.bind(node.name.value, node)
        self.scopes[id(node.name)] = self._current
        # decorators and the return annotation are evaluated where the function is defined
        self._in(self._current, [*node.decorators, node.returns])
        scope = Scope(self._current)
        self._in(scope, [node.params, node.body])

    def _lambda(self, node: cst.Lambda) -> None:
        self._in(Scope(self._current), [node.params, node.body])

    def _param(self, node: cst.Param) -> None:
        self.scopes[id(node)] = self._current
        self.scopes[id(node.name)] = self._current
        self._current.bind(node.name.value, node)
        # a default and an annotation are evaluated where the function is defined
        self._in(self._current.parent or self.root, [node.annotation, node.default])

    def _class(self, node: cst.ClassDef) -> None:
        self._statement(node)
        self._current.bind(node.name.value, node)
        self.scopes[id(node.name)] = self._current
        self._in(self._current, [*node.decorators, *node.bases, *node.keywords])
        self._in(Scope(self._current, is_class=True), [node.body])

    def _comprehension(self, node: Union[cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp]) -> None:
        # its own scope, but its first iterable is evaluated outside it
        outer = self._current
        self._walk(node.for_in.iter)
        self._current = Scope(outer)
        comp: Optional[cst.CompFor] = node.for_in
        while comp is not None:
            self._targets(comp.target)
            self._walk(comp.target)
            if comp is not node.for_in:
                self._walk(comp.iter)
            for condition in comp.ifs:
                self._walk(condition)
            comp = comp.inner_for_in
        if isinstance(node, cst.DictComp):
            self._walk(node.key)
            self._walk(node.value)
        else:
            self._walk(node.elt)
        self._current = outer


_SPECIAL: Dict[type, Callable[[Layout, Any], None]] = {
    cst.FunctionDef: Layout._function, cst.Lambda: Layout._lambda, cst.Param: Layout._param,
    cst.ClassDef: Layout._class, cst.ListComp: Layout._comprehension, cst.SetComp: Layout._comprehension,
    cst.GeneratorExp: Layout._comprehension, cst.DictComp: Layout._comprehension,
}


def _in_order(body: List[ast.stmt]) -> Iterator[ast.stmt]:
    """Python's statements in source order, nested blocks after the statement that holds them."""
    for statement in body:
        yield statement
        yield from _in_order(getattr(statement, "body", []))
        for handler in getattr(statement, "handlers", []):
            yield from _in_order(handler.body)
        for case in getattr(statement, "cases", []):
            yield from _in_order(case.body)
        yield from _in_order(getattr(statement, "orelse", []))
        yield from _in_order(getattr(statement, "finalbody", []))
