"""Run the public jobs of the manifest under pyflink_compat, from their repositories checked out
under ``--sources`` (``DIR/<owner>/<repo>`` at the recorded commit), and print for each job
whether it gives PyFlink's records (``same``), other records (``differs``, with the first
differences) or fails with ``NotSupportedError`` (``not-supported``), then the totals per kind.
Missing checkouts are named with the commands that make them."""

from __future__ import annotations

import argparse
import collections
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Optional, Sequence

from tests._helpers.differential import differences, load_golden, run_under_compat
from tests.differential.public.manifest import GOLDEN_DIR, PublicJob, load_manifest


def missing_checkouts(jobs: Sequence[PublicJob], sources: Path) -> List[str]:
    """The commands that check out the repositories (at their commits) that ``sources`` lacks."""
    commands: List[str] = []
    seen = set()
    for job in jobs:
        key = (job.repository, job.commit)
        if key in seen or (job.checkout(sources) / job.path).is_file():
            continue
        seen.add(key)
        target = job.checkout(sources)
        commands.append("git clone https://github.com/%s.git %s && git -C %s checkout %s"
                        % (job.repository, target, target, job.commit))
    return commands


def outcome(job: PublicJob, sources: Path) -> List[str]:
    """``[result, detail...]`` of one run: ``same``, ``differs`` or ``not-supported``."""
    harness_job = job.job(sources)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp) / "work"
        workdir.mkdir()
        job.copy_repository_inputs(sources, workdir)
        actual = run_under_compat(harness_job, workdir)
    if actual.error is not None and "NotSupportedError" in actual.error.split(":")[0]:
        return ["not-supported", actual.error]
    found = differences(harness_job, load_golden(harness_job, GOLDEN_DIR), actual)
    return ["differs"] + found[:3] if found else ["same"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.differential.public", description=__doc__)
    parser.add_argument("--sources", required=True, type=Path,
                        help="directory holding the repositories as <owner>/<repo>")
    parser.add_argument("names", nargs="*", help="jobs to run (all by default)")
    args = parser.parse_args(argv)
    jobs = load_manifest()
    unknown = sorted(set(args.names) - {job.name for job in jobs})
    if unknown:
        parser.error("no such jobs: %s" % ", ".join(unknown))
    if args.names:
        jobs = [job for job in jobs if job.name in args.names]
    commands = missing_checkouts(jobs, args.sources)
    if commands:
        print("missing checkouts; run:\n" + "\n".join(commands), file=sys.stderr)
        jobs = [job for job in jobs if (job.checkout(args.sources) / job.path).is_file()]
        if not jobs:
            return 1
    from tests._helpers.spark_session import local_test_session

    local_test_session("public-jobs")
    totals: Dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for job in jobs:
        result = outcome(job, args.sources)
        totals[job.kind][result[0]] += 1
        print("%s (%s): %s" % (job.name, job.kind, result[0]), flush=True)
        for detail in result[1:]:
            print("    " + detail[:400], flush=True)
    for kind in sorted(totals):
        counts = totals[kind]
        print("%s: %d same, %d differs, %d not-supported (of %d)" % (
            kind, counts["same"], counts["differs"], counts["not-supported"], sum(counts.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
