"""Checkpoint paths as Flink reads them, parsed and normalised as Hadoop's ``Path`` does.

Hadoop's ``Path`` normalises URIs the way Flink's does (``file:///tmp/x/`` becomes
``file:/tmp/x``, ``a/../b`` collapses), so paths read back exactly as under PyFlink. The
common plain paths (a scheme, a host name and port, segments of letters, digits and ``_.~-``)
are read here without asking the JVM (:class:`PlainPath`), with the same result; every other
text goes to Hadoop's ``Path`` itself.
"""

from __future__ import annotations

import re
from typing import Any, Optional, Union

from pyflink_compat.util.exceptions import call_java, illegal_argument
from pyflink_compat.util.java_args import java_string
from pyflink_compat.util.java_classes import java_class

__all__ = [
    "PlainPath", "plain_path", "normalize_path", "new_path", "parse_location", "checkpoint_location", "local_directory",
    "flink_path_text", "NO_SCHEME", "ROOT_DIRECTORY",
]

NO_SCHEME = (
    "The scheme (hdfs://, file://, etc) is null. "
    "Please specify the file system scheme explicitly in the URI."
)
ROOT_DIRECTORY = "Cannot use the root directory for checkpoints."
_PATH_TARGET = "None.org.apache.flink.core.fs.Path"


def new_path(text: Any) -> Any:
    """``text`` parsed as PyFlink's ``Path(text)`` does, failing as that constructor fails."""
    java_string(text, "org.apache.flink.core.fs.Path", _PATH_TARGET, constructor=True)
    return parse_location(text, _PATH_TARGET)


def is_drive(text: str) -> bool:
    return len(text) >= 2 and text[1] == ":" and text[0].isascii() and text[0].isalpha()


def flink_path_text(text: str) -> Optional[str]:
    """``text`` as Hadoop's ``Path`` must see it to read it as Flink's does (drive letters and
    backslashes, which Hadoop handles only on Windows), or ``None`` where Flink fails."""
    if is_drive(text):
        return "/" + text.replace("\\", "/")
    start = 0
    colon, slash = text.find(":"), text.find("/")
    if colon != -1 and (slash == -1 or colon < slash):
        start = colon + 1
        if text.startswith("//", start) and len(text) - start > 2:
            end = text.find("/", start + 2)
            start = end if end > 0 else len(text)
        elif is_drive(text[start:]):
            return None
    return text[:start] + text[start:].replace("\\", "/")


class PlainPath:
    """A path whose text Hadoop's ``Path`` would take as it is (see :func:`plain_path`).

    :param scheme: The URI scheme, or ``None``.
    :param text: The normalised text, as ``Path.toString()`` gives it.
    :param root: Whether it is a root directory, as ``Path.isRoot()`` tells.
    """

    __slots__ = ("scheme", "text", "root")

    def __init__(self, scheme: Optional[str], text: str, root: bool):
        self.scheme = scheme
        self.text = text
        self.root = root


# An optional scheme (URI syntax) with an optional host name and port, then a path of plain
# segments: texts in which java.net.URI quotes nothing and Hadoop's Path changes nothing but
# an empty authority, a trailing slash and (for dot segments, excluded below) what
# URI.normalize() removes.
_PLAIN = re.compile(r"(?:([A-Za-z][A-Za-z0-9+.-]*):(?://([A-Za-z0-9.-]*(?::[0-9]+)?)(?=/))?)?"
                    r"([A-Za-z0-9_.~/-]+)")


def plain_path(hadoop_text: str) -> Optional[PlainPath]:
    """What Hadoop's ``Path(hadoop_text)`` holds, when ``hadoop_text`` is a plain path read
    without the JVM; ``None`` for any other text (Hadoop then reads it)."""
    match = _PLAIN.fullmatch(hadoop_text)
    if match is None:
        return None
    scheme, authority, path = match.groups()
    segments = path.split("/")
    if "//" in path or "." in segments or ".." in segments:
        return None
    if scheme is not None and not path.startswith("/"):
        return None  # a relative path after a scheme: Hadoop fails, and says how
    if len(path) > 1 and path.endswith("/"):
        path = path[:-1]
    head = "" if scheme is None else scheme + ":"
    if authority:
        head += "//" + authority
    return PlainPath(scheme, head + path, path == "/")


ParsedPath = Union[PlainPath, Any]


def parse_location(text: str, target: str) -> ParsedPath:
    """``text`` as a Hadoop ``Path`` (or, for a plain path, a :class:`PlainPath` holding the
    same); a malformed one fails as if by calling ``target``."""
    hadoop_text = flink_path_text(text)
    if hadoop_text is None:
        raise illegal_argument(
            "java.net.URISyntaxException: Relative path in absolute URI: " + text, target)
    plain = plain_path(hadoop_text)
    if plain is not None:
        return plain
    return call_java(target, java_class("org.apache.hadoop.fs.Path"), hadoop_text)


def checkpoint_location(j_path: ParsedPath, target: str) -> str:
    """A parsed checkpoint or savepoint location, checked as Flink does, as normalised text."""
    if isinstance(j_path, PlainPath):
        if j_path.scheme is None:
            raise illegal_argument(NO_SCHEME, target)
        if j_path.root:
            raise illegal_argument(ROOT_DIRECTORY, target)
        return j_path.text
    if j_path.toUri().getScheme() is None:
        raise illegal_argument(NO_SCHEME, target)
    if j_path.isRoot():
        raise illegal_argument(ROOT_DIRECTORY, target)
    return str(j_path.toString())


def local_directory(raw: Optional[str], target: str) -> str:
    """A RocksDB local directory as Flink accepts it: an absolute path or a ``file:`` URI, in
    ``java.io.File``'s normal form."""
    if raw is None:
        raise illegal_argument("null path", target)
    path = raw
    colon, slash = raw.find(":"), raw.find("/")
    hadoop_text = flink_path_text(raw)
    # Flink sees a scheme only before the first slash, and ignores what it cannot parse.
    if not (colon == -1 or -1 < slash < colon or is_drive(raw) or hadoop_text is None):
        try:
            j_uri = java_class("org.apache.hadoop.fs.Path")(hadoop_text).toUri()
        except Exception:
            j_uri = None
        if j_uri is not None and j_uri.getScheme() is not None:
            if str(j_uri.getScheme()).lower() != "file":
                raise illegal_argument(f"Path {raw} has a non-local scheme", target)
            path = j_uri.getPath() or ""
    if not path.startswith("/"):
        raise illegal_argument("Relative paths are not supported", target)
    return "/" + "/".join(part for part in path.split("/") if part)


def normalize_path(text: Any) -> str:
    """``text`` as a normalised path; only its syntax is checked."""
    parsed = new_path(text)
    normalised = parsed.text if isinstance(parsed, PlainPath) else str(parsed.toString())
    if normalised.startswith("/") and is_drive(normalised[1:]):
        # Flink prints a drive-letter path without its leading slash, and keeps the slash of
        # a drive's root directory.
        normalised = normalised[1:]
        if len(normalised) == 2 and text.replace("\\", "/").endswith("/"):
            normalised += "/"
    return normalised
