"""The list of declared-only PyFlink names, generated from the package at build time.

Two directives:

``.. not-supported-hints::``
    A table of :data:`pyflink_compat.missing.hints.HINTS`: each PyFlink API and the PySpark way
    that its :class:`~pyflink_compat.missing.NotSupportedError` names. With ``:keys:`` (keys of
    the table, separated by commas or new lines) only those rows, in that order; a key that is
    not in the table fails the build.

``.. not-supported-names::``
    Every placeholder (:mod:`pyflink_compat.missing.declared`) of the mirrored PyFlink modules,
    grouped by module, each with the hint its error gives: those of the modules' ``__all__``
    and those of the other public names the modules define. A placeholder re-exported by
    ``pyflink_compat.common`` or ``pyflink_compat.datastream`` is listed under the package too,
    which is where the reference's completeness check looks for it. Names that are implemented
    are not placeholders, so they drop off this page as soon as they are.

Pages using the directives are re-read whenever the hint table or a mirrored module changes.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Tuple

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

ROOTS = ("pyflink_compat.common", "pyflink_compat.datastream", "pyflink_compat.metrics",
         "pyflink_compat.table", "pyflink_compat.util")
#: Mirrored modules outside those packages, taken as they are.
SINGLE_MODULES = ("pyflink_compat", "pyflink_compat.java_gateway", "pyflink_compat.serializers")
#: Packages whose re-exported placeholders are listed under the package as well.
PACKAGES = ("pyflink_compat.common", "pyflink_compat.datastream")
_SPECIAL = "\\*`_|"


def escape(text: str) -> str:
    """``text`` as literal reST inline text."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def mirrored_modules() -> Iterator[ModuleType]:
    for name in SINGLE_MODULES:
        yield importlib.import_module(name)
    for root in ROOTS:
        package = importlib.import_module(root)
        yield package
        for info in sorted(pkgutil.walk_packages(package.__path__, root + "."), key=lambda i: i.name):
            if not any(part.startswith("_") for part in info.name.split(".")):
                yield importlib.import_module(info.name)


def exported(module: ModuleType) -> List[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n, v in vars(module).items()
                 if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__]
    return list(dict.fromkeys(names))  # PyFlink lists some names twice


def placeholder_kind(obj: Any) -> str:
    """``class``, ``function`` or ``data`` for a placeholder, ``""`` for anything else."""
    from pyflink_compat.missing.declared import DeclaredValue

    if inspect.isclass(obj) and "_pyflink_api" in vars(obj):
        return "class"
    if isinstance(obj, DeclaredValue):
        return "data"
    if inspect.isfunction(obj) and getattr(obj, "__qualname__", "") == obj.__name__ and \
            "declared so that imports work" in (obj.__doc__ or ""):
        return "function"
    return ""


def home(obj: Any) -> str:
    return obj._module if placeholder_kind(obj) == "data" else obj.__module__


def placeholders() -> Dict[str, List[Tuple[str, str, Any]]]:
    """Module to its placeholders (name, directive kind, object), listed where they live."""
    found: Dict[str, List[Tuple[str, str, Any]]] = {}
    for module in mirrored_modules():
        names = exported(module)
        # placeholders for the names PyFlink's module defines beside its __all__
        names += [n for n, v in vars(module).items() if not n.startswith("_") and n not in names
                  and placeholder_kind(v) and home(v) == module.__name__]
        for name in names:
            obj = getattr(module, name, None)
            kind = placeholder_kind(obj)
            if kind and (home(obj) == module.__name__ or module.__name__ in PACKAGES):
                found.setdefault(module.__name__, []).append((name, kind, obj))
    return found


def hint_of(name: str, obj: Any) -> str:
    from pyflink_compat.missing.declared import pyflink_module
    from pyflink_compat.missing.hints import hint_for

    return hint_for(name, pyflink_module(home(obj)))


class _Generated(SphinxDirective):
    has_content = False

    def lines(self) -> List[str]:
        raise NotImplementedError

    def run(self) -> List[nodes.Node]:
        import pyflink_compat.missing.hints as hints

        self.env.note_dependency(hints.__file__)
        container = nodes.container()
        self.state.nested_parse(StringList(self.lines(), source="<not-supported>"),
                                self.content_offset, container)
        return container.children


def key_list(argument: str) -> List[str]:
    """The ``:keys:`` option: hint table keys separated by commas or new lines."""
    keys = [k.strip() for k in argument.replace("\n", ",").split(",") if k.strip()]
    if not keys:
        raise ValueError("give at least one key of the hint table")
    return keys


class HintTable(_Generated):
    """The hint table, one row per key (or per key of ``:keys:``)."""

    option_spec = {"keys": key_list}

    def lines(self) -> List[str]:
        from pyflink_compat.missing.hints import DEFAULT_HINT, HINTS

        keys = self.options.get("keys")
        if keys is None:
            keys = sorted(HINTS, key=lambda k: (k.startswith("pyflink."), k.lower()))
        else:
            unknown = [k for k in keys if k not in HINTS]
            if unknown:
                raise self.error("not keys of the hint table: " + ", ".join(unknown))
        out = [".. list-table::", "   :header-rows: 1", "   :widths: 35 65", "",
               "   * - PyFlink API", "     - On Spark"]
        for key in keys:
            out += ["   * - ``{}``".format(key), "     - {}".format(escape(HINTS[key]))]
        out += ["", "Any other declared name: {}".format(escape(DEFAULT_HINT))]
        return out


class NameList(_Generated):
    """Every placeholder, by module."""

    def lines(self) -> List[str]:
        from pyflink_compat.missing.declared import pyflink_module

        out: List[str] = []
        for module, entries in sorted(placeholders().items()):
            self.env.note_dependency(importlib.import_module(module).__file__ or "")
            out += [".. rubric:: {}".format(module), "",
                    ".. py:currentmodule:: {}".format(module), ""]
            for name, kind, obj in sorted(entries, key=lambda e: e[0]):
                out += [".. py:{}:: {}".format(kind, name), "   :no-contents-entry:", "",
                        "   ``{}.{}``: {}".format(pyflink_module(home(obj)), name,
                                                  escape(hint_of(name, obj))), ""]
        return out


def setup(app: "Sphinx") -> "ExtensionMetadata":
    app.add_directive("not-supported-hints", HintTable)
    app.add_directive("not-supported-names", NameList)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
