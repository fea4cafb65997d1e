"""Write the pyflink_compat modules that only declare PyFlink names, from the recorded surface.

Run from the repository root (any environment; PyFlink is not needed)::

    python -m tests.parity.generate_declared_modules

It reads ``pyflink-1.20.5-import-surface.json`` and writes, for every recorded module that has
no pyflink_compat file yet (or one this script wrote, recognised by its first line), a module
with the same ``__all__`` whose own names are placeholders
(:mod:`pyflink_compat.missing.declared`) and whose re-exports import the placeholder from its
defining module, so that identity holds as in PyFlink. Packages re-export lazily.

A module's first-class names are its ``__all__`` (or, without one, the names it defines). The
other names PyFlink's ``dir()`` shows, re-exports and submodules, are resolved on first use
through the tables of :mod:`pyflink_compat._reexports`, which the script rewrites for
every recorded module, so that mirrored modules do not import each other at import time.
Hand-written modules are never touched: the script lists those that do not install the
tables' ``__getattr__``.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .record_import_surface import SURFACE_FILE

ROOT = Path(__file__).resolve().parents[2]
MARKER = '"""Declared PyFlink module'
REEXPORTS_FILE = ROOT / "pyflink_compat" / "_reexports.py"
TABLES_BEGIN = "# -- the tables below are written by tests/parity/generate_declared_modules.py"
TABLES_END = "# -- end of the written tables"
_LINE = 100


def compat_name(module: str) -> str:
    return "pyflink_compat" + module[len("pyflink"):]


def is_package(module: str, modules: dict[str, Any]) -> bool:
    return any(m.startswith(module + ".") for m in modules) or module == "pyflink.datastream.formats"


def target_path(module: str, modules: dict[str, Any]) -> Path:
    parts = compat_name(module).split(".")
    if is_package(module, modules):
        return ROOT.joinpath(*parts, "__init__.py")
    return ROOT.joinpath(*parts[:-1], parts[-1] + ".py")


def home_of(name: str, module: str, modules: dict[str, Any]) -> str:
    """The recorded module that defines ``name`` (where its placeholder lives)."""
    defined_in = modules[module]["names"][name]["defined_in"]
    if defined_in in modules and name in modules[defined_in]["names"]:
        return defined_in
    return module


def is_first_class(name: str, module: str, modules: dict[str, Any]) -> bool:
    """Whether ``name`` is in the module's ``__all__`` (or, without one, defined there)."""
    spec = modules[module]
    entry = spec["names"][name]
    if spec["__all__"] is not None:
        return name in spec["__all__"]
    return entry["kind"] != "module" and entry["defined_in"] == module


def tables(modules: dict[str, Any]) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
    """The re-exports and the submodules resolved on first use, by mirrored module."""
    reexports: dict[str, dict[str, str]] = {}
    submodules: dict[str, dict[str, str]] = {}
    for module, spec in sorted(modules.items()):
        for name, entry in sorted(spec["names"].items()):
            if entry["kind"] == "module":
                submodules.setdefault(compat_name(module), {})[name] = compat_name(entry["defined_in"])
            elif not is_first_class(name, module, modules):
                home = home_of(name, module, modules)
                if home != module:
                    reexports.setdefault(compat_name(module), {})[name] = compat_name(home)
    return reexports, submodules


def table_source(title: str, name: str, table: dict[str, dict[str, str]]) -> list[str]:
    lines = [title, "{}: Dict[str, Dict[str, str]] = {{".format(name)]
    for module, names in table.items():
        lines.append("    '{}': {{".format(module))
        lines += ["        '{}': '{}',".format(n, home) for n, home in names.items()]
        lines.append("    },")
    return lines + ["}"]


def write_tables(modules: dict[str, Any]) -> None:
    reexports, submodules = tables(modules)
    text = REEXPORTS_FILE.read_text()
    head, rest = text.split(TABLES_BEGIN + "\n", 1)
    _, tail = rest.split(TABLES_END + "\n", 1)
    lines = table_source("#: Module -> name -> the module whose object it is.", "REEXPORTS", reexports)
    lines += [""] + table_source("#: Module -> name -> the module bound to that name.", "SUBMODULES",
                                 submodules)
    REEXPORTS_FILE.write_text(head + TABLES_BEGIN + "\n" + "\n".join(lines) + "\n" + TABLES_END
                              + "\n" + tail)


def lazy_tail(module: str, modules: dict[str, Any], inner: bool) -> list[str]:
    """The lines installing the tables' ``__getattr__`` when ``module`` has entries in them."""
    if not any(compat_name(module) in table for table in tables(modules)):
        return []
    if inner:
        return ["__getattr__ = with_reexports(__name__, __getattr__)"]
    return ["", "", "from pyflink_compat._reexports import with_reexports  # noqa: E402", "",
            "__getattr__ = with_reexports(__name__)"]


