"""Flink's configuration file, read as Flink reads it for ``flink run``: the defaults of the jobs
a command starts, and where the commands find them.

``$FLINK_CONF_DIR/config.yaml`` (Flink 1.19 and later: YAML, nested keys joined with dots,
lists joined with ``;``) is read when it exists, else the legacy ``flink-conf.yaml`` (one
``key: value`` per line, the key taken whole). Values are kept as text, as in the file; the
settings registry parses them when a job plans (:mod:`pyflink_compat.settings.registry`).

As in Flink's CLI, a ``FLINK_CONF_DIR`` that names no directory, or a directory with neither
file, is an error (with Flink's messages); without ``FLINK_CONF_DIR`` no file is read. A
malformed file is refused with its line: an unclosed quote, a tab in the indentation (YAML
indents with spaces only), a line that is not ``key: value``.

Only the YAML a configuration file needs is understood: mappings by indentation, plain,
single- and double-quoted scalars, ``[a, b]`` and ``- item`` lists, ``#`` comments.
"""

from __future__ import annotations

import os
from typing import Dict, List, Mapping, Optional, Tuple

__all__ = ["CONFIG_FILE", "LEGACY_CONFIG_FILE", "ConfigFileError", "config_file_path", "read_config_file",
           "flink_configuration"]

#: The configuration file of Flink 1.19 and later.
CONFIG_FILE = "config.yaml"
#: The configuration file of earlier Flink versions.
LEGACY_CONFIG_FILE = "flink-conf.yaml"


class ConfigFileError(ValueError):
    """A configuration that cannot be read: a missing configuration directory or file, or a
    malformed file (the message names the file and the line).

    :param path: The directory or file concerned.
    """

    def __init__(self, message: str, path: Optional[str] = None):
        super().__init__(message)
        self.path = path


def config_file_path(conf_dir: Optional[str]) -> Optional[str]:
    """The configuration file in ``conf_dir`` that Flink would read (None without ``conf_dir``).

    :raises ConfigFileError: when ``conf_dir`` is not a directory, or holds neither file.
    """
    if not conf_dir:
        return None
    if not os.path.isdir(conf_dir):
        raise ConfigFileError("The configuration directory '{}', specified in the 'FLINK_CONF_DIR' environment "
                              "variable, does not exist.".format(conf_dir), conf_dir)
    for name in (CONFIG_FILE, LEGACY_CONFIG_FILE):
        path = os.path.join(conf_dir, name)
        if os.path.isfile(path):
            return path
    missing = os.path.join(conf_dir, CONFIG_FILE)
    raise ConfigFileError("The Flink config file '{}' ({}) does not exist.".format(
        CONFIG_FILE, os.path.abspath(missing)), missing)


def _unclosed_quote(text: str) -> bool:
    """Whether a scalar opens a quote it does not close (YAML would read on into the next lines;
    a configuration value never spans lines, so it is a mistake)."""
    text = text.strip()
    if not text or text[0] not in "'\"":
        return False
    index = 1
    while index < len(text):
        char = text[index]
        if text[0] == "'" and char == "'":
            if text[index + 1:index + 2] == "'":  # '' is a quote inside single quotes
                index += 2
                continue
            return False
        if text[0] == '"' and char == "\\":
            index += 2
            continue
        if text[0] == '"' and char == '"':
            return False
        index += 1
    return True


def _scalar(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        inner = text[1:-1]
        return inner.replace("''", "'") if text[0] == "'" else inner.replace('\\"', '"').replace("\\\\", "\\")
    return text


def _without_comment(line: str) -> str:
    """``line`` up to a ``#`` that starts a comment (outside quotes, after a space or at the start)."""
    quote = None
    for index, char in enumerate(line):
        if quote is not None:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return line[:index]
    return line


def _value(text: str) -> str:
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):
        return ";".join(_scalar(item) for item in text[1:-1].split(",") if item.strip())
    return _scalar(text)


def _check_quotes(text: str, path: str, number: int) -> None:
    if _unclosed_quote(text):
        raise ConfigFileError("{}, line {}: a quote that is not closed on its line: {}".format(
            path, number, text.strip()), path)


def _read_yaml(lines: List[str], path: str) -> Dict[str, str]:
    found: Dict[str, str] = {}
    stack: List[Tuple[int, str]] = []  # (indent, key) of the open mappings
    items: Dict[str, List[str]] = {}
    for number, raw in enumerate(lines, 1):
        line = _without_comment(raw).rstrip()
        if not line.strip() or line.strip() == "---":
            continue
        if "\t" in line[:len(line) - len(line.lstrip(" \t"))]:
            raise ConfigFileError("{}, line {}: a tab in the indentation (YAML indents with spaces only)".format(
                path, number), path)
        indent = len(line) - len(line.lstrip(" "))
        body = line.strip()
        if body.startswith("- ") or body == "-":
            parent = ".".join(k for _, k in stack)
            if not parent:
                raise ConfigFileError("{}, line {}: a list item outside of a key".format(path, number), path)
            _check_quotes(body[1:], path, number)
            items.setdefault(parent, []).append(_scalar(body[1:]))
            continue
        _check_quotes(body, path, number)
        key, colon, rest = body.partition(":")
        if not colon or not key.strip():
            raise ConfigFileError("{}, line {}: expected 'key: value', found {!r}".format(path, number, body), path)
        _check_quotes(rest, path, number)
        while stack and stack[-1][0] >= indent:
            stack.pop()
        full = ".".join([k for _, k in stack] + [_scalar(key)])
        if rest.strip():
            found[full] = _value(rest)
        else:
            stack.append((indent, _scalar(key)))
    for key, values in items.items():
        found[key] = ";".join(values)
    return found


def _read_legacy(lines: List[str], path: str) -> Dict[str, str]:
    found: Dict[str, str] = {}
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, colon, rest = line.partition(": ")
        if not colon:
            key, colon, rest = line.partition(":")
        if not colon or not key.strip():
            raise ConfigFileError("{}, line {}: expected 'key: value', found {!r}".format(path, number, line), path)
        found[key.strip()] = _scalar(_without_comment(rest))
    return found


def read_config_file(path: str) -> Dict[str, str]:
    """The options of one configuration file, by Flink key.

    :raises ConfigFileError: when a line cannot be read, or the file cannot be opened.
    """
    try:
        with open(path, encoding="utf-8") as stream:
            lines = stream.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigFileError("The Flink config file {} cannot be read: {}".format(path, error), path) from error
    if os.path.basename(path) == LEGACY_CONFIG_FILE:
        return _read_legacy(lines, path)
    return _read_yaml(lines, path)


def flink_configuration(dynamic: Mapping[str, str], environ: Optional[Mapping[str, str]] = None) -> Dict[str, str]:
    """The configuration a command works with: the file in ``FLINK_CONF_DIR``, if set, then
    the ``-D key=value`` options, which win.

    :raises ConfigFileError: when ``FLINK_CONF_DIR`` is set but holds no readable, well-formed
        configuration file.
    """
    environ = os.environ if environ is None else environ
    path = config_file_path(environ.get("FLINK_CONF_DIR"))
    found = read_config_file(path) if path is not None else {}
    found.update(dynamic)
    return found
