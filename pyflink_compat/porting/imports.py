"""The import rewriter: every form of PyFlink import, pointed at pyflink_compat.

``from pyflink.x import y``, ``import pyflink.x as z``, ``import pyflink`` and
``import pyflink.x`` (whose later ``pyflink.x.y`` uses are renamed with it) become the same
statements on ``pyflink_compat``, wherever they are (in functions, ``try`` blocks...). Only the
module names change, so formatting and comments survive.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Union

import libcst as cst

from pyflink_compat.porting.resolver import COMPAT_ROOT, PYFLINK_ROOT

__all__ = ["dotted_name", "is_pyflink_module", "rewrite_import", "rewrite_import_from", "bound_names",
           "star_names"]

Dotted = Union[cst.Name, cst.Attribute]


def dotted_name(node: cst.BaseExpression) -> Optional[str]:
    """``a.b.c`` for a chain of names, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return None if base is None else base + "." + node.attr.value
    return None


def is_pyflink_module(dotted: Optional[str], root: str = PYFLINK_ROOT) -> bool:
    """Whether ``dotted`` is ``root`` or one of its submodules."""
    return dotted is not None and (dotted == root or dotted.startswith(root + "."))


def _retarget(node: Dotted) -> Dotted:
    """The same dotted name with its first part ``pyflink`` replaced by ``pyflink_compat``."""
    if isinstance(node, cst.Name):
        return node.with_changes(value=COMPAT_ROOT)
    assert isinstance(node.value, (cst.Name, cst.Attribute))
    return node.with_changes(value=_retarget(node.value))


def rewrite_import_from(node: cst.ImportFrom) -> Optional[cst.ImportFrom]:
    """``from pyflink... import ...`` on pyflink_compat, or None when it is no PyFlink import."""
    if node.relative or node.module is None or not is_pyflink_module(dotted_name(node.module)):
        return None
    return node.with_changes(module=_retarget(node.module))


def rewrite_import(node: cst.Import) -> Optional[cst.Import]:
    """``import pyflink...`` on pyflink_compat, or None when no name in it is PyFlink's."""
    names: List[cst.ImportAlias] = []
    changed = False
    for alias in node.names:
        if is_pyflink_module(dotted_name(alias.name)):
            assert isinstance(alias.name, (cst.Name, cst.Attribute))
            alias = alias.with_changes(name=_retarget(alias.name))
            changed = True
        names.append(alias)
    return node.with_changes(names=names) if changed else None


def star_names(module: str) -> List[str]:
    """The names ``from module import *`` binds: the ``__all__`` of pyflink_compat's module."""
    import importlib

    compat = COMPAT_ROOT + module[len(module.split(".")[0]):]
    try:
        found = importlib.import_module(compat)
    except ImportError:
        return []
    return [str(name) for name in getattr(found, "__all__", ())]


def bound_names(node: Union[cst.Import, cst.ImportFrom]) -> Dict[str, str]:
    """The names a (PyFlink or pyflink_compat) import binds, each to the dotted path it stands
    for: ``from pyflink.common import Types as T`` binds ``T`` to ``pyflink.common.Types``;
    ``import pyflink.datastream`` binds ``pyflink`` to ``pyflink``."""
    bound: Dict[str, str] = {}
    if isinstance(node, cst.ImportFrom):
        module = None if node.relative or node.module is None else dotted_name(node.module)
        if not (is_pyflink_module(module) or is_pyflink_module(module, COMPAT_ROOT)):
            return bound
        if isinstance(node.names, cst.ImportStar):
            assert module is not None
            return {name: "{}.{}".format(module, name) for name in star_names(module)}
        for alias in node.names:
            name = dotted_name(alias.name)
            local = alias.asname.name.value if alias.asname and isinstance(alias.asname.name, cst.Name) else name
            if name is not None and local is not None:
                bound[local] = "{}.{}".format(module, name)
        return bound
    for alias in node.names:
        name = dotted_name(alias.name)
        if not (is_pyflink_module(name) or is_pyflink_module(name, COMPAT_ROOT)):
            continue
        assert name is not None
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            bound[alias.asname.name.value] = name
        else:
            root = name.split(".")[0]
            bound[root] = root
    return bound
