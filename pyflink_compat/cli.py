"""The ``pyflink-compat`` command: run and control jobs as Flink's CLI does, look at checkpoints,
manage savepoints offline, and port PyFlink job files.

Usage::

    pyflink-compat run [-d] [-s PATH] [-n] [-cm CLAIM|NO_CLAIM|LEGACY] [-p N] [-D key=value]... job.py [args...]
    pyflink-compat list [-r | -s | -a] [-D key=value]... [--json]
    pyflink-compat info JOB [-D key=value]... [--json]
    pyflink-compat savepoint JOB [DIR] [-D key=value]... [--json]
    pyflink-compat savepoint -d SAVEPOINT_PATH [--json]
    pyflink-compat stop [-p DIR] JOB [-D key=value]... [--json]
    pyflink-compat cancel JOB [-D key=value]... [--json]
    pyflink-compat checkpoints list DIR [--json]
    pyflink-compat checkpoints show PATH [--json]
    pyflink-compat checkpoints verify PATH [--json]
    pyflink-compat checkpoints state PATH [--operator ID] [--store-name NAME] [--batch-id N]
                                          [--partition N] [--limit N] [--sink NAME] [--state-var NAME]
                                          [--json]
    pyflink-compat checkpoints savepoint create SOURCE... TARGET_DIR [--job-name NAME] [--job-id HEX]
                                                [--hard-links] [--json]
    pyflink-compat checkpoints savepoint restore SOURCE NEW_CHECKPOINT_DIR [--sink NAME] [--json]
    pyflink-compat checkpoints savepoint dispose PATH [--force] [--json]
    pyflink-compat port PATH... [--write | --diff] [--check] [--format text|markdown|json] [--imports-only]

The job commands (``run`` ... ``cancel``) are described in :mod:`pyflink_compat.job_commands`;
``savepoint`` is only Flink's command, for running jobs. The ``checkpoints`` commands work on
files and need no running job: local paths and ``file:`` URIs need no JVM; any other scheme
(``hdfs://``, ``s3a://``, ...) is reached through Hadoop's file system in a local Spark session
the command starts for that run only (see :mod:`pyflink_compat.command_session`); only
``checkpoints state`` needs Spark 4.0 or later, to read state rows through Spark's state data
source.

Every command fails the same way (:mod:`pyflink_compat.command_output`): exit code 1, or 31 when
the Flink configuration cannot be read, as Flink's CLI; a message on standard error, or with
``--json`` one JSON document ``{"error", "exit_code", "reason", "path"}`` on standard output. A
wrong command line exits 1 too, after its usage. A failed verification exits 1 with its report.
Output cut short by its reader (``| head``) ends the command quietly. ``port`` keeps its own
report formats (see :mod:`pyflink_compat.porting.command`) and exits 1 as the others do.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from typing import Any, Dict, List, NoReturn, Optional, Sequence, Tuple

from pyflink_compat.checkpoints import (
    CheckpointFileError, dispose_savepoint, list_storage, restore_query, show, verify, write_savepoint)
from pyflink_compat.command_session import quiet_local_session, spark_for_paths
from pyflink_compat.checkpoints.state_reader import DEFAULT_LIMIT, read_state
from pyflink_compat.command_output import EXIT_FAILED, EXIT_OK, CommandError, table
from pyflink_compat.job_commands import add_commands as add_job_commands

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """A parser whose refusal of a command line is a :class:`CommandError` (exit 1, as Flink's
    CLI), reported like any other failure after the usage of the command concerned."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        raise CommandError("{}: {}".format(self.prog, message), "usage")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="pyflink-compat",
                     description="Run and control jobs as Flink's CLI does, look at checkpoints, manage "
                                 "savepoints offline, and port PyFlink job files.",
                     epilog="Exit codes: 0 done, 1 failed, 31 the Flink configuration cannot be read.")
    groups = parser.add_subparsers(dest="group", required=True, metavar="COMMAND")
    add_job_commands(groups)

    def command(sub: Any, name: str, text: str) -> argparse.ArgumentParser:
        cmd = sub.add_parser(name, help=text, description=text)
        cmd.add_argument("--json", action="store_true", help="print one JSON document for programs")
        cmd.set_defaults(handler=_offline)
        return cmd

    checkpoints = groups.add_parser("checkpoints", help="Look at checkpoints and savepoints, and create, restore "
                                                        "and dispose of savepoints offline.")
    sub = checkpoints.add_subparsers(dest="action", required=True)
    command(sub, "list", "List the jobs, their checkpoints and the savepoints in a directory.").add_argument("path")
    command(sub, "show", "Show a savepoint, a query checkpoint or a job directory.").add_argument("path")
    command(sub, "verify", "Check that every file of a savepoint or checkpoint is present and intact."
            ).add_argument("path")
    _add_state_command(command(sub, "state", "Show the stateful operators of a checkpoint or savepoint and their "
                                             "state rows (starts a local Spark 4 session)."))

    savepoint = sub.add_parser("savepoint", help="Create, restore and dispose of savepoints from files, with no "
                                                 "running job.")
    sub = savepoint.add_subparsers(dest="savepoint_action", required=True)
    create = command(sub, "create", "Take a savepoint of a job directory or of query checkpoints.")
    create.add_argument("source", nargs="+", help="a job directory, or one or more query checkpoints")
    create.add_argument("target", help="the directory to create the savepoint in")
    create.add_argument("--job-name", default=None,
                        help="the job's name (by default the one the job directory's marker records)")
    create.add_argument("--job-id", default=None, help="the job id (hex) the savepoint's name starts with")
    create.add_argument("--hard-links", action="store_true",
                        help="hard-link the files instead of copying them (local file system, same device): "
                             "the savepoint then shares its files with the live checkpoint")
    restore = command(sub, "restore", "Prepare a fresh checkpoint location from a savepoint or checkpoint.")
    restore.add_argument("source")
    restore.add_argument("target")
    restore.add_argument("--sink", default=None, help="the query to restore when the source holds several")
    restore.add_argument("--keep-query-id", action="store_true", help="keep the saved query id")
    dispose = command(sub, "dispose", "Delete a savepoint (only a directory with a valid manifest).")
    dispose.add_argument("path")
    dispose.add_argument("--force", action="store_true",
                         help="also delete an incomplete savepoint (its writer stopped before its manifest)")
    from pyflink_compat.porting.command import add_arguments as add_port_arguments

    port = groups.add_parser("port", help="Port PyFlink job files: rewrite imports, write PySpark, report.",
                             description="Port PyFlink job files to pyflink_compat and report what is left.")
    add_port_arguments(port)
    port.set_defaults(handler=_port)
    return parser


