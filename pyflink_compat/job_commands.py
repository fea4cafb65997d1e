"""The ``pyflink-compat`` commands shaped like Flink's command line: ``run``, ``list``, ``info``,
``savepoint``, ``stop`` and ``cancel``.

Usage (Flink's option names and short flags)::

    pyflink-compat run [-d] [-s PATH] [-n] [--claimMode CLAIM|NO_CLAIM] [-p N] [-D key=value]...
                       [-m MASTER] [--log FILE] [-py] job.py [args...]
    pyflink-compat list [-r | -a] [-D key=value]... [--json]
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

Without ``-d``, ``run`` prints each job's id as soon as the job records itself (``Job has been
submitted with JobID ...``), waits for the program's end, and exits as the program and its jobs
ended (:func:`attached_outcome`).

Exit codes: 0 done; 1 the job answered with an error, or (``run``) the job program failed or a
job it started did not finish (it was cancelled, failed, or its driver ended without its end);
2 the command line is wrong, or asks for what Spark cannot do (``stop --drain``); 3 no job
matches ``JOB``, or no checkpoint directory is configured; 4 the job is not running (it ended,
or its driver is gone); 5 no answer within ``client.timeout``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from pyflink_compat.checkpoints import SavepointError, dispose_savepoint
from pyflink_compat.checkpoints.jvm_session import spark_for_paths
from pyflink_compat.common.job_execution_result import JobExecutionResult
from pyflink_compat.common.job_id import JobID
from pyflink_compat.settings import values
from pyflink_compat.settings.config_file import ConfigFileError, flink_configuration
from pyflink_compat.settings.registry import SETTINGS_BY_NAME
from pyflink_compat.spark.control_channel import (
    POLL_SECONDS, Action, JobNotRunning, NoAnswer, Request, RequestFailed, send_request)
from pyflink_compat.spark.job_registry import (
    GONE, TERMINAL, JobNotFound, JobRecord, JobRegistry, driver_gone, find_job, shown_status)
from pyflink_compat.spark.job_submission import Submission, absolute, start, wait_for_record

__all__ = ["main", "is_job_command", "attached_outcome", "EXIT_OK", "EXIT_FAILED", "EXIT_USAGE", "EXIT_NO_JOB",
           "EXIT_NOT_RUNNING", "EXIT_NO_ANSWER"]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NO_JOB = 3
EXIT_NOT_RUNNING = 4
EXIT_NO_ANSWER = 5

#: The commands of this module; ``savepoint`` is one of them unless its first word is an
#: action of the ``savepoint`` group of :mod:`pyflink_compat.cli`.
_COMMANDS = ("run", "list", "info", "stop", "cancel")
_SAVEPOINT_ACTIONS = ("create", "restore", "dispose", "-h", "--help")
#: Flink's ``client.timeout`` default, in seconds.
_CLIENT_TIMEOUT = 60.0
#: How long ``run -d`` waits for the job it started to record itself, in seconds.
_REGISTRATION_SECONDS = 300.0
#: How often an attached ``run`` looks for further jobs of its program once one recorded itself.
_ATTACHED_POLL_SECONDS = 1.0

_DRAIN_REFUSED = ("stop --drain is not supported: Spark cannot advance the watermark to the end of "
                  "event time before stopping, so event-time windows and timers would not fire. Stop "
                  "without --drain (the savepoint keeps them, and the job resumed from it fires them), or "
                  "end the input so that a bounded sink finishes.")


def is_job_command(argv: Sequence[str]) -> bool:
    """Whether a command line is one of this module's commands."""
    if not argv:
        return False
    if argv[0] == "savepoint":
        return len(argv) < 2 or argv[1] not in _SAVEPOINT_ACTIONS
    return argv[0] in _COMMANDS


