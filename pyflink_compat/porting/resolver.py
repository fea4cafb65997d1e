"""What a name in a PyFlink job is, answered from what pyflink_compat implements.

A job's names are followed through its imports, aliases, assignments and call chains to a
:class:`Ref`: a PyFlink module, class, instance of a class, or callable member. The answer to
"is this ported?" comes from pyflink_compat itself: its module is imported and the name looked
up; a name missing there, or one declared through :mod:`pyflink_compat.missing` (a
placeholder class, function, value or method, or a method that raises the not-supported
error), is pipeline. The type an implemented call returns is read from its return annotation,
so ``env.get_checkpoint_config().set_checkpoint_timeout(...)`` resolves along the chain.

Importing pyflink_compat's API modules starts nothing (no JVM, no pyspark).
"""

from __future__ import annotations

import ast
import enum
import functools
import importlib
import inspect
import sys
import textwrap
import types
from typing import Any, Dict, FrozenSet, Optional, Tuple

import attrs

from pyflink_compat.missing import declared
from pyflink_compat.missing.hints import hint_for

__all__ = ["RefKind", "Ref", "module_ref", "member_ref", "call_result", "parameter_value", "is_implemented",
           "settings_touched", "pipeline_result_names", "PYFLINK_ROOT", "COMPAT_ROOT"]

PYFLINK_ROOT = "pyflink"
COMPAT_ROOT = "pyflink_compat"

#: The PyFlink class a pipeline method returns, to name what is built on its result in the
#: report (``ds.key_by`` is ``DataStream.key_by``). Facts of PyFlink 1.20.5's API.
_PIPELINE_RESULTS = {
    "from_source": "DataStream", "add_source": "DataStream", "from_collection": "DataStream",
    "read_text_file": "DataStream", "create_input": "DataStream", "map": "DataStream",
    "flat_map": "DataStream", "filter": "DataStream", "process": "DataStream", "union": "DataStream",
    "assign_timestamps_and_watermarks": "DataStream", "key_by": "KeyedStream",
    "window": "WindowedStream", "reduce": "DataStream", "sink_to": "DataStreamSink",
    "add_sink": "DataStreamSink", "print": "DataStreamSink", "to_data_stream": "DataStream",
    "to_append_stream": "DataStream", "to_changelog_stream": "DataStream",
    "sql_query": "Table", "from_path": "Table", "from_elements": "Table", "from_data_stream": "Table",
    "from_pandas": "Table", "from_descriptor": "Table", "select": "Table", "where": "Table",
    "group_by": "GroupedTable", "execute_sql": "TableResult", "execute_insert": "TableResult",
    "execute": "TableResult", "create_statement_set": "StatementSet",
}


def pipeline_result_names() -> FrozenSet[str]:
    """The pipeline methods whose result class is known."""
    return frozenset(_PIPELINE_RESULTS)


#: PyFlink APIs that PyFlink 1.20.5 no longer has (checked against its sources), with what
#: replaced them. A job calling one fails on PyFlink 1.20 as on Spark. The flag: the method
#: returned its own builder, so a chain after it still resolves.
REMOVED: Dict[str, Tuple[str, bool]] = {
    "EnvironmentSettings.Builder.use_blink_planner": (
        "removed from PyFlink with the legacy planner (absent in 1.20): the Blink planner is the only "
        "planner; delete the call", True),
    "EnvironmentSettings.Builder.use_old_planner": (
        "removed from PyFlink with the legacy planner (absent in 1.20); delete the call", True),
    "EnvironmentSettings.Builder.use_any_planner": (
        "removed from PyFlink with the legacy planner (absent in 1.20); delete the call", True),
    "TableEnvironment.connect": (
        "removed from PyFlink (absent in 1.20): declare the table with execute_sql('CREATE TABLE ...') "
        "or create_temporary_table(path, TableDescriptor...)", False),
    "TableEnvironment.sql_update": ("removed from PyFlink (absent in 1.20): use execute_sql", False),
    "TableEnvironment.insert_into": (
        "removed from PyFlink (absent in 1.20): use Table.execute_insert, or a StatementSet", False),
    "TableEnvironment.execute": (
        "removed from PyFlink (absent in 1.20): execute_sql, Table.execute_insert and "
        "StatementSet.execute each run their job; delete the call", False),
    "Table.insert_into": ("removed from PyFlink (absent in 1.20): use Table.execute_insert", False),
    "pyflink.table.BatchTableEnvironment": (
        "removed from PyFlink (absent in 1.20): use TableEnvironment.create("
        "EnvironmentSettings.in_batch_mode())", False),
}


