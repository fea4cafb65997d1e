"""Side-by-side benchmarks: pyflink_compat against live PyFlink 1.20.5, in one run.

Every measurement runs in fresh processes, alternating the two implementations so that both
see the same machine load, and the script prints each median and the ratio
pyflink_compat / PyFlink. PyFlink runs in a virtual environment of its own (its py4j pin
differs from pyspark's): pass ``--pyflink-python``, or let the script create one.

Usage: ``python benchmarks/run.py [--rounds 3] [--calls 2000] [--pyflink-python PATH]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
WORKER = os.path.join(HERE, "worker.py")


def pyflink_interpreter(given: str) -> str:
    """A Python with apache-flink 1.20.5: the given one, the parity env's, or a new venv."""
    candidates = [given, os.path.join(ROOT, ".tox", "parity", "bin", "python")]
    for candidate in candidates:
        if candidate and os.path.exists(candidate):
            return candidate
    venv = os.path.join(tempfile.gettempdir(), "pyflink_compat-bench-pyflink")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        print("creating a virtual environment with apache-flink 1.20.5 in", venv, flush=True)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", "apache-flink==1.20.5"], check=True)
    return python


def measure(python: str, root: str, what: str, calls: int) -> Dict[str, float]:
    env = dict(os.environ, PYTHONPATH=ROOT, PYSPARK_PYTHON=python)
    out = subprocess.run([python, WORKER, root, what, str(calls)], capture_output=True, text=True,
                         env=env, cwd=tempfile.gettempdir(), timeout=600)
    if out.returncode != 0:
        raise RuntimeError("{} {} failed:\n{}".format(root, what, out.stderr[-3000:]))
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="fresh processes per implementation")
    parser.add_argument("--calls", type=int, default=2000, help="calls per timed repetition")
    parser.add_argument("--pyflink-python", default=os.environ.get("PYFLINK_PYTHON", ""))
    args = parser.parse_args()
    pythons = {"pyflink_compat": sys.executable, "pyflink": pyflink_interpreter(args.pyflink_python)}
    results: Dict[str, Dict[str, List[float]]] = {"pyflink_compat": {}, "pyflink": {}}
    for what in ("import", "start", "calls"):
        for _ in range(args.rounds):
            for root in ("pyflink", "pyflink_compat"):  # alternate: same load for both
                for key, value in measure(pythons[root], root, what, args.calls).items():
                    results[root].setdefault(key, []).append(value)
    print("\n{:<28} {:>14} {:>14} {:>8}".format("measurement (median)", "PyFlink", "pyflink_compat",
                                                "ratio"))
    for key in results["pyflink"]:
        ours = statistics.median(results["pyflink_compat"][key])
        theirs = statistics.median(results["pyflink"][key])
        print("{:<28} {:>14.3f} {:>14.3f} {:>8.2f}".format(key, theirs, ours, ours / theirs))
    print("\nratio = pyflink_compat / PyFlink (below 1: pyflink_compat is faster); "
          "{} fresh processes each, alternating.".format(args.rounds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
