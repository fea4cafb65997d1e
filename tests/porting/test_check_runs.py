"""The porting report tells the truth about every job of the differential corpus
(``tests/differential/corpus.json``, read as it is, whatever jobs it lists):

* ``pyflink-compat port --check`` passes exactly when the ported job runs to its end and gives
  the records recorded from live PyFlink 1.20.5, with and without ``--to-pyspark``;
* every statement of the job that calls pyflink_compat as the job runs (found at run time, by
  watching the calls in the driver and in Spark's Python workers, where the job's functions
  run: ``open``, ``process_element``, timers, key selectors) is in the report.

The runs are those of ``tests/differential/test_differential.py``, made once per session.

What the watch does not see: Table API user functions (``@udf``) run in Spark's own UDF
workers, outside :mod:`pyflink_compat.runtime.worker_calls`; a call of pyflink_compat in one
(a ``Row`` it returns) is in the report because the tool classifies the statements of every
function body of the file whatever runs it, which ``test_corpus.py`` pins for the porting
corpus statement by statement.
"""

from __future__ import annotations

import ast
from typing import Dict, Set

import pytest

from pyflink_compat.cli import main
from pyflink_compat.porting.command import port_text
from tests._helpers.compat_runs import CompatRun, compat_run
from tests._helpers.differential import Job, differences, load_corpus, load_golden

JOBS = load_corpus()


def _gives_pyflinks_records(job: Job, run: CompatRun) -> bool:
    return run.records.error is None and differences(job, load_golden(job), run.records) == []


def _check_passes(job: Job, *options: str) -> bool:
    code = main(["port", str(job.path), "--check", "--format", "json", *options])
    assert code in (0, 1)
    return code == 0


def test_the_corpus_lists_runnable_jobs() -> None:
    assert len(JOBS) >= 10 and any(job.expect == "records" for job in JOBS)


@pytest.mark.parametrize("job", JOBS, ids=[job.name for job in JOBS])
def test_check_passes_exactly_when_the_ported_job_gives_pyflinks_records(
        job: Job, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path_factory.getbasetemp()
    gives = _gives_pyflinks_records(job, compat_run(job, root))
    assert _check_passes(job) == gives
    # --to-pyspark: the same verdict, and the same records from the job it writes
    native, _ = port_text(job.path.read_text(encoding="utf-8"), str(job.path), to_pyspark=True)
    default, _ = port_text(job.path.read_text(encoding="utf-8"), str(job.path))
    if ast.dump(ast.parse(native)) != ast.dump(ast.parse(default)):
        gives = _gives_pyflinks_records(job, compat_run(job, root, native))
    assert _check_passes(job, "--to-pyspark") == gives
    capsys.readouterr()


def _constructs(text: str) -> Set[str]:
    """Which of the constructs the report must follow a job file holds."""
    tree = ast.parse(text)
    found: Set[str] = set()
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pyflink") \
                and any(a.name == "*" for a in node.names):
            found.add("star import")
        elif isinstance(node, ast.ClassDef) and any(isinstance(b, ast.Subscript) for b in node.bases):
            found.add("subscripted base")
        elif isinstance(node, ast.Attribute) and node.attr == "create_statement_set":
            found.add("statement set")
        elif isinstance(node, ast.FunctionDef) and node.name in called and any(
                isinstance(n, ast.Call) for n in ast.walk(node)) and any(
                isinstance(n, ast.arg) and n.arg not in ("self", "value") for n in node.args.args):
            found.add("helper")
    return found


def test_the_watched_jobs_hold_helpers_statement_sets_star_imports_and_subscripted_bases() -> None:
    found: Set[str] = set()
    for job in JOBS:
        found |= _constructs(job.path.read_text(encoding="utf-8"))
    assert found >= {"helper", "statement set", "star import", "subscripted base"}


def _statements(text: str) -> Dict[int, int]:
    """Each line of a job that a statement runs itself (a simple statement's lines, a compound
    statement's header and decorators), mapped to the line the report gives that statement."""
    owner: Dict[int, int] = {}
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.stmt):
            continue
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        body = getattr(node, "body", None)
        last = body[0].lineno - 1 if isinstance(body, list) and body else (node.end_lineno or node.lineno)
        for line in range(first, last + 1):
            owner[line] = node.lineno  # inner statements come later in the walk and win
    return owner


@pytest.mark.parametrize("job", JOBS, ids=[job.name for job in JOBS])
def test_every_statement_that_calls_pyflink_as_the_job_runs_is_in_the_report(
        job: Job, tmp_path_factory: pytest.TempPathFactory) -> None:
    text = job.path.read_text(encoding="utf-8")
    run = compat_run(job, tmp_path_factory.getbasetemp())
    assert run.calls, "no call of pyflink_compat was seen: the run was not watched"
    owner = _statements(text)
    called = {owner[line] for line in run.calls if line in owner}
    _, report = port_text(text, str(job.path))
    reported = {f.line for f in report.findings}
    missed = sorted(called - reported)
    assert missed == [], "\n".join("{}: {}".format(n, text.splitlines()[n - 1].strip()) for n in missed)


def test_the_calls_the_jobs_functions_make_in_sparks_python_workers_are_watched(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    # the keyed function's state is asked for in open() and read and written in
    # process_element(), both run in Spark's Python workers, not in the driver
    job = next(j for j in JOBS if j.name == "pyflink-examples-datastream-state-access")
    lines = job.path.read_text(encoding="utf-8").splitlines()
    run = compat_run(job, tmp_path_factory.getbasetemp())
    for code in ("self.state = runtime_context.get_state(state_descriptor)", "current = self.state.value()",
                 "self.state.update(current)"):
        assert [n for n, line in enumerate(lines, 1) if line.strip() == code][0] in run.calls, code
