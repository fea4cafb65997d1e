"""Side-by-side benchmarks of pyflink_compat: run them all, print every table and ratio.

``calls``: per-call cost of the configuration API against live PyFlink 1.20.5, and start-up.
``jobs``: job overhead (``env.execute()`` against the same pipeline started by hand),
recovery after a SIGKILLed driver, and state (heap and RocksDB backends at several key counts,
each against the native Spark configuration it maps to).

The package's bytecode is compiled first, as installing it does, so that no measured process
compiles modules (it would under ``PYTHONDONTWRITEBYTECODE``). Every measurement runs in fresh
processes, alternating the sides; results are medians and are
written as JSON to ``--out`` (``plots.py`` draws them). Small sizes by default (a few minutes);
``--full`` runs the full sizes. ``--only state`` runs the state measurements alone (with
``--full``: up to 1M keys) and writes them to ``state.json``, which the state table and plot
then prefer to the state part of ``jobs.json``. ``--only overhead`` runs the job overhead alone
(``overhead.json``); with many ``--rounds`` its ratios paired by round resolve a few percent.
``--only recovery`` runs the recovery measurement alone (``recovery.json``). ``savepoints``: the
cost of a savepoint as copies against hard links, and savepoints of a busy job
(``savepoints.json``). ``--only latency`` runs the two trigger modes side by side
(``latency.py``: delivery delay, checkpoint bytes, CPU per row, recovery; ``latency.json``),
with a 20 s checkpoint interval and 40 s of input per run (``--full``: a 60 s interval and
three minutes of input). ``--only pipelines`` runs the DataStream and SQL pipelines under
PyFlink 1.20.5 and pyflink_compat side by side (``pipelines.py``; ``pipelines.json``).

Usage: ``python benchmarks/run.py [--full] [--only calls|jobs|overhead|recovery|state|savepoints|latency|pipelines]
[--pyflink-python PATH] [--out DIR]``
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import DEFAULT_OUT, ROOT, machine, print_machine, write_results  # noqa: E402


def compile_package() -> None:
    """Write the bytecode of every module of the package, as ``pip install`` does."""
    import compileall

    compileall.compile_dir(os.path.join(ROOT, "pyflink_compat"), quiet=1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="full sizes (much longer)")
    parser.add_argument("--only", choices=("calls", "jobs", "overhead", "recovery", "state", "savepoints",
                                                   "latency", "pipelines"),
                        help="run one group (overhead: the job overhead part of jobs alone)")
    parser.add_argument("--rounds", type=int, help="fresh processes per side and measurement")
    parser.add_argument("--pyflink-python", default=os.environ.get("PYFLINK_PYTHON", ""))
    parser.add_argument("--out", default=DEFAULT_OUT, help="directory of the JSON results")
    args = parser.parse_args()
    import calls
    import jobs

    pyflink_python = calls.pyflink_interpreter(args.pyflink_python) \
        if args.only in (None, "calls", "pipelines") else None
    compile_package()
    print_machine(machine(pyflink_python))
    if args.only in (None, "calls"):
        rounds = args.rounds or (7 if args.full else 3)
        write_results(args.out, "calls", calls.run(pyflink_python or "", rounds,
                                                   2000 if args.full else 300))
    if args.only in (None, "jobs"):
        write_results(args.out, "jobs", jobs.run(args.rounds or (3 if args.full else 1), args.full))
    if args.only == "overhead":
        write_results(args.out, "overhead", jobs.run(args.rounds or (3 if args.full else 1),
                                                     args.full, parts=("overhead",)))
    if args.only == "recovery":
        write_results(args.out, "recovery", jobs.run(args.rounds or 3, args.full, parts=("recovery",)))
    if args.only in (None, "savepoints"):
        import savepoints

        write_results(args.out, "savepoints", savepoints.run(args.rounds or (7 if args.full else 5), args.full))
    if args.only == "latency":
        import latency

        write_results(args.out, "latency", latency.run(args.rounds or 1, latency.options(
            seconds=180.0 if args.full else 40.0, interval_ms=60000 if args.full else 20000)))
    if args.only == "pipelines":
        import pipelines

        result = pipelines.run(pyflink_python or "", args.rounds or (3 if args.full else 2))
        pipelines.print_summary(result)
        write_results(args.out, "pipelines", result)
    if args.only == "state":
        write_results(args.out, "state", jobs.run(args.rounds or (3 if args.full else 1), args.full,
                                                  parts=("state",)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
