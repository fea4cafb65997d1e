"""The ``pyflink-compat`` commands shaped like Flink's command line: ``run``, ``list``, ``info``,
``savepoint``, ``stop`` and ``cancel`` (:func:`add_commands` adds them to the command line of
:mod:`pyflink_compat.cli`).

Usage (Flink's option names and short flags)::

    pyflink-compat run [-d] [-s PATH] [-n] [-cm CLAIM|NO_CLAIM|LEGACY] [-p N] [-D key=value]...
                       [-m MASTER] [--log FILE] [-py] job.py [args...]
    pyflink-compat list [-r | -s | -a] [-D key=value]... [--json]
    pyflink-compat info JOB [-D key=value]... [--json]
    pyflink-compat savepoint JOB [DIR] [-D key=value]... [--json]
    pyflink-compat savepoint -d SAVEPOINT_PATH [--json]
    pyflink-compat stop [-p DIR] JOB [-D key=value]... [--json]
    pyflink-compat cancel JOB [-D key=value]... [--json]

Every command works with the configuration ``flink run`` would: ``$FLINK_CONF_DIR``'s
``config.yaml`` (or ``flink-conf.yaml``), then the ``-D`` options, which win
(:mod:`pyflink_compat.settings.config_file`). ``run`` passes it to the job; the other commands
find the jobs in the registry of its checkpoint directory (``execution.checkpointing.dir``, or
``state.checkpoints.dir``), see :mod:`pyflink_compat.spark.job_registry`, and reach a running
job through its control channel (:mod:`pyflink_compat.spark.control_channel`), waiting at most
``client.timeout`` (60 s by default) for its answer. ``JOB`` is a job id, a prefix of one that
no other job has, or a job name.

With ``-d``, ``run`` waits until the job runs (or has ended) and prints its id; a program that
ended first, refused, gives the error it ended with (a bad ``-s`` path, a bad ``-D`` value).
Without ``-d``, ``run`` prints each job's id as soon as the job records itself (``Job has been
submitted with JobID ...``), waits for the program's end, and exits as the program and its jobs
ended (:func:`attached_outcome`).

Failures are :class:`~pyflink_compat.command_output.CommandError`, with Flink's CLI's exit codes
(1, or 31 when the configuration cannot be read) and their finer reason.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from pyflink_compat.checkpoints import CheckpointFileError, dispose_savepoint
from pyflink_compat.checkpoints.file_access import local_path
from pyflink_compat.command_session import spark_for_paths
from pyflink_compat.command_output import EXIT_FAILED, EXIT_OK, CommandError, table
from pyflink_compat.common.job_execution_result import JobExecutionResult
from pyflink_compat.common.job_id import JobID
from pyflink_compat.settings import values
from pyflink_compat.settings.config_file import ConfigFileError, flink_configuration
from pyflink_compat.settings.registry import SETTINGS_BY_NAME
from pyflink_compat.spark.control_channel import (
    POLL_SECONDS, Action, JobNotRunning, NoAnswer, Request, RequestFailed, send_request)
from pyflink_compat.spark.job_registry import (
    GONE, TERMINAL, JobNotFound, JobRecord, JobRegistry, driver_gone, find_job, no_progress, shown_status)
from pyflink_compat.spark.job_submission import (
    Submission, absolute, program_failure, start, wait_for_record, wait_until_running)

__all__ = ["add_commands", "attached_outcome", "COMMANDS"]

#: The commands of this module, in the order ``--help`` lists them.
COMMANDS = ("run", "list", "info", "savepoint", "stop", "cancel")
#: The statuses of a job ``list`` shows as scheduled, as Flink does.
_SCHEDULED = ("CREATED", "INITIALIZING")
#: Flink's ``client.timeout`` default, in seconds.
_CLIENT_TIMEOUT = 60.0
#: How long ``run -d`` waits for the job it started to record itself, in seconds.
_REGISTRATION_SECONDS = 300.0
#: How often an attached ``run`` looks for further jobs of its program once one recorded itself.
_ATTACHED_POLL_SECONDS = 1.0
#: The claim modes ``--claimMode`` takes (any case, as Flink reads them).
_CLAIM_MODES = ("CLAIM", "NO_CLAIM", "LEGACY")
#: What Flink 1.20's CLI prints (to standard output) when a job is restored in LEGACY mode.
LEGACY_WARNING = "Warning: The LEGACY restore mode is deprecated, please use CLAIM or NO_CLAIM mode instead."
#: What it prints for the deprecated ``--restoreMode`` option.
RESTORE_MODE_WARNING = "The option 'restoreMode' is deprecated. Please use 'claimMode' instead."

_DRAIN_REFUSED = ("stop --drain is not supported: Spark cannot advance the watermark to the end of "
                  "event time before stopping, so event-time windows and timers would not fire. Stop "
                  "without --drain (the savepoint keeps them, and the job resumed from it fires them), or "
                  "end the input so that a bounded sink finishes.")

#: The result of a command: its exit code, its result for ``--json`` and its lines of text.
Outcome = Tuple[int, Dict[str, Any], List[str]]


# -- the command line ---------------------------------------------------------------------------------
def _dynamic(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-D", dest="dynamic", action="append", default=[], metavar="key=value",
                        help="a Flink option, over the configuration file's")
    parser.add_argument("--json", action="store_true", help="print one JSON document for programs")


def _claim_mode(text: str) -> str:
    mode = text.strip().upper()
    if mode not in _CLAIM_MODES:
        raise argparse.ArgumentTypeError("{!r} is not a claim mode (one of claim, no_claim, legacy)".format(text))
    return mode


def add_commands(commands: "argparse._SubParsersAction[Any]") -> None:
    """Add ``run``, ``list``, ``info``, ``savepoint``, ``stop`` and ``cancel`` to a command line;
    each sets ``handler`` to the function that carries it out (it returns an :data:`Outcome`)."""

    def command(name: str, text: str, handler: Callable[[argparse.Namespace], Outcome]) -> argparse.ArgumentParser:
        parser = commands.add_parser(name, help=text, description=text)
        parser.set_defaults(handler=handler)
        return parser

    run = command("run", "Run a job program, as flink run does.", _run)
    run.add_argument("-d", "--detached", action="store_true", help="do not wait for the job to end")
    run.add_argument("-s", "--fromSavepoint", dest="from_savepoint", default=None, metavar="PATH",
                     help="restore from this savepoint or retained checkpoint")
    run.add_argument("-n", "--allowNonRestoredState", dest="allow_non_restored", action="store_true",
                     help="skip saved state no query of the job takes")
    run.add_argument("-cm", "--claimMode", dest="claim_mode", default=None, type=_claim_mode,
                     metavar="CLAIM|NO_CLAIM|LEGACY",
                     help="whether the job takes over the checkpoint it restores from (LEGACY is deprecated, "
                          "and taken as NO_CLAIM)")
    run.add_argument("-rm", "--restoreMode", dest="restore_mode", default=None, type=_claim_mode,
                     metavar="CLAIM|NO_CLAIM|LEGACY", help="deprecated: use --claimMode")
    run.add_argument("-p", "--parallelism", type=int, default=None, help="the job's parallelism")
    run.add_argument("-m", "--master", "--jobmanager", dest="master", default=None,
                     help="the Spark master to submit to with spark-submit (default: run locally)")
    run.add_argument("--log", default=None, help="with -d: the file the job's output goes to")
    run.add_argument("-py", "--python", dest="script", default=None, help="the Python job program")
    run.add_argument("program", nargs=argparse.REMAINDER, help="the program (without -py) and its arguments")
    _dynamic(run)

    listing = command("list", "List the jobs.", _list)
    which = listing.add_mutually_exclusive_group()
    which.add_argument("-r", "--running", action="store_true", help="only running and restarting jobs")
    which.add_argument("-s", "--scheduled", action="store_true", help="only scheduled jobs (created, not yet running)")
    which.add_argument("-a", "--all", action="store_true", help="also the jobs that ended")
    _dynamic(listing)

    info = command("info", "Show a job and its checkpoints.", _info)
    info.add_argument("job")
    _dynamic(info)

    savepoint = command("savepoint", "Take a savepoint of a running job (savepoint JOB [DIR]), or dispose of "
                                     "one (savepoint -d PATH).", _savepoint)
    savepoint.add_argument("-d", "--dispose", default=None, metavar="PATH", help="dispose of this savepoint")
    savepoint.add_argument("job", nargs="?", help="the job's id, a prefix of it, or its name")
    savepoint.add_argument("directory", nargs="?", help="where to write the savepoint (default: the job's "
                                                        "configured savepoint directory)")
    _dynamic(savepoint)

    stop = command("stop", "Stop a job with a savepoint.", _stop)
    stop.add_argument("-p", "--savepointPath", dest="directory", default=None, metavar="DIR",
                      help="where to write the savepoint (default: the job's configured savepoint directory)")
    stop.add_argument("-d", "--drain", action="store_true", help="refused: Spark cannot drain event time")
    stop.add_argument("job")
    _dynamic(stop)

    cancel = command("cancel", "Cancel a job.", _cancel)
    cancel.add_argument("job")
    _dynamic(cancel)


# -- configuration and the registry --------------------------------------------------------------------
def _options(args: argparse.Namespace) -> Dict[str, str]:
    dynamic: Dict[str, str] = {}
    for item in args.dynamic:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise CommandError("-D takes key=value, got {!r}".format(item), "usage")
        dynamic[key.strip()] = value
    try:
        return flink_configuration(dynamic)
    except ConfigFileError as e:
        raise CommandError(str(e), "configuration", e.path) from e
    except OSError as e:
        raise CommandError("The Flink configuration file cannot be read: {}".format(e), "configuration",
                           e.filename) from e


def _first(options: Mapping[str, str], setting: str) -> Optional[str]:
    for key in SETTINGS_BY_NAME[setting].all_keys:
        if options.get(key, "").strip():
            return options[key].strip()
    return None


def _timeout(options: Dict[str, str]) -> float:
    text = options.get("client.timeout")
    if text is None:
        return _CLIENT_TIMEOUT
    try:
        return values.to_seconds(values.parse_duration(text))
    except ValueError:
        raise CommandError("client.timeout: {!r} is not a duration".format(text), "configuration") from None


@contextlib.contextmanager
def _registry(options: Dict[str, str]) -> Iterator[JobRegistry]:
    storage = _first(options, "checkpoint_dir")
    if storage is None:
        raise CommandError("No checkpoint directory is configured, so no job can be found: set "
                           "execution.checkpointing.dir in $FLINK_CONF_DIR/config.yaml, or pass "
                           "-D execution.checkpointing.dir=<dir> (the jobs' checkpoint directory).", "no-job")
    with spark_for_paths([storage]):
        try:
            registry = JobRegistry(storage)
        except CheckpointFileError as e:
            raise CommandError("The checkpoint directory {} cannot be read: {}".format(storage, e), "storage",
                               storage) from e
        yield registry


def _job(registry: JobRegistry, reference: str) -> JobRecord:
    try:
        return find_job(registry.records(), reference)
    except JobNotFound as e:
        raise CommandError("{} (checkpoint directory {})".format(e, registry.storage_dir), "no-job") from e


# -- text -------------------------------------------------------------------------------------------------
def _when(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    return time.strftime("%d.%m.%Y %H:%M:%S", time.localtime(seconds))


def _row(record: JobRecord) -> str:
    """One job as ``flink list`` shows it."""
    status = shown_status(record)
    return "{} : {} : {} ({})".format(_when(record.started), record.job_id, record.name, status)


def _described(record: JobRecord) -> Dict[str, Any]:
    data = record.to_json()
    data["shown_status"] = shown_status(record)
    data["driver_gone"] = driver_gone(record)
    data["no_progress"] = no_progress(record)
    return data


def _info_lines(record: JobRecord) -> List[str]:
    status = shown_status(record)
    lines = ["Job {} ({})".format(record.name, record.job_id),
             "  status: {}{}".format(status, " ({})".format(driver_gone(record)) if status == GONE else
                                     " ({})".format(no_progress(record)) if no_progress(record) else ""),
             "  history: " + ", ".join("{} {}".format(c.status, _when(c.time)) for c in record.history),
             "  driver: process {} on {}, Spark application {}, master {}, UI {}".format(
                 record.pid, record.host, record.app_id or "-", record.master or "-", record.ui_url or "-"),
             "  checkpoints: {} ({} completed, {} failed, {} restarts)".format(
                 record.job_dir or "temporary locations", record.completed, record.failed, record.restarts)]
    if record.savepoint:
        lines.append("  newest savepoint: {} ({})".format(record.savepoint, _when(record.savepoint_time)))
    if record.error:
        lines.append("  error: {}".format(record.error))
    if record.checkpoints:
        lines.append("  checkpoint history (newest {}):".format(len(record.checkpoints)))
        rows: List[Tuple[str, ...]] = [("id", "sink", "batch", "time", "duration", "state size", "records")]
        for c in record.checkpoints:
            rows.append(("chk-{}".format(c["id"]), str(c["sink"]), str(c["batch"]), _when(c["time"] / 1000.0),
                         "{} ms".format(c["duration_ms"]), "{} B".format(c["state_size"]), str(c["records"])))
        lines += table(rows, indent=4)
    if record.failed_checkpoints:
        lines.append("  failed checkpoints (newest {}):".format(len(record.failed_checkpoints)))
        lines += table([("time", "sink", "reason")] + [(_when(c["time"]), str(c["sink"]), str(c["reason"]))
                                                        for c in record.failed_checkpoints], indent=4)
    return lines


# -- the commands ------------------------------------------------------------------------------------------
def _list(args: argparse.Namespace) -> Outcome:
    """The jobs, in Flink's sections and lines (with one of ours: the jobs whose driver is gone)."""
    options = _options(args)
    with _registry(options) as registry:
        records = registry.records()
    live = [r for r in records if shown_status(r) not in TERMINAL + (GONE,)]
    scheduled = [r for r in live if r.status in _SCHEDULED]
    running = [r for r in live if r.status not in _SCHEDULED]
    gone = [r for r in records if shown_status(r) == GONE]
    ended = [r for r in records if r.terminal]
    # as Flink: no option shows the running and the scheduled jobs, -a also those that ended
    show_running = args.running or args.all or not args.scheduled
    show_scheduled = args.scheduled or args.all or not args.running
    shown = (running if show_running else []) + (scheduled if show_scheduled else []) + \
        ([] if args.running or args.scheduled else gone) + (ended if args.all else [])
    result = {"storage": registry.storage_dir, "jobs": [_described(r) for r in shown]}
    line = "-" * 62
    lines = ["Waiting for response..."]
    if show_running:
        lines += ["------------------ Running/Restarting Jobs -------------------"] + \
            [_row(r) for r in running] + [line] if running else ["No running jobs."]
    if show_scheduled:
        lines += ["----------------------- Scheduled Jobs -----------------------"] + \
            [_row(r) for r in scheduled] + [line] if scheduled else ["No scheduled jobs."]
    stalled = [(r, no_progress(r)) for r in running] if show_running else []
    if any(reason for _, reason in stalled):
        lines += ["-------------- Running jobs making no progress ---------------"] + \
            ["{}: {}".format(_row(r), reason) for r, reason in stalled if reason] + [line]
    if gone and not (args.running or args.scheduled):
        lines += ["---------------- Jobs whose driver is gone -------------------"] + \
            ["{}: {}".format(_row(r), driver_gone(r)) for r in gone] + [line]
    if args.all and ended:
        lines += ["---------------------- Terminated Jobs -----------------------"] + \
            [_row(r) for r in ended] + [line]
    return EXIT_OK, result, lines


