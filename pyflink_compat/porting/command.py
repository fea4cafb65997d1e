"""``pyflink-compat port``: port PyFlink job files, report, and write, diff or check them.

Usage::

    pyflink-compat port PATH... [--write | --diff] [--check] [--format text|markdown|json]
                                [--imports-only] [--to-pyspark]

A directory is searched for ``*.py`` files that import PyFlink; a file named on the command line
must import it. Without ``--write`` nothing is written. ``--write`` replaces each file it could
port completely and keeps the original beside it as ``FILE.orig`` (an existing ``.orig`` copy
is kept as it is). ``--diff`` prints a unified diff of every change on standard output (the
report then goes to standard error). ``--check`` exits with status 1 when a statement is left to
a person or cannot be typed (unknown), or a file was refused, for CI. Progress goes to standard error on long runs.

Exit status: 0 on success, 1 for a path that does not exist, a refused file (or anything left,
with ``--check``), as every ``pyflink-compat`` command fails with 1.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import difflib
import itertools
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator, List, Optional, Sequence, TextIO, Tuple

from pyflink_compat.porting.report import FileReport, RunReport, render

__all__ = ["PortError", "add_arguments", "port_text", "port_file", "job_files", "run"]

#: Progress lines appear on runs of more files than this, at most one a second.
_PROGRESS_FROM = 20
#: Runs of more files than this port them in one process per core.
_PARALLEL_FROM = 50
_SKIPPED_DIRECTORIES = frozenset({"__pycache__", "node_modules", "site-packages"})


class PortError(ValueError):
    """A file the tool refuses: it does not parse, imports no PyFlink, or could not be ported
    completely. The file is left untouched."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``port`` command's arguments."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="job files, or directories to search")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--write", action="store_true",
                     help="write the ported files (each original kept as FILE.orig)")
    how.add_argument("--diff", action="store_true", help="print a unified diff of the changes")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when anything is left to a person (for CI)")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text",
                        help="the report's format (default text)")
    parser.add_argument("--imports-only", action="store_true",
                        help="rewrite the imports only: no comments added")
    parser.add_argument("--to-pyspark", action="store_true",
                        help="write native PySpark for the sources, sinks and SQL the tool can translate "
                             "(else the pipeline stays for pyflink_compat's runtimes)")


def port_text(text: str, path: str = "<string>", generate: bool = True, to_pyspark: bool = False
              ) -> Tuple[str, FileReport]:
    """Port the source ``text`` of one job.

    :param text: The job's source.
    :param path: Its name in the report.
    :param generate: Also mark what is left with comments naming the PySpark way (else only
        the imports change).
    :param to_pyspark: Write native PySpark for the pipeline statements the tool can translate
        (``--to-pyspark``), rather than keeping them for pyflink_compat's runtimes.
    :return: The ported source and the file's report.
    :raises PortError: when the text does not parse, imports no PyFlink, or its ported form
        would not be complete.
    """
    import libcst as cst

    original = text
    if "pyflink" not in text:
        # no name of PyFlink or pyflink_compat: refused before LibCST's providers walk it
        raise PortError("it imports no PyFlink module (nothing to port)")
    from pyflink_compat.porting.classifier import JobPorter

    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        raise PortError("it does not parse as Python: line {}, column {}: {}".format(
            error.raw_line, error.raw_column, error.message)) from None
    # LibCST drops comments indented between two blocks' levels: indent them as the code that
    # follows them, so that no line of the author's is lost (the text is checked only when a
    # comment is indented otherwise than the code after it)
    aligned, moved = _aligned_comments(text)
    if moved and module.code == text:
        moved = []
    if moved:
        text = aligned
        module = cst.parse_module(text)
        if module.code != text or ast.dump(ast.parse(text)) != ast.dump(ast.parse(original)):
            raise PortError("its text does not survive parsing (LibCST loses part of it); the file is "
                            "left as it is")
    porter = JobPorter(module, generate=generate, text=text, to_pyspark=to_pyspark)
    ported = module.visit(porter).code
    while porter.kept - porter.writer.keep:
        # a statement the writer could not write uses a stream or table it wrote as PySpark:
        # port again with those left as they are
        kept = frozenset(porter.kept | porter.writer.keep)
        porter = JobPorter(module, generate=generate, text=text, to_pyspark=to_pyspark, keep=kept)
        ported = module.visit(porter).code
    if not porter.job_imports:
        raise PortError("it imports no PyFlink module (nothing to port)")
    try:
        compile(ported, path, "exec", ast.PyCF_ONLY_AST)
    except SyntaxError as error:  # pragma: no cover - a generator wrote invalid code
        raise PortError("its ported form does not parse ({}); the file is left as it is".format(
            error.msg)) from None
    findings = tuple(sorted(porter.findings, key=lambda f: f.line))
    notes = list(porter.notes)
    if moved:
        notes.append("comments re-indented as the code that follows them (lines {}): the parser keeps no "
                      "comment indented between two blocks".format(", ".join(map(str, moved))))
    report = FileReport(path, findings, porter.imports, ported != original, None, tuple(dict.fromkeys(notes)))
    return ported, report


def _aligned_comments(text: str) -> Tuple[str, List[int]]:
    """``text`` with each comment-only line indented as the next line of code (the module's
    level at the end), and the numbers of the lines that moved."""
    lines = text.splitlines(keepends=True)
    indent = ""
    moved: List[int] = []
    for number in range(len(lines) - 1, -1, -1):
        stripped = lines[number].lstrip(" \t")
        if not stripped.strip():
            continue
        current = lines[number][:len(lines[number]) - len(stripped)]
        if stripped.startswith("#"):
            if current != indent:
                lines[number] = indent + stripped
                moved.append(number + 1)
        else:
            indent = current
    return "".join(lines), sorted(moved)


