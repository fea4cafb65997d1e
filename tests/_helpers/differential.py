"""The differential harness: one job file run under live PyFlink 1.20.5 and under pyflink_compat,
and what its sinks received compared.

A job of the corpus (``tests/differential/corpus.json``) is a whole public PyFlink job file,
stored with its ``pyflink`` imports. A run gets a fresh working directory holding a copy of the
job's inputs, ``sys.argv`` set to the job file and its arguments, and runs the file as
``__main__``:

- with the paths of its ``paths`` mapping (a path the file names, as written there, to a path
  under the working directory) replaced in its text, the same way under both packages, for a
  job that names absolute paths (``/opt/examples/...``) or paths outside its own directory;
- under PyFlink, in a process of its own (``python job.py`` in that directory, as a user runs
  it), so that the JVM that PyFlink launches resolves relative paths against that directory and
  its ``System.out`` (where Flink's print sinks and ``TableResult.print()`` write) is the
  process's standard output;
- under pyflink_compat, in this process, on the test run's Spark session, with the file's
  imports swapped by the porting tool (``pyflink-compat port --imports-only``) and standard
  output captured; nothing else of the file changes.

What the sinks received is every line printed to standard output, less a leading subtask prefix
(``3> ``, which says which parallel instance printed a record, not what the record is) and blank
lines, and the lines of every file under each of the job's output directories (hidden files,
``_SUCCESS`` and checksum files left out). ``append`` jobs compare these as multisets;
``changelog`` jobs compare the table that their printed ``+I/-U/+U/-D[...]`` rows (or rows of
a printed table, ``| +I | ... |``) and the canal-json lines of their files leave, and the set
of row kinds seen (an update's
intermediate rows depend on how records are grouped into batches, the final table and the kinds
do not).

This module imports only the standard library, so the live-PyFlink environment (which has no
pyspark) can use it.
"""

from __future__ import annotations

import collections
import contextlib
import io
import json
import logging
import os
import re
import runpy
import shutil
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

DIFFERENTIAL_DIR = Path(__file__).resolve().parent.parent / "differential"
CORPUS_FILE = DIFFERENTIAL_DIR / "corpus.json"
GOLDEN_DIR = DIFFERENTIAL_DIR / "golden"

#: How long one job may run under PyFlink before the run counts as failed.
PYFLINK_TIMEOUT_S = 600

_SUBTASK_PREFIX = re.compile(r"^\d+> ")
_CHANGELOG_ROW = re.compile(r"^(?:(?P<ident>[^\s:]+:)\s*)?(?P<kind>[+-][IUD])\[(?P<row>.*)\]$")
# a row of a printed TableResult (its kind in the first column)
_TABLEAU_ROW = re.compile(r"^\| (?P<kind>[+-][IUD]) \|(?P<row>.*)$")
_SKIPPED_FILE = re.compile(r"^(?:[._].*|.*\.crc)$")

#: Log records that PyFlink's Python worker (Apache Beam) emits at INFO when it starts: a job
#: whose logging goes to standard output (``logging.basicConfig(stream=sys.stdout, ...)``, as
#: PyFlink's own examples do) prints them among its records. They are not records.
PYFLINK_WORKER_LOG = (
    re.compile(r"^No module named google\.cloud\.bigquery_storage_v1\. As a result, the "
               r"ReadFromBigQuery transform \*CANNOT\* be used with `method=DIRECT_READ`\.$"),
    re.compile(r"^Using Any for unsupported type: "),
)


@dataclass(frozen=True)
class Job:
    """One job of the corpus, as ``corpus.json`` lists it."""

    name: str
    kind: str
    # under the differential directory, or absolute (a job checked out outside the repository)
    file: str
    source: str
    commit: str
    licence: str
    args: Tuple[str, ...] = ()
    inputs: Optional[str] = None
    outputs: Tuple[str, ...] = ()
    compare: str = "append"
    expect: str = "records"
    notes: str = ""
    # registered divergences (pyflink_compat.divergences, ids separated by commas) that excuse
    # a changelog job's row kinds (only its final table is compared), or a job's printed query
    # plans ('table-explain-spark-plan': only what its tables print is compared)
    divergence: str = ""
    # a path the job file names, as written there -> a path under the working directory
    paths: Mapping[str, str] = field(default_factory=dict)

    @property
    def divergences(self) -> Tuple[str, ...]:
        return tuple(d.strip() for d in self.divergence.split(",") if d.strip())

    @property
    def path(self) -> Path:
        return DIFFERENTIAL_DIR / self.file

    @property
    def golden_path(self) -> Path:
        return GOLDEN_DIR / (self.name + ".json")


