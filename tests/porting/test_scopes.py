"""The scopes and statement lines porting reads in one walk of a job
(:mod:`pyflink_compat.porting.scopes`) agree with Python and with LibCST's own providers."""

from __future__ import annotations

from pathlib import Path
from typing import List

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

from pyflink_compat.porting.scopes import Layout

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
    layout = Layout(module, text)
    statements = _Statements()
    module.visit(statements)
    assert statements.found
    assert [layout.lines[id(s)] for s in statements.found] == [
        positions[s].start.line for s in statements.found]


def _scope_of(layout: Layout, module: cst.Module, name: str, occurrence: int):
    names = [n for n in _all_names(module) if n.value == name]
    return layout.scopes[id(names[occurrence])]


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
    layout = Layout(module, text)
    root = layout.root
    assert sorted(root.assignments) == ["C", "env", "f", "g"]
    # the default ``env`` is the module's; the parameter is the function's
    default, parameter = _scope_of(layout, module, "env", 2), _scope_of(layout, module, "env", 1)
    assert default is root and parameter is not root and "env" in parameter.assignments
    # ``global g`` binds ``g`` in the module
    assert isinstance(root.assignments["g"][0], cst.Name)
    # the comprehension and the lambda each bind their own ``env``
    comprehension, lam = _scope_of(layout, module, "env", 5), _scope_of(layout, module, "env", 7)
    assert comprehension.parent is parameter and "env" in comprehension.assignments
    assert lam.parent is parameter and "env" in lam.assignments
    # the class body has its own scope, which its methods skip
    in_method = _scope_of(layout, module, "env", 9)
    assert in_method.parent is not None and in_method.parent.is_class
    assert "env" not in in_method.assignments