class CommandError(Exception):
    """A command that cannot be done, with its exit code."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


# -- the command line ---------------------------------------------------------------------------------
def _dynamic(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-D", dest="dynamic", action="append", default=[], metavar="key=value",
                        help="a Flink option, over the configuration file's")
    parser.add_argument("--json", action="store_true", help="print one JSON document for programs")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyflink-compat", description="Run and control jobs as Flink's CLI does.")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run a job program", description="Run a job program.")
    run.add_argument("-d", "--detached", action="store_true", help="do not wait for the job to end")
    run.add_argument("-s", "--fromSavepoint", dest="from_savepoint", default=None, metavar="PATH",
                     help="restore from this savepoint or retained checkpoint")
    run.add_argument("-n", "--allowNonRestoredState", dest="allow_non_restored", action="store_true",
                     help="skip saved state no query of the job takes")
    run.add_argument("-cm", "--claimMode", dest="claim_mode", default=None, choices=("CLAIM", "NO_CLAIM"),
                     help="whether the job takes over the checkpoint it restores from")
    run.add_argument("-p", "--parallelism", type=int, default=None, help="the job's parallelism")
    run.add_argument("-m", "--master", "--jobmanager", dest="master", default=None,
                     help="the Spark master to submit to with spark-submit (default: run locally)")
    run.add_argument("--log", default=None, help="with -d: the file the job's output goes to")
    run.add_argument("-py", "--python", dest="script", default=None, help="the Python job program")
    run.add_argument("program", nargs=argparse.REMAINDER, help="the program (without -py) and its arguments")
    _dynamic(run)

    listing = commands.add_parser("list", help="list the jobs", description="List the jobs.")
    which = listing.add_mutually_exclusive_group()
    which.add_argument("-r", "--running", action="store_true", help="only running and restarting jobs")
    which.add_argument("-a", "--all", action="store_true", help="also the jobs that ended")
    _dynamic(listing)

    info = commands.add_parser("info", help="show a job and its checkpoints", description="Show a job.")
    info.add_argument("job")
    _dynamic(info)

    savepoint = commands.add_parser("savepoint", help="take a savepoint of a running job, or dispose of one",
                                    description="Take a savepoint of a running job.")
    savepoint.add_argument("-d", "--dispose", default=None, metavar="PATH", help="dispose of this savepoint")
    savepoint.add_argument("job", nargs="?")
    savepoint.add_argument("directory", nargs="?")
    _dynamic(savepoint)

    stop = commands.add_parser("stop", help="stop a job with a savepoint", description="Stop a job with a savepoint.")
    stop.add_argument("-p", "--savepointPath", dest="directory", default=None, metavar="DIR",
                      help="where to write the savepoint (default: the job's configured savepoint directory)")
    stop.add_argument("-d", "--drain", action="store_true", help="refused: Spark cannot drain event time")
    stop.add_argument("job")
    _dynamic(stop)

    cancel = commands.add_parser("cancel", help="cancel a job", description="Cancel a job.")
    cancel.add_argument("job")
    _dynamic(cancel)
    return parser


# -- configuration and the registry --------------------------------------------------------------------
def _options(args: argparse.Namespace) -> Dict[str, str]:
    dynamic: Dict[str, str] = {}
    for item in args.dynamic:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise CommandError("-D takes key=value, got {!r}".format(item), EXIT_USAGE)
        dynamic[key.strip()] = value
    try:
        return flink_configuration(dynamic)
    except (ConfigFileError, OSError) as e:
        raise CommandError("The Flink configuration file cannot be read: {}".format(e), EXIT_USAGE) from e


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
        raise CommandError("client.timeout: {!r} is not a duration".format(text), EXIT_USAGE) from None


@contextlib.contextmanager
def _registry(options: Dict[str, str]) -> Iterator[JobRegistry]:
    storage = _first(options, "checkpoint_dir")
    if storage is None:
        raise CommandError("No checkpoint directory is configured, so no job can be found: set "
                           "execution.checkpointing.dir in $FLINK_CONF_DIR/config.yaml, or pass "
                           "-D execution.checkpointing.dir=<dir> (the jobs' checkpoint directory).", EXIT_NO_JOB)
    with spark_for_paths([storage]):
        try:
            registry = JobRegistry(storage)
        except SavepointError as e:
            raise CommandError("The checkpoint directory {} cannot be read: {}".format(storage, e),
                               EXIT_FAILED) from e
        yield registry


def _job(registry: JobRegistry, reference: str) -> JobRecord:
    try:
        return find_job(registry.records(), reference)
    except JobNotFound as e:
        raise CommandError("{} (checkpoint directory {})".format(e, registry.storage_dir), EXIT_NO_JOB) from e


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
    return data


def _table(rows: Sequence[Tuple[str, ...]]) -> List[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["    " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]


def _info_lines(record: JobRecord) -> List[str]:
    status = shown_status(record)
    lines = ["Job {} ({})".format(record.name, record.job_id),
             "  status: {}{}".format(status, "" if status != GONE else " ({})".format(driver_gone(record))),
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
        lines += _table(rows)
    if record.failed_checkpoints:
        lines.append("  failed checkpoints (newest {}):".format(len(record.failed_checkpoints)))
        lines += _table([("time", "sink", "reason")] + [(_when(c["time"]), str(c["sink"]), str(c["reason"]))
                                                         for c in record.failed_checkpoints])
    return lines


# -- the commands ------------------------------------------------------------------------------------------
def _list(args: argparse.Namespace, options: Dict[str, str]) -> Tuple[Dict[str, Any], List[str]]:
    with _registry(options) as registry:
        records = registry.records()
    running = [r for r in records if shown_status(r) not in TERMINAL + (GONE,)]
    gone = [r for r in records if shown_status(r) == GONE]
    ended = [r for r in records if r.terminal]
    shown = running + ([] if args.running else gone) + (ended if args.all else [])
    result = {"storage": registry.storage_dir, "jobs": [_described(r) for r in shown]}
    line = "-" * 62
    lines = []
    if running:
        lines += ["------------------ Running/Restarting Jobs -------------------"] + \
            [_row(r) for r in running] + [line]
    else:
        lines.append("No running jobs.")
    if gone and not args.running:
        lines += ["---------------- Jobs whose driver is gone -------------------"] + \
            ["{}: {}".format(_row(r), driver_gone(r)) for r in gone] + [line]
    if args.all:
        if ended:
            lines += ["---------------------- Terminated Jobs -----------------------"] + \
                [_row(r) for r in ended] + [line]
        else:
            lines.append("No terminated jobs.")
    return result, lines


def _info(args: argparse.Namespace, options: Dict[str, str]) -> Tuple[Dict[str, Any], List[str]]:
    with _registry(options) as registry:
        record = _job(registry, args.job)
    return _described(record), _info_lines(record)


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
            raise CommandError(str(e), EXIT_NOT_RUNNING) from e
        except RequestFailed as e:
            raise CommandError("Job {} ({}): {} failed: {}".format(record.name, record.job_id, action.value, e),
                               EXIT_FAILED) from e
        except NoAnswer as e:
            raise CommandError(str(e), EXIT_NO_ANSWER) from e
        except OSError as e:
            raise CommandError("The request cannot be written to {}: {}".format(registry.storage_dir, e),
                               EXIT_FAILED) from e
    return record, ack.result


def _savepoint(args: argparse.Namespace, options: Dict[str, str]) -> Tuple[Dict[str, Any], List[str]]:
    if args.dispose is not None:
        if args.job is not None:
            raise CommandError("savepoint -d takes the savepoint's path only", EXIT_USAGE)
        with spark_for_paths([args.dispose]):
            try:
                dispose_savepoint(args.dispose)
            except SavepointError as e:
                raise CommandError(str(e), EXIT_FAILED) from e
        return {"disposed": args.dispose}, ["Disposing savepoint '{}'.".format(args.dispose),
                                            "Savepoint '{}' disposed.".format(args.dispose)]
    if args.job is None:
        raise CommandError("savepoint needs a job id or name (or -d PATH to dispose of a savepoint)", EXIT_USAGE)
    record, path = _request(options, args.job, Action.SAVEPOINT, args.directory)
    return {"job_id": record.job_id, "name": record.name, "savepoint": path}, [
        "Triggering savepoint for job {}.".format(record.job_id),
        "Savepoint completed. Path: {}".format(path),
        "You can resume your program from this savepoint with the run command."]


def _stop(args: argparse.Namespace, options: Dict[str, str]) -> Tuple[Dict[str, Any], List[str]]:
    if args.drain:
        raise CommandError(_DRAIN_REFUSED, EXIT_USAGE)
    record, path = _request(options, args.job, Action.STOP, args.directory)
    return {"job_id": record.job_id, "name": record.name, "savepoint": path}, [
        "Suspending job \"{}\" with a savepoint.".format(record.job_id),
        "Savepoint completed. Path: {}".format(path)]


def _cancel(args: argparse.Namespace, options: Dict[str, str]) -> Tuple[Dict[str, Any], List[str]]:
    record, _ = _request(options, args.job, Action.CANCEL, None)
    return {"job_id": record.job_id, "name": record.name, "cancelled": True}, [
        "Cancelling job {}.".format(record.job_id), "Cancelled job {}.".format(record.job_id)]


def _submission(args: argparse.Namespace, options: Dict[str, str]) -> Submission:
    program = list(args.program)
    if program and program[0] == "--":
        program = program[1:]
    script = args.script
    if script is None:
        if not program:
            raise CommandError("run needs a Python job program (-py job.py, or job.py)", EXIT_USAGE)
        script, program = program[0], program[1:]
    if not script.endswith(".py"):
        raise CommandError("run takes a Python program (a .py file), got {!r}".format(script), EXIT_USAGE)
    if not os.path.isfile(script):
        raise CommandError("The job program {} does not exist".format(script), EXIT_USAGE)
    flags = {}
    if args.from_savepoint is not None:
        flags["execution.state-recovery.path"] = absolute(args.from_savepoint)
    if args.allow_non_restored:
        flags["execution.state-recovery.ignore-unclaimed-state"] = "true"
    if args.claim_mode is not None:
        flags["execution.state-recovery.claim-mode"] = args.claim_mode
    if args.parallelism is not None:
        if args.parallelism < 1:
            raise CommandError("-p takes a parallelism of at least 1", EXIT_USAGE)
        flags["parallelism.default"] = str(args.parallelism)
    merged = dict(options)
    for key, value in flags.items():
        if key not in {k.partition("=")[0].strip() for k in args.dynamic}:  # -D wins, as in Flink
            merged[key] = value
    return Submission(os.path.abspath(script), tuple(program), merged, args.master)


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


def _run(args: argparse.Namespace, options: Dict[str, str]) -> Tuple[int, Dict[str, Any], List[str]]:
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
    if record is None:
        ended = process.poll()
        why = "ended with exit code {}".format(ended) if ended is not None else \
            "did not start a job within {:.0f} s".format(_REGISTRATION_SECONDS)
        raise CommandError("The job program {} without recording a job in {} (output in {}).".format(
            why, storage, log_path), EXIT_FAILED)
    result.update(job_id=record.job_id, name=record.name)
    return EXIT_OK, result, ["Job has been submitted with JobID {}".format(record.job_id),
                             "(process {}, output in {})".format(process.pid, log_path)]


_HANDLERS = {"list": _list, "info": _info, "savepoint": _savepoint, "stop": _stop, "cancel": _cancel}


def main(argv: Sequence[str]) -> int:
    """Run one of this module's commands; returns the exit code."""
    args = _parser().parse_args(list(argv))
    try:
        options = _options(args)
        if args.command == "run":
            code, result, lines = _run(args, options)
        else:
            code = EXIT_OK
            result, lines = _HANDLERS[args.command](args, options)
    except CommandError as e:
        if args.json:
            print(json.dumps({"error": str(e), "exit_code": e.code}))
        else:
            print("error: {}".format(e), file=sys.stderr)
        return e.code
    if args.json:
        print(json.dumps(result, indent=1, sort_keys=True))
    elif lines:
        print("\n".join(lines))
    sys.stdout.flush()
    return code
