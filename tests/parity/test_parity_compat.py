"""Run the battery against pyflink_compat and compare with the PyFlink recording.

One test per scenario (so failures are readable) and a surface completeness test; the totals
are printed at the end of the session (``conftest.py``). Mismatches are allowed only through
``pyflink_compat.divergences.DIVERGENCES``. The package is imported unconditionally: if it
cannot be imported, collecting this module fails and the whole battery fails with it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

import pyflink_compat.datastream  # noqa: F401 - a package that does not import fails the battery

from . import battery, compare, record

RECORDED = record.load_observations()


def _scenarios() -> list[str]:
    names = compare.scenario_names(RECORDED)
    return names + [n for n in battery.get_scenarios() if n not in names]


@pytest.fixture(scope="module")
def divergences() -> list[compare.Divergence]:
    return compare.load_divergences()


@pytest.mark.parametrize("scenario", _scenarios())
def test_scenario(scenario: str, divergences: list[compare.Divergence]) -> None:
    if scenario not in battery.get_scenarios():
        pytest.fail(f"scenario {scenario!r} is recorded but no longer in the battery")
    actual, _ = battery.run_battery("pyflink_compat", only=[scenario])
    result = compare.compare_scenario(scenario, RECORDED["observations"], actual, divergences)
    compare.SESSION_TOTALS.add(result)
    if scenario not in RECORDED["scenarios"]:
        pytest.fail(f"scenario {scenario!r} is not in the recording; refresh it with "
                    "`python -m tests.parity.record --refresh` under PyFlink")
    if result.failures:
        pytest.fail(result.format(), pytrace=False)


def test_surface_complete(divergences: list[compare.Divergence]) -> None:
    from .surface import build_surface

    problems = compare.surface_report(record.load_surface(), build_surface("pyflink_compat"),
                                      divergences)
    assert not problems, "\n".join(f"{item}: {msg}" for item, msg in problems)


def test_divergences_are_well_formed(divergences: list[compare.Divergence]) -> None:
    ids = [d.id for d in divergences]
    assert len(ids) == len(set(ids)), f"duplicate divergence ids: {ids}"
    for div in divergences:
        assert div.steps and div.summary, f"divergence {div.id!r} needs steps and a summary"
    from .surface import flatten

    keys = list(RECORDED["observations"])
    keys += [f"surface/{path}" for path, _ in flatten(
        {k: v for k, v in record.load_surface().items() if k in ("modules", "packages")})]
    stale = compare.unused_divergences(divergences, keys)
    assert not stale, "divergences matching no step: " + ", ".join(d.id for d in stale)


#: Collects this module in a fresh interpreter where ``pyflink_compat.datastream`` cannot be
#: imported (``None`` in :data:`sys.modules` makes importing it raise ``ImportError``).
_COLLECT_WITH_A_BROKEN_PACKAGE = textwrap.dedent("""
    import sys
    import pytest
    sys.modules["pyflink_compat.datastream"] = None
    sys.exit(pytest.main(["-p", "no:cacheprovider", "-q", "--collect-only", sys.argv[1]]))
""")


def test_a_package_that_does_not_import_fails_the_battery():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run([sys.executable, "-c", _COLLECT_WITH_A_BROKEN_PACKAGE, os.path.abspath(__file__)],
                          cwd=repo, capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == pytest.ExitCode.INTERRUPTED, output
    assert "error during collection" in output and "pyflink_compat.datastream" in output, output
    assert "skipped" not in output, output