@dataclass(frozen=True)
class SinkRecords:
    """What a job's sinks received: printed lines and each output directory's lines (sorted,
    so that equal multisets are equal values), or the error that ended the run."""

    printed: Tuple[str, ...] = ()
    files: Mapping[str, Tuple[str, ...]] = field(default_factory=dict)
    error: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        return {"printed": list(self.printed), "files": {k: list(v) for k, v in self.files.items()},
                "error": self.error}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "SinkRecords":
        return cls(tuple(data["printed"]), {k: tuple(v) for k, v in data["files"].items()},
                   data.get("error"))


_KEYS = {"name", "kind", "file", "source", "commit", "licence", "args", "inputs", "outputs",
         "compare", "expect", "notes", "divergence", "paths"}


def load_corpus() -> List[Job]:
    """The jobs of ``corpus.json``, checked: known keys, kinds and comparisons, existing files."""
    jobs = []
    for entry in json.loads(CORPUS_FILE.read_text(encoding="utf-8")):
        unknown = set(entry) - _KEYS
        if unknown:
            raise ValueError("corpus entry %r has unknown keys %s" % (entry.get("name"), sorted(unknown)))
        job = Job(**{**entry, "args": tuple(entry.get("args", ())),
                     "outputs": tuple(entry.get("outputs", ()))})
        if job.kind not in ("table", "datastream"):
            raise ValueError("corpus entry %r: kind must be table or datastream" % job.name)
        if job.compare not in ("append", "changelog"):
            raise ValueError("corpus entry %r: compare must be append or changelog" % job.name)
        if job.expect not in ("records", "not-supported"):
            raise ValueError("corpus entry %r: expect must be records or not-supported" % job.name)
        if not job.path.is_file():
            raise ValueError("corpus entry %r: no file %s" % (job.name, job.file))
        text = job.path.read_text(encoding="utf-8")
        for named, target in job.paths.items():
            if named not in text:
                raise ValueError("corpus entry %r: the file names no path %r" % (job.name, named))
            if Path(target).is_absolute() or ".." in Path(target).parts:
                raise ValueError("corpus entry %r: %r is not a path under the working directory"
                                 % (job.name, target))
        jobs.append(job)
    names = [job.name for job in jobs]
    if len(set(names)) != len(names):
        raise ValueError("corpus names repeat: %s" % sorted(n for n in names if names.count(n) > 1))
    return jobs


def printed_lines(text: str) -> List[str]:
    """The records in printed ``text``: non-blank lines without a subtask prefix."""
    lines = []
    for line in text.splitlines():
        line = _SUBTASK_PREFIX.sub("", line.rstrip())
        if line.strip():
            lines.append(line)
    return lines


def output_lines(workdir: Path, outputs: Sequence[str]) -> Dict[str, Tuple[str, ...]]:
    """Every line of every visible file under each output directory (or file), sorted."""
    found: Dict[str, Tuple[str, ...]] = {}
    for output in outputs:
        root = workdir / output
        lines: List[str] = []
        paths = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in paths:
            relative = path.relative_to(workdir).parts
            if any(_SKIPPED_FILE.match(part) for part in relative[len(Path(output).parts):]):
                continue
            lines.extend(line for line in path.read_text(encoding="utf-8").splitlines() if line)
        found[output] = tuple(sorted(lines))
    return found


def mapped_paths(job: Job, text: str, workdir: Path) -> str:
    """``text`` with every path of the job's ``paths`` mapping replaced by the absolute path it
    maps to under ``workdir`` (longest first, so that a path is never replaced inside a longer
    one)."""
    for named in sorted(job.paths, key=len, reverse=True):
        text = text.replace(named, str(workdir.resolve() / job.paths[named]))
    return text


