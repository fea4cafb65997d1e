"""Record the import surface of live PyFlink 1.20.5: every public module a job imports from.

Run from the repository root with the PyFlink environment's interpreter::

    python -m tests.parity.record_import_surface           # rewrite the JSON file
    python -m tests.parity.record_import_surface --check   # exit non-zero if it changed

For each module the file holds its ``__all__`` (``null`` when it has none) and every name a job
can import from it: the names of its ``__all__`` (or, without one, the public names the module
defines itself) and every public name in its ``dir()``. A name in ``dir()`` is public when it does
not start with an underscore and is a class, a function or a module of PyFlink's own: an object
whose ``__module__`` (a module's own name) is ``pyflink`` or below it. Objects of the standard
library and of other packages that a module merely imports (``typing.List``, py4j's
``JavaObject``, ``abc.ABC``...) are not PyFlink's names and are left out, and so are submodules
outside the recorded modules (PyFlink's worker runtime, ``pyflink.fn_execution``), which appear
in ``dir()`` only when something happened to import them.

For every name the file holds the kind of object: ``class`` (with its public class-level
attributes), ``enum`` (with its member names), ``function``, ``constant`` (with the value when it
is a plain literal) or ``module``, and the module defining it, from which re-exports are mirrored
as the same object. Every module is imported before any is read, so that ``dir()`` of a package
lists all its recorded submodules. The output is sorted, so it is deterministic.
"""
from __future__ import annotations

import argparse
import enum
import importlib
import inspect
import json
import pkgutil
import sys
import typing
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

PYFLINK_VERSION = "1.20.5"
SURFACE_FILE = Path(__file__).resolve().parent / f"pyflink-{PYFLINK_VERSION}-import-surface.json"

#: Packages walked with all their public submodules, and single modules taken as they are.
#: Left out: PyFlink's Python worker (``pyflink.fn_execution``), its gateway and callback
#: servers, shell and build scripts, which a job does not import from.
PACKAGES = ("pyflink.common", "pyflink.datastream", "pyflink.metrics", "pyflink.table")
MODULES = ("pyflink", "pyflink.java_gateway", "pyflink.serializers", "pyflink.util",
           "pyflink.util.exceptions", "pyflink.util.java_utils")
_LITERALS = (bool, int, float, str, type(None))


def module_names() -> list[str]:
    names = set(MODULES)
    for package in PACKAGES:
        names.add(package)
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, package + "."):
            parts = info.name.split(".")
            if any(p.startswith("_") or p == "tests" for p in parts):
                continue
            names.add(info.name)
    return sorted(names)


def defining_module(obj: Any, module: ModuleType) -> str:
    if inspect.ismodule(obj):
        return obj.__name__
    home = getattr(obj, "__module__", None)
    if (inspect.isclass(obj) or inspect.isfunction(obj)) and isinstance(home, str):
        return home
    return module.__name__


def exported_names(module: ModuleType) -> list[str]:
    all_ = getattr(module, "__all__", None)
    if all_ is not None:
        return list(all_)
    names = []
    for name, obj in vars(module).items():
        if name.startswith("_") or inspect.ismodule(obj) or isinstance(obj, typing.TypeVar):
            continue
        if defining_module(obj, module) == module.__name__ and not _is_typing_alias(obj):
            names.append(name)
    return names


def _is_typing_alias(obj: Any) -> bool:
    return type(obj).__module__ == "typing"


def is_pyflinks(home: Any) -> bool:
    return isinstance(home, str) and (home == "pyflink" or home.startswith("pyflink."))


def public_names(module: ModuleType, recorded: set[str]) -> list[str]:
    """The public classes, functions and submodules of PyFlink's own in ``dir(module)``."""
    names = []
    for name in dir(module):
        if name.startswith("_"):
            continue
        obj = getattr(module, name)
        if inspect.ismodule(obj):
            if obj.__name__ in recorded:
                names.append(name)
        elif inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj):
            if is_pyflinks(getattr(obj, "__module__", None)):
                names.append(name)
    return names


def name_entry(module: ModuleType, name: str) -> dict[str, Any]:
    obj = getattr(module, name)
    entry: dict[str, Any] = {"defined_in": defining_module(obj, module)}
    if inspect.ismodule(obj):
        entry["kind"] = "module"
    elif inspect.isclass(obj) and issubclass(obj, enum.Enum):
        entry["kind"] = "enum"
        entry["members"] = list(obj.__members__)
        entry["attributes"] = _attributes(obj)
    elif inspect.isclass(obj):
        entry["kind"] = "class"
        entry["generic"] = typing.Generic in obj.__mro__
        entry["attributes"] = _attributes(obj)
    elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
        entry["kind"] = "function"
    else:
        entry["kind"] = "constant"
        entry["type"] = type(obj).__name__
        if isinstance(obj, _LITERALS):
            entry["value"] = obj
    return entry


def _attributes(cls: type) -> list[str]:
    """The public class-level attributes (methods, constants) a job can reach on ``cls``."""
    members = getattr(cls, "__members__", {})
    return sorted(n for n in dir(cls) if not n.startswith("_") and n not in members)


def record() -> tuple[dict[str, Any], dict[str, str]]:
    modules: dict[str, Any] = {}
    skipped: dict[str, str] = {}
    loaded: dict[str, ModuleType] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # pyflink.serializers imports back from pyflink.datastream, which imports it: PyFlink's
        # own import order (through the package) is the one that works.
        importlib.import_module("pyflink.datastream")
        for name in module_names():
            try:
                loaded[name] = importlib.import_module(name)
            except ImportError as e:  # an optional extra PyFlink itself lacks here
                skipped[name] = "{}: {}".format(type(e).__name__, e)
        for name, module in loaded.items():
            all_ = getattr(module, "__all__", None)
            names = set(exported_names(module)) | set(public_names(module, set(loaded)))
            modules[name] = {
                "__all__": None if all_ is None else list(all_),
                "names": {n: name_entry(module, n) for n in sorted(names)},
            }
    return modules, skipped


def document() -> dict[str, Any]:
    from importlib import metadata

    modules, skipped = record()
    return {
        "pyflink_version": metadata.version("apache-flink"),
        "module_count": len(modules),
        "name_count": sum(len(m["names"]) for m in modules.values()),
        "skipped": skipped,
        "modules": modules,
    }


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    text = dumps(document())
    if args.check:
        same = SURFACE_FILE.exists() and SURFACE_FILE.read_text() == text
        print("unchanged" if same else "the recorded import surface differs from PyFlink")
        return 0 if same else 1
    SURFACE_FILE.write_text(text)
    doc = json.loads(text)
    print("{} modules, {} names, skipped: {}".format(
        doc["module_count"], doc["name_count"], sorted(doc["skipped"]) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
