"""The manifest of public jobs outside the repository is well-formed, has a recording for every
job, and the repository holds none of its job files (only PyFlink's own examples and the
porting corpus's files may be held)."""

from __future__ import annotations

import json
from pathlib import Path

from tests._helpers.differential import SinkRecords
from tests.differential.public.manifest import load_manifest

JOBS = load_manifest()
ROOT = Path(__file__).resolve().parents[2]


def test_the_manifest_names_each_job_once_with_its_repository_commit_and_licence() -> None:
    assert len(JOBS) == len({job.name for job in JOBS}) > 0
    assert all(job.repository and job.path.endswith(".py") and job.commit and job.licence for job in JOBS)


def test_every_job_of_the_manifest_has_a_recording_from_pyflink() -> None:
    for job in JOBS:
        data = json.loads(job.golden_path.read_text(encoding="utf-8"))
        assert data["job"] == job.name and data["pyflink"].startswith("1.20")
        SinkRecords.from_json(data["records"])


def test_the_repository_holds_no_job_file_of_the_manifest() -> None:
    sources = json.loads((ROOT / "tests/porting/corpus/sources.json").read_text(encoding="utf-8"))
    permitted = {(entry["repository"], entry["path"]) for entry in sources.values()}
    held = {path.name for folder in ("tests", "examples", "docs", "benchmarks", "pyflink_compat")
            for path in (ROOT / folder).rglob("*.py")}
    found = [job.name for job in JOBS
             if (job.repository, job.path) not in permitted
             and not (job.repository == "apache/flink" and "/pyflink/examples/" in job.path)
             and {Path(job.path).name, job.name.replace("-", "_") + ".py"} & held]
    assert found == []


def test_a_divergence_a_public_job_names_is_registered() -> None:
    from pyflink_compat.divergences import DIVERGENCES, RUNTIME_DIVERGENCES

    registered = {d.id for d in DIVERGENCES + RUNTIME_DIVERGENCES}
    assert [d for job in JOBS for d in job.divergence.split(",") if d.strip() and d.strip() not in registered] == []
