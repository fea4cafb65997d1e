"""The line of each statement of a job, read from Python's own parser.

LibCST's ``PositionProvider`` computes a position for every node of the tree; porting needs
only the first line of each statement. Python's parser gives it: its statements come in the
same source order as LibCST's, so the two lists are zipped (a line of several statements
counts as many in Python's list).
"""

from __future__ import annotations

import ast
from typing import Dict, Iterator, List, Tuple

import libcst as cst

__all__ = ["statement_lines"]


def statement_lines(module: cst.Module, text: str) -> Dict[int, int]:
    """The first line of each statement of ``module`` (by the statement node's ``id``).

    :param module: The parsed job.
    :param text: Its source.
    :return: Empty when Python's parser counts the statements otherwise (the caller then asks
        LibCST's positions).
    """
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    flat = list(_in_order(tree.body))
    ours = list(_statements(module.body))
    if len(flat) != sum(weight for _, weight in ours):
        return {}
    lines: Dict[int, int] = {}
    index = 0
    for node, weight in ours:
        lines[id(node)] = flat[index].lineno
        index += weight
    return lines


def _statements(body: object) -> Iterator[Tuple[cst.CSTNode, int]]:
    """LibCST's statements in source order, each with how many statements Python counts in it."""
    if isinstance(body, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
        yield body, len(body.body)
        return
    if isinstance(body, cst.BaseSuite):
        items: List[object] = list(body.body)  # an indented block
    elif isinstance(body, (list, tuple)):
        items = list(body)
    else:
        items = [body]
    for node in items:
        if isinstance(node, cst.SimpleStatementLine):
            yield node, len(node.body)
        elif isinstance(node, cst.BaseCompoundStatement):
            yield node, 1
            yield from _blocks(node)


def _blocks(node: cst.BaseCompoundStatement) -> Iterator[Tuple[cst.CSTNode, int]]:
    """The statements inside a compound statement, in the order Python's parser lists them."""
    if isinstance(node, cst.Match):
        for case in node.cases:
            yield from _statements(case.body)
        return
    yield from _statements(node.body)
    for handler in getattr(node, "handlers", ()):
        yield from _statements(handler.body)
    orelse = getattr(node, "orelse", None)
    if isinstance(orelse, cst.If):  # ``elif``: a nested if in Python's tree
        yield orelse, 1
        yield from _blocks(orelse)
    elif orelse is not None:
        yield from _statements(orelse.body)
    final = getattr(node, "finalbody", None)
    if final is not None:
        yield from _statements(final.body)


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
