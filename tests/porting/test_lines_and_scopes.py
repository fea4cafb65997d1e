"""The statement lines porting reads from Python's parser (:mod:`pyflink_compat.porting.lines`)
agree with LibCST's positions, and the scopes porting takes from LibCST's scope provider
(:func:`pyflink_compat.porting.dispatch.scopes`) are the provider's and Python's."""

from __future__ import annotations

from pathlib import Path
from typing import List, Mapping, Optional

import libcst as cst
import pytest
from libcst.metadata import ClassScope, MetadataWrapper, PositionProvider, Scope, ScopeProvider

from pyflink_compat.porting.dispatch import scopes
from pyflink_compat.porting.lines import statement_lines

HERE = Path(__file__).resolve().parent
FILES = sorted(p for folder in ("corpus", "tricky", "jobs") for p in (HERE / folder).rglob("*.py")
               if p.name != "__init__.py")


class _Statements(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: List[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
            self.found.append(node)
        return True


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_statement_gets_the_line_libcst_gives_it(path: Path):
    text = path.read_text()
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        pytest.skip("not Python")
    positions = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    lines = statement_lines(module, text)
    statements = _Statements()
    module.visit(statements)
    assert statements.found
    assert [lines[id(s)] for s in statements.found] == [
        positions[s].start.line for s in statements.found]


def _shape(scope: Optional[Scope]) -> object:
    if scope is None:
        return None
    names = {a.name for a in scope.assignments}
    accessed = {a.node.value for a in scope.accesses if isinstance(a.node, cst.Name)}
    return type(scope).__name__, sorted((n, len(scope.assignments[n])) for n in names), sorted(accessed)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_node_gets_the_scope_libcsts_wrapper_gives_it(path: Path):
    try:
        module = cst.parse_module(path.read_text())
    except cst.ParserSyntaxError:
        pytest.skip("not Python")
    wrapped = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    ours = {id(node): scope for node, scope in scopes(module).items()}
    assert len(ours) == len(wrapped)
    # string annotations are parsed into new nodes at each resolution: compared by count only
    shared = [node for node in wrapped if id(node) in ours]
    assert len(shared) > len(wrapped) * 0.9
    assert [_shape(ours[id(node)]) for node in shared] == [_shape(wrapped[node]) for node in shared]


def _scope_of(scopes: Mapping[cst.CSTNode, Optional[Scope]], module: cst.Module, name: str,
              occurrence: int) -> Scope:
    names = [n for n in _all_names(module) if n.value == name]
    scope = scopes[names[occurrence]]
    assert scope is not None
    return scope


def _all_names(module: cst.Module) -> List[cst.Name]:
    found: List[cst.Name] = []

    class Names(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.append(node)

    module.visit(Names())
    return found


def test_names_are_bound_in_the_scopes_python_gives_them():
    text = (
        "env = 1\n"
        "def f(env=env, n=2):\n"
        "    global g\n"
        "    g = env\n"
        "    return [env for env in range(n)], (lambda env: env)\n"
        "class C:\n"
        "    env = 3\n"
        "    def m(self):\n"
        "        return env\n"
    )
    module = cst.parse_module(text)
    scopes = MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    root = scopes[module]
    assert root is not None
    assert sorted({a.name for a in root.assignments}) == ["C", "env", "f", "g"]
    # the default ``env`` is the module's; the parameter is the function's
    default, parameter = _scope_of(scopes, module, "env", 2), _scope_of(scopes, module, "env", 1)
    assert default is root and parameter is not root and "env" in parameter.assignments
    # ``global g`` binds ``g`` in the module
    assert [type(a.node) for a in root.assignments["g"]] == [cst.Name]
    # the comprehension and the lambda each bind their own ``env``
    comprehension, lam = _scope_of(scopes, module, "env", 5), _scope_of(scopes, module, "env", 7)
    assert comprehension.parent is parameter and "env" in comprehension.assignments
    assert lam.parent is parameter and "env" in lam.assignments
    # the class body has its own scope, which its methods skip
    in_method = _scope_of(scopes, module, "env", 9)
    assert isinstance(in_method.parent, ClassScope)
    assert "env" not in in_method.assignments
