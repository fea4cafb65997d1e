"""Parity rules: compare pyflink_compat observations with the PyFlink recording.

Rules per step (``<scenario>/<step id>``):

* value: same ``type``, ``repr`` and ``value`` (all already normalised);
* error: the recorded ``type`` must appear among the compat exception's MRO names, and
  ``java_class``, ``java_message`` and ``detail`` must be equal wherever the recording has
  them non-null;
* warnings: equal lists (category and message).

A mismatch is *allowed* only when a divergence registered in
``pyflink_compat.divergences.DIVERGENCES`` lists a glob (``fnmatch``) matching the key.
Steps recorded with tier ``internal`` are compared too, but their mismatches are reported
separately and do not fail the run.
"""
from __future__ import annotations

import fnmatch
import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .battery import scenario_of
from .surface import surface_problems

Observation = dict[str, Any]

MATCH = "match"
ALLOWED = "allowed"
MISMATCH = "mismatch"
INTERNAL = "internal-mismatch"


@dataclass(frozen=True)
class Divergence:
    """A normalised view of one registered divergence."""

    id: str
    steps: tuple[str, ...]
    summary: str

    def matches(self, key: str) -> bool:
        return any(fnmatch.fnmatchcase(key, pattern) for pattern in self.steps)


def load_divergences(module: str = "pyflink_compat.divergences") -> list[Divergence]:
    """The registered divergences, or none when the registry does not exist yet."""
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return []
    out: list[Divergence] = []
    for item in getattr(mod, "DIVERGENCES", ()):
        steps = item.steps
        if isinstance(steps, str):
            raise TypeError(f"divergence {item.id!r}: steps must be a tuple, not a str")
        out.append(Divergence(id=str(item.id), steps=tuple(steps), summary=str(item.summary)))
    return out


def find_divergence(key: str, divergences: Iterable[Divergence]) -> Divergence | None:
    for div in divergences:
        if div.matches(key):
            return div
    return None


def compare_observation(recorded: Observation, actual: Observation | None) -> list[str]:
    """Problems with ``actual`` under the parity rules (empty list: it matches)."""
    if actual is None:
        return ["step missing from the pyflink_compat run"]
    problems: list[str] = []
    if recorded["kind"] != actual.get("kind"):
        problems.append(f"expected {_describe(recorded)}, got {_describe(actual)}")
    elif recorded["kind"] == "value":
        for fld in ("type", "repr", "value"):
            if recorded.get(fld) != actual.get(fld):
                problems.append(f"{fld}: expected {recorded.get(fld)!r}, "
                                f"got {actual.get(fld)!r}")
    else:
        if recorded["type"] not in actual.get("mro", []):
            problems.append(f"exception: expected an instance of {recorded['type']}, "
                            f"got {actual.get('type')} (mro {actual.get('mro')})")
        for fld in ("java_class", "java_message", "detail"):
            want = recorded.get(fld)
            if want is not None and want != actual.get(fld):
                problems.append(f"{fld}: expected {want!r}, got {actual.get(fld)!r}")
    if recorded.get("warnings", []) != actual.get("warnings", []):
        problems.append(f"warnings: expected {recorded.get('warnings')!r}, "
                        f"got {actual.get('warnings')!r}")
    return problems


def _describe(obs: Observation) -> str:
    if obs.get("kind") == "value":
        return f"value {obs.get('type')} {obs.get('repr')}"
    return (f"error {obs.get('type')} java_class={obs.get('java_class')} "
            f"java_message={obs.get('java_message')!r} detail={obs.get('detail')!r}")


@dataclass
class StepOutcome:
    key: str
    status: str
    problems: list[str] = field(default_factory=list)
    divergence: str | None = None


