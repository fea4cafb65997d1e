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
    pyflink-compat savepoint create SOURCE TARGET_DIR --job-name NAME [--json]
    pyflink-compat savepoint restore SOURCE NEW_CHECKPOINT_DIR [--sink NAME] [--json]
    pyflink-compat savepoint dispose PATH [--json]

The exit code is 0 on success and 1 on any failure (including a failed verification); with
``--json`` the result, or ``{"error": ...}``, is printed as one JSON document. Only
``checkpoints state`` starts a JVM (a quiet local Spark session, Spark 4.0 or later), to read
state rows through Spark's state data source.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any, Dict, List, Optional, Sequence

from pyflink_compat.checkpoints import (
    SavepointError, dispose_savepoint, list_storage, restore_query, show, verify, write_savepoint)
from pyflink_compat.checkpoints.jvm_session import quiet_local_session, spark_for_paths
from pyflink_compat.checkpoints.state_reader import DEFAULT_LIMIT, read_state

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pyflink-compat",
                                     description="Inspect Spark query checkpoints and manage savepoints.")
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
    create.add_argument("--job-name", required=True)
    create.add_argument("--job-id", default=None)
    create.add_argument("--copy", action="store_true", help="copy files even where hard links are possible")
    restore = command(sub, "restore", "Prepare a fresh checkpoint location from a savepoint or checkpoint.")
    restore.add_argument("source")
    restore.add_argument("target")
    restore.add_argument("--sink", default=None, help="the query to restore when the source holds several")
    restore.add_argument("--keep-query-id", action="store_true", help="keep the saved query id")
    command(sub, "dispose", "Delete a savepoint (only a directory with a valid manifest).").add_argument("path")
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
        path = write_savepoint(source, args.target, args.job_name, job_id=args.job_id, link=not args.copy)
        return {"savepoint": path}
    if args.action == "restore":
        done = restore_query(args.source, args.target, sink=args.sink, new_query_id=not args.keep_query_id)
        return {"location": done.location, "batch_id": done.batch_id, "files": done.files, "bytes": done.bytes,
                "query_id": done.query_id}
    dispose_savepoint(args.path)
    return {"disposed": args.path}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit code."""
    args = _parser().parse_args(argv)
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
    elif args.action == "verify":
        print("{} {}: {} ({} files)".format(result["kind"], result["path"], "intact" if ok else "DAMAGED",
                                              result["files"]))
        for problem in result["problems"]:
            print("  " + problem)
    else:
        print(json.dumps(result, indent=1, sort_keys=True))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