def wrap_list(prefix: str, items: list[str], indent: str = "    ") -> list[str]:
    lines, line = [], prefix
    for item in items:
        piece = item + ", "
        if len(line) + len(piece) > _LINE:
            lines.append(line.rstrip())
            line = indent
        line += piece
    lines.append(line.rstrip().rstrip(","))
    return lines


def header(module: str, package: bool) -> list[str]:
    if package:
        body = ["Its names are imported from their modules on first use, so that importing the",
                "package is cheap. Declared-only names raise",
                ":class:`~pyflink_compat.missing.NotSupportedError` when used, naming the PySpark",
                "way to do the same."]
    else:
        body = ["Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,",
                "naming the PySpark way to do the same."]
    return [MARKER + " ``{}``.".format(module), ""] + body + [
        "Written by ``tests/parity/generate_declared_modules.py`` from the recorded import",
        "surface of PyFlink 1.20.5.",
        '"""',
    ]


def all_lines(spec: dict[str, Any]) -> list[str]:
    if spec["__all__"] is None:
        return []
    items = ["'{}'".format(n) for n in spec["__all__"]]
    lines = wrap_list("__all__ = [", items)
    lines[-1] += "]"
    return ["", lines[0]] + lines[1:]


def package_source(module: str, modules: dict[str, Any]) -> str:
    spec = modules[module]
    lines = header(module, True)
    names = [n for n in spec["names"] if is_first_class(n, module, modules)]
    tail = lazy_tail(module, modules, inner=bool(names))
    if names:
        lines += ["from pyflink_compat._lazy import lazy_exports"]
    if tail and names:
        lines += ["from pyflink_compat._reexports import with_reexports"]
    lines += all_lines(spec)
    if names:
        lines += ["", "_EXPORTS = {"]
        for name in sorted(names):
            home = home_of(name, module, modules)
            if home.startswith(module + "."):
                where = home[len(module) + 1:]
            else:
                where = compat_name(home)
            lines.append("    '{}': '{}',".format(name, where))
        lines += ["}", "", "__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())"]
    lines += tail
    return "\n".join(lines) + "\n"


def leaf_source(module: str, modules: dict[str, Any]) -> str:
    spec = modules[module]
    imports: dict[str, list[str]] = {}
    classes, functions, values, literals = [], [], [], []
    for name, entry in sorted(spec["names"].items()):
        home = home_of(name, module, modules)
        if entry["kind"] == "module" or (home != module and not is_first_class(name, module, modules)):
            continue  # resolved on first use (:mod:`pyflink_compat._reexports`)
        if home != module:
            imports.setdefault(compat_name(home), []).append(name)
        elif entry["kind"] in ("class", "enum"):
            classes.append(name)
        elif entry["kind"] == "function":
            functions.append(name)
        elif "value" in entry:
            literals.append((name, entry["value"]))
        else:
            values.append(name)
    helpers = [h for h, used in (("Declared", classes), ("declared_function", functions),
                                  ("declared_value", values)) if used]
    lines = header(module, False)
    for source in sorted(imports):
        lines += wrap_list("from {} import ".format(source), sorted(imports[source]))
    if helpers:
        lines.append("from pyflink_compat.missing.declared import " + ", ".join(helpers))
    lines += all_lines(spec)
    if literals:
        lines.append("")
        lines += ["{} = {!r}".format(n, v) for n, v in literals]
    if functions or values:
        lines.append("")
        lines += ["{0} = declared_function(__name__, '{0}')".format(n) for n in functions]
        lines += ["{0} = declared_value(__name__, '{0}')".format(n) for n in values]
    for name in classes:
        lines += ["", "", "class {}(Declared):".format(name), "    pass"]
    lines += lazy_tail(module, modules, inner=False)
    return "\n".join(lines) + "\n"


def main() -> int:
    modules = json.loads(SURFACE_FILE.read_text())["modules"]
    write_tables(modules)
    written, kept, untied = 0, [], []
    for module in modules:
        path = target_path(module, modules)
        if path.exists() and not path.read_text().startswith(MARKER):
            kept.append(module)
            if lazy_tail(module, modules, inner=False) and "with_reexports(__name__" not in path.read_text():
                untied.append(module)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        maker = package_source if is_package(module, modules) else leaf_source
        path.write_text(maker(module, modules))
        written += 1
    print("wrote {} modules; hand-written, left as they are: {}".format(written, ", ".join(kept)))
    if untied:
        print("hand-written modules without with_reexports(__name__): " + ", ".join(untied))
    return 1 if untied else 0


if __name__ == "__main__":
    sys.exit(main())
