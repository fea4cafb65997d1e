"""The documentation site, built as ``tox -e docs`` builds it, read back as HTML.

Skipped where Sphinx or the theme is not installed (the test environments of the package).
"""

from __future__ import annotations

import html.parser
import importlib
import inspect
import os
import re
import subprocess
import sys
from typing import Any, Dict, Iterator, List, Tuple

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("pydata_sphinx_theme")

_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_PUBLIC_PACKAGES = ("pyflink_compat.datastream", "pyflink_compat.common")


@pytest.fixture(scope="module")
def site(tmp_path_factory: Any) -> str:
    """The site, built with warnings as errors and every reference checked."""
    out = str(tmp_path_factory.mktemp("docs-html"))
    doctrees = str(tmp_path_factory.mktemp("doctrees"))
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-b", "html",
         "-d", doctrees, os.path.join(_ROOT, "docs"), out],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, timeout=900)
    assert done.returncode == 0, done.stdout
    return out


class _Tags(html.parser.HTMLParser):
    """Every start tag of a page, with its attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: List[Tuple[str, Dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Any]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def tags_of(path: str) -> List[Tuple[str, Dict[str, str]]]:
    parser = _Tags()
    with open(path, encoding="utf-8") as page:
        parser.feed(page.read())
    return parser.tags


def pages(site: str) -> Iterator[str]:
    for directory, _, names in os.walk(site):
        if os.path.basename(directory) in ("_static", "_sources"):
            continue
        for name in names:
            if name.endswith(".html"):
                yield os.path.join(directory, name)


def read(site: str, page: str) -> str:
    with open(os.path.join(site, page), encoding="utf-8") as handle:
        return handle.read()


def test_every_public_class_of_datastream_and_common_has_a_page(site: str) -> None:
    from pyflink_compat.missing.declared import Declared

    not_supported = read(site, "not_supported.html")
    missing = []
    for package in _PUBLIC_PACKAGES:
        module = importlib.import_module(package)
        for name in module.__all__:
            value = getattr(module, name)
            # declared-only names are listed on the not-supported page instead
            if inspect.isclass(value) and not issubclass(value, Declared):
                page = os.path.join(site, "reference", "api", "{}.{}.html".format(package, name))
                if not os.path.isfile(page):
                    missing.append(name)
            elif inspect.isclass(value) and name not in not_supported:
                missing.append(name)
    assert missing == []


def declared_width(attrs: Dict[str, str]) -> str:
    style = attrs.get("style", "").replace(" ", "").lower()
    found = re.search(r"(?:^|;)width:([^;]+)", style)
    return attrs.get("width") or (found.group(1) if found else "")


def test_no_table_declares_a_width_or_keeps_its_cells_from_wrapping(site: str) -> None:
    found = []
    for path in pages(site):
        for tag, attrs in tags_of(path):
            style = attrs.get("style", "").replace(" ", "").lower()
            # the full width of the article is what every table gets anyway
            if tag == "table" and declared_width(attrs) not in ("", "100%"):
                found.append((os.path.relpath(path, site), tag, attrs))
            if tag in ("td", "th") and ("nowrap" in attrs or "white-space:nowrap" in style):
                found.append((os.path.relpath(path, site), tag, attrs))
    assert found == []


def test_the_style_sheet_lets_code_in_tables_wrap(site: str) -> None:
    # Sphinx's basic.css keeps every span.pre (the words of inline code) on one line; our
    # style sheet must lift that, or a long key pushes the next columns off screen.
    css = read(site, os.path.join("_static", "registry.css"))
    rules = dict((selector.strip(), body) for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", css))
    lifting = [s for s, body in rules.items() if "span.pre" in s and "white-space: normal" in body]
    assert lifting, "no rule sets span.pre back to white-space: normal"
    assert "white-space: nowrap" not in css


def test_the_support_matrix_shows_the_status_first_in_fixed_proportions(site: str) -> None:
    tags = tags_of(os.path.join(site, "support_matrix.html"))
    table = next(i for i, (tag, attrs) in enumerate(tags)
                 if tag == "table" and "flink-registry" in attrs.get("class", ""))
    widths = []
    for tag, attrs in tags[table + 1:]:
        if tag == "col":
            widths.append(float(re.search(r"width:\s*([\d.]+)%", attrs["style"]).group(1)))
        elif tag == "thead":
            break
    assert sum(widths) == pytest.approx(100)
    page = read(site, "support_matrix.html")
    assert re.search(r'<th class="head"><p>Status</p></th>\s*<th class="head"><p>Flink key</p>', page)


def test_members_pyflink_does_not_have_are_marked_as_such(site: str) -> None:
    page = read(site, os.path.join("reference", "api",
                                   "pyflink_compat.datastream.StreamExecutionEnvironment.add_sink.html"))
    assert "pyflink_compat only" in page
    shared = read(site, os.path.join("reference", "api",
                                     "pyflink_compat.datastream.StreamExecutionEnvironment.execute.html"))
    assert "pyflink_compat only" not in shared


def test_class_pages_list_their_attributes(site: str) -> None:
    page = read(site, os.path.join("reference", "api", "pyflink_compat.datastream.StreamExecutionEnvironment.html"))
    assert "StreamExecutionEnvironment.spark_session.html" in page


def test_the_troubleshooting_and_changelog_pages_are_built(site: str) -> None:
    faq = read(site, "faq.html")
    for message in ("No sinks registered", "JAVA_GATEWAY_EXITED", "Wrong basePath",
                    "Exceeded checkpoint tolerable failure threshold"):
        assert message in faq
    assert "0.1.0" in read(site, "changelog.html")
