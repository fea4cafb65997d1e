"""Documentation generated from the package's own registries, at build time.

Two directives turn the declarative registries into docutils nodes, so that the documentation
can never drift from the code:

``.. flink-support-matrix::``
    One row per :data:`pyflink_compat.settings.registry.SETTINGS` entry: the support status,
    the Flink key with its fallback keys, the kind of value and its default, and what the
    setting becomes in Spark. ``:support:`` keeps only the rows of one status (``applied``,
    ``emulated`` or ``no-effect``); ``:counts:`` adds a sentence counting the settings per
    status before the table.

``.. flink-divergences::``
    Every :data:`pyflink_compat.divergences.DIVERGENCES` entry: its id, what differs from
    PyFlink 1.20.5, and why.

Nodes are built directly rather than as reST text, so that registry texts such as
``<dir>/<job name>`` or ``*`` need no escaping. Pages using the directives are re-read
whenever a registry module changes.
"""

from __future__ import annotations

import inspect
from typing import TYPE_CHECKING, Any, List, Optional, Sequence

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

_SUPPORT_OPTION = {"applied": "APPLIED", "emulated": "EMULATED", "no-effect": "NO_EFFECT"}


def default_text(setting: Any) -> Optional[str]:
    """The default of ``setting`` in Flink's own syntax, or ``None`` when it has none."""
    value = setting.default
    if value is None:
        return None
    text: str = setting.codec.flink_text(value)
    return text


def _literal_paragraph(text: str) -> nodes.paragraph:
    return nodes.paragraph("", "", nodes.literal(text, text))


def _text_paragraph(text: str) -> nodes.paragraph:
    return nodes.paragraph(text, text)


def _default_paragraph(text: Optional[str]) -> nodes.paragraph:
    if text is None:
        return nodes.paragraph("", "", nodes.emphasis("unset", "unset"))
    return _literal_paragraph(text)


def _cell(*children: nodes.Node) -> nodes.entry:
    return nodes.entry("", *children)


def _row(cells: Sequence[nodes.entry]) -> nodes.row:
    return nodes.row("", *cells)


def _table(headers: Sequence[str], widths: Sequence[int], rows: List[nodes.row]) -> nodes.table:
    tgroup = nodes.tgroup(cols=len(headers))
    for width in widths:
        tgroup += nodes.colspec(colwidth=width)
    tgroup += nodes.thead("", _row([_cell(_text_paragraph(h)) for h in headers]))
    tgroup += nodes.tbody("", *rows)
    table = nodes.table("", tgroup)
    # colwidths-given: the HTML writer then emits the proportions above as column widths
    table["classes"] += ["flink-registry", "colwidths-given"]
    return table


class _RegistryDirective(SphinxDirective):
    """Common behaviour: declare the registry modules as dependencies of the page."""

    registry_modules: Sequence[str] = ()

    def note_registry_dependencies(self) -> None:
        import importlib

        for name in self.registry_modules:
            source = inspect.getsourcefile(importlib.import_module(name))
            if source is not None:
                self.env.note_dependency(source)


class SupportMatrix(_RegistryDirective):
    """The support matrix of every Flink setting, walked from the settings registry."""

    option_spec = {"support": lambda arg: directives.choice(arg, tuple(_SUPPORT_OPTION)),
                   "counts": directives.flag}
    registry_modules = ("pyflink_compat.settings.registry", "pyflink_compat.settings.values")

    def run(self) -> List[nodes.Node]:
        from pyflink_compat.settings.registry import SETTINGS, Support

        self.note_registry_dependencies()
        settings = list(SETTINGS)
        if "support" in self.options:
            wanted = Support[_SUPPORT_OPTION[self.options["support"]]]
            settings = [s for s in settings if s.support is wanted]
        result: List[nodes.Node] = []
        if "counts" in self.options:
            result.append(self._counts(settings, Support))
        rows = [self._setting_row(setting) for setting in settings]
        # Status first, so that it is seen at any width; fallback keys under their key.
        headers = ("Status", "Flink key", "Kind and default", "In Spark")
        result.append(_table(headers, (14, 30, 25, 31), rows))
        return result

    @staticmethod
    def _counts(settings: Sequence[Any], support: Any) -> nodes.paragraph:
        parts = []
        for member in support:
            count = sum(1 for s in settings if s.support is member)
            parts.append("{} {}".format(count, member.value))
        text = "{} settings: {}.".format(len(settings), ", ".join(parts))
        return _text_paragraph(text)

    @staticmethod
    def _setting_row(setting: Any) -> nodes.row:
        kind = setting.codec.name
        if setting.codec.choices:
            kind_cell = _cell(_text_paragraph(kind + ", one of:"),
                              *[_literal_paragraph(c) for c in setting.codec.choices])
        else:
            kind_cell = _cell(_text_paragraph(kind))
        default = _default_paragraph(default_text(setting))
        default.insert(0, nodes.Text("default: "))
        kind_cell += default
        status = nodes.paragraph()
        status += nodes.inline(setting.support.value, setting.support.value, classes=["flink-status"])
        status_cell = _cell(status)
        if setting.no_effect_when is not None:
            status_cell += _text_paragraph("(some values have no Spark effect)")
        key_cell = _cell(_literal_paragraph(setting.key))
        for fallback in setting.fallback_keys:
            paragraph = nodes.paragraph("", "", nodes.Text("or "), nodes.literal(fallback, fallback))
            paragraph["classes"].append("flink-fallback")
            key_cell += paragraph
        key_cell["ids"].append(nodes.make_id("setting-" + setting.key))
        return _row([status_cell, key_cell, kind_cell, _cell(_text_paragraph(setting.spark))])


class DivergenceList(_RegistryDirective):
    """Every deliberate difference from PyFlink 1.20.5, walked from the divergence registry."""

    registry_modules = ("pyflink_compat.divergences",)

    def run(self) -> List[nodes.Node]:
        from pyflink_compat.divergences import DIVERGENCES, RUNTIME_DIVERGENCES

        self.note_registry_dependencies()
        items = nodes.definition_list()
        items["classes"] += ["flink-divergences"]
        for divergence in DIVERGENCES + RUNTIME_DIVERGENCES:
            term = nodes.term("", "", nodes.literal(divergence.id, divergence.id))
            reason = nodes.paragraph()
            reason += nodes.strong("Why:", "Why:")
            reason += nodes.Text(" " + divergence.reason)
            item = nodes.definition_list_item(
                "", term, nodes.definition("", _text_paragraph(divergence.summary), reason))
            item["ids"].append(nodes.make_id("divergence-" + divergence.id))
            items += item
        return [items]


def setup(app: "Sphinx") -> "ExtensionMetadata":
    app.add_directive("flink-support-matrix", SupportMatrix)
    app.add_directive("flink-divergences", DivergenceList)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
