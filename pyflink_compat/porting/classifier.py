"""The classifier: walks a job, rewrites its imports and sorts every statement that calls PyFlink.

:class:`JobPorter` is a LibCST transformer. In source order it follows what each name is
(:mod:`~pyflink_compat.porting.resolver`), rewrites the imports
(:mod:`~pyflink_compat.porting.imports`) and gives each statement that calls PyFlink an
:class:`~pyflink_compat.porting.report.Outcome`: ported (Spark applies it), stored only (a
setting the support matrix marks as having no Spark effect, with what it means on Spark) or
pipeline. A pipeline statement is handed to the writers of PySpark
(:mod:`~pyflink_compat.porting.pipeline`); what they cannot write whole stays as it was, with a
comment above it naming the PySpark way.
"""

from __future__ import annotations

import functools
import textwrap
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.metadata import Assignment, ClassScope, GlobalScope, ImportAssignment, Scope

from pyflink_compat.porting import imports as import_rewriter
from pyflink_compat.porting.dispatch import Transformer, Visitor, scopes
from pyflink_compat.porting.report import Finding, Outcome
from pyflink_compat.porting.resolver import (
    COMPAT_ROOT, PYFLINK_ROOT, Ref, RefKind, call_result, member_ref, module_ref, parameter_value, settings_touched)
from pyflink_compat.porting.lines import statement_lines
from pyflink_compat.porting.sql_check import (
    FUNCTION_DECLARATIONS, SQL_METHODS, TABLE_DECLARATIONS, TABLE_VALUE, SqlChecker, sql_text)

__all__ = ["JobPorter", "MARK", "string_value"]

#: The first words of every comment the tool writes, so that a second run recognises them.
MARK = "# pyflink-compat port:"

#: Configuration methods that take an option key first.
#: The pipeline calls whose PySpark ``--to-pyspark`` writes when it can, though the runtimes run them.
_PYSPARK_CALLS = frozenset({"execute_sql", "wait", "print", "sink_to", "add_sink", "from_source", "add_source",
                            "from_collection", "read_text_file"})
#: The calls that start building a connector: with ``--to-pyspark``, a statement binding what
#: they build becomes a DataFrame or a sink function when the writer can write it.
_CONNECTOR_BUILDS = frozenset({"FileSource.for_record_stream_format", "FileSink.for_row_format",
                               "KafkaSource.builder", "KafkaSink.builder"})
#: The calls that declare tables or functions the SQL of a job may use.
_DECLARATIONS = TABLE_DECLARATIONS | FUNCTION_DECLARATIONS
_KEYED_SETTERS = frozenset({"set_string", "set_integer", "set_boolean", "set_float", "set_long", "set",
                            "set_bytes"})
_CONFIG_CLASSES = frozenset({"Configuration", "TableConfig"})

Statement = Union[cst.SimpleStatementLine, cst.BaseCompoundStatement]
#: A name in the scope that binds it.
Key = Tuple[Scope, str]
Call = Tuple[Outcome, str, str]

#: The classes whose methods make a pipeline: a call of one of their method names on a value
#: the tool cannot type is reported as unknown rather than passed over.
_PIPELINE_CLASSES = ("StreamExecutionEnvironment", "DataStream", "KeyedStream", "WindowedStream",
                     "ConnectedStreams", "TableEnvironment", "StreamTableEnvironment", "Table",
                     "GroupedTable", "StatementSet", "TableResult")
#: Method names too common in plain Python to call a value PyFlink's on their own.
_COMMON_NAMES = frozenset({"get", "set", "add", "update", "clear", "close", "open", "items", "keys", "values",
                           "copy", "join", "format", "split", "append", "extend", "pop", "remove", "count",
                           "index", "sort", "run", "start", "stop", "wait", "result", "cancel"})


def _pipeline_members() -> FrozenSet[str]:
    """The method names of PyFlink's pipeline classes, as pyflink_compat and the hint table name them."""
    import pyflink_compat.datastream as datastream
    import pyflink_compat.table as table
    from pyflink_compat.porting.resolver import pipeline_result_names

    names: Set[str] = set(pipeline_result_names())
    for name in _PIPELINE_CLASSES:
        cls = getattr(datastream, name, None) or getattr(table, name, None)
        names.update(m for m in dir(cls) if not m.startswith("_"))
    return frozenset(names - _COMMON_NAMES)


_MEMBERS: List[FrozenSet[str]] = []


def pipeline_members() -> FrozenSet[str]:
    if not _MEMBERS:
        _MEMBERS.append(_pipeline_members())
    return _MEMBERS[0]