def _info(args: argparse.Namespace) -> Outcome:
    """A job; by name, when several runs of it are recorded and none runs, the newest (a request
    still needs the one that runs, or its id)."""
    with _registry(_options(args)) as registry:
        records = registry.records()
        named = [r for r in records if r.name == args.job]
        if len(named) > 1 and all(shown_status(r) in TERMINAL + (GONE,) for r in named) and \
                not any(r.job_id.startswith(args.job.lower()) for r in records):
            record = named[-1]
        else:
            record = _job(registry, args.job)
    return EXIT_OK, _described(record), _info_lines(record)


def _request(options: Dict[str, str], reference: str, action: Action,
             directory: Optional[str]) -> Tuple[JobRecord, Optional[str]]:
    """Send a request to a running job and wait for its answer: the job and the result."""
    timeout = _timeout(options)
    with _registry(options) as registry:
        record = _job(registry, reference)
        request = Request.new(action, None if directory is None else absolute(directory))
        try:
            ack = send_request(registry, record.job_id, request, timeout)
        except JobNotRunning as e:
            raise CommandError(str(e), "not-running") from e
        except RequestFailed as e:
            raise CommandError("Job {} ({}): {} failed: {}".format(record.name, record.job_id, action.value, e),
                               "failed") from e
        except NoAnswer as e:
            raise CommandError(str(e), "no-answer") from e
        except OSError as e:
            raise CommandError("The request cannot be written to {}: {}".format(registry.storage_dir, e),
                               "permission" if isinstance(e, PermissionError) else "storage",
                               e.filename or registry.storage_dir) from e
    return record, ack.result


