"""The manifest of public jobs (``manifest.json``): each job named by its repository, its path
there and the commit it was recorded at, with its goldens in ``golden/`` and the inputs written
for it in ``inputs/``; inputs that come from the job's repository are named by their path there
(``repository_inputs``: a path under the working directory -> a path in the repository)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping

from tests._helpers.differential import DIFFERENTIAL_DIR, Job

PUBLIC_DIR = Path(__file__).resolve().parent
MANIFEST_FILE = PUBLIC_DIR / "manifest.json"
GOLDEN_DIR = PUBLIC_DIR / "golden"

_REQUIRED = ("name", "kind", "repository", "path", "commit", "licence", "args", "outputs",
             "compare", "expect", "notes")
_KEYS = set(_REQUIRED) | {"divergence", "inputs", "repository_inputs"}


@dataclass(frozen=True)
class PublicJob:
    """One job of the manifest."""

    name: str
    kind: str
    repository: str
    path: str
    commit: str
    licence: str
    args: List[str]
    outputs: List[str]
    compare: str
    expect: str
    notes: str
    divergence: str = ""
    inputs: str = ""
    repository_inputs: Mapping[str, str] = field(default_factory=dict)

    @property
    def golden_path(self) -> Path:
        return GOLDEN_DIR / (self.name + ".json")

    def checkout(self, sources: Path) -> Path:
        """Where the job's repository is checked out under ``sources``."""
        return sources / self.repository

    def job(self, sources: Path) -> Job:
        """The harness's job for the file checked out under ``sources``."""
        return Job(name=self.name, kind=self.kind, file=str((self.checkout(sources) / self.path).resolve()),
                   source="https://github.com/%s/blob/%s/%s" % (self.repository, self.commit, self.path),
                   commit=self.commit, licence=self.licence, args=tuple(self.args),
                   inputs=self.inputs or None, outputs=tuple(self.outputs), compare=self.compare,
                   expect=self.expect, notes=self.notes, divergence=self.divergence)

    def copy_repository_inputs(self, sources: Path, workdir: Path) -> None:
        """Copy the inputs that come from the job's repository into ``workdir``."""
        for target, path in self.repository_inputs.items():
            (workdir / target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.checkout(sources) / path, workdir / target)


def load_manifest() -> List[PublicJob]:
    """The jobs of ``manifest.json``, checked: known keys, kinds, comparisons and expectations,
    inputs written for the harness present, names unique."""
    jobs = []
    for entry in json.loads(MANIFEST_FILE.read_text(encoding="utf-8")):
        entry_: Dict[str, Any] = dict(entry)
        name = entry_.get("name")
        unknown = set(entry_) - _KEYS
        missing = [key for key in _REQUIRED if key not in entry_]
        if unknown or missing:
            raise ValueError("manifest entry %r: unknown keys %s, missing keys %s"
                             % (name, sorted(unknown), missing))
        job = PublicJob(**entry_)
        if job.kind not in ("table", "datastream") or job.compare not in ("append", "changelog") \
                or job.expect not in ("records", "not-supported"):
            raise ValueError("manifest entry %r: unknown kind, compare or expect" % name)
        if job.repository.count("/") != 1 or Path(job.path).is_absolute() or ".." in Path(job.path).parts:
            raise ValueError("manifest entry %r: repository must be owner/name, path relative" % name)
        if job.inputs and not (DIFFERENTIAL_DIR / job.inputs).is_dir():
            raise ValueError("manifest entry %r: no inputs directory %s" % (name, job.inputs))
        for target in job.repository_inputs:
            if Path(target).is_absolute() or ".." in Path(target).parts:
                raise ValueError("manifest entry %r: %r is not under the working directory" % (name, target))
        jobs.append(job)
    names = [job.name for job in jobs]
    if len(set(names)) != len(names):
        raise ValueError("manifest names repeat: %s" % sorted(n for n in names if names.count(n) > 1))
    return jobs