def string_value(node: cst.BaseExpression) -> Optional[str]:
    """The value of a string literal (also implicitly concatenated), else None."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _comment_lines(text: str, prefix: str = MARK) -> List[cst.EmptyLine]:
    wrapped = textwrap.wrap(text, width=96 - len(prefix))
    lines = [prefix + " " + wrapped[0]] + ["#   " + rest for rest in wrapped[1:]]
    return [cst.EmptyLine(indent=True, comment=cst.Comment(line)) for line in lines]


def _marked_hint(leading: Sequence[cst.EmptyLine]) -> Optional[Tuple[str, str]]:
    """The APIs and the PySpark way of the comment a first run wrote above a statement it left."""
    text = ""
    for line in leading:
        comment = "" if line.comment is None else line.comment.value
        if comment.startswith(MARK):
            if text:
                break
            text = comment[len(MARK):].strip()
        elif text and comment.startswith("#   "):
            text += " " + comment[4:].strip()
    if not text:
        return None
    apis, _, hint = text.partition(": ")
    return apis, hint


def _has_mark(leading: Sequence[cst.EmptyLine]) -> bool:
    return any(line.comment is not None and line.comment.value.startswith(MARK) for line in leading)


@functools.lru_cache(maxsize=4096)
def _path_ref(path: str) -> Optional[Ref]:
    """The PyFlink (or pyflink_compat) thing a dotted path names."""
    head, _, rest = path.partition(".")
    if not rest:
        return module_ref(head)
    module, _, name = path.rpartition(".")
    ref = module_ref(path)
    if ref is None or ref.kind is RefKind.PIPELINE:
        base = _path_ref(module)
        ref = None if base is None else member_ref(base, name)
    return ref


class _Calls(Visitor):
    """Every call in a statement, outermost first."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: List[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    @classmethod
    def count(cls, node: cst.CSTNode) -> int:
        found = cls()
        node.visit(found)
        return len(found.calls)


class _Inference(Visitor):
    """A walk ahead of the port: what each name, parameter and function of the job holds.

    Run twice, so that a helper defined before its caller learns its parameters' types, and a
    function its return value's type, before the port walks them in source order.
    """

    def __init__(self, porter: "JobPorter") -> None:
        super().__init__()
        self.porter = porter
        self.functions: List[cst.FunctionDef] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.functions.append(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.functions.pop()
        self.porter.bind_definition(original_node)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self.porter.bind_definition(original_node)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self.porter.fallback += 1

    def leave_ExceptHandler(self, original_node: cst.ExceptHandler) -> None:
        self.porter.fallback -= 1

    def visit_If_orelse(self, node: cst.If) -> None:
        self.porter.fallback += 1

    def leave_If_orelse(self, node: cst.If) -> None:
        self.porter.fallback -= 1

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            if alias.asname is None and import_rewriter.is_pyflink_module(import_rewriter.dotted_name(alias.name)):
                self.porter.rename_root = True

    def visit_Call(self, node: cst.Call) -> None:
        self.porter.note_arguments(node)
        self.porter.writer.note_call(node)

    def leave_Return(self, original_node: cst.Return) -> None:
        if self.functions and original_node.value is not None:
            self.porter.returned.setdefault(self.functions[-1], {})[id(original_node)] = original_node.value
            ref = self.porter.ref_of(original_node.value)
            if ref is not None:
                self.porter.returns.setdefault(self.functions[-1], ref)

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine) -> None:
        for small in original_node.body:
            self.porter.bind_small(small)
            if isinstance(small, cst.Assign) and isinstance(small.targets[0].target, cst.Name):
                self.porter.writer.note_string(small.targets[0].target.value, small.value)