def _flink_path(path: Optional[str]) -> Optional[str]:
    """A path as Flink's CLI prints it: a local one with the ``file:`` scheme."""
    if path is None or path.startswith("file:") or local_path(path) is None:
        return path
    return "file:" + path


def _savepoint(args: argparse.Namespace) -> Outcome:
    if args.dispose is not None:
        if args.job is not None:
            raise CommandError("savepoint -d takes the savepoint's path only", "usage")
        with spark_for_paths([args.dispose]):
            try:
                dispose_savepoint(args.dispose)
            except CheckpointFileError as e:
                raise CommandError(str(e), "storage", e.path) from e
        return EXIT_OK, {"disposed": args.dispose}, [
            "Disposing savepoint '{}'.".format(args.dispose), "Waiting for response...",
            "Savepoint '{}' disposed.".format(args.dispose)]
    if args.job is None:
        raise CommandError("savepoint needs a job id or name (or -d PATH to dispose of a savepoint)", "usage")
    record, path = _request(_options(args), args.job, Action.SAVEPOINT, args.directory)
    return EXIT_OK, {"job_id": record.job_id, "name": record.name, "savepoint": path}, [
        "Triggering savepoint for job {}.".format(record.job_id), "Waiting for response...",
        "Savepoint completed. Path: {}".format(_flink_path(path)),
        "You can resume your program from this savepoint with the run command."]


