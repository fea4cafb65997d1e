"""Preambles cut from whole public PyFlink job files: the porting corpus (``tests/porting/corpus``).

A whole job file holds its set-up and its pipeline, often inside a ``main()`` function. Its
preamble, as the corpus defines one (imports and environment set-up up to the first source or
pipeline statement), is cut with what the porting tool's classifier reports about the file:

* the set-up line: the first statement that creates an environment
  (``StreamExecutionEnvironment.get_execution_environment``, ``TableEnvironment.create`` or
  ``StreamTableEnvironment.create``);
* the pipeline lines: every statement the classifier leaves to a person.

The set-up's scope is the module, a top-level function, or the ``if __name__ == "__main__"``
block, whichever holds the set-up line; the cut is that scope's first statement, at or after
the set-up line, that runs pipeline code (a pipeline line, or a call of a job function holding
one). The preamble is the module's top-level statements (up to the cut when the scope is the
module) and then, for a function or the main block, that scope's statements up to the cut,
kept verbatim under ``if True:`` (their text does not change). The main block itself is left
out, and so are statements that run pipeline code before the set-up (user function classes,
decorated user functions, calls of job functions holding pipeline statements).

The cut needs the classifier (LibCST), which the PyFlink environment does not have: the lines
are kept in ``whole-file-cuts.json`` (``python -m tests.corpus.record --cuts``, in the Spark
environment), and the normal suite checks that the classifier still reports them. Under PyFlink
the preamble is cut from the original file; under pyflink_compat from the file as
``pyflink-compat port --imports-only`` writes it (the same lines, the imports rewritten).
"""
from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Set, Union

WHOLE_FILE_DIR = Path(__file__).resolve().parent.parent / "porting" / "corpus"
CUTS = Path(__file__).resolve().parent / "whole-file-cuts.json"

#: The calls that create an environment, as the classifier names them.
ENVIRONMENT_FACTORIES = frozenset({
    "StreamExecutionEnvironment.get_execution_environment",
    "TableEnvironment.create",
    "StreamTableEnvironment.create",
})


def whole_file_names() -> List[str]:
    """The job files of the porting corpus, by stem, sorted."""
    return sorted(p.stem for p in WHOLE_FILE_DIR.glob("*.py"))


def whole_file_text(name: str) -> str:
    return (WHOLE_FILE_DIR / (name + ".py")).read_text(encoding="utf-8")


def load_cuts() -> Dict[str, Dict[str, Any]]:
    return json.loads(CUTS.read_text(encoding="utf-8"))


def classifier_cut(text: str, name: str) -> Dict[str, Any]:
    """The set-up line and the pipeline lines the porting classifier reports for a job file
    (Spark environment only: it needs LibCST)."""
    from pyflink_compat.porting.command import port_text
    from pyflink_compat.porting.report import Outcome

    _, report = port_text(text, name + ".py", generate=False)
    setup = next((f.line for f in report.findings
                  if f.outcome is not Outcome.LEFT and ENVIRONMENT_FACTORIES & set(f.apis)), None)
    pipeline = sorted({f.line for f in report.findings
                       if f.outcome is Outcome.LEFT or any(is_pipeline_api(api) for api in f.apis)})
    return {"setup": setup, "pipeline": pipeline}


#: The classes of a pipeline and the methods that build one: where the set-up ends, whether
#: pyflink_compat runs them or not (the preamble is the job's set-up, not its pipeline).
PIPELINE_CLASSES = frozenset({
    "DataStream", "KeyedStream", "WindowedStream", "ConnectedStreams", "DataStreamSink", "Table",
    "GroupedTable", "TableResult", "StatementSet", "Types", "Row", "WatermarkStrategy"})
PIPELINE_METHODS = frozenset({
    "from_source", "add_source", "from_collection", "read_text_file", "create_input", "sql_query",
    "from_path", "from_elements", "from_data_stream", "from_pandas", "from_descriptor", "execute_sql",
    "create_temporary_view"})


