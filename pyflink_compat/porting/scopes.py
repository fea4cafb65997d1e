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
from typing import Dict, Iterator, List, Optional, Set, Union

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

    def module(self) -> "Scope":
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope


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


class Layout(cst.CSTVisitor):
    """One walk of a job: the scope of each name and import node, and its statements in order.

    :param module: The parsed job.
    :param text: Its source, for the statements' lines.
    """

    def __init__(self, module: cst.Module, text: str):
        super().__init__()
        self.root = Scope(None)
        #: the scope each :class:`~libcst.Name`, import and parameter node is in (by id)
        self.scopes: Dict[int, Scope] = {}
        self._stack: List[Scope] = [self.root]
        self._made: Dict[int, Scope] = {}
        self._outer_fors: Set[int] = set()
        #: the statements in source order, each with how many statements Python counts in it
        self._statements: List[cst.CSTNode] = []
        self._weights: List[int] = []
        module.visit(self)
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

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._statement(node, len(node.body))

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._statement(node, len(node.body))

    def visit_If(self, node: cst.If) -> None:
        self._statement(node)

    def visit_For(self, node: cst.For) -> None:
        self._statement(node)
        self._targets(node.target)

    def visit_While(self, node: cst.While) -> None:
        self._statement(node)

    def visit_Try(self, node: cst.Try) -> None:
        self._statement(node)

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self._statement(node)

    def visit_With(self, node: cst.With) -> None:
        self._statement(node)
        for item in node.items:
            if item.asname is not None:
                self._targets(item.asname.name)

    def visit_Match(self, node: cst.Match) -> None:
        self._statement(node)

    # -- scopes ----------------------------------------------------------------------------
    @property
    def _current(self) -> Scope:
        return self._stack[-1]

    def _targets(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self._current.bind(target.value, target)
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._targets(element.value)
        elif isinstance(target, cst.StarredElement):
            self._targets(target.value)

    def _new(self, node: cst.CSTNode, is_class: bool = False) -> Scope:
        scope = Scope(self._current, is_class)
        self._made[id(node)] = scope
        return scope

    def _enter(self, node: cst.CSTNode) -> None:
        self._stack.append(self._made[id(node)])

    def _leave(self) -> None:
        self._stack.pop()

    def visit_Name(self, node: cst.Name) -> None:
        self.scopes[id(node)] = self._current

    def visit_Import(self, node: cst.Import) -> None:
        self.scopes[id(node)] = self._current
        for name in _import_names(node):
            self._current.bind(name, node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.scopes[id(node)] = self._current
        for name in _import_names(node):
            self._current.bind(name, node)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._targets(target.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._targets(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._targets(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._targets(node.target)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._targets(node.name.name)

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        if node.name is not None:
            self._targets(node.name.name)

    def visit_Global(self, node: cst.Global) -> None:
        for item in node.names:
            self._current.declared[item.name.value] = self.root

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        outer = self._current.parent
        while outer is not None and outer.is_class:
            outer = outer.parent
        for item in node.names:
            self._current.declared[item.name.value] = outer or self.root

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._statement(node)
        self._current.bind(node.name.value, node)
        self._new(node)

    def visit_FunctionDef_params(self, node: cst.FunctionDef) -> None:
        self._enter(node)

    def leave_FunctionDef_params(self, node: cst.FunctionDef) -> None:
        self._leave()

    def visit_FunctionDef_body(self, node: cst.FunctionDef) -> None:
        self._enter(node)

    def leave_FunctionDef_body(self, node: cst.FunctionDef) -> None:
        self._leave()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._new(node)

    def visit_Lambda_params(self, node: cst.Lambda) -> None:
        self._enter(node)

    def leave_Lambda_params(self, node: cst.Lambda) -> None:
        self._leave()

    def visit_Lambda_body(self, node: cst.Lambda) -> None:
        self._enter(node)

    def leave_Lambda_body(self, node: cst.Lambda) -> None:
        self._leave()

    def visit_Param(self, node: cst.Param) -> None:
        self.scopes[id(node)] = self._current
        self._current.bind(node.name.value, node)

    # a parameter's default and annotation are evaluated where the function is defined
    def visit_Param_default(self, node: cst.Param) -> None:
        self._stack.append(self._current.parent or self.root)

    def leave_Param_default(self, node: cst.Param) -> None:
        self._leave()

    def visit_Param_annotation(self, node: cst.Param) -> None:
        self._stack.append(self._current.parent or self.root)

    def leave_Param_annotation(self, node: cst.Param) -> None:
        self._leave()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._statement(node)
        self._current.bind(node.name.value, node)
        self._new(node, is_class=True)

    def visit_ClassDef_body(self, node: cst.ClassDef) -> None:
        self._enter(node)

    def leave_ClassDef_body(self, node: cst.ClassDef) -> None:
        self._leave()

    # comprehensions: their own scope, but the first iterable is evaluated outside it
    def _comprehension(self, node: Union[cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp]) -> None:
        self._outer_fors.add(id(node.for_in))
        self._stack.append(self._new(node))

    def visit_ListComp(self, node: cst.ListComp) -> None:
        self._comprehension(node)

    def leave_ListComp(self, original_node: cst.ListComp) -> None:
        self._leave()

    def visit_SetComp(self, node: cst.SetComp) -> None:
        self._comprehension(node)

    def leave_SetComp(self, original_node: cst.SetComp) -> None:
        self._leave()

    def visit_GeneratorExp(self, node: cst.GeneratorExp) -> None:
        self._comprehension(node)

    def leave_GeneratorExp(self, original_node: cst.GeneratorExp) -> None:
        self._leave()

    def visit_DictComp(self, node: cst.DictComp) -> None:
        self._comprehension(node)

    def leave_DictComp(self, original_node: cst.DictComp) -> None:
        self._leave()

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._targets(node.target)

    def visit_CompFor_iter(self, node: cst.CompFor) -> None:
        self._stack.append(self._current.parent or self.root if id(node) in self._outer_fors else self._current)

    def leave_CompFor_iter(self, node: cst.CompFor) -> None:
        self._leave()


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