def _stop(args: argparse.Namespace) -> Outcome:
    if args.drain:
        raise CommandError(_DRAIN_REFUSED, "not-supported")
    record, path = _request(_options(args), args.job, Action.STOP, args.directory)
    return EXIT_OK, {"job_id": record.job_id, "name": record.name, "savepoint": path}, [
        # Flink's lines: its default savepoint format is named though Spark has only one
        "Suspending job \"{}\" with a CANONICAL savepoint.".format(record.job_id),
        "Triggering stop-with-savepoint for job {}.".format(record.job_id), "Waiting for response...",
        "Savepoint completed. Path: {}".format(_flink_path(path))]


def _cancel(args: argparse.Namespace) -> Outcome:
    record, _ = _request(_options(args), args.job, Action.CANCEL, None)
    return EXIT_OK, {"job_id": record.job_id, "name": record.name, "cancelled": True}, [
        "Cancelling job {}.".format(record.job_id), "Cancelled job {}.".format(record.job_id)]


def _given_claim_mode(args: argparse.Namespace) -> Optional[str]:
    """The claim mode of ``run``'s options, printing Flink's warnings as its CLI does when the job
    restores (``-s``): for the deprecated ``--restoreMode`` and for ``LEGACY``. LEGACY goes to the
    job as it is, which takes it as NO_CLAIM (Flink's LEGACY never claims nor deletes the restored
    files either)."""
    mode = args.claim_mode
    out = sys.stderr if args.json else sys.stdout  # the JSON document stays alone on standard output
    if mode is None and args.restore_mode is not None:
        mode = args.restore_mode
        if args.from_savepoint is not None:
            print(RESTORE_MODE_WARNING, file=out)
    if mode == "LEGACY" and args.from_savepoint is not None:
        print(LEGACY_WARNING, file=out)
    return mode


