"""List everything a root lacks to run a preamble, not only the first failure.

:func:`run_preamble` stops at the first exception, as the job itself would. To say what is
missing, :func:`diagnose` runs the preamble one top-level statement at a time: each name of an
import is imported on its own, a failing statement is reported and the run goes on, and a
``NameError`` caused by an earlier failure is not reported again.
"""
from __future__ import annotations

import ast
import contextlib
import io
import re
import warnings
from collections import Counter
from typing import Any, Dict, List, Set, Tuple

from .harness import class_chain, parse_preamble, sandbox


def _bound_names(stmt: ast.stmt) -> Set[str]:
    names: Set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def diagnose(name: str, root: str) -> List[str]:
    """Each missing import and failing statement of preamble ``name`` under ``root``."""
    tree = parse_preamble(name, root)
    problems: List[str] = []
    unbound: Set[str] = set()
    with sandbox(name) as (namespace, norm):

        def run(node: ast.stmt) -> None:
            code = compile(ast.Module(body=[node], type_ignores=[]), "<corpus:" + name + ">", "exec")
            with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(code, namespace)

        for stmt in tree.body:
            if isinstance(stmt, ast.ImportFrom) and len(stmt.names) > 1:
                parts: List[ast.stmt] = [
                    ast.copy_location(ast.ImportFrom(module=stmt.module, names=[alias], level=stmt.level), stmt)
                    for alias in stmt.names]
            else:
                parts = [stmt]
            for part in parts:
                try:
                    run(part)
                except NameError as exc:
                    if getattr(exc, "name", None) not in unbound:
                        problems.append(_describe(part, exc, norm))
                    unbound |= _bound_names(part)
                except Exception as exc:
                    problems.append(_describe(part, exc, norm))
                    unbound |= _bound_names(part)
                    if isinstance(part, ast.ImportFrom):
                        unbound |= {alias.asname or alias.name for alias in part.names}
    return problems


def _describe(stmt: ast.stmt, exc: BaseException, norm: Any) -> str:
    source = norm.message(ast.unparse(stmt).splitlines()[0])
    if len(source) > 90:
        source = source[:87] + "..."
    return "line {}: {} -> {}: {}".format(
        stmt.lineno, source, class_chain(exc)[0], norm.message(str(exc).splitlines()[0] if str(exc) else ""))


def diagnose_all(names: List[str], root: str) -> Dict[str, List[str]]:
    return {name: diagnose(name, root) for name in names}


def gap_of(problem: str) -> str:
    """What a problem line says is missing: a module, an imported name, a method, or the error."""
    match = re.search(r"No module named '([^']+)'", problem)
    if match:
        return "module " + match.group(1)
    match = re.search(r"cannot import name '([^']+)' from '([^']+)'", problem)
    if match:
        return "name {}.{}".format(match.group(2), match.group(1))
    match = re.search(r"'(\w+)' object has no attribute '(\w+)'", problem)
    if match:
        return "method {}.{}".format(match.group(1), match.group(2))
    return "other: " + problem.split("-> ", 1)[-1]


def gap_counts(report: Dict[str, List[str]]) -> List[Tuple[str, int]]:
    """Each gap with the number of preambles it blocks, most frequent first."""
    counts: Counter = Counter()
    for problems in report.values():
        counts.update({gap_of(problem) for problem in problems})
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))