@dataclass
class ScenarioResult:
    scenario: str
    outcomes: list[StepOutcome] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def failures(self) -> list[StepOutcome]:
        return [o for o in self.outcomes if o.status == MISMATCH]

    def format(self, include_internal: bool = True) -> str:
        head = (f"scenario {self.scenario}: {self.count(MATCH)} matched, "
                f"{self.count(ALLOWED)} allowed, {self.count(MISMATCH)} mismatched, "
                f"{self.count(INTERNAL)} internal-tier mismatches")
        lines = [head]
        for o in self.outcomes:
            if o.status == MISMATCH or (include_internal and o.status == INTERNAL):
                label = "MISMATCH" if o.status == MISMATCH else "internal"
                lines.append(f"  [{label}] {o.key}")
                lines.extend(f"      {p}" for p in o.problems)
        return "\n".join(lines)


def compare_scenario(scenario: str, recorded: dict[str, Observation],
                     actual: dict[str, Observation],
                     divergences: Sequence[Divergence]) -> ScenarioResult:
    """Compare every recorded step of ``scenario``; extra compat steps are mismatches."""
    result = ScenarioResult(scenario)
    want = {k: v for k, v in recorded.items() if scenario_of(k) == scenario}
    got = {k: v for k, v in actual.items() if scenario_of(k) == scenario}
    for key, rec_obs in want.items():
        problems = compare_observation(rec_obs, got.get(key))
        result.outcomes.append(_outcome(key, problems, rec_obs.get("tier", "public"),
                                        divergences))
    for key, act_obs in got.items():
        if key not in want:
            problems = [f"step not in the PyFlink recording: {_describe(act_obs)}"]
            result.outcomes.append(_outcome(key, problems, "public", divergences))
    return result


def _outcome(key: str, problems: list[str], tier: str,
             divergences: Sequence[Divergence]) -> StepOutcome:
    if not problems:
        return StepOutcome(key, MATCH)
    div = find_divergence(key, divergences)
    if div is not None:
        return StepOutcome(key, ALLOWED, problems, div.id)
    return StepOutcome(key, INTERNAL if tier == "internal" else MISMATCH, problems)


@dataclass
class Totals:
    matched: int = 0
    allowed: int = 0
    mismatched: int = 0
    internal: int = 0
    scenarios: int = 0
    divergences_used: dict[str, int] = field(default_factory=dict)

    def add(self, result: ScenarioResult) -> None:
        self.scenarios += 1
        self.matched += result.count(MATCH)
        self.allowed += result.count(ALLOWED)
        self.mismatched += result.count(MISMATCH)
        self.internal += result.count(INTERNAL)
        for o in result.outcomes:
            if o.divergence:
                self.divergences_used[o.divergence] = self.divergences_used.get(
                    o.divergence, 0) + 1

    def format(self) -> str:
        text = (f"parity: {self.scenarios} scenarios, {self.matched} observations matched, "
                f"{self.allowed} allowed divergences, {self.mismatched} mismatches, "
                f"{self.internal} internal-tier mismatches")
        if self.divergences_used:
            used = ", ".join(f"{k}={v}" for k, v in sorted(self.divergences_used.items()))
            text += f" (divergences used: {used})"
        return text


#: Totals of the current pytest session (filled by test_parity_compat, printed by conftest).
SESSION_TOTALS = Totals()


def scenario_names(recorded_doc: dict[str, Any]) -> list[str]:
    """Scenario names of a recording, in recording order."""
    names = list(recorded_doc.get("scenarios", {}))
    for key in recorded_doc.get("observations", {}):
        name = scenario_of(key)
        if name not in names:
            names.append(name)
    return names


def unused_divergences(divergences: Sequence[Divergence],
                       keys: Iterable[str]) -> list[Divergence]:
    """Divergences whose patterns match no recorded step or surface item (stale entries)."""
    key_list = list(keys)
    return [d for d in divergences if not any(d.matches(k) for k in key_list)]


def surface_report(recorded: dict[str, Any], actual: dict[str, Any],
                   divergences: Sequence[Divergence]) -> list[tuple[str, str]]:
    """Surface completeness problems that no divergence allows."""
    return [(item, msg) for item, msg in surface_problems(recorded, actual)
            if find_divergence(item, divergences) is None]