class RefKind(enum.Enum):
    """What a resolved name is."""

    MODULE = "module"
    CLASS = "class"
    INSTANCE = "instance"
    CALLABLE = "callable"
    #: a PyFlink name or value that pyflink_compat does not implement: pipeline
    PIPELINE = "pipeline"


@attrs.frozen
class Ref:
    """A resolved PyFlink thing.

    :param kind: What it is.
    :param api: Its PyFlink name for people: ``StreamExecutionEnvironment``,
        ``CheckpointConfig.set_checkpoint_timeout``, ``pyflink.datastream``.
    :param module: The PyFlink module that defines it (``pyflink.datastream``), for hints.
    :param obj: The pyflink_compat object: the module, the class (also for an instance), or
        the function; None for pipeline references.
    """

    kind: RefKind
    api: str
    module: Optional[str]
    obj: Any = attrs.field(default=None, eq=False)
    #: for an API PyFlink removed: what replaced it
    removed: str = ""

    @property
    def hint(self) -> str:
        """The PySpark way for a pipeline reference, from the hint table (for a removed API,
        what replaced it)."""
        return self.removed or hint_for(self.api, self.module)


def _removed(key: str, api: str, module: Optional[str], owner: Any = None) -> Optional[Ref]:
    found = REMOVED.get(key)
    if found is None:
        return None
    return Ref(RefKind.PIPELINE, api, module, owner if found[1] else None, removed=found[0])


def _pyflink_module(name: str) -> str:
    return declared.pyflink_module(name)


def module_ref(dotted: str) -> Optional[Ref]:
    """The PyFlink (or pyflink_compat) module ``dotted``, imported from pyflink_compat."""
    head, _, rest = dotted.partition(".")
    if head not in (PYFLINK_ROOT, COMPAT_ROOT):
        return None
    compat = COMPAT_ROOT + ("." + rest if rest else "")
    pyflink = PYFLINK_ROOT + ("." + rest if rest else "")
    try:
        module = importlib.import_module(compat)
    except ImportError:
        return Ref(RefKind.PIPELINE, pyflink, pyflink)
    return Ref(RefKind.MODULE, pyflink, pyflink, module)


def is_implemented(obj: Any) -> bool:
    """Whether pyflink_compat implements ``obj`` rather than declaring it as not supported."""
    if isinstance(obj, declared.DeclaredValue):
        return False
    if isinstance(obj, type):
        return not any("_pyflink_api" in vars(k) for k in obj.__mro__)
    function = inspect.unwrap(getattr(obj, "__func__", obj))
    if isinstance(obj, property):
        function = obj.fget
    code = getattr(function, "__code__", None)
    if code is None:
        return True
    if code.co_filename.startswith("<declared") or (
            code.co_name == "placeholder" and code.co_filename == declared.__file__):
        return False
    return not _raises_not_supported(function)


@functools.lru_cache(maxsize=None)
def _function_tree(function: Any) -> Optional[ast.FunctionDef]:
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError):
        return None
    node = ast.parse(source).body[0]
    return node if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None  # type: ignore[return-value]


