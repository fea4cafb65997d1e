"""Record the corpus outcomes from live PyFlink, or print them for another root.

Run from the repository root, in the PyFlink environment::

    python -m tests.corpus.record                         # (re)write pyflink-1.20.5-corpus.json
    python -m tests.corpus.record --root pyflink_compat   # print the shim's outcomes as JSON
    python -m tests.corpus.record --only NAME [NAME ...]  # a part of the corpus
    python -m tests.corpus.record --root pyflink_compat --diagnose   # all that the shim lacks

and, in the Spark environment, where the porting classifier cuts the whole job files::

    python -m tests.corpus.record --cuts                  # (re)write whole-file-cuts.json
"""
from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from .harness import preamble_names, run_preamble, run_source
from .whole_files import CUTS, classifier_cut, load_cuts, whole_file_names, whole_file_preamble, whole_file_text

PYFLINK_VERSION = "1.20.5"
RECORDING = Path(__file__).resolve().parent / "pyflink-{}-corpus.json".format(PYFLINK_VERSION)
FORMAT = 1


def collect(root: str, only: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    names: List[str] = list(only) if only else preamble_names()
    outcomes = {name: run_preamble(name, root) for name in names}
    cuts = load_cuts()
    whole = {name: run_whole_file(name, root, cuts[name]) for name in whole_file_names()}
    return {
        "format": FORMAT,
        "recorded_root": root,
        "pyflink_version": metadata.version("apache-flink") if root == "pyflink" else None,
        "preamble_count": len(outcomes),
        "ok": sorted(n for n, o in outcomes.items() if o["outcome"] == "ok"),
        "rejected": sorted(n for n, o in outcomes.items() if o["outcome"] == "rejected"),
        "outcomes": outcomes,
        "whole_files": {
            "count": len(whole),
            "ok": sorted(n for n, o in whole.items() if o["outcome"] == "ok"),
            "rejected": sorted(n for n, o in whole.items() if o["outcome"] == "rejected"),
            "outcomes": whole,
        },
    }


def run_whole_file(name: str, root: str, cut: Dict[str, Any]) -> Dict[str, Any]:
    """The outcome of the preamble cut from whole job file ``name``, run under ``root``."""
    return run_source("whole:" + name, whole_file_preamble(name, root, cut))


def record_cuts() -> Dict[str, Any]:
    """The classifier's set-up and pipeline lines of every whole job file."""
    return {name: classifier_cut(whole_file_text(name), name) for name in whole_file_names()}


def dumps(doc: Dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_recording() -> Dict[str, Any]:
    return json.loads(RECORDING.read_text(encoding="utf-8"))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default="pyflink")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--diagnose", action="store_true",
                        help="list every missing import and failing statement per preamble")
    parser.add_argument("--cuts", action="store_true",
                        help="write where the porting classifier cuts the whole job files (Spark environment)")
    args = parser.parse_args(argv)
    if args.cuts:
        CUTS.write_text(dumps(record_cuts()), encoding="utf-8")
        print("wrote {}: {} job files".format(CUTS.name, len(whole_file_names())))
        return 0
    if args.diagnose:
        from .diagnose import diagnose_all, gap_counts
        report = diagnose_all(list(args.only or preamble_names()), args.root)
        for name, problems in report.items():
            print("{}: {}".format(name, "runs" if not problems else "{} problem(s)".format(len(problems))))
            for problem in problems:
                print("    " + problem)
        runs = set(load_recording()["ok"])
        print("gaps, by the number of preambles PyFlink runs that they block:")
        for gap, count in gap_counts({n: p for n, p in report.items() if n in runs}):
            print("  {:3d}  {}".format(count, gap))
        return 0
    doc = collect(args.root, args.only)
    if args.root == "pyflink" and not args.only:
        if doc["pyflink_version"] != PYFLINK_VERSION:
            print("expected apache-flink {}, found {}".format(PYFLINK_VERSION, doc["pyflink_version"]),
                  file=sys.stderr)
            return 2
        RECORDING.write_text(dumps(doc), encoding="utf-8")
        print("wrote {}: {} preambles, {} run, {} rejected; {} whole job files, {} run, {} rejected".format(
            RECORDING.name, doc["preamble_count"], len(doc["ok"]), len(doc["rejected"]),
            doc["whole_files"]["count"], len(doc["whole_files"]["ok"]), len(doc["whole_files"]["rejected"])))
    else:
        sys.stdout.write(dumps(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