def _submission(args: argparse.Namespace, options: Dict[str, str]) -> Submission:
    program = list(args.program)
    if program and program[0] == "--":
        program = program[1:]
    script = args.script
    if script is None:
        if not program:
            raise CommandError("run needs a Python job program (-py job.py, or job.py)", "usage")
        script, program = program[0], program[1:]
    if not script.endswith(".py"):
        raise CommandError("run takes a Python program (a .py file), got {!r}".format(script), "usage")
    if not os.path.isfile(script):
        raise CommandError("The job program {} does not exist".format(script), "usage", script)
    flags = {}
    if args.from_savepoint is not None:
        flags["execution.state-recovery.path"] = absolute(args.from_savepoint)
    if args.allow_non_restored:
        flags["execution.state-recovery.ignore-unclaimed-state"] = "true"
    claim_mode = _given_claim_mode(args)
    if claim_mode is not None:
        flags["execution.state-recovery.claim-mode"] = claim_mode
    if args.parallelism is not None:
        if args.parallelism < 1:
            raise CommandError("-p takes a parallelism of at least 1", "usage")
        flags["parallelism.default"] = str(args.parallelism)
    merged = dict(options)
    for key, value in flags.items():
        if key not in {k.partition("=")[0].strip() for k in args.dynamic}:  # -D wins, as in Flink
            merged[key] = value
    given = flags.get("execution.state-recovery.path")
    return Submission(os.path.abspath(script), tuple(program), merged, args.master,
                      given_restore=given if given is not None and merged.get("execution.state-recovery.path") == given
                      else None)