def _raises_not_supported(function: Any) -> bool:
    """A method whose whole body (after its docstring) raises ``not_supported(...)``."""
    tree = _function_tree(function)
    if tree is None:
        return False
    body = [s for s in tree.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    body = [s for s in body if not isinstance(s, (ast.Import, ast.ImportFrom))]
    return (len(body) == 1 and isinstance(body[0], ast.Raise) and isinstance(body[0].exc, ast.Call)
            and isinstance(body[0].exc.func, ast.Name) and body[0].exc.func.id == "not_supported")


@functools.lru_cache(maxsize=None)
def settings_touched(function: Any) -> FrozenSet[str]:
    """The names of the settings (in :data:`~pyflink_compat.settings.registry.SETTINGS_BY_NAME`)
    that an implemented method of pyflink_compat writes or reads, found in its source."""
    from pyflink_compat.settings.registry import SETTINGS_BY_NAME

    tree = _function_tree(inspect.unwrap(getattr(function, "__func__", function)))
    if tree is None:
        return frozenset()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in SETTINGS_BY_NAME:
            found.add(node.value)
        elif isinstance(node, ast.keyword) and node.arg in SETTINGS_BY_NAME:
            found.add(node.arg)
    return frozenset(found)


def _of_object(obj: Any, api: str, module: Optional[str]) -> Ref:
    if not is_implemented(obj):
        return Ref(RefKind.PIPELINE, api, module)
    if isinstance(obj, types.ModuleType):
        return Ref(RefKind.MODULE, _pyflink_module(obj.__name__), _pyflink_module(obj.__name__), obj)
    if isinstance(obj, type):
        return Ref(RefKind.CLASS, api, module, obj)
    if callable(obj) or isinstance(obj, (property, staticmethod, classmethod)):
        return Ref(RefKind.CALLABLE, api, module, obj)
    kind = type(obj)
    if kind.__module__.split(".")[0] == COMPAT_ROOT:
        return Ref(RefKind.INSTANCE, kind.__name__, _pyflink_module(kind.__module__), kind)
    return Ref(RefKind.INSTANCE, api, module, None)


def member_ref(base: Ref, name: str) -> Optional[Ref]:
    """``base.name``: a submodule, a module's name, a class attribute or an instance's member."""
    if base.kind is RefKind.PIPELINE:
        owner = base.api
        return Ref(RefKind.PIPELINE, "{}.{}".format(owner, name), base.module)
    if base.kind is RefKind.MODULE:
        assert base.obj is not None
        gone = _removed(base.api + "." + name, name, base.api)
        if gone is not None and not hasattr(base.obj, name):
            return gone
        if name in getattr(base.obj, "__dict__", {}) or hasattr(base.obj, name):
            try:
                value = getattr(base.obj, name)
            except AttributeError:
                return Ref(RefKind.PIPELINE, name, base.api)
            if isinstance(value, types.ModuleType):
                return module_ref(base.api + "." + name)
            return _of_object(value, name, base.api)
        sub = module_ref(base.api + "." + name)
        if sub is not None and sub.kind is RefKind.MODULE:
            return sub
        return Ref(RefKind.PIPELINE, name, base.api)
    if base.kind in (RefKind.CLASS, RefKind.INSTANCE):
        cls = base.obj
        if cls is None:
            return None
        owner = cls.__name__
        api = "{}.{}".format(owner, name)
        module = _pyflink_module(cls.__module__)
        for klass in cls.__mro__:
            key = "{}.{}".format(klass.__qualname__, name)
            gone = _removed(key, key, module, cls)
            if gone is not None:
                return gone
        try:
            value = inspect.getattr_static(cls, name)
        except AttributeError:
            if name.startswith("_"):
                return None
            itself = _runtime_state_member(cls, name, api, module)
            if itself is not None:
                return itself
            if base.kind is RefKind.INSTANCE and _is_row(cls):
                return None  # a Row's field: the record's data, not an API
            return Ref(RefKind.PIPELINE, api, module)
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        if isinstance(value, property):
            if not is_implemented(value):
                return Ref(RefKind.PIPELINE, api, module)
            if base.kind is RefKind.INSTANCE:
                return _returned(value.fget, api, module) or Ref(RefKind.INSTANCE, api, module, None)
            return Ref(RefKind.CALLABLE, api, module, value.fget)
        if isinstance(value, type) or not callable(value):
            return _of_object(getattr(cls, name, value), api, module)
        return _of_object(value, api, module)
    return None


#: Members of the map state PyFlink's runtime hands to a function that its declared
#: ``MapState`` lacks (``pyflink.fn_execution.state_impl``): ``get_internal_state`` gives the
#: current key's map, with the same methods. pyflink_compat's runtime map state has it too.
_RUNTIME_STATE_MEMBERS = frozenset({("MapState", "get_internal_state")})


def _runtime_state_member(cls: Any, name: str, api: str, module: Optional[str]) -> Optional[Ref]:
    """``name`` of a state class as such a member: a callable giving the state itself."""
    if not any((klass.__name__, name) in _RUNTIME_STATE_MEMBERS for klass in cls.__mro__):
        return None

    def member(self: Any) -> Any:
        return self

    member.__annotations__ = {"return": cls}
    return Ref(RefKind.CALLABLE, api, module, member)


def _is_row(cls: Any) -> bool:
    from pyflink_compat.common.types import Row

    return isinstance(cls, type) and issubclass(cls, Row)


def _annotation_class(function: Any, name: str = "return") -> Optional[type]:
    """The class of ``function``'s annotation of ``name`` (its return by default)."""
    annotation = getattr(function, "__annotations__", {}).get(name)
    if annotation is None:
        return None
    if isinstance(annotation, type):
        return annotation
    text = str(annotation).strip("'\"")
    for wrapper in ("Optional[", "typing.Optional["):
        if text.startswith(wrapper) and text.endswith("]"):
            text = text[len(wrapper):-1].strip("'\"")
    namespace = vars(sys.modules[function.__module__]) if function.__module__ in sys.modules else {}
    head, _, nested = text.partition(".")
    found = namespace.get(head)
    for part in nested.split(".") if nested else ():
        found = getattr(found, part, None)
    if isinstance(found, type):
        return found
    for package in ("datastream", "datastream.state", "common", "table"):
        module = importlib.import_module("{}.{}".format(COMPAT_ROOT, package))
        try:
            candidate = getattr(module, text)
        except AttributeError:
            continue
        if isinstance(candidate, type):
            return candidate
    return None


def _returned(function: Any, api: str, module: Optional[str]) -> Optional[Ref]:
    cls = _annotation_class(function)
    if cls is None or cls.__module__.split(".")[0] != COMPAT_ROOT:
        return None
    return Ref(RefKind.INSTANCE, cls.__name__, _pyflink_module(cls.__module__), cls)


def parameter_value(cls: Any, method: str, parameter: str) -> Optional[Ref]:
    """What PyFlink passes to ``parameter`` of ``method`` of a subclass of ``cls`` (a class of
    pyflink_compat), from the annotation of the method the subclass overrides: ``ctx`` of
    ``KeyedProcessFunction.process_element`` is a ``KeyedProcessFunction.Context``."""
    function = getattr(cls, method, None)
    if function is None or not callable(function):
        return None
    found = _annotation_class(inspect.unwrap(function), parameter)
    if found is None or found.__module__.split(".")[0] != COMPAT_ROOT:
        return None
    return Ref(RefKind.INSTANCE, found.__name__, _pyflink_module(found.__module__), found)


def call_result(callee: Ref) -> Optional[Ref]:
    """What calling ``callee`` gives: an instance for a class, the annotated return type of an
    implemented callable, and a pipeline value for anything pipeline."""
    if callee.kind is RefKind.PIPELINE and callee.removed and isinstance(callee.obj, type):
        # a removed builder method returned its builder: the chain goes on
        return Ref(RefKind.INSTANCE, callee.obj.__name__, callee.module, callee.obj)
    if callee.kind is RefKind.PIPELINE:
        member = callee.api.rsplit(".", 1)[-1]
        result = _PIPELINE_RESULTS.get(member)
        if result is None:
            owner = callee.api.rsplit(".", 1)[0] if "." in callee.api else callee.api
            result = owner if owner[:1].isupper() else callee.api
        return Ref(RefKind.PIPELINE, result, None if result in _PIPELINE_RESULTS.values() else callee.module)
    if callee.kind is RefKind.CLASS:
        return Ref(RefKind.INSTANCE, callee.api.rsplit(".", 1)[-1], callee.module, callee.obj)
    if callee.kind is RefKind.CALLABLE:
        found = _returned(callee.obj, callee.api, callee.module)
        if found is None and callee.api.rsplit(".", 1)[-1] in _PIPELINE_RESULTS:
            # an implemented pipeline method without a return annotation: its PyFlink result
            found = _class_named(_PIPELINE_RESULTS[callee.api.rsplit(".", 1)[-1]])
        return found
    return None


def _class_named(name: str) -> Optional[Ref]:
    for package in ("datastream", "table"):
        module = importlib.import_module("{}.{}".format(COMPAT_ROOT, package))
        cls = getattr(module, name, None)
        if isinstance(cls, type):
            if not is_implemented(cls):
                return Ref(RefKind.PIPELINE, name, None)
            return Ref(RefKind.INSTANCE, name, _pyflink_module(cls.__module__), cls)
    return None


def split_api(api: str) -> Tuple[str, str]:
    """``Owner.member`` as its two parts (the owner empty for a plain name)."""
    owner, _, member = api.rpartition(".")
    return owner, member
