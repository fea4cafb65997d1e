"""Record or check the PyFlink reference files.

Run from the repository root::

    python -m tests.parity.record --refresh          # (re)write the JSON files from pyflink
    python -m tests.parity.record                    # compare pyflink with the JSON files
    python -m tests.parity.record --root pyflink_compat   # compare the shim (parity rules)

Compare mode prints every difference and exits non-zero when there is any.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from importlib import import_module, metadata
from pathlib import Path
from typing import Any

from . import battery
from .surface import build_surface

PYFLINK_VERSION = "1.20.5"
HERE = Path(__file__).resolve().parent
OBSERVATIONS_FILE = HERE / f"pyflink-{PYFLINK_VERSION}-observations.json"
SURFACE_FILE = HERE / f"pyflink-{PYFLINK_VERSION}-surface.json"
FORMAT = 1


def root_version(root: str) -> str | None:
    """Installed version of the root package (apache-flink for ``pyflink``)."""
    dist = "apache-flink" if root == "pyflink" else root
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return getattr(import_module(root), "__version__", None)


# -- building documents -------------------------------------------------------------------
def collect_observations(root: str, only: Iterable[str] | None = None) -> dict[str, Any]:
    observations, origins = battery.run_battery(root, only=only)
    tiers: dict[str, int] = {}
    for obs in observations.values():
        tier = obs.get("tier", "public")
        tiers[tier] = tiers.get(tier, 0) + 1
    return {
        "format": FORMAT,
        "pyflink_version": root_version(root) if root == "pyflink" else PYFLINK_VERSION,
        "recorded_root": root,
        "scenario_count": len(origins),
        "step_count": len(observations),
        "tiers": tiers,
        "scenarios": origins,
        "observations": observations,
    }


def collect_surface(root: str) -> dict[str, Any]:
    surface = build_surface(root)
    return {
        "format": FORMAT,
        "pyflink_version": root_version(root) if root == "pyflink" else PYFLINK_VERSION,
        "recorded_root": root,
        **surface,
    }


# -- files ----------------------------------------------------------------------------------
def dumps_observations(doc: dict[str, Any]) -> str:
    """JSON text with one line per observation (stable, diff-friendly)."""
    head = {k: v for k, v in doc.items() if k != "observations"}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines.append(' "observations": {')
    items = list(doc["observations"].items())
    for i, (key, obs) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        lines.append(f"  {json.dumps(key, ensure_ascii=False)}: "
                     f"{json.dumps(obs, ensure_ascii=False)}{comma}")
    lines.append(" }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def dumps_surface(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def load_json(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def load_observations() -> dict[str, Any]:
    return load_json(OBSERVATIONS_FILE)


def load_surface() -> dict[str, Any]:
    return load_json(SURFACE_FILE)


def write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


# -- exact comparison (pyflink against its own recording) ----------------------------------
def _short(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def diff_observations(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for field in ("format", "pyflink_version", "scenarios"):
        if expected.get(field) != actual.get(field):
            out.append(f"[{field}] expected {_short(expected.get(field))}, "
                       f"got {_short(actual.get(field))}")
    want = expected.get("observations", {})
    got = actual.get("observations", {})
    for key in list(want) + [k for k in got if k not in want]:
        if key not in got:
            out.append(f"{key}: missing (expected {_short(want[key])})")
        elif key not in want:
            out.append(f"{key}: unexpected new step {_short(got[key])}")
        elif want[key] != got[key]:
            out.append(f"{key}:\n    expected {_short(want[key])}\n    got      {_short(got[key])}")
    if not out and list(want) != list(got):
        out.append("observations: same steps in a different order")
    return out


def diff_surface(expected: dict[str, Any], actual: dict[str, Any]) -> list[str]:
    from .surface import flatten

    out: list[str] = []
    flat_want = dict(flatten(expected))
    flat_got = dict(flatten(actual))
    for path in list(flat_want) + [p for p in flat_got if p not in flat_want]:
        if path == "recorded_root":
            continue
        if path not in flat_got:
            out.append(f"{path}: missing (expected {_short(flat_want[path])})")
        elif path not in flat_want:
            out.append(f"{path}: unexpected {_short(flat_got[path])}")
        elif flat_want[path] != flat_got[path]:
            out.append(f"{path}: expected {_short(flat_want[path])}, "
                       f"got {_short(flat_got[path])}")
    return out


# -- command line ---------------------------------------------------------------------------
def _compare_compat(only: Sequence[str] | None) -> int:
    from . import compare

    recorded = load_observations()
    actual = collect_observations("pyflink_compat", only=only)["observations"]
    divergences = compare.load_divergences()
    names = list(only) if only else compare.scenario_names(recorded)
    totals = compare.Totals()
    for name in names:
        result = compare.compare_scenario(name, recorded["observations"], actual, divergences)
        totals.add(result)
        if result.failures:
            print(result.format())
    problems = compare.surface_report(load_surface(), build_surface("pyflink_compat"),
                                      divergences)
    for item, message in problems:
        print(f"{item}: {message}")
    print(totals.format())
    return 1 if totals.mismatched or problems else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.parity.record", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", default="pyflink", choices=battery.ROOTS)
    parser.add_argument("--refresh", action="store_true",
                        help="rewrite the JSON files (pyflink root only)")
    parser.add_argument("--only", action="append", metavar="SCENARIO",
                        help="run only this scenario (repeatable; compare mode only)")
    args = parser.parse_args(argv)

    if args.root != "pyflink":
        if args.refresh:
            parser.error("--refresh records the reference and needs --root pyflink")
        return _compare_compat(args.only)
    if args.refresh and args.only:
        parser.error("--refresh always records the whole battery")

    doc = collect_observations("pyflink", only=args.only)
    surface_doc = collect_surface("pyflink")
    if args.refresh:
        write_text(OBSERVATIONS_FILE, dumps_observations(doc))
        write_text(SURFACE_FILE, dumps_surface(surface_doc))
        print(f"wrote {OBSERVATIONS_FILE.name}: {doc['scenario_count']} scenarios, "
              f"{doc['step_count']} steps {doc['tiers']}")
        print(f"wrote {SURFACE_FILE.name}")
        return 0

    expected = load_observations()
    if args.only:
        wanted = set(args.only)
        expected = dict(expected)
        expected["observations"] = {k: v for k, v in expected["observations"].items()
                                    if battery.scenario_of(k) in wanted}
        expected["scenarios"] = {k: v for k, v in expected["scenarios"].items() if k in wanted}
    diffs = diff_observations(expected, doc) + diff_surface(load_surface(), surface_doc)
    for line in diffs:
        print(line)
    print(f"{doc['scenario_count']} scenarios, {doc['step_count']} steps: "
          f"{len(diffs)} difference(s)")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
