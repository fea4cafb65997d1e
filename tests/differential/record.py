"""Record what live PyFlink 1.20.5 gives for jobs of the differential corpus.

Run with the Python that has ``apache-flink==1.20.5`` installed, from the checkout's root::

    python -m tests.differential.record                 # every job
    python -m tests.differential.record NAME [NAME...]  # the named jobs

A job that fails under PyFlink is not recorded: the corpus holds jobs that run.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import List

from tests._helpers.differential import load_corpus, run_under_pyflink, write_golden


def main(names: List[str]) -> int:
    from importlib.metadata import version

    pyflink_version = version("apache-flink")
    jobs = [job for job in load_corpus() if not names or job.name in names]
    unknown = set(names) - {job.name for job in jobs}
    if unknown:
        print("no such job: %s" % ", ".join(sorted(unknown)), file=sys.stderr)
        return 2
    failed = 0
    for job in jobs:
        with tempfile.TemporaryDirectory(prefix="differential-") as work:
            records = run_under_pyflink(job, Path(work))
        if records.error is not None:
            print("%s: not recorded, it failed under PyFlink: %s" % (job.name, records.error))
            failed += 1
            continue
        write_golden(job, records, pyflink_version)
        print("%s: %d printed lines, %s" % (job.name, len(records.printed),
                                          {k: len(v) for k, v in records.files.items()}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