class JobPorter(Transformer):
    """Ports one module; read :attr:`findings`, :attr:`imports` and :attr:`notes` afterwards.

    Names are resolved in their scopes (LibCST's :class:`~libcst.metadata.ScopeProvider`):
    an import through its qualified name (``Scope.get_qualified_names_for``), a
    variable through the assignments walked so far in source order, a parameter through the
    values the job passes to it, a call of one of the job's functions through what it returns.
    Statement lines are read from Python's parser (:mod:`~pyflink_compat.porting.lines`).

    :param module: The parsed job.
    :param generate: Whether to write PySpark for the pipeline and mark what is left; without
        it only the imports change.
    :param text: The job's source (``module``'s code), when the caller has it.
    :param to_pyspark: Whether to write PySpark for the pipeline statements it can (else they
        run on pyflink_compat's runtimes, and what is left is marked).
    :param keep: The names of streams and tables ``--to-pyspark`` leaves as they are (a
        statement it cannot write uses them).
    """

    def __init__(self, module: cst.Module, generate: bool = True, text: Optional[str] = None,
                 to_pyspark: bool = False, keep: FrozenSet[str] = frozenset()):
        super().__init__()
        from pyflink_compat.porting.pipeline import PipelineWriter

        self.module = module
        self.text = module.code if text is None else text
        self._source_lines = self.text.splitlines()
        # only the scope provider is resolved: qualified names are asked of the scope for the
        # few names an import binds, and lines come from Python's parser
        self._scopes: Mapping[cst.CSTNode, Optional[Scope]] = scopes(module)
        self.lines = statement_lines(module, self.text)
        self._positions: Optional[Mapping[cst.CSTNode, Any]] = None
        #: what each name holds at the statement being walked (None: known not to be PyFlink)
        self.bindings: Dict[Key, Optional[Ref]] = {}
        #: what each name holds at the end of the walk ahead (for names bound later in the file)
        self._ahead: Dict[Key, Optional[Ref]] = {}
        #: names bound to values the tool cannot type
        self._untyped: Set[Key] = set()
        #: names a module-level ``from pyflink... import *`` binds, with their paths
        self.star: Dict[str, str] = {}
        #: what the job passes to its functions' parameters, and what its functions return
        self.params: Dict[Key, Ref] = {}
        self.returns: Dict[cst.FunctionDef, Ref] = {}
        #: what the methods of the job's classes store in their instances (``self.state =
        #: runtime_context.get_state(...)`` in ``open``), by class and attribute
        self.members: Dict[Tuple[cst.ClassDef, str], Ref] = {}
        #: the values each of the job's functions returns (by ``return`` statement)
        self.returned: Dict[cst.FunctionDef, Dict[int, cst.BaseExpression]] = {}
        self._following: Set[int] = set()
        #: the parameters and functions looked up in a walk ahead before anything was known of them
        self._missed: Set[Any] = set()
        self.findings: List[Finding] = []
        self.imports = 0
        self.notes: List[str] = []
        self.generate = generate
        #: whether to write PySpark for the pipeline (``--to-pyspark``) rather than run it on
        #: the runtimes
        self.to_pyspark = to_pyspark
        self.writer = PipelineWriter(self, keep)
        #: the streams and tables a statement the writer cannot write uses: ported again, they
        #: stay PyFlink's (``keep`` of the next run)
        self.kept: Set[str] = set()
        #: the job's SQL, checked in source order with the runtime's translation (made on the
        #: first SQL call: a job without SQL loads no SQL parser)
        self._sql: Optional[SqlChecker] = None
        #: the SQL text each name holds at the statement being walked (None: not known)
        self.sql_strings: Dict[str, Optional[str]] = {}
        self._sql_verdicts: Dict[int, Optional[Tuple[Outcome, str, str]]] = {}
        # ``import pyflink.x`` binds ``pyflink``: its uses are renamed with the import
        self.rename_root = False
        #: how many imports of PyFlink or pyflink_compat the job has
        self.job_imports = 0
        #: how many indented blocks enclose the statement being ported
        self.depth = 0
        #: how many ``except`` and ``else`` blocks enclose it: their assignments are fallbacks,
        #: which do not undo what the ``try`` or the ``if`` bound
        self.fallback = 0
        self._refs: Dict[int, Optional[Ref]] = {}
        #: the calls met so far in the line being walked
        self._line_calls: List[cst.Call] = []
        #: the classified calls of the headers of the compound statements being walked
        self._headers: Dict[int, Tuple[List[Tuple[Outcome, str, str]], Sequence[cst.CSTNode]]] = {}

    def visit_Module(self, node: cst.Module) -> None:
        for _ in range(2):
            known = set(self.params) | set(self.returns) | set(self.members)
            self._missed = set()
            self.bindings, self._refs, self._untyped = {}, {}, set()
            node.visit(_Inference(self))
            if not (set(self.params) | set(self.returns) | set(self.members)) - known & self._missed:
                # no name or call was resolved without what the walk learned after it: a second
                # walk would resolve everything as the first did
                break
        self._ahead = self.bindings
        self.bindings, self._refs, self.fallback = {}, {}, 0

    # -- names -----------------------------------------------------------------------------
    def _scope(self, node: cst.CSTNode) -> Optional[Scope]:
        scope = self._scopes.get(node)
        return scope if isinstance(scope, Scope) else None

    def _key(self, node: cst.Name) -> Optional[Key]:
        """The scope that binds ``node``'s name, as Python looks it up from where it is."""
        return self._key_in(self._scope(node), node.value)

    @staticmethod
    def _key_in(scope: Optional[Scope], name: str) -> Optional[Key]:
        start = scope
        while scope is not None:
            if name in scope.assignments and not (isinstance(scope, ClassScope) and scope is not start):
                return scope, name
            parent = scope.parent
            if parent is scope:
                break
            scope = parent
        return None

    def ref_of(self, node: cst.BaseExpression) -> Optional[Ref]:
        """What ``node`` is, as far as PyFlink is concerned (None: not PyFlink, or unknown)."""
        key = id(node)
        if key not in self._refs:
            self._refs[key] = self._resolve(node)
        return self._refs[key]

    def _resolve(self, node: cst.BaseExpression) -> Optional[Ref]:
        if isinstance(node, cst.Name):
            return self._name_ref(node)
        if isinstance(node, cst.Attribute):
            base = self.ref_of(node.value)
            if base is None:
                member = self._member_key(node)
                if member is None:
                    return None
                if member not in self.members:
                    self._missed.add(member)
                return self.members.get(member)
            return member_ref(base, node.attr.value)
        if isinstance(node, cst.Call):
            local = self.local_definition(node.func)
            if isinstance(local, cst.FunctionDef):
                if local not in self.returns:
                    self._missed.add(local)
                return self.returns.get(local)
            callee = self.ref_of(node.func)
            return None if callee is None else call_result(callee)
        if isinstance(node, cst.Subscript):
            # ``ProcessWindowFunction[...]``: the generic class itself
            base = self.ref_of(node.value)
            return base if base is not None and base.kind in (RefKind.CLASS, RefKind.PIPELINE) else None
        return None

    def _member_key(self, node: cst.Attribute) -> Optional[Tuple[cst.ClassDef, str]]:
        """(class, attribute) for ``self.x`` in a method of one of the job's classes, where
        ``self`` is the method's first parameter."""
        if not isinstance(node.value, cst.Name):
            return None
        scope = self._scope(node.value)
        function = getattr(scope, "node", None)
        owner = getattr(scope, "parent", None)
        definition = getattr(owner, "node", None)
        if not (isinstance(owner, ClassScope) and isinstance(function, cst.FunctionDef)
                and isinstance(definition, cst.ClassDef)):
            return None
        params = list(function.params.posonly_params) + list(function.params.params)
        if not params or params[0].name.value != node.value.value:
            return None
        return definition, node.attr.value

    def _name_ref(self, node: cst.Name) -> Optional[Ref]:
        key = self._key(node)
        if key is None:
            # not assigned in the file: a star import's name, or a builtin
            return _path_ref(self.star[node.value]) if node.value in self.star else None
        if key in self.bindings:
            return self.bindings[key]
        if key in self._ahead:
            return self._ahead[key]
        if key in self.params:
            return self.params[key]
        self._missed.add(key)
        declared = self._parameter(key)
        if declared is not None:
            return declared
        return self._imported(node, key)

    def _parameter(self, key: Key) -> Optional[Ref]:
        """What a parameter holds by its declaration: its annotation when that names a PyFlink
        class (``context: ProcessWindowFunction.Context``), else, for a method of a subclass of
        a PyFlink class, what PyFlink passes to the method it overrides."""
        for assignment in key[0].assignments[key[1]]:
            param = assignment.node if isinstance(assignment, Assignment) else None
            if not isinstance(param, cst.Param):
                continue
            if param.annotation is not None:
                ref = self.ref_of(param.annotation.annotation)
                if ref is not None and ref.kind in (RefKind.CLASS, RefKind.PIPELINE):
                    return call_result(ref)
            function = getattr(key[0], "node", None)
            owner = key[0].parent
            definition = getattr(owner, "node", None)
            if isinstance(owner, ClassScope) and isinstance(function, cst.FunctionDef) \
                    and isinstance(definition, cst.ClassDef):
                for base in definition.bases:
                    ref = self.ref_of(base.value)
                    if ref is not None and ref.kind is RefKind.CLASS:
                        found = parameter_value(ref.obj, function.name.value, key[1])
                        if found is not None:
                            return found
        return None

    def _imported(self, node: cst.Name, key: Key) -> Optional[Ref]:
        if not any(isinstance(a, ImportAssignment) for a in key[0].assignments[key[1]]):
            return None
        scope = self._scope(node)
        if scope is None:
            return None
        for qualified in sorted(scope.get_qualified_names_for(node), key=lambda q: q.name):
            ref = _path_ref(qualified.name)
            if ref is not None:
                return ref
        return None

    def local_definition(self, node: cst.BaseExpression) -> Optional[Union[cst.FunctionDef, cst.ClassDef]]:
        """The job's own function or class that ``node`` names, when only one can be meant."""
        if not isinstance(node, cst.Name):
            return None
        key = self._key(node)
        if key is None:
            return None
        found = list(key[0].assignments[key[1]])
        if len(found) == 1 and isinstance(found[0], Assignment) and isinstance(
                found[0].node, (cst.FunctionDef, cst.ClassDef)):
            return found[0].node
        return None

    def _bind(self, target: cst.Name, value: Optional[Ref], untyped: bool = False) -> None:
        key = self._key(target)
        if key is None:
            return
        if self.fallback and self.bindings.get(key) is not None:
            return
        self.bindings[key] = value
        if untyped:
            self._untyped.add(key)
        else:
            self._untyped.discard(key)

    def _bind_targets(self, targets: Sequence[cst.BaseExpression], value: Optional[Ref],
                      untyped: bool = False) -> None:
        for target in targets:
            if isinstance(target, cst.Name):
                self._bind(target, value, untyped)
            elif isinstance(target, cst.Attribute) and value is not None:
                member = self._member_key(target)
                if member is not None:
                    self.members[member] = value
            elif isinstance(target, (cst.Tuple, cst.List)):
                self._bind_targets([e.value for e in target.elements], None)

    def bind_small(self, small: cst.BaseSmallStatement) -> None:
        """Follow the names one small statement binds."""
        if isinstance(small, cst.ImportFrom) and isinstance(small.names, cst.ImportStar):
            self.star.update(import_rewriter.bound_names(small))
        elif isinstance(small, (cst.Import, cst.ImportFrom)):
            scope = self._scope(small)
            for local, path in import_rewriter.bound_names(small).items():
                key = self._key_in(scope, local)
                if key is not None and not (self.fallback and self.bindings.get(key) is not None):
                    self.bindings[key] = _path_ref(path)
                    self._untyped.discard(key)
        elif isinstance(small, cst.Assign):
            value = self.ref_of(small.value)
            self._bind_targets([t.target for t in small.targets], value,
                               value is None and self.cannot_type(small.value))
        elif isinstance(small, cst.AnnAssign) and small.value is not None:
            value = self.ref_of(small.value)
            self._bind_targets([small.target], value, value is None and self.cannot_type(small.value))

    def bind_definition(self, node: Union[cst.FunctionDef, cst.ClassDef]) -> None:
        self._bind(node.name, None)

    def note_arguments(self, call: cst.Call) -> None:
        """Remember what a call of one of the job's functions passes to its parameters."""
        local = self.local_definition(call.func)
        if not isinstance(local, cst.FunctionDef) or local.decorators:
            # a decorated function's name holds what its decorator made (a udf's wrapper takes
            # expressions; its function gets values): the call's arguments say nothing of it
            return
        positional = list(local.params.posonly_params) + list(local.params.params)
        by_name = {p.name.value: p for p in positional + list(local.params.kwonly_params)}
        for index, argument in enumerate(call.args):
            if argument.star:
                break
            if argument.keyword is not None:
                param = by_name.get(argument.keyword.value)
            else:
                param = positional[index] if index < len(positional) else None
            if param is None:
                continue
            ref = self.ref_of(argument.value)
            key = self._key(param.name)
            if ref is not None and key is not None:
                self.params.setdefault(key, ref)

    def cannot_type(self, node: cst.BaseExpression) -> bool:
        """Whether ``node`` is built on a value the tool cannot type: a parameter nothing
        typed is passed to, or a name bound to such a value. (A chain on a PyFlink value that
        ends in something else, a SparkSession or a string, is not PyFlink's.)"""
        root = node
        while isinstance(root, (cst.Attribute, cst.Call, cst.Subscript)):
            root = root.func if isinstance(root, cst.Call) else root.value
        if not isinstance(root, cst.Name):
            return False
        key = self._key(root)
        if key is None or self.ref_of(root) is not None:
            return False
        if key in self._untyped:
            return True
        for assignment in key[0].assignments[key[1]]:
            param = assignment.node if isinstance(assignment, Assignment) else None
            if isinstance(param, cst.Param) and key not in self.params and key not in self.bindings:
                self._missed.add(key)
                if param.default is None or self.cannot_type(param.default):
                    return True
        return False

    # -- calls -----------------------------------------------------------------------------
    def _classify_call(self, call: cst.Call) -> Optional[Tuple[Outcome, str, str]]:
        callee = self.ref_of(call.func)
        if callee is None:
            return self._unknown(call)
        if callee.kind in (RefKind.MODULE, RefKind.INSTANCE):
            return None
        if callee.kind is RefKind.PIPELINE:
            owner, _, member = callee.api.rpartition(".")
            if member in _DECLARATIONS:
                self._sql_call(call, owner, member, callee.api)
            return Outcome.LEFT, callee.api, callee.hint
        if callee.kind is RefKind.CLASS:
            return Outcome.PORTED, callee.api, ""
        owner, _, member = callee.api.rpartition(".")
        if member in _KEYED_SETTERS and owner in _CONFIG_CLASSES and call.args:
            key = string_value(call.args[0].value)
            if key is not None:
                return self._keyed_setting(callee.api, key)
        if member in SQL_METHODS or member in _DECLARATIONS:
            checked = self._sql_call(call, owner, member, callee.api)
            if checked is not None:
                return checked
        if not member.startswith(("get_", "is_")):
            stored = self._stored_only(callee)
            if stored:
                return Outcome.STORED_ONLY, callee.api, stored
        return Outcome.PORTED, callee.api, ""

    def _sql_call(self, call: cst.Call, owner: str, member: str, api: str) -> Optional[Call]:
        """The verdict of the runtime's translation on the SQL a call runs (None: it runs)."""
        if not owner.endswith(("TableEnvironment", "StatementSet", "Table")):
            return None
        key = id(call)
        if key in self._sql_verdicts:
            return self._sql_verdicts[key]
        if self._sql is None:
            self._sql = SqlChecker()
        first = call.args[0].value if call.args and not call.args[0].star else None
        verdict: Optional[Call] = None
        if member not in SQL_METHODS:
            self._sql.note_declaration(member, None if first is None else string_value(first))
        else:
            text = None if first is None else sql_text(first, self._sql_string)
            found = self._sql.check(member, text)
            self.notes.extend(found.notes)
            if not found.runs:
                verdict = (Outcome.LEFT if found.known else Outcome.UNKNOWN), api, found.reason
        self._sql_verdicts[key] = verdict
        return verdict

    def translated(self, query: str) -> Optional[str]:
        """The Spark SQL the runtime's translation writes for the Flink query ``query``, over
        the tables the job declared so far (None when it does not translate)."""
        if self._sql is None:
            return None
        return self._sql.translated(query)

    def _sql_string(self, node: cst.BaseExpression) -> Optional[str]:
        """The SQL text a name holds, or that a call of one of the job's functions returns (the
        same text from every ``return``)."""
        if isinstance(node, cst.Name):
            if self.sql_strings.get(node.value) is not None:
                return self.sql_strings[node.value]
            ref = self.ref_of(node)
            # a Table formatted into SQL gives the name the runtime registered it under
            return TABLE_VALUE if ref is not None and ref.api.rsplit(".", 1)[-1] == "Table" else None
        if not isinstance(node, cst.Call):
            return None
        local = self.local_definition(node.func)
        if not isinstance(local, cst.FunctionDef) or id(local) in self._following:
            return None
        self._following.add(id(local))
        try:
            texts = {sql_text(value, self._returned_text) for value in self.returned.get(local, {}).values()}
        finally:
            self._following.discard(id(local))
        return texts.pop() if len(texts) == 1 else None

    def _returned_text(self, node: cst.BaseExpression) -> Optional[str]:
        """The SQL text of a name or call in a function's return value: a name of the module's
        (the function's own names and parameters are set at run time)."""
        if isinstance(node, cst.Name):
            key = self._key(node)
            if key is None or not isinstance(key[0], GlobalScope):
                return None
        return self._sql_string(node)

    def note_sql_strings(self, targets: Sequence[cst.BaseExpression], value: cst.BaseExpression) -> None:
        """Follow the SQL text names hold, in source order."""
        for target in targets:
            if isinstance(target, cst.Name):
                self.sql_strings[target.value] = sql_text(value, self._sql_string)

    def _unknown(self, call: cst.Call) -> Optional[Tuple[Outcome, str, str]]:
        """A pipeline method called on a value the tool cannot type."""
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in pipeline_members():
            return None
        if not self.cannot_type(func.value):
            return None
        receiver = self.module.code_for_node(func.value)
        receiver = receiver if len(receiver) <= 40 else receiver[:37] + "..."
        return (Outcome.UNKNOWN, "{}.{}".format(receiver, func.attr.value),
                "the tool cannot tell what `{}` is (a parameter or a value it cannot follow); if it is "
                "PyFlink's, check this statement by hand".format(receiver))

    @staticmethod
    def _keyed_setting(api: str, key: str) -> Tuple[Outcome, str, str]:
        from pyflink_compat.settings.registry import SETTINGS, Support

        setting = next((s for s in SETTINGS if key in s.all_keys), None)
        if setting is None:
            return (Outcome.STORED_ONLY, api, "{}: not an option pyflink_compat reads; stored and read "
                                              "back, with no Spark effect".format(key))
        if setting.support is Support.NO_EFFECT:
            return Outcome.STORED_ONLY, api, "{}: {}".format(setting.key, setting.spark)
        return Outcome.PORTED, api, ""

    @staticmethod
    def _stored_only(callee: Ref) -> str:
        from pyflink_compat.settings.registry import SETTINGS_BY_NAME, Support

        names = sorted(settings_touched(callee.obj))
        ignored = [SETTINGS_BY_NAME[n] for n in names if SETTINGS_BY_NAME[n].support is Support.NO_EFFECT]
        if not names or len(ignored) != len(names):
            return ""
        return "; ".join("{}: {}".format(s.key, s.spark) for s in ignored)

    def _calls_in(self, nodes: Sequence[cst.CSTNode], walked: Optional[List[cst.Call]] = None
                  ) -> List[Tuple[Outcome, str, str]]:
        """The calls in ``nodes`` that call PyFlink, classified (``walked``: the calls the port's
        own walk met in them, so that they are not walked again)."""
        if walked is None:
            collector = _Calls()
            for node in nodes:
                node.visit(collector)
            walked = collector.calls
        found = []
        for call in walked:
            outcome = self._classify_call(call)
            if outcome is not None:
                found.append(outcome)
        return found

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._line_calls = []

    def visit_Call(self, node: cst.Call) -> None:
        self._line_calls.append(node)

    # -- statements ------------------------------------------------------------------------
    def _line(self, node: cst.CSTNode) -> int:
        line = self.lines.get(id(node))
        if line is not None:
            return line
        # not a statement, or Python's parser counts the statements otherwise: LibCST's positions
        if self._positions is None:
            from libcst.metadata import MetadataWrapper, PositionProvider

            self._positions = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
        return int(self._positions[node].start.line)

    def _code(self, line: int) -> str:
        first = self._source_lines[line - 1].strip()
        return first if len(first) <= 100 else first[:97] + "..."

    def record(self, line: int, outcome: Outcome, apis: Sequence[str], note: str, code: str) -> None:
        unique = tuple(dict.fromkeys(apis))
        self.findings.append(Finding(line, outcome, unique, note, code))

    def _settled(self, original: cst.CSTNode, updated: Any, calls: List[Tuple[Outcome, str, str]],
                 parts: Optional[Sequence[cst.CSTNode]] = None) -> Any:
        """:meth:`_settle` the statement; with ``--to-pyspark``, a statement left as it is that
        uses a DataFrame the writer wrote in place of a stream, or names a table whose
        ``CREATE TABLE`` it wrote as PySpark, would find a DataFrame or no table where it
        expects PyFlink's: the stream or table is then kept (:attr:`kept`), for the port to run
        again without writing it. ``parts``: what of the statement it runs itself (a compound
        statement's header), the whole statement by default."""
        findings = len(self.findings)
        result = self._settle(original, updated, calls)
        rewritten = any(f.outcome is Outcome.REWRITTEN for f in self.findings[findings:])
        if self.to_pyspark and not rewritten:
            for part in [original] if parts is None else parts:
                self.kept |= self.writer.frames_used(part) | self.writer.tables_named(part)
        return result

    def _settle(self, original: cst.CSTNode, updated: Statement,
                calls: List[Tuple[Outcome, str, str]]) -> Union[Statement, cst.FlattenSentinel[cst.BaseStatement],
                                                                cst.RemovalSentinel]:
        marked = _marked_hint(getattr(original, "leading_lines", ()))
        if marked and not any(c[0] is Outcome.LEFT for c in calls):
            # a statement a first run left: what it was built on is no longer PyFlink's
            calls = calls + [(Outcome.LEFT, marked[0], marked[1])]
        if not calls:
            return updated
        line = self._line(original)
        code = self._code(line)
        left = [c for c in calls if c[0] is Outcome.LEFT]
        unknown = [c for c in calls if c[0] is Outcome.UNKNOWN]
        if unknown and not left:
            self.record(line, Outcome.UNKNOWN, [c[1] for c in unknown], unknown[0][2], code)
            return updated
        calls = [c for c in calls if c[0] is not Outcome.UNKNOWN]
        if not left and self.to_pyspark and not unknown and isinstance(original, cst.SimpleStatementLine) \
                and any(c[1].rsplit(".", 1)[-1] in _PYSPARK_CALLS or c[1] in _CONNECTOR_BUILDS for c in calls):
            # a pipeline statement the runtimes run: --to-pyspark writes its PySpark all the same
            left = [c for c in calls if c[1].rsplit(".", 1)[-1] in _PYSPARK_CALLS or c[1] in _CONNECTOR_BUILDS]
            pipeline = True
        else:
            pipeline = False
        if not left:
            stored = [c for c in calls if c[0] is Outcome.STORED_ONLY]
            outcome = Outcome.STORED_ONLY if stored else Outcome.PORTED
            self.record(line, outcome, [c[1] for c in calls], "; ".join(c[2] for c in stored), code)
            return updated
        if self.to_pyspark and isinstance(original, cst.SimpleStatementLine):
            written = self.writer.rewrite(original)
            if written is not None:
                statements, note = written
                self.record(line, Outcome.REWRITTEN, [c[1] for c in left], note, code)
                # the author's comments and blank lines above the statement stay above what
                # replaces it (a ``pass`` carries them when nothing does)
                kept = list(updated.leading_lines)
                if not statements:
                    if not any(line.comment is not None for line in kept):
                        return cst.RemovalSentinel.REMOVE
                    statements = [cst.SimpleStatementLine([cst.Pass()])]
                first = statements[0]
                if isinstance(first, (cst.SimpleStatementLine, cst.FunctionDef, cst.ClassDef, cst.If, cst.For,
                                      cst.While, cst.With, cst.Try)):
                    statements[0] = first.with_changes(leading_lines=kept + list(first.leading_lines))
                return cst.FlattenSentinel(statements)
        if pipeline and not self.writer.uses_frame(original):
            # the tool cannot write it: it stays for the runtimes, which run it
            self.record(line, Outcome.PORTED, [c[1] for c in calls], "", code)
            return updated
        if pipeline:
            left = [(Outcome.LEFT, c[1], "--to-pyspark made its input a PySpark DataFrame and cannot write this "
                                         "step: write it with the DataFrame's methods and writeStream")
                    for c in left]
        by_hint: Dict[str, List[str]] = {}
        for _, api, hint in left:
            if api not in by_hint.setdefault(hint, []):
                by_hint[hint].append(api)
        hints = ["{}: {}".format(", ".join(apis), hint) for hint, apis in by_hint.items()]
        self.record(line, Outcome.LEFT, [c[1] for c in left], " | ".join(hints), code)
        if not self.generate or _has_mark(updated.leading_lines):
            return updated
        comments: List[cst.EmptyLine] = []
        for hint in hints:
            comments += _comment_lines(hint)
        return updated.with_changes(leading_lines=list(updated.leading_lines) + comments)

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine
                                  ) -> Union[cst.BaseStatement, cst.FlattenSentinel[cst.BaseStatement],
                                             cst.RemovalSentinel]:
        calls: List[Tuple[Outcome, str, str]] = []
        # the calls of a line of one statement are those this walk met in it
        walked = self._line_calls if len(original_node.body) == 1 else None
        for small in original_node.body:
            if isinstance(small, (cst.Import, cst.ImportFrom)):
                self.job_imports += bool(import_rewriter.bound_names(small))
            else:
                calls += self._calls_in([small], walked)
            self.bind_small(small)
            if isinstance(small, cst.Assign):
                self.writer.assigned([t.target for t in small.targets], small.value)
                self.note_sql_strings([t.target for t in small.targets], small.value)
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                self.note_sql_strings([small.target], small.value)
        unused = self._unused(original_node, walked)
        if unused is not None:
            line = self._line(original_node)
            self.record(line, Outcome.UNUSED, [unused],
                        "builds a PyFlink value that nothing uses: no effect, on PyFlink as on Spark; "
                        "the statement can be deleted", self._code(line))
            return updated_node
        return self._settled(original_node, updated_node, calls)  # type: ignore[no-any-return]

    def _unused(self, line: cst.SimpleStatementLine, walked: Optional[List[cst.Call]]) -> Optional[str]:
        """The PyFlink class of a statement that only builds an instance of it (``Schema()``)."""
        if len(line.body) != 1 or not isinstance(line.body[0], cst.Expr):
            return None
        value = line.body[0].value
        if not isinstance(value, cst.Call) or (_Calls.count(value) if walked is None else len(walked)) != 1:
            return None
        callee = self.ref_of(value.func)
        if callee is None or callee.removed:
            return None
        name = callee.api.rsplit(".", 1)[-1]
        if callee.kind is RefKind.CLASS or (callee.kind is RefKind.PIPELINE and name[:1].isupper()
                                            and "." not in callee.api):
            return callee.api
        return None

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> Union[cst.BaseStatement, cst.FlattenSentinel[cst.BaseStatement], cst.RemovalSentinel]:
        calls = self._calls_in([d for d in original_node.decorators])
        for base in original_node.bases:
            ref = self.ref_of(base.value)
            if ref is not None and ref.kind is RefKind.PIPELINE:
                calls.append((Outcome.LEFT, ref.api, ref.hint))
            elif ref is not None and ref.kind is RefKind.CLASS:
                calls.append((Outcome.PORTED, ref.api, ""))
        self.bind_definition(original_node)
        return self._settled(original_node, updated_node, calls,  # type: ignore[no-any-return]
                             list(original_node.decorators) + [b.value for b in original_node.bases])

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
                          ) -> Union[cst.BaseStatement, cst.FlattenSentinel[cst.BaseStatement], cst.RemovalSentinel]:
        params = original_node.params
        defaults: List[cst.CSTNode] = [p.default for p in list(params.params) + list(params.kwonly_params)
                                       + list(params.posonly_params) if p.default is not None]
        parts = list(original_node.decorators) + defaults
        calls = self._calls_in(parts)
        self.bind_definition(original_node)
        return self._settled(original_node, updated_node, calls, parts)  # type: ignore[no-any-return]

    # -- the headers of compound statements (``if``, ``while``, ``for``, ``with``) ------------
    def _header(self, node: cst.CSTNode, parts: Sequence[cst.CSTNode]) -> None:
        """Classify the calls of a compound statement's header before its body is walked (the
        SQL of a job is checked in source order)."""
        self._headers[id(node)] = (self._calls_in(parts), parts)

    def _settle_header(self, original: cst.BaseCompoundStatement, updated: Any) -> Any:
        calls, parts = self._headers.pop(id(original), ([], []))
        return self._settled(original, updated, calls, parts)

    def visit_If(self, node: cst.If) -> None:
        self._header(node, [node.test])

    def leave_If(self, original_node: cst.If, updated_node: cst.If) -> Any:
        return self._settle_header(original_node, updated_node)

    def visit_While(self, node: cst.While) -> None:
        self._header(node, [node.test])

    def leave_While(self, original_node: cst.While, updated_node: cst.While) -> Any:
        return self._settle_header(original_node, updated_node)

    def visit_For(self, node: cst.For) -> None:
        self._header(node, [node.iter])

    def leave_For(self, original_node: cst.For, updated_node: cst.For) -> Any:
        return self._settle_header(original_node, updated_node)

    def visit_With(self, node: cst.With) -> None:
        self._header(node, [item.item for item in node.items])

    def leave_With(self, original_node: cst.With, updated_node: cst.With) -> Any:
        return self._settle_header(original_node, updated_node)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self.fallback += 1

    def leave_ExceptHandler(self, original_node: cst.ExceptHandler, updated_node: cst.ExceptHandler
                            ) -> cst.ExceptHandler:
        self.fallback -= 1
        return updated_node

    def visit_If_orelse(self, node: cst.If) -> None:
        self.fallback += 1

    def leave_If_orelse(self, node: cst.If) -> None:
        self.fallback -= 1

    # -- blocks ----------------------------------------------------------------------------
    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.depth += 1

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
                            ) -> cst.IndentedBlock:
        ending = self.writer.flush(self.depth) if self.to_pyspark else []
        self.depth -= 1
        return updated_node.with_changes(body=list(updated_node.body) + ending) if ending else updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        ending = self.writer.flush(0) if self.to_pyspark else []
        return updated_node.with_changes(body=list(updated_node.body) + ending) if ending else updated_node

    # -- imports ---------------------------------------------------------------------------
    def leave_Import(self, original_node: cst.Import, updated_node: cst.Import) -> cst.Import:
        rewritten = import_rewriter.rewrite_import(updated_node)
        if any(import_rewriter.is_pyflink_module(import_rewriter.dotted_name(a.name)) for a in original_node.names):
            self.imports += 1
        return rewritten or updated_node

    def leave_ImportFrom(self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom) -> cst.ImportFrom:
        if original_node.module is not None and not original_node.relative and import_rewriter.is_pyflink_module(
                import_rewriter.dotted_name(original_node.module)):
            self.imports += 1
        return import_rewriter.rewrite_import_from(updated_node) or updated_node

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.Name:
        if self.rename_root and original_node.value == PYFLINK_ROOT:
            return updated_node.with_changes(value=COMPAT_ROOT)
        return updated_node
