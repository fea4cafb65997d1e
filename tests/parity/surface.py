"""API surface snapshot of the in-scope modules, and the subset check used for pyflink_compat.

The snapshot is plain JSON data: for each module its ``__all__`` and every in-scope name
(kind, signature, constant values, enum members, base classes, which dunders the class
defines); for the ``datastream``/``common`` packages the re-exported names and whether each
is the very object of its defining module.
"""
from __future__ import annotations

import enum
import importlib
import inspect
import warnings
from collections.abc import Iterator
from types import ModuleType
from typing import Any, cast

from .observe import Observer, qualname

#: module (relative to the root) -> explicit in-scope names (None: everything public that
#: the module defines or lists in ``__all__``) and extra private names to include.
MODULES: dict[str, tuple[tuple[str, ...] | None, tuple[str, ...]]] = {
    "datastream.checkpoint_config": (None, ()),
    "datastream.checkpointing_mode": (None, ()),
    "datastream.externalized_checkpoint_retention": (None, ()),
    "datastream.checkpoint_storage": (None, ("_from_j_checkpoint_storage",)),
    "datastream.state_backend": (None, ()),
    "datastream.stream_execution_environment": (("StreamExecutionEnvironment",), ()),
    "common.time": (("Duration", "Time"), ()),
    "common.configuration": (("Configuration",), ()),
    "common.restart_strategy": (None, ()),
    "common.execution_config": (None, ()),
    "common.execution_mode": (None, ()),
    "common.input_dependency_constraint": (None, ()),
    "datastream.execution_mode": (None, ()),
    "datastream.time_characteristic": (None, ()),
}

#: Only these StreamExecutionEnvironment members are in scope.
SEE_MEMBERS = (
    "get_execution_environment", "configure", "get_checkpoint_config", "enable_checkpointing",
    "get_checkpoint_interval", "get_checkpointing_mode", "get_checkpointing_consistency_mode",
    "set_state_backend", "get_state_backend", "enable_changelog_state_backend",
    "is_changelog_state_backend_enabled", "set_default_savepoint_directory",
    "get_default_savepoint_directory", "is_unaligned_checkpoints_enabled",
    "is_force_unaligned_checkpoints", "close",
)
LIMITED_MEMBERS: dict[str, tuple[str, ...]] = {"StreamExecutionEnvironment": SEE_MEMBERS}

PACKAGES: tuple[str, ...] = ("datastream", "common")
DUNDERS = ("__eq__", "__hash__", "__str__", "__repr__")
_SKIP_DEFINERS = ("builtins", "enum", "abc")


def _public(name: str) -> bool:
    return not name.startswith("_")


class SurfaceBuilder:
    def __init__(self, root: str) -> None:
        self.root = root
        self.obs = Observer(root)

    def mod(self, rel: str) -> ModuleType:
        return importlib.import_module(f"{self.root}.{rel}")

    def norm(self, text: str) -> str:
        return self.obs.normalise(text)

    def signature(self, obj: Any) -> str | None:
        try:
            return self.norm(str(inspect.signature(obj)))
        except (TypeError, ValueError):
            return None

    # -- modules ---------------------------------------------------------------------
    def scope_names(self, rel: str) -> list[str]:
        module = self.mod(rel)
        explicit, extras = MODULES[rel]
        names: list[str] = list(getattr(module, "__all__", None) or [])
        for name, obj in vars(module).items():
            if (_public(name) and name not in names
                    and getattr(obj, "__module__", None) == module.__name__):
                names.append(name)
        if explicit is not None:
            names = [n for n in names if n in explicit]
        return names + [e for e in extras if e not in names]

    def module_entry(self, rel: str) -> dict[str, Any]:
        module = self.mod(rel)
        all_ = getattr(module, "__all__", None)
        scope = self.scope_names(rel)
        if all_ is None:
            check = "absent"
        elif set(all_) <= set(scope):
            check = "exact"
        else:
            check = "subset"
        return {
            "__all__": None if all_ is None else list(all_),
            "all_check": check,
            "all_in_scope": [n for n in (all_ or []) if n in scope],
            "names": {name: self.name_entry(module, name) for name in scope},
        }

    def name_entry(self, module: ModuleType, name: str) -> dict[str, Any]:
        if not hasattr(module, name):
            return {"kind": "missing"}
        obj = getattr(module, name)
        if inspect.isclass(obj):
            return self.class_entry(obj)
        if inspect.isfunction(obj) or inspect.isbuiltin(obj):
            return {"kind": "function", "signature": self.signature(obj)}
        return self.constant_entry(obj)

    def constant_entry(self, obj: Any) -> dict[str, Any]:
        return {"kind": "constant", "type": self.obs.type_name(type(obj)),
                "repr": self.obs.safe_repr(obj), "value": self.obs.jsonable(obj)}

    # -- classes ---------------------------------------------------------------------
    def class_entry(self, cls: type) -> dict[str, Any]:
        is_enum = issubclass(cls, enum.Enum)
        entry: dict[str, Any] = {
            "kind": "enum" if is_enum else "class",
            "module": self.norm(cls.__module__),
            "bases": [self.norm(qualname(b)) for b in cls.__bases__],
            "metaclass": self.norm(qualname(type(cls))),
            "defines": {d: d in vars(cls) for d in DUNDERS},
            "hashable": getattr(cls, "__hash__", None) is not None,
        }
        if is_enum:
            entry["enum_members"] = {
                m.name: {"value": self.obs.jsonable(m.value), "repr": self.obs.safe_repr(m)}
                for m in cast("type[enum.Enum]", cls)
            }
        entry["members"] = {name: self.member_entry(cls, name)
                            for name in self.member_names(cls)}
        return entry

    def member_names(self, cls: type) -> list[str]:
        limited = LIMITED_MEMBERS.get(cls.__name__)
        if limited is not None:
            return list(limited)
        names = sorted(n for n in dir(cls) if _public(n))
        if issubclass(cls, enum.Enum):
            names = [n for n in names if n not in cls.__members__]
        if self.definer(cls, "__init__") is not None:
            names.insert(0, "__init__")
        return [n for n in names if n == "__init__" or self.definer(cls, n) is not None]

    @staticmethod
    def definer(owner: type, name: str) -> type | None:
        """The class in ``owner``'s MRO that defines ``name`` (None for builtin/enum/abc)."""
        for klass in owner.__mro__:
            if name in vars(klass):
                return None if klass.__module__ in _SKIP_DEFINERS else klass
        return None

    def member_entry(self, cls: type, name: str) -> dict[str, Any]:
        owner = self.definer(cls, name)
        if owner is None:
            return {"kind": "missing"}
        raw = vars(owner)[name]
        out: dict[str, Any] = {}
        if isinstance(raw, staticmethod):
            out.update(kind="staticmethod", signature=self.signature(raw.__func__))
        elif isinstance(raw, classmethod):
            out.update(kind="classmethod", signature=self.signature(getattr(cls, name)))
        elif isinstance(raw, property):
            out.update(kind="property")
        elif inspect.isfunction(raw):
            out.update(kind="method", signature=self.signature(raw))
        elif inspect.isclass(raw):
            out.update(kind="class", qualname=raw.__qualname__)
        else:
            out.update(self.constant_entry(raw))
        return out

    # -- packages --------------------------------------------------------------------
    def package_entry(self, pkg: str) -> dict[str, Any]:
        package = self.mod(pkg)
        all_ = list(getattr(package, "__all__", None) or [])
        names: dict[str, Any] = {}
        for rel in MODULES:
            if not rel.startswith(pkg + "."):
                continue
            home = self.mod(rel)
            for name in self.scope_names(rel):
                present = hasattr(package, name)
                names[name] = {
                    "home": rel,
                    "in_all": name in all_,
                    "present": present,
                    "identical": present and getattr(package, name) is getattr(home, name, None),
                }
        return {"__all__": all_, "names": names}

    def build(self) -> dict[str, Any]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return {
                "modules": {rel: self.module_entry(rel) for rel in MODULES},
                "packages": {pkg: self.package_entry(pkg) for pkg in PACKAGES},
            }