def is_pipeline_api(api: str) -> bool:
    """Whether ``api`` (``Owner.member`` or a name) builds or is part of a pipeline."""
    from pyflink_compat.datastream import functions

    owner, _, member = api.rpartition(".")
    first = api.split(".")[0]
    return (member in PIPELINE_METHODS or owner in PIPELINE_CLASSES or first in PIPELINE_CLASSES
            or first in functions.__all__)


def ported_text(text: str, name: str) -> str:
    """The job file with its imports ported (Spark environment only: it needs LibCST)."""
    from pyflink_compat.porting.command import port_text

    return port_text(text, name + ".py", generate=False)[0]


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None)
    return min([node.lineno] + [d.lineno for d in decorators or ()])


def _end_line(node: ast.stmt) -> int:
    return node.end_lineno or node.lineno


def _is_main_block(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    sides = [node.test.left] + list(node.test.comparators)
    return any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides) and any(
        isinstance(s, ast.Constant) and s.value == "__main__" for s in sides)


def _runs_in_scope(node: ast.stmt, line: int) -> bool:
    """Whether the code at ``line`` inside statement ``node`` runs when ``node`` does (a
    definition runs its decorators and bases, not its body)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return line < node.body[0].lineno
    return True


def _holding(body: Sequence[ast.stmt], line: int) -> Optional[ast.stmt]:
    return next((s for s in body if _first_line(s) <= line <= _end_line(s)), None)


def _runs_pipeline(node: ast.stmt, pipeline: Sequence[int], helpers: Set[str]) -> bool:
    """Whether the statement runs a pipeline line, or calls a job function that holds one."""
    if any(_first_line(node) <= p <= _end_line(node) and _runs_in_scope(node, p) for p in pipeline):
        return True
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in helpers
               for n in ast.walk(node))


def _pipeline_helpers(tree: ast.Module, pipeline: Sequence[int]) -> Set[str]:
    """The job's top-level functions whose body holds a pipeline line."""
    return {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and any(node.body[0].lineno <= p <= _end_line(node) for p in pipeline)}


def cut_preamble(text: str, setup: Optional[int], pipeline: Sequence[int]) -> str:
    """The preamble of a job file, from its set-up line and pipeline lines (see the module)."""
    lines = text.splitlines()
    tree = ast.parse(text)

    def source(node: ast.stmt) -> List[str]:
        return lines[_first_line(node) - 1:_end_line(node)]

    holder = None if setup is None else _holding(tree.body, setup)
    top: Optional[Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.If]] = None
    if isinstance(holder, (ast.FunctionDef, ast.AsyncFunctionDef)) or (
            isinstance(holder, ast.If) and _is_main_block(holder)):
        top = holder
    lifted = top is not None
    scope: Sequence[ast.stmt] = top.body if top is not None else tree.body
    helpers = _pipeline_helpers(tree, pipeline)
    if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)):
        helpers.discard(top.name)
    stop = None
    if setup is not None:
        stop = next((_first_line(node) for node in scope
                     if _end_line(node) >= setup and _runs_pipeline(node, pipeline, helpers)), None)
    out: List[str] = []
    for node in tree.body:
        if _is_main_block(node) or _runs_pipeline(node, pipeline, helpers):
            continue
        if not lifted and stop is not None and _first_line(node) >= stop:
            break
        out += source(node)
    if top is not None:
        out.append("if True:  # the set-up of {}".format(
            "the main block" if isinstance(top, ast.If) else top.name))
        kept = [node for node in top.body if (stop is None or _first_line(node) < stop)
                and not _runs_pipeline(node, pipeline, helpers)]
        for node in kept:
            out += source(node)
        if not kept:
            out.append("    pass")
    return "\n".join(out) + "\n"


def whole_file_preamble(name: str, root: str, cut: Dict[str, Any]) -> str:
    """The preamble of job file ``name`` as PyFlink code (``root`` ``pyflink``) or as the
    porting tool writes it (``root`` ``pyflink_compat``)."""
    text = whole_file_text(name)
    if root != "pyflink":
        text = ported_text(text, name)
    return cut_preamble(text, cut["setup"], cut["pipeline"])
