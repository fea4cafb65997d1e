"""``docs/architecture.rst`` is true to the package tree: its module tables list every
hand-written module under its package and no module that is gone, every file it names exists,
and following the checkpoint interval to the trigger takes at most eight files (no Spark)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Dict, List, Set

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "architecture.rst"
PACKAGE = ROOT / "pyflink_compat"
#: The declared PyFlink modules, generated from PyFlink's import surface, say so in their docstring.
GENERATED = "Written by ``tests/parity/generate_declared_modules.py``"

_HEADING = re.compile(r"^\*\*pyflink_compat((?:\.\w+)*)\*\*")
_ROW = re.compile(r"^``(\w+\.py)``")
_NAMED = re.compile(r"``((?:[\w.]+/)*\w+\.py)``")
_STEP = re.compile(r"^\d+\. ``((?:\w+/)*\w+\.py)``")


def _section(text: str, title: str) -> str:
    """The body of the section titled ``title`` (up to the next title)."""
    lines = text.splitlines()
    start = lines.index(title) + 2
    end = next((i - 1 for i in range(start + 1, len(lines))
                if set(lines[i]) == {"-"} and len(lines[i]) == len(lines[i - 1])), len(lines))
    return "\n".join(lines[start:end])


def hand_written_modules() -> Set[str]:
    """Every module of the package except ``__init__.py`` files and generated declarations,
    relative to the package (``spark/plan.py``)."""
    return {str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
            if path.name != "__init__.py" and GENERATED not in path.read_text(encoding="utf-8")}


def listed_modules() -> Dict[str, str]:
    """The modules the page's tables list, relative to the package, with the table they are in."""
    listed: Dict[str, str] = {}
    package = None
    for line in _section(PAGE.read_text(encoding="utf-8"), "The modules").splitlines():
        heading = _HEADING.match(line)
        if heading:
            package = heading.group(1).lstrip(".").replace(".", "/")
            continue
        row = _ROW.match(line)
        if row and package is not None:
            listed["{}/{}".format(package, row.group(1)).lstrip("/")] = "**pyflink_compat{}**".format(
                "." + package.replace("/", ".") if package else "")
    return listed


def test_every_hand_written_module_has_a_row_in_the_table_of_its_package():
    missing = sorted(hand_written_modules() - set(listed_modules()))
    assert not missing, "docs/architecture.rst lists no row for: " + "; ".join(
        "pyflink_compat/{0} (add ``{1}`` to the table under **pyflink_compat{2}**, or a table for "
        "that package)".format(m, m.rpartition("/")[2], "." + m.rpartition("/")[0].replace("/", ".")
                                if "/" in m else "") for m in missing)


def test_the_module_tables_name_no_module_that_is_gone_or_generated():
    stale = sorted(set(listed_modules()) - hand_written_modules())
    assert not stale, "docs/architecture.rst lists modules that are not hand-written modules of " \
                      "pyflink_compat: " + ", ".join("pyflink_compat/" + s for s in stale)


def test_every_file_the_page_names_exists():
    text = PAGE.read_text(encoding="utf-8")
    basenames = {path.name for path in PACKAGE.rglob("*.py")}
    gone: List[str] = []
    for name in sorted(set(_NAMED.findall(text))):
        if "/" not in name:
            if name not in basenames:
                gone.append(name)
        elif not (PACKAGE / name).is_file() and not (ROOT / name).is_file():
            gone.append(name)
    assert not gone, "docs/architecture.rst names files that do not exist: " + ", ".join(gone)


def test_following_the_checkpoint_interval_to_the_trigger_takes_at_most_eight_files():
    walk = _section(PAGE.read_text(encoding="utf-8"), "One setting, from the API to the Spark trigger")
    steps = [_STEP.match(line).group(1) for line in walk.splitlines() if _STEP.match(line)]
    assert steps[0] == "datastream/checkpoint_config.py" and steps[-1] == "spark/supervisor.py"
    assert 1 < len(steps) <= 8, steps
    assert all((PACKAGE / step).is_file() for step in steps), steps