def _add_state_command(state: argparse.ArgumentParser) -> None:
    state.add_argument("path", help="a query checkpoint, a savepoint or one of its query directories, or a job "
                                    "directory")
    state.add_argument("--operator", type=int, default=None, help="the stateful operator whose rows to show")
    state.add_argument("--store-name", default=None, help="the operator's state store (joins have several)")
    state.add_argument("--batch-id", type=int, default=None, help="a committed batch (the newest by default)")
    state.add_argument("--partition", type=int, default=None, help="only the rows of this state partition")
    state.add_argument("--limit", type=int, default=DEFAULT_LIMIT,
                       help="show at most this many rows (default {})".format(DEFAULT_LIMIT))
    state.add_argument("--sink", default=None, help="the query to read when the path holds several")
    state.add_argument("--state-var", default=None, help="the state variable of a transformWithState operator "
                       "(of a DataStream keyed function: a state descriptor's name, or timers)")


def _run_state(args: argparse.Namespace) -> Dict[str, Any]:
    """Read state, with a quiet local Spark session of our own if none runs (started only once
    the files show there is state to read, and stopped before returning)."""
    with contextlib.ExitStack() as stack:
        return read_state(args.path, operator=args.operator, store_name=args.store_name,
                          batch_id=args.batch_id, partition=args.partition, limit=args.limit,
                          sink=args.sink, state_var=args.state_var,
                          new_session=lambda: stack.enter_context(quiet_local_session("pyflink-compat state")))


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join("{}={}".format(k, json.dumps(v, sort_keys=True)) for k, v in value.items())
    return json.dumps(value, sort_keys=True)


