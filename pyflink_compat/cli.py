"""The ``pyflink-compat`` command: look at checkpoints and manage savepoints.

Local paths and ``file:`` URIs need no JVM. Any other scheme (``hdfs://``, ``s3a://``, ...)
is reached through Hadoop's file system in a local Spark session that the command starts for
that run only (see :mod:`pyflink_compat.checkpoints.jvm_session`).

Usage::

    pyflink-compat checkpoints list DIR [--json]
    pyflink-compat checkpoints show PATH [--json]
    pyflink-compat checkpoints verify PATH [--json]
    pyflink-compat checkpoints state PATH [--operator ID] [--store-name NAME] [--batch-id N]
                                          [--partition N] [--limit N] [--sink NAME] [--state-var NAME]
                                          [--json]
    pyflink-compat savepoint create SOURCE... TARGET_DIR [--job-name NAME] [--job-id HEX] [--hard-links]
                                    [--json]
    pyflink-compat savepoint restore SOURCE NEW_CHECKPOINT_DIR [--sink NAME] [--json]
    pyflink-compat savepoint dispose PATH [--force] [--json]
    pyflink-compat port PATH... [--write | --diff] [--check] [--format text|markdown|json] [--imports-only]

and the commands shaped like Flink's that run and control jobs (``run``, ``list``, ``info``,
``savepoint JOB [DIR]``, ``savepoint -d PATH``, ``stop``, ``cancel``), which
:mod:`pyflink_compat.job_commands` describes with their exit codes.

The exit code is 0 on success and 1 on any failure (including a failed verification); with
``--json`` the result, or ``{"error": ...}``, is printed as one JSON document, and otherwise
text for people. Output cut short by its reader (``| head``) ends the command quietly. Only
``checkpoints state`` starts a JVM (a quiet local Spark session, Spark 4.0 or later), to read
state rows through Spark's state data source.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from pyflink_compat.checkpoints import (
    SavepointError, dispose_savepoint, list_storage, restore_query, show, verify, write_savepoint)
from pyflink_compat.checkpoints.jvm_session import quiet_local_session, spark_for_paths
from pyflink_compat.checkpoints.state_reader import DEFAULT_LIMIT, read_state
from pyflink_compat.job_commands import is_job_command, main as job_command

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyflink-compat",
                                     description="Inspect Spark query checkpoints and manage savepoints.",
                                     epilog="Jobs: run, list, info, savepoint JOB [DIR], stop, cancel, as in "
                                            "Flink's CLI (pyflink-compat run -h, ...).")
    groups = parser.add_subparsers(dest="group", required=True)

    def command(sub: Any, name: str, text: str) -> argparse.ArgumentParser:
        cmd = sub.add_parser(name, help=text, description=text)
        cmd.add_argument("--json", action="store_true", help="print one JSON document for programs")
        return cmd

    checkpoints = groups.add_parser("checkpoints", help="checkpoints and savepoints in a storage directory")
    sub = checkpoints.add_subparsers(dest="action", required=True)
    command(sub, "list", "List the jobs, their checkpoints and the savepoints in a directory.").add_argument("path")
    command(sub, "show", "Show a savepoint, a query checkpoint or a job directory.").add_argument("path")
    command(sub, "verify", "Check that every file of a savepoint or checkpoint is present and intact."
            ).add_argument("path")
    _add_state_command(command(sub, "state", "Show the stateful operators of a checkpoint or savepoint and their "
                                             "state rows (starts a local Spark 4 session)."))

    savepoint = groups.add_parser("savepoint", help="create, restore and dispose of savepoints")
    sub = savepoint.add_subparsers(dest="action", required=True)
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

    port = groups.add_parser("port", help="port PyFlink job files: rewrite imports, write PySpark, report",
                             description="Port PyFlink job files to pyflink_compat and report what is left.")
    add_port_arguments(port)
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
    state.add_argument("--state-var", default=None, help="the state variable of a transformWithState operator")


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
    if "rows" not in result:
        lines.append("several stateful operators or stores: name one with --operator (and --store-name)")
        return lines
    lines.append("operator {}, store {}{}{}: {} of {} rows".format(
        result["operator_id"], result["store_name"],
        "" if result["state_var"] is None else ", state variable {}".format(result["state_var"]),
        "" if result["partition"] is None else ", partition {}".format(result["partition"]),
        len(result["rows"]), result["total_rows"]))
    table = [("partition", "key", "value")] + [(str(r["partition"]), _cell(r["key"]), _cell(r["value"]))
                                               for r in result["rows"]]
    widths = [max(len(row[i]) for row in table) for i in range(2)]
    for row in table:
        lines.append("  {}  {}  {}".format(row[0].ljust(widths[0]), row[1].ljust(widths[1]), row[2]).rstrip())
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
        return lines + _table(rows)
    if kind == "checkpoint":
        return _text_query(result, "query checkpoint {}".format(result["path"]))
    lines = ["job {} ({}{})".format(result["name"], result["path"], ", marker" if result["marker"] else "")]
    checkpoint_rows: List[Tuple[str, ...]] = [("checkpoint", "batch")]
    checkpoint_rows += [(c["id"], str(c["batch"])) for c in result["checkpoints"]]
    lines += _table(checkpoint_rows) if result["checkpoints"] else ["  no checkpoint restorable by every query"]
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


def _table(rows: List[Tuple[str, ...]]) -> List[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]


def _run(args: argparse.Namespace) -> Dict[str, Any]:
    if args.group == "checkpoints":
        if args.action == "list":
            return list_storage(args.path)
        if args.action == "show":
            return show(args.path)
        if args.action == "state":
            return _run_state(args)
        return verify(args.path)
    if args.action == "create":
        source = args.source[0] if len(args.source) == 1 else args.source
        path = write_savepoint(source, args.target, args.job_name, job_id=args.job_id, link=args.hard_links)
        return {"savepoint": path}
    if args.action == "restore":
        done = restore_query(args.source, args.target, sink=args.sink, new_query_id=not args.keep_query_id)
        return {"location": done.location, "batch_id": done.batch_id, "files": done.files, "bytes": done.bytes,
                "query_id": done.query_id}
    dispose_savepoint(args.path, force=args.force)
    return {"disposed": args.path}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # the reader closed the pipe (``| head``): what it wanted was printed; stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _main(argv: Optional[Sequence[str]]) -> int:
    given_argv = sys.argv[1:] if argv is None else list(argv)
    if is_job_command(given_argv):
        return job_command(given_argv)
    args = _parser().parse_args(given_argv)
    if args.group == "port":
        from pyflink_compat.porting.command import run as run_port

        return run_port(args)
    given = [vars(args).get(key) for key in ("path", "source", "target")]
    paths = [p for value in given for p in (value if isinstance(value, list) else [value]) if isinstance(p, str)]
    try:
        with spark_for_paths(paths):
            result = _run(args)
    except SavepointError as error:
        if args.json:
            print(json.dumps({"error": str(error), "path": error.path, "cause": error.cause}))
        else:
            print("error: {}".format(error), file=sys.stderr)
        return 1
    ok = result.get("ok", True)
    if args.json:
        print(json.dumps(result, indent=1, sort_keys=True))
    elif args.action == "list":
        print("\n".join(_text_list(result)))
    elif args.action == "state":
        print("\n".join(_text_state(result)))
    elif args.action == "show":
        print("\n".join(_text_show(result)))
    elif args.action == "verify":
        print("{} {}: {} ({} files)".format(result["kind"], result["path"], "intact" if ok else "DAMAGED",
                                              result["files"]))
        for problem in result["problems"]:
            print("  " + problem)
    elif args.action == "create":
        print("savepoint written: {}".format(result["savepoint"]))
    elif args.action == "restore":
        print("restored {} files ({} bytes) into {}: the query resumes after batch {} (query id {})".format(
            result["files"], result["bytes"], result["location"], result["batch_id"], result["query_id"]))
    else:
        print("disposed of {}".format(result["disposed"]))
    sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
