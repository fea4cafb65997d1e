"""Sphinx configuration of the pyflink_compat documentation.

Build it with warnings as errors and every cross-reference checked::

    sphinx-build -W --keep-going -n -b html docs <output directory>

Links into the Python and PySpark documentation need their inventories from the network, so
they are opt-in: set ``DOCS_INTERSPHINX=1``. Without it the build needs no network access.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Dict, Optional

DOCS_DIR = Path(__file__).resolve().parent
# The package is documented from the source tree next to this directory, not from an
# installed copy; importing it starts no JVM.
sys.path.insert(0, str(DOCS_DIR.parent))
# Local extensions (the generated support matrix and divergence list).
sys.path.insert(0, str(DOCS_DIR / "_ext"))

import pyflink_compat  # noqa: E402

# -- Project ----------------------------------------------------------------------------------
project = "pyflink_compat"
author = "The pyflink_compat authors"
copyright = "the pyflink_compat authors"
release = pyflink_compat.__version__
version = ".".join(release.split(".")[:2])

# -- General ----------------------------------------------------------------------------------
extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "flink_registry",
    "not_supported",
    "compat_only",
]

INTERSPHINX = os.environ.get("DOCS_INTERSPHINX") == "1"
if INTERSPHINX:
    extensions.append("sphinx.ext.intersphinx")

intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
    "pyspark": ("https://spark.apache.org/docs/latest/api/python/", None),
}
intersphinx_timeout = 10

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"

# -- autodoc / autosummary ---------------------------------------------------------------------
autosummary_generate = True
autosummary_generate_overwrite = True
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# Objects and the types in their signatures are shown by their short names; the page titles
# give each object's full, importable name.
add_module_names = False
python_use_unqualified_type_names = True
# Names that modules import for type checking only, so autodoc cannot evaluate them.
autodoc_type_aliases = {
    "SparkSession": "pyspark.sql.SparkSession",
    "JobRun": "pyflink_compat.spark.supervisor.JobRun",
}
# Classes that users receive but never construct: their constructor takes internal types, so
# their pages show no constructor signature.
NO_CONSTRUCTOR_SIGNATURE = {"pyflink_compat.spark.plan.JobPlan"}

# -- Cross-reference checking ----------------------------------------------------------------
nitpicky = True
# Kept minimal; every entry names a target that has no documentation to link to.
nitpick_ignore = [
    # py4j publishes no Sphinx inventory. JavaObject appears in signatures (the JVM objects
    # the wrappers hold); the two errors are the PyFlink-compatible bases of the package's
    # exception classes.
    ("py:class", "py4j.java_gateway.JavaObject"),
    ("py:class", "py4j.protocol.Py4JJavaError"),
    ("py:class", "py4j.protocol.Py4JError"),
    # The type variable of CompletableFuture; type variables have no page of their own.
    ("py:class", "pyflink_compat.common.completable_future.T"),
    ("py:obj", "pyflink_compat.common.completable_future.T"),
    # The internal run of a job, the constructor argument of JobClient, which users never
    # construct themselves (execute_async does).
    ("py:class", "pyflink_compat.spark.supervisor.JobRun"),
    # The type variables of PyFlink's generic functions, states and windows, and the internal
    # bases and graph node of the DataStream classes, which have no page of their own.
    *[(role, "pyflink_compat.datastream.%s.%s" % (module, var)) for role in ("py:class", "py:obj")
      for module, names in (("functions", "IN OUT KEY W W2 IN1 IN2"), ("window", "T W"),
                            ("state", "T K V IN OUT"))
      for var in names.split()],
    ("py:class", "pyflink_compat.datastream.functions.Function"),
    ("py:class", "pyflink_compat.datastream.functions.KeyedStateStore"),
    ("py:class", "pyflink_compat.datastream.functions.BaseBroadcastProcessFunction"),
    ("py:class", "pyflink_compat.runtime.graph.Node"),
    ("py:class", "abc.ABC"),
    ("py:class", "typing.Generic"),
    ("py:class", "pyflink_compat.common.typeinfo.RowTypeInfo"),
    ("py:class", "pyflink_compat.common.typeinfo.TupleTypeInfo"),
    ("py:class", "pyflink_compat.common.watermark_strategy.TimestampAssigner"),
    ("py:class", "pyflink_compat.datastream.data_stream.CloseableIterator"),
    # The contexts of the functions, as signatures name them (documented under the package).
    *[("py:class", "pyflink_compat.datastream.functions." + name) for name in (
        "ProcessFunction.Context", "KeyedProcessFunction.Context", "KeyedProcessFunction.OnTimerContext",
        "CoProcessFunction.Context", "KeyedCoProcessFunction.Context",
        "KeyedCoProcessFunction.OnTimerContext", "ProcessWindowFunction.Context",
        "BroadcastProcessFunction.Context", "BroadcastProcessFunction.ReadOnlyContext",
        "KeyedBroadcastProcessFunction.Context", "KeyedBroadcastProcessFunction.ReadOnlyContext",
        "KeyedBroadcastProcessFunction.OnTimerContext")],
    # Documented on the not-supported page, not in the API reference.
    ("py:class", "pyflink_compat.missing.NotSupportedError"),
]
if not INTERSPHINX:
    # Python and PySpark objects named in signatures and docstrings. Without the inventories
    # they resolve nowhere; with DOCS_INTERSPHINX=1 they link and are checked.
    nitpick_ignore += [
        ("py:class", "enum.Enum"),
        ("py:class", "concurrent.futures.Future"),
        ("py:class", "concurrent.futures._base.Future"),
        ("py:class", "pyspark.sql.SparkSession"),
        ("py:class", "pyspark.sql.streaming.DataStreamWriter"),
    ]

# -- HTML -------------------------------------------------------------------------------------
# The theme of the PyFlink and PySpark API references, so that the pages read like theirs.
html_theme = "pydata_sphinx_theme"
html_theme_options = {
    "navbar_align": "left",
    "header_links_before_dropdown": 6,
    "show_toc_level": 2,
    "navigation_with_keys": False,
    # the links to the neighbouring pages would show truncated full dotted names
    "show_prev_next": False,
    # The "on this page" column: on the top-level and reference pages, but not beside the wide
    # generated tables, nor on the API pages (whose only entry would be the object itself).
    # A Sphinx "*" stops at "/": "reference/*" leaves out "reference/api/...".
    "secondary_sidebar_items": {"*": ["page-toc"], "reference/*": ["page-toc"],
                                "support_matrix": [], "spark_mapping": []},
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
# Pages without a section to navigate, and the pages of wide tables, take the whole width.
# An API page's place is shown by its breadcrumbs; a sidebar of sibling pages with full
# dotted names would take a third of the width.
html_sidebars: Dict[str, Any] = {page: [] for page in (
    "index", "changelog", "faq", "support_matrix", "spark_mapping", "divergences",
    "reference/api/*")}
html_static_path = ["_static"]
html_css_files = ["registry.css"]
html_title = "pyflink_compat " + release
html_show_sourcelink = False


# -- Public names ------------------------------------------------------------------------------
# The API is documented where users import it from (``pyflink_compat.datastream.CheckpointConfig``)
# while type hints in signatures name the defining module
# (``pyflink_compat.datastream.checkpoint_config.CheckpointConfig``). This maps the latter onto
# the former, for the packages that re-export their modules' members.
PUBLIC_PACKAGES = ("pyflink_compat.datastream", "pyflink_compat.common")


def public_name(target: str) -> Optional[str]:
    """The documented name of ``target`` when it names a re-exported object by its module."""
    import importlib

    for package in PUBLIC_PACKAGES:
        prefix = package + "."
        if not target.startswith(prefix):
            continue
        parts = target[len(prefix):].split(".")
        if len(parts) >= 2 and parts[1] in importlib.import_module(package).__all__:
            return prefix + ".".join(parts[1:])
    return None


# Standard library classes whose defining module is private: signatures name the private
# module, the Python documentation the public one.
STDLIB_PUBLIC_NAMES = {"concurrent.futures._base.Future": "concurrent.futures.Future"}
# Names imported for type checking only, which autodoc leaves bare inside other annotations
# (``List['CompletedCheckpointStats']``), where autodoc_type_aliases cannot reach them.
BARE_NAMES = {"CompletedCheckpointStats": "pyflink_compat.spark.stats.CompletedCheckpointStats"}


def resolve_public_name(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    if target in STDLIB_PUBLIC_NAMES:
        # Runs before intersphinx's handler, which then looks up the public name.
        node["reftarget"] = STDLIB_PUBLIC_NAMES[target]
        return None
    public = BARE_NAMES.get(target) or public_name(target)
    if public is None:
        return None
    return env.get_domain("py").resolve_xref(
        env, node["refdoc"], app.builder, node["reftype"], public, node, contnode)


def hide_constructor_signature(app: Any, what: str, name: str, obj: Any, options: Any,
                               signature: Optional[str], return_annotation: Optional[str]) -> Any:
    if what == "class" and name in NO_CONSTRUCTOR_SIGNATURE:
        return "", None
    return None


# -- Enum-valued class constants ------------------------------------------------------------
# autodoc shows an enum member's value (``DEFAULT_MODE = 0``); for a class constant holding a
# member, its name says more (``DEFAULT_MODE = CheckpointingMode.EXACTLY_ONCE``). The autosummary
# attribute template reads this mapping.
def enum_constants() -> Dict[str, str]:
    import enum
    import importlib
    import inspect

    found = {}
    for package in PUBLIC_PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            cls = getattr(module, name)
            if not inspect.isclass(cls) or issubclass(cls, enum.Enum):
                continue
            for attribute, value in vars(cls).items():
                if isinstance(value, enum.Enum) and not attribute.startswith("_"):
                    found["{}.{}.{}".format(package, name, attribute)] = "{}.{}".format(
                        type(value).__name__, value.name)
    return found


from compat_only import compat_only_names  # noqa: E402

autosummary_context = {"enum_constants": enum_constants(), "compat_only": compat_only_names()}


# -- Completeness ----------------------------------------------------------------------------
# Every public class of the public packages, and every public member a class defines itself,
# must be documented in the reference; a member added to the code without a line in the
# reference fails the build.
def check_completeness(app: Any, env: Any) -> None:
    import importlib

    from sphinx.util import logging

    logger = logging.getLogger("pyflink_compat.docs")
    documented = env.get_domain("py").objects
    for package in PUBLIC_PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            names = [name] + ["{}.{}".format(name, member) for member in vars(getattr(module, name))
                              if not member.startswith("_")]
            for qualified in ("{}.{}".format(package, n) for n in names):
                if qualified not in documented:
                    logger.warning("%s is not documented: list it in the reference", qualified)


def setup(app: Any) -> None:
    app.connect("missing-reference", resolve_public_name, priority=400)
    app.connect("autodoc-process-signature", hide_constructor_signature)
    app.connect("env-check-consistency", check_completeness)