def port_file(path: str, generate: bool = True, to_pyspark: bool = False) -> Tuple[str, str, FileReport]:
    """Port one file: its original text, its ported text and its report (with ``error`` set and
    the text unchanged when the file is refused)."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        return "", "", FileReport(path, error="it cannot be read: {}".format(error))
    try:
        ported, report = port_text(text, path, generate, to_pyspark)
    except PortError as error:
        return text, text, FileReport(path, error=str(error))
    return text, ported, report


def job_files(paths: Sequence[str]) -> Tuple[List[str], List[str]]:
    """The files to port (named files, and the ``*.py`` files under named directories that
    mention PyFlink), and the paths that do not exist."""
    files: List[str] = []
    missing: List[str] = []
    for given in paths:
        if os.path.isfile(given):
            files.append(given)
        elif os.path.isdir(given):
            for root, directories, names in os.walk(given):
                directories[:] = sorted(d for d in directories
                                        if not d.startswith(".") and d not in _SKIPPED_DIRECTORIES)
                for name in sorted(names):
                    if name.endswith(".py") and _mentions_pyflink(os.path.join(root, name)):
                        files.append(os.path.join(root, name))
        else:
            missing.append(given)
    return list(dict.fromkeys(files)), missing


def _mentions_pyflink(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return b"pyflink" in handle.read()
    except OSError:
        return True  # reported as unreadable when ported


def _write(path: str, original: str, ported: str) -> None:
    backup = path + ".orig"
    if not os.path.exists(backup):
        with open(backup, "w", encoding="utf-8") as handle:
            handle.write(original)
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(prefix=".port-", suffix=".py", dir=directory)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(ported)
    os.replace(temporary, path)


def run(args: argparse.Namespace, out: Optional[TextIO] = None, err: Optional[TextIO] = None) -> int:
    """Carry out ``pyflink-compat port`` with parsed ``args``; returns the exit status."""
    out = out or sys.stdout
    err = err or sys.stderr
    files, missing = job_files(args.paths)
    for path in missing:
        print("error: {}: no such file or directory".format(path), file=err)
    if missing:
        return 1
    reports: List[FileReport] = []
    last = time.monotonic()
    generate = [not args.imports_only] * len(files)
    to_pyspark = [bool(getattr(args, "to_pyspark", False)) and not args.imports_only] * len(files)
    with contextlib.ExitStack() as stack:
        if len(files) > _PARALLEL_FROM and (os.cpu_count() or 1) > 1:
            from concurrent.futures import ProcessPoolExecutor

            _load_for_workers()
            # the first file is ported here, before the workers fork: what it loads and caches
            # (the API's members, the dispatch tables, the SQL parser's) they start with
            first = port_file(files[0], generate[0], to_pyspark[0])
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=os.cpu_count()))
            results: Iterator[Tuple[str, str, FileReport]] = itertools.chain([first], pool.map(
                port_file, files[1:], generate[1:], to_pyspark[1:], chunksize=8))
        else:
            results = map(port_file, files, generate, to_pyspark)
        for number, (path, (original, ported, report)) in enumerate(zip(files, results), 1):
            last = _one_done(args, path, original, ported, report, reports, out, err, number, len(files), last)
    run_report = RunReport(tuple(reports))
    print(render(run_report, args.format), file=err if args.diff else out)
    if run_report.refused or not files:
        if not files:
            print("error: no PyFlink job files found", file=err)
        return 1
    return 1 if args.check and (run_report.left or run_report.unknown) else 0


#: What porting a file imports (LibCST, the API pyflink_compat resolves names in, and what
#: the SQL check needs: the runtime's parser and planner, sqlglot, PySpark's types).
_WORKER_MODULES = ("pyflink_compat.porting.classifier", "pyflink_compat.porting.pipeline",
                   "pyflink_compat.porting.sql_check", "pyflink_compat.sql.planner",
                   "pyflink_compat.sql.statements", "pyflink_compat.sql.types", "pyspark.sql.types")


def _load_for_workers() -> None:
    """Import here what each worker would import for itself: workers forked from this process
    (Linux's default) start with it, instead of each paying its imports (about 0.6 s)."""
    import importlib
    import multiprocessing

    if multiprocessing.get_start_method(allow_none=True) not in (None, "fork"):
        return
    for name in _WORKER_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:  # pragma: no cover - a worker then fails as it would have
            return


def _one_done(args: argparse.Namespace, path: str, original: str, ported: str, report: FileReport,
              reports: List[FileReport], out: TextIO, err: TextIO, number: int, total: int, last: float) -> float:
    """Write, diff and count one ported file; returns when progress was last shown."""
    reports.append(report)
    if report.error is None and report.changed:
        if args.write:
            _write(path, original, ported)
        elif args.diff:
            out.writelines(difflib.unified_diff(
                original.splitlines(keepends=True), ported.splitlines(keepends=True),
                fromfile="a/" + Path(path).as_posix().lstrip("/"), tofile="b/" + Path(path).as_posix().lstrip("/")))
    if total > _PROGRESS_FROM and (time.monotonic() - last >= 1 or number == total):
        last = time.monotonic()
        print("port: {}/{} files".format(number, total), file=err, flush=True)
    return last