def _text_state(result: Dict[str, Any]) -> List[str]:
    lines = ["checkpoint {} at batch {}".format(result["checkpoint"], result["batch_id"]), "operators:"]
    for op in result["operators"]:
        stores = ", ".join(
            s["store_name"] + ("" if s["max_batch_id"] is None else " (batches {}-{})".format(
                s["min_batch_id"], s["max_batch_id"])) for s in op["stores"])
        lines.append("  {} {}: {} partitions, stores: {}".format(op["operator_id"], op["name"] or "(unnamed)",
                                                                  op["partitions"], stores))
        if op.get("state_variables"):
            lines.append("    state variables: " + ", ".join(
                "{} ({})".format(v["name"], v["type"]) for v in op["state_variables"]))
    if result.get("keyed_state"):
        lines.append("  keyed function states (--state-var): " + ", ".join(result["keyed_state"]))
    if "rows" not in result:
        lines.append("several stateful operators or stores: name one with --operator (and --store-name)")
        return lines
    lines.append("operator {}, store {}{}{}: {} of {} rows".format(
        result["operator_id"], result["store_name"],
        "" if result["state_var"] is None else ", state variable {}".format(result["state_var"]),
        "" if result["partition"] is None else ", partition {}".format(result["partition"]),
        len(result["rows"]), result["total_rows"]))
    lines += table([("partition", "key", "value")] + [(str(r["partition"]), _cell(r["key"]), _cell(r["value"]))
                                                      for r in result["rows"]])
    return lines


def _text_list(result: Dict[str, Any]) -> List[str]:
    lines = []
    for job in result["jobs"]:
        lines.append("job {} ({}{})".format(job["name"], job["path"], ", marker" if job["marker"] else ""))
        chks = [c["id"] for c in job["checkpoints"]]
        lines.append("  checkpoints: {}".format(", ".join(chks[-5:]) if chks else "none restorable by every query"))
        for q in job["queries"]:
            lines.append("  query {}: newest batch {} at {}, {} bytes, state {}".format(
                q["sink"], q["newest_batch"], q.get("time", "-"), q.get("size", "-"),
                (q["state_store_provider"] or "none").rpartition(".")[2]))
    for sp in result["savepoints"]:
        lines.append("savepoint {} of job {}: {}".format(sp["path"], sp["job_name"], ", ".join(
            "{} at batch {}".format(q["sink"], q["batch_id"]) for q in sp["queries"])))
    for path in result["incomplete_savepoints"]:
        lines.append("incomplete savepoint (no valid _metadata): {}".format(path))
    return lines or ["no jobs or savepoints in {}".format(result["path"])]


def _text_show(result: Dict[str, Any]) -> List[str]:
    """A savepoint, checkpoint or job as a few lines and a table, as Flink's checkpoint tab."""
    kind = result["kind"]
    if kind == "savepoint":
        lines = ["savepoint {}".format(result["path"]),
                 "  job {} (id {}), created {}, Spark {}".format(result["job_name"], result["job_id"] or "-",
                                                                 result["created"], result["spark_version"] or "-")]
        rows: List[Tuple[str, ...]] = [("query", "batch", "next", "files", "bytes", "state")]
        for q in result["queries"]:
            planned = q.get("planned_batch_id")
            rows.append((str(q["sink"]), str(q["batch_id"]), "-" if planned is None else str(planned),
                         str(q["files"]), str(q["size"]), _provider(q["state_store_provider"])))
        return lines + table(rows)
    if kind == "checkpoint":
        return _text_query(result, "query checkpoint {}".format(result["path"]))
    lines = ["job {} ({}{})".format(result["name"], result["path"], ", marker" if result["marker"] else "")]
    checkpoint_rows: List[Tuple[str, ...]] = [("checkpoint", "batch")]
    checkpoint_rows += [(c["id"], str(c["batch"])) for c in result["checkpoints"]]
    lines += table(checkpoint_rows) if result["checkpoints"] else ["  no checkpoint restorable by every query"]
    for query in result["queries"]:
        lines += _text_query(query, "query {}".format(query["sink"]))
    return lines


def _text_query(query: Dict[str, Any], title: str) -> List[str]:
    lines = [title, "  query id {}, newest batch {} at {}, {} files, {} bytes, state {}, {} shuffle partitions".format(
        query["query_id"], query["newest_batch"], query.get("time", "-"), query.get("files", "-"),
        "-" if query.get("size") is None else query["size"], _provider(query["state_store_provider"]),
        query["shuffle_partitions"] or "-")]
    if query.get("problem"):
        lines.append("  problem: {}".format(query["problem"]))
    restorable = query["restorable_batches"]
    lines.append("  restorable batches: {}".format(", ".join(map(str, restorable[-10:])) if restorable else "none"))
    for op in query["operators"]:
        lines.append("  operator {} {}: {} partitions, stores {}".format(
            op["operator_id"], op["name"] or "(unnamed)", len(op["partitions"]), ", ".join(op["stores"])))
    return lines