def build_surface(root: str) -> dict[str, Any]:
    """The surface snapshot of ``root`` (without version metadata)."""
    return SurfaceBuilder(root).build()


def flatten(data: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """``(path, leaf)`` pairs of nested dicts; lists are leaves."""
    if isinstance(data, dict) and data:
        for key, value in data.items():
            yield from flatten(value, f"{prefix}/{key}" if prefix else str(key))
    else:
        yield prefix, data


def surface_problems(recorded: dict[str, Any], actual: dict[str, Any]) -> list[tuple[str, str]]:
    """Recorded surface items that ``actual`` lacks or has differently: (item id, message).

    Item ids look like ``surface/modules/<module>/names/<Class>/members/<name>/signature``.
    Extra names in ``actual`` are fine. ``__all__`` is checked per ``all_check``: ``exact``
    (same list), ``subset`` (contains the in-scope names) or ``absent`` (no ``__all__``, or
    one that contains the in-scope names); package ``__all__`` lists are checked as subsets.
    """
    problems: list[tuple[str, str]] = []
    flat_actual = dict(flatten({k: v for k, v in actual.items() if k in ("modules", "packages")}))
    for rel, entry in recorded.get("modules", {}).items():
        got = actual.get("modules", {}).get(rel, {})
        item = f"surface/modules/{rel}/__all__"
        want_all, got_all = entry.get("__all__"), got.get("__all__")
        scope = entry.get("all_in_scope", [])
        if entry.get("all_check") == "exact":
            if got_all != want_all:
                problems.append((item, f"expected {want_all!r}, got {got_all!r}"))
        elif entry.get("all_check") == "subset" or got_all is not None:
            missing = [n for n in scope if n not in (got_all or [])]
            if missing:
                problems.append((item, f"missing from __all__: {missing!r}"))
    for pkg, entry in recorded.get("packages", {}).items():
        got_all = actual.get("packages", {}).get(pkg, {}).get("__all__", [])
        missing = [n for n, e in entry.get("names", {}).items()
                   if e.get("in_all") and n not in got_all]
        if missing:
            problems.append((f"surface/packages/{pkg}/__all__",
                             f"missing from __all__: {missing!r}"))
    skip = ("__all__", "all_check", "all_in_scope")
    recorded_items = {k: v for k, v in recorded.items() if k in ("modules", "packages")}
    for path, want in flatten(recorded_items):
        if path.rsplit("/", 1)[-1] in skip:
            continue
        if path not in flat_actual:
            problems.append((f"surface/{path}", f"missing (expected {want!r})"))
        elif flat_actual[path] != want:
            problems.append((f"surface/{path}",
                             f"expected {want!r}, got {flat_actual[path]!r}"))
    return problems