def attached_outcome(exit_code: int, records: Sequence[JobRecord]) -> Tuple[int, List[str]]:
    """How an attached ``run`` ends, as ``flink run`` does: the exit code and what it prints, from
    the program's exit code and the records of the jobs it started (oldest first).

    It succeeds when the program did and each of its jobs finished; a job that was cancelled,
    failed or suspended (stopped with a savepoint is finished), or whose driver ended without
    recording its end, fails it.
    """
    lines: List[str] = []
    failed = exit_code != 0
    for record in records:
        if record.status == "FINISHED":
            runtime = 0 if record.ended is None else int(round((record.ended - record.started) * 1000))
            lines += str(JobExecutionResult(JobID(record.job_id), runtime)).splitlines()
            continue
        failed = True
        if record.terminal:
            lines.append("Job {} ({}) ended {}{}.".format(record.job_id, record.name, record.status,
                                                          ": {}".format(record.error) if record.error else ""))
        else:
            lines.append("Job {} ({}) did not record its end (last status {}).".format(
                record.job_id, record.name, record.status))
    if exit_code != 0:
        lines.append("The job program ended with exit code {}.".format(exit_code))
    return (EXIT_FAILED if failed else EXIT_OK), lines


def _run_attached(submission: Submission, options: Dict[str, str], quiet: bool) -> Tuple[int, Dict[str, Any],
                                                                                          List[str]]:
    """Run a program and wait for its end, printing each job's id as soon as the job records
    itself (``quiet``: not, for ``--json``)."""
    process = start(submission, detached=False)
    storage = _first(submission.options, "checkpoint_dir")
    announced: List[str] = []

    def jobs(registry: Optional[JobRegistry]) -> List[JobRecord]:
        found = [] if registry is None else [r for r in registry.records() if r.submission == submission.submission_id]
        for record in found:
            if record.job_id not in announced:
                announced.append(record.job_id)
                if not quiet:
                    print("Job has been submitted with JobID {}".format(record.job_id), flush=True)
        return found

    with contextlib.ExitStack() as stack:
        registry = None if storage is None else stack.enter_context(_registry(options))
        while True:
            try:
                code = process.wait(_ATTACHED_POLL_SECONDS if announced else POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:
                jobs(registry)
            except KeyboardInterrupt:  # the job got the interrupt too, and ends as it does
                continue
        records = jobs(registry)
    exit_code, lines = attached_outcome(code, records)
    return exit_code, {"submission": submission.submission_id, "exit_code": code,
                       "jobs": [{"job_id": r.job_id, "name": r.name, "status": r.status} for r in records]}, lines


def _run(args: argparse.Namespace) -> Outcome:
    options = _options(args)
    submission = _submission(args, options)
    if not args.detached:
        return _run_attached(submission, options, args.json)
    log_path = args.log or os.path.join(os.environ.get("FLINK_LOG_DIR") or tempfile.gettempdir(),
                                        "pyflink-compat-{}.log".format(submission.submission_id))
    with open(log_path, "ab") as log:
        process = start(submission, detached=True, log=log)
    result: Dict[str, Any] = {"submission": submission.submission_id, "pid": process.pid, "log": log_path}
    storage = _first(submission.options, "checkpoint_dir")
    if storage is None:
        return EXIT_OK, result, ["Job program started (process {}, output in {}); no checkpoint directory is "
                                 "configured, so the other commands cannot find its job.".format(process.pid, log_path)]
    with _registry(options) as registry:
        record = wait_for_record(registry, submission.submission_id, process, _REGISTRATION_SECONDS)
        if record is not None:
            record = wait_until_running(registry, record, process, _REGISTRATION_SECONDS)
    if record is None:
        ended = process.poll()
        why = "ended with exit code {}".format(ended) if ended is not None else \
            "did not start a job within {:.0f} s".format(_REGISTRATION_SECONDS)
        failure = program_failure(log_path) if ended is not None else None
        raise CommandError("The job program {} without recording a job in {}{} (output in {}).".format(
            why, storage, "" if failure is None else ": " + failure, log_path), "failed", log_path)
    if record.terminal and record.status != "FINISHED":
        raise CommandError("Job {} ({}) ended {}{} (output in {}).".format(
            record.job_id, record.name, record.status, "" if not record.error else ": " + record.error, log_path),
            "failed", log_path)
    result.update(job_id=record.job_id, name=record.name)
    if not args.json:  # standard output holds Flink's one line, which scripts parse
        print("(process {}, output in {})".format(process.pid, log_path), file=sys.stderr)
    return EXIT_OK, result, ["Job has been submitted with JobID {}".format(record.job_id)]