def _provider(provider: Optional[str]) -> str:
    return (provider or "none").rpartition(".")[2]


def _result(args: argparse.Namespace) -> Dict[str, Any]:
    action = args.action if args.action != "savepoint" else args.savepoint_action
    if action == "list":
        return list_storage(args.path)
    if action == "show":
        return show(args.path)
    if action == "state":
        return _run_state(args)
    if action == "verify":
        return verify(args.path)
    if action == "create":
        source = args.source[0] if len(args.source) == 1 else args.source
        path = write_savepoint(source, args.target, args.job_name, job_id=args.job_id, link=args.hard_links)
        return {"savepoint": path}
    if action == "restore":
        done = restore_query(args.source, args.target, sink=args.sink, new_query_id=not args.keep_query_id)
        return {"location": done.location, "batch_id": done.batch_id, "files": done.files, "bytes": done.bytes,
                "query_id": done.query_id}
    dispose_savepoint(args.path, force=args.force)
    return {"disposed": args.path}


def _lines(action: str, result: Dict[str, Any]) -> List[str]:
    if action == "list":
        return _text_list(result)
    if action == "state":
        return _text_state(result)
    if action == "show":
        return _text_show(result)
    if action == "verify":
        return ["{} {}: {} ({} files)".format(result["kind"], result["path"], "intact" if result["ok"] else "DAMAGED",
                                              result["files"])] + ["  " + p for p in result["problems"]]
    if action == "create":
        return ["savepoint written: {}".format(result["savepoint"])]
    if action == "restore":
        return ["restored {} files ({} bytes) into {}: the query resumes after batch {} (query id {})".format(
            result["files"], result["bytes"], result["location"], result["batch_id"], result["query_id"])]
    return ["disposed of {}".format(result["disposed"])]


def _offline(args: argparse.Namespace) -> Tuple[int, Dict[str, Any], List[str]]:
    """A ``checkpoints`` command: the exit code, the result and its text."""
    given = [vars(args).get(key) for key in ("path", "source", "target")]
    paths = [p for value in given for p in (value if isinstance(value, list) else [value]) if isinstance(p, str)]
    try:
        with spark_for_paths(paths):
            result = _result(args)
    except CheckpointFileError as error:
        raise CommandError(str(error), "storage", error.path) from error
    action = args.action if args.action != "savepoint" else args.savepoint_action
    return (EXIT_OK if result.get("ok", True) else EXIT_FAILED), result, _lines(action, result)


def _port(args: argparse.Namespace) -> Tuple[int, Dict[str, Any], List[str]]:
    from pyflink_compat.porting.command import run as run_port

    return run_port(args), {}, []


def _failed(error: CommandError, as_json: bool) -> int:
    if as_json:
        print(json.dumps(error.to_json(), sort_keys=True))
    else:
        print("error: {}".format(error), file=sys.stderr)
    return error.code


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        return _main(sys.argv[1:] if argv is None else list(argv))
    except BrokenPipeError:
        # the reader closed the pipe (``| head``): what it wanted was printed; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


def _main(argv: List[str]) -> int:
    as_json = "--json" in argv
    try:
        args = _parser().parse_args(argv)
        as_json = bool(getattr(args, "json", False))
        code, result, lines = args.handler(args)
    except CommandError as error:
        return _failed(error, as_json)
    except PermissionError as error:
        return _failed(CommandError("Permission denied: {} (this account may not read or write it)".format(
            error.filename or error), "permission", error.filename), as_json)
    except OSError as error:  # a storage that cannot be read or written: a message, not a traceback
        return _failed(CommandError("{}: {}".format(error.filename or "storage", error.strerror or error), "storage",
                                    error.filename), as_json)
    if args.group == "port":
        return code
    if as_json:
        print(json.dumps(result, indent=1, sort_keys=True))
    elif lines:
        print("\n".join(lines))
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