def prepare_workdir(job: Job, workdir: Path) -> None:
    """Fill ``workdir`` with a copy of the job's inputs."""
    workdir.mkdir(parents=True, exist_ok=True)
    if job.inputs:
        shutil.copytree(DIFFERENTIAL_DIR / job.inputs, workdir, dirs_exist_ok=True)


def run_under_pyflink(job: Job, workdir: Path, python: str = sys.executable) -> SinkRecords:
    """Run ``job`` with live PyFlink: ``python job.py ARGS`` in ``workdir``."""
    prepare_workdir(job, workdir)
    script = workdir / Path(job.file).name
    script.write_text(mapped_paths(job, job.path.read_text(encoding="utf-8"), workdir), encoding="utf-8")
    # As in an activated environment: PyFlink starts its Python workers as ``python``.
    env = dict(os.environ, PATH=os.pathsep.join([os.path.dirname(python), os.environ.get("PATH", "")]))
    try:
        done = subprocess.run([python, script.name, *job.args], cwd=str(workdir), env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              timeout=PYFLINK_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return SinkRecords(error="timed out after %d s" % PYFLINK_TIMEOUT_S)
    script.unlink()
    error = None
    if done.returncode != 0:
        error = "exit code %d: %s" % (done.returncode, last_error_line(done.stderr))
    printed = [line for line in printed_lines(done.stdout)
               if not any(noise.match(line) for noise in PYFLINK_WORKER_LOG)]
    return SinkRecords(tuple(sorted(printed)), output_lines(workdir, job.outputs), error)


def last_error_line(stderr: str) -> str:
    """The line of a traceback that names the exception."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    for line in reversed(lines):
        if re.match(r"^[\w.]+(Error|Exception)\b", line):
            return line
    return lines[-1] if lines else ""


def ported_source(job: Job) -> str:
    """The job's source with its imports swapped to pyflink_compat, as the porting tool does."""
    from pyflink_compat.porting.command import port_text

    ported, _ = port_text(job.path.read_text(encoding="utf-8"), str(job.path), generate=False)
    return ported


class _Tee(io.TextIOBase):
    """A text stream that every thread writes to (print sinks print from Spark's callback
    threads), kept whole."""

    def __init__(self) -> None:
        self._parts: List[str] = []
        self._lock = threading.Lock()

    def write(self, text: str) -> int:
        with self._lock:
            self._parts.append(text)
        return len(text)

    def getvalue(self) -> str:
        with self._lock:
            return "".join(self._parts)


@contextlib.contextmanager
def _job_process_state(workdir: Path, argv: List[str]) -> Iterator[None]:
    """The working directory, ``sys.argv``, ``sys.path`` and logging of a job run, restored
    afterwards. As for ``python job.py``, the job's directory comes first on ``sys.path`` (a job
    imports the modules beside it); what it imported from there is forgotten afterwards.

    Logging starts as a script's does, with no handler anywhere (pytest's log capture attaches
    its handlers to the root logger and to every logger that does not propagate), so that a job
    which configures logging to standard output prints there exactly what it would print run
    by itself."""
    from pyflink_compat._logging import remove_default_handler

    cwd, saved_argv, saved_path = os.getcwd(), sys.argv, list(sys.path)
    loggers = [logging.getLogger()] + [
        logger for logger in logging.Logger.manager.loggerDict.values() if isinstance(logger, logging.Logger)]
    saved_logging = [(logger, logger.handlers, logger.level) for logger in loggers]
    for logger in loggers:
        logger.handlers = []
    logging.getLogger().setLevel(logging.WARNING)
    os.chdir(workdir)
    sys.argv = argv
    sys.path.insert(0, str(workdir.resolve()))
    try:
        yield
    finally:
        sys.argv = saved_argv
        sys.path[:] = saved_path
        for name, module in list(sys.modules.items()):
            if str(getattr(module, "__file__", None) or "").startswith(str(workdir.resolve())):
                del sys.modules[name]
        os.chdir(cwd)
        remove_default_handler()
        for logger, handlers, level in saved_logging:
            logger.handlers = handlers
            logger.setLevel(level)


@contextlib.contextmanager
def _calls_into_compat(script: Path, lines: Optional[set]) -> Iterator[None]:
    """While the block runs, add to ``lines`` each line of ``script`` that calls a public
    function, method or constructor of pyflink_compat (nothing when ``lines`` is None): in
    this thread, in the threads started meanwhile (where Spark calls ``foreachBatch``
    functions) and in Spark's Python workers, where the job's functions run
    (:mod:`pyflink_compat.runtime.worker_calls`)."""
    if lines is None:
        yield
        return
    from pyflink_compat.runtime.worker_calls import recorder, watching
    from pyflink_compat.runtime.worker_output import directory

    profile = recorder(str(script), lines)
    previous, previous_threads = sys.getprofile(), threading.getprofile()
    sys.setprofile(profile)
    threading.setprofile(profile)
    try:
        with watching(directory(), str(script), lines):
            yield
    finally:
        sys.setprofile(previous)
        threading.setprofile(previous_threads)  # type: ignore[arg-type]


def run_under_compat(job: Job, workdir: Path, source: Optional[str] = None,
                     calls: Optional[set] = None) -> SinkRecords:
    """Run ``job`` with its imports swapped to pyflink_compat, in this process.

    :param source: The ported job to run (by default the job with its imports swapped).
    :param calls: When given, the lines of the job that call pyflink_compat's public functions,
        methods and constructors as it runs (in this process) are added to it.
    """
    prepare_workdir(job, workdir)
    script = workdir / Path(job.file).name
    script.write_text(mapped_paths(job, ported_source(job) if source is None else source, workdir),
                      encoding="utf-8")
    out = _Tee()
    error = None
    with _job_process_state(workdir, [script.name, *job.args]), contextlib.redirect_stdout(out), \
            _calls_into_compat(script, calls):
        try:
            runpy.run_path(str(script), run_name="__main__")
        except SystemExit as exit_:
            if exit_.code not in (None, 0):
                error = "exit code %s" % (exit_.code,)
        except Exception as exc:  # noqa: BLE001 - the outcome is compared, not raised
            return _failed(out, workdir, job, exc)
    script.unlink()
    return SinkRecords(tuple(sorted(printed_lines(out.getvalue()))), output_lines(workdir, job.outputs), error)


def _failed(out: _Tee, workdir: Path, job: Job, exc: BaseException) -> SinkRecords:
    """The records of a run that raised, its error named by the exception's class chain."""
    chain = [cls.__name__ for cls in type(exc).__mro__ if cls not in (object, BaseException)]
    message = str(exc).splitlines()[0] if str(exc) else ""
    return SinkRecords(tuple(sorted(printed_lines(out.getvalue()))), output_lines(workdir, job.outputs),
                       error="%s: %s" % ("/".join(chain), message))


def _canal_record(line: str) -> Optional[Tuple[str, str]]:
    """The type and row of a canal-json line (``{"data":[{...}],"type":"INSERT"}``), or None."""
    if not line.startswith('{"data":'):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    if not isinstance(record, dict) or record.get("type") not in ("INSERT", "DELETE"):
        return None
    return record["type"], json.dumps(record["data"], sort_keys=True)


def changelog_table(lines: Sequence[str]) -> Tuple[Dict[str, int], List[str]]:
    """The rows a printed changelog leaves (row text to count) and the row kinds it shows.

    ``+I`` and ``+U`` add a row, ``-U`` and ``-D`` take one away; a line that is no changelog row
    is kept as an added row, so that nothing printed goes unchecked.
    """
    table: Dict[str, int] = collections.Counter()
    kinds = set()
    for line in lines:
        canal = _canal_record(line)
        if canal is not None:
            kinds.add(canal[0])
            table[canal[1]] += 1 if canal[0] == "INSERT" else -1
            continue
        match = _CHANGELOG_ROW.match(line) or _TABLEAU_ROW.match(line)
        if not match:
            table[line] += 1
            continue
        kinds.add(match.group("kind"))
        row = (match.groupdict().get("ident") or "") + match.group("row")
        table[row] += 1 if match.group("kind") in ("+I", "+U") else -1
    return {row: n for row, n in table.items() if n}, sorted(kinds)


#: What a table prints (``TableResult.print()``, ``Table.print_schema()``): borders, rows,
#: the row count, the schema's lines.
_TABLE_OUTPUT = re.compile(r"^(?:\+[-+]+\+|\|.*\||\d+ rows? in set|Empty set|\(|\)|  `.*)$")


def _without_plans(records: SinkRecords) -> SinkRecords:
    """``records`` with only what tables print: the lines of printed query plans left out."""
    return SinkRecords(tuple(line for line in records.printed if _TABLE_OUTPUT.match(line)),
                       records.files, records.error)


_ROW_COUNT = re.compile(r"^\d+ rows? in set$")


def _counted(lines: Sequence[str], excused: bool) -> Sequence[str]:
    """``lines`` without the row counts of printed tables when the row kinds are excused: a
    printed table counts its changelog records, which the kinds' divergence changes."""
    return [line for line in lines if not _ROW_COUNT.match(line)] if excused else lines


def differences(job: Job, expected: SinkRecords, actual: SinkRecords) -> List[str]:
    """How ``actual`` differs from ``expected`` for ``job``; empty when they agree."""
    found: List[str] = []
    if "table-explain-spark-plan" in job.divergences:
        expected, actual = _without_plans(expected), _without_plans(actual)
    if expected.error is not None or actual.error is not None:
        found.append("error: expected %r, got %r" % (expected.error, actual.error))
    if job.compare == "changelog":
        excused = bool(set(job.divergences) - {"table-explain-spark-plan"})
        want, want_kinds = changelog_table(_counted(expected.printed, excused))
        got, got_kinds = changelog_table(_counted(actual.printed, excused))
        if want != got:
            found.append("final table: " + _multiset_diff(want, got))
        if want_kinds != got_kinds and not excused:
            found.append("row kinds: expected %s, got %s" % (want_kinds, got_kinds))
    elif expected.printed != actual.printed:
        found.append("printed: " + _multiset_diff(collections.Counter(expected.printed),
                                                  collections.Counter(actual.printed)))
    for output in sorted(set(expected.files) | set(actual.files)):
        want_lines, got_lines = expected.files.get(output, ()), actual.files.get(output, ())
        if job.compare == "changelog":
            # files of a changelog format (canal-json): their final table, as for printed rows
            want_files, _ = changelog_table(want_lines)
            got_files, _ = changelog_table(got_lines)
            if want_files != got_files:
                found.append("%s: final table: %s" % (output, _multiset_diff(want_files, got_files)))
            continue
        if want_lines != got_lines:
            found.append("%s: %s" % (output, _multiset_diff(collections.Counter(want_lines),
                                                            collections.Counter(got_lines))))
    return found


def _multiset_diff(want: Mapping[str, int], got: Mapping[str, int], most: int = 8) -> str:
    missing = [(row, n - got.get(row, 0)) for row, n in want.items() if n > got.get(row, 0)]
    extra = [(row, n - want.get(row, 0)) for row, n in got.items() if n > want.get(row, 0)]
    parts = []
    if missing:
        parts.append("%d missing %s" % (sum(n for _, n in missing), [r for r, _ in missing[:most]]))
    if extra:
        parts.append("%d unexpected %s" % (sum(n for _, n in extra), [r for r, _ in extra[:most]]))
    return "; ".join(parts) or "same rows, other counts"


def load_golden(job: Job, golden_dir: Optional[Path] = None) -> SinkRecords:
    """The records recorded for ``job`` from live PyFlink 1.20.5 (in ``golden_dir``, by default
    the corpus's)."""
    path = job.golden_path if golden_dir is None else golden_dir / (job.name + ".json")
    data = json.loads(path.read_text(encoding="utf-8"))
    return SinkRecords.from_json(data["records"])


def write_golden(job: Job, records: SinkRecords, pyflink_version: str) -> None:
    """Record ``records`` as what PyFlink ``pyflink_version`` gave for ``job``."""
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    data = {"job": job.name, "pyflink": pyflink_version, "records": records.to_json()}
    job.golden_path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
