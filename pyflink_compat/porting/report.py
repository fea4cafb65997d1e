"""The porting report: what each statement of a job becomes, per file and per run.

Every statement that uses PyFlink is one :class:`Finding`, of one :class:`Outcome`: ported
unchanged (and applied on Spark), ported but stored only (the support matrix says Spark has no
such thing), rewritten (the tool wrote its PySpark) or left to a person (with the PySpark way).
A :class:`FileReport` holds a file's findings; :class:`RunReport` sums a run. Each renders as
text, Markdown or JSON.
"""

from __future__ import annotations

import enum
import json
from typing import Any, Dict, List, Optional, Tuple

import attrs

__all__ = ["Outcome", "Finding", "FileReport", "RunReport", "render"]


class Outcome(enum.Enum):
    """What became of one statement."""

    #: ported unchanged, and Spark does what it asks
    PORTED = "ported"
    #: ported unchanged, the setting kept and read back, with no Spark effect
    STORED_ONLY = "stored only"
    #: pipeline, written in PySpark by the tool
    REWRITTEN = "rewritten"
    #: pipeline, left in place with a comment naming the PySpark way
    LEFT = "left"
    #: a call of a pipeline method on a value the tool cannot type: check by hand
    UNKNOWN = "unknown"
    #: a PyFlink value built and never used: no effect, on PyFlink as on Spark
    UNUSED = "unused"


_TITLES = {
    Outcome.PORTED: "ported unchanged",
    Outcome.STORED_ONLY: "stored only (no Spark effect)",
    Outcome.REWRITTEN: "rewritten in PySpark",
    Outcome.LEFT: "left to a person",
    Outcome.UNKNOWN: "unknown, check by hand",
    Outcome.UNUSED: "value never used (no effect)",
}


@attrs.frozen
class Finding:
    """One statement.

    :param line: Its first line in the original file.
    :param outcome: What became of it.
    :param apis: The PyFlink APIs it calls, as ``Class.method``.
    :param note: For stored-only settings what they mean on Spark; for rewritten statements
        what was written; for statements left, the PySpark way.
    :param code: Its first line of source, for people.
    """

    line: int
    outcome: Outcome
    apis: Tuple[str, ...]
    note: str
    code: str

    def as_json(self) -> Dict[str, Any]:
        return {"line": self.line, "outcome": self.outcome.value, "apis": list(self.apis),
                "note": self.note, "code": self.code}


@attrs.frozen
class FileReport:
    """The outcome of porting one file.

    :param path: The file.
    :param findings: Its statements that use PyFlink, in line order.
    :param imports: How many import statements were rewritten.
    :param changed: Whether the ported text differs from the file.
    :param error: Why the file was refused (it is then left untouched).
    :param notes: What the ported job needs besides its code (a connector package...).
    """

    path: str
    findings: Tuple[Finding, ...] = ()
    imports: int = 0
    changed: bool = False
    error: Optional[str] = None
    notes: Tuple[str, ...] = ()

    def count(self, outcome: Outcome) -> int:
        return sum(1 for f in self.findings if f.outcome is outcome)

    @property
    def left(self) -> int:
        return self.count(Outcome.LEFT)

    @property
    def unknown(self) -> int:
        return self.count(Outcome.UNKNOWN)

    def as_json(self) -> Dict[str, Any]:
        return {"path": self.path, "error": self.error, "imports_rewritten": self.imports,
                "changed": self.changed, "notes": list(self.notes),
                "counts": {o.value: self.count(o) for o in Outcome},
                "findings": [f.as_json() for f in self.findings]}


@attrs.frozen
class RunReport:
    """A run over many files."""

    files: Tuple[FileReport, ...]

    def count(self, outcome: Outcome) -> int:
        return sum(f.count(outcome) for f in self.files)

    @property
    def refused(self) -> int:
        return sum(1 for f in self.files if f.error is not None)

    @property
    def left(self) -> int:
        return self.count(Outcome.LEFT)

    @property
    def unknown(self) -> int:
        return self.count(Outcome.UNKNOWN)

    def summary(self) -> str:
        return ("{} files ({} refused, {} changed): {} statements ported unchanged, {} stored only, "
                "{} rewritten in PySpark, {} left to a person, {} unknown (check by hand), "
                "{} never used").format(
            len(self.files), self.refused, sum(1 for f in self.files if f.changed),
            self.count(Outcome.PORTED), self.count(Outcome.STORED_ONLY), self.count(Outcome.REWRITTEN),
            self.left, self.unknown, self.count(Outcome.UNUSED))

    def as_json(self) -> Dict[str, Any]:
        return {"summary": self.summary(), "counts": {o.value: self.count(o) for o in Outcome},
                "refused": self.refused, "files": [f.as_json() for f in self.files]}


def _text_file(report: FileReport) -> List[str]:
    if report.error is not None:
        return ["{}: refused: {}".format(report.path, report.error)]
    lines = ["{}: {} imports rewritten, {} ported, {} stored only, {} rewritten, {} left, {} unknown".format(
        report.path, report.imports, report.count(Outcome.PORTED), report.count(Outcome.STORED_ONLY),
        report.count(Outcome.REWRITTEN), report.left, report.unknown)]
    for outcome in Outcome:
        chosen = [f for f in report.findings if f.outcome is outcome]
        if not chosen:
            continue
        lines.append("  {}:".format(_TITLES[outcome]))
        for finding in chosen:
            lines.append("    line {}: {}".format(finding.line, finding.code))
            if finding.note and outcome is not Outcome.PORTED:
                lines.append("      -> {}".format(finding.note))
    lines += ["  note: " + note for note in report.notes]
    return lines


def _markdown_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _markdown_file(report: FileReport) -> List[str]:
    lines = ["## `{}`".format(report.path), ""]
    if report.error is not None:
        return lines + ["Refused: {}".format(report.error), ""]
    lines += ["{} imports rewritten; {} ported, {} stored only, {} rewritten, {} left, {} unknown.".format(
        report.imports, report.count(Outcome.PORTED), report.count(Outcome.STORED_ONLY),
        report.count(Outcome.REWRITTEN), report.left, report.unknown), ""]
    if report.findings:
        lines += ["| line | outcome | statement | PyFlink | on Spark |", "|---|---|---|---|---|"]
        for f in report.findings:
            lines.append("| {} | {} | `{}` | {} | {} |".format(
                f.line, f.outcome.value, _markdown_cell(f.code), _markdown_cell(", ".join(f.apis)),
                _markdown_cell(f.note)))
        lines.append("")
    lines += ["* " + note for note in report.notes]
    return lines


def render(run: RunReport, form: str) -> str:
    """The report as ``text``, ``markdown`` or ``json``."""
    if form == "json":
        return json.dumps(run.as_json(), indent=1, sort_keys=True)
    if form == "markdown":
        lines = ["# Porting report", ""]
        for report in run.files:
            lines += _markdown_file(report)
        lines += ["", "**Summary:** " + run.summary()]
        return "\n".join(lines)
    lines = []
    for report in run.files:
        lines += _text_file(report)
    lines.append(run.summary())
    return "\n".join(lines)
