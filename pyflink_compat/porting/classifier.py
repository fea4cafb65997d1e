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

import textwrap
from typing import Dict, List, Optional, Sequence, Set, Tuple, Union

import libcst as cst
from libcst.metadata import PositionProvider

from pyflink_compat.porting import imports as import_rewriter
from pyflink_compat.porting.report import Finding, Outcome
from pyflink_compat.porting.resolver import (
    COMPAT_ROOT, PYFLINK_ROOT, Ref, RefKind, call_result, member_ref, module_ref, settings_touched)

__all__ = ["JobPorter", "MARK", "string_value"]

#: The first words of every comment the tool writes, so that a second run recognises them.
MARK = "# pyflink-compat port:"

#: Configuration methods that take an option key first.
_KEYED_SETTERS = frozenset({"set_string", "set_integer", "set_boolean", "set_float", "set_long", "set",
                            "set_bytes"})
_CONFIG_CLASSES = frozenset({"Configuration", "TableConfig"})

Statement = Union[cst.SimpleStatementLine, cst.BaseCompoundStatement]


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


class _Calls(cst.CSTVisitor):
    """Every call in a statement, outermost first."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: List[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)


class JobPorter(cst.CSTTransformer):
    """Ports one module; read :attr:`findings`, :attr:`imports` and :attr:`notes` afterwards.

    :param module: The parsed job.
    :param generate: Whether to write PySpark for the pipeline and mark what is left; without
        it only the imports change.
    """

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, module: cst.Module, generate: bool = True):
        super().__init__()
        from pyflink_compat.porting.pipeline import PipelineWriter

        self.module = module
        self._source_lines = module.code.splitlines()
        self.bindings: Dict[str, Ref] = {}
        self.findings: List[Finding] = []
        self.imports = 0
        self.notes: List[str] = []
        self.generate = generate
        self.writer = PipelineWriter(self)
        # ``import pyflink.x`` binds ``pyflink``: its uses are renamed with the import
        self.rename_root = import_rewriter.binds_pyflink(module.code)
        #: how many imports of PyFlink or pyflink_compat the job has
        self.job_imports = 0
        #: how many indented blocks enclose the statement being ported
        self.depth = 0
        self._refs: Dict[int, Optional[Ref]] = {}
        self._classes: Set[str] = set()

    # -- names -----------------------------------------------------------------------------
    def ref_of(self, node: cst.BaseExpression) -> Optional[Ref]:
        """What ``node`` is, as far as PyFlink is concerned (None: not PyFlink, or unknown)."""
        key = id(node)
        if key not in self._refs:
            self._refs[key] = self._resolve(node)
        return self._refs[key]

    def _resolve(self, node: cst.BaseExpression) -> Optional[Ref]:
        if isinstance(node, cst.Name):
            return self.bindings.get(node.value)
        if isinstance(node, cst.Attribute):
            base = self.ref_of(node.value)
            return None if base is None else member_ref(base, node.attr.value)
        if isinstance(node, cst.Call):
            callee = self.ref_of(node.func)
            return None if callee is None else call_result(callee)
        return None

    def _bind_path(self, local: str, path: str) -> None:
        head, _, rest = path.partition(".")
        if not rest:
            ref = module_ref(head)
        else:
            module, _, name = path.rpartition(".")
            ref = module_ref(path)
            if ref is None or ref.kind is RefKind.PIPELINE:
                base = module_ref(module)
                ref = None if base is None else member_ref(base, name)
        if ref is not None:
            self.bindings[local] = ref

    def _bind_targets(self, targets: Sequence[cst.BaseExpression], value: Optional[Ref]) -> None:
        for target in targets:
            if isinstance(target, cst.Name):
                if value is None:
                    self.bindings.pop(target.value, None)
                else:
                    self.bindings[target.value] = value
            elif isinstance(target, (cst.Tuple, cst.List)):
                self._bind_targets([e.value for e in target.elements], None)

    # -- calls -----------------------------------------------------------------------------
    def _classify_call(self, call: cst.Call) -> Optional[Tuple[Outcome, str, str]]:
        callee = self.ref_of(call.func)
        if callee is None or callee.kind in (RefKind.MODULE, RefKind.INSTANCE):
            return None
        if callee.kind is RefKind.PIPELINE:
            return Outcome.LEFT, callee.api, callee.hint
        if callee.kind is RefKind.CLASS:
            return Outcome.PORTED, callee.api, ""
        owner, _, member = callee.api.rpartition(".")
        if member in _KEYED_SETTERS and owner in _CONFIG_CLASSES and call.args:
            key = string_value(call.args[0].value)
            if key is not None:
                return self._keyed_setting(callee.api, key)
        if not member.startswith(("get_", "is_")):
            stored = self._stored_only(callee)
            if stored:
                return Outcome.STORED_ONLY, callee.api, stored
        return Outcome.PORTED, callee.api, ""

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

    def _calls_in(self, nodes: Sequence[cst.CSTNode]) -> List[Tuple[Outcome, str, str]]:
        found = []
        collector = _Calls()
        for node in nodes:
            node.visit(collector)
        for call in collector.calls:
            if True:
                outcome = self._classify_call(call)
                if outcome is not None:
                    found.append(outcome)
        return found

    # -- statements ------------------------------------------------------------------------
    def _line(self, node: cst.CSTNode) -> int:
        return int(self.get_metadata(PositionProvider, node).start.line)

    def _code(self, node: cst.CSTNode) -> str:
        first = self._source_lines[self._line(node) - 1].strip()
        return first if len(first) <= 100 else first[:97] + "..."

    def record(self, line: int, outcome: Outcome, apis: Sequence[str], note: str, code: str) -> None:
        unique = tuple(dict.fromkeys(apis))
        self.findings.append(Finding(line, outcome, unique, note, code))

    def _settle(self, original: cst.CSTNode, updated: Statement, head: cst.CSTNode,
                calls: List[Tuple[Outcome, str, str]]) -> Union[Statement, cst.FlattenSentinel[cst.BaseStatement],
                                                                cst.RemovalSentinel]:
        marked = _marked_hint(getattr(original, "leading_lines", ()))
        if marked and not any(c[0] is Outcome.LEFT for c in calls):
            # a statement a first run left: what it was built on is no longer PyFlink's
            calls = calls + [(Outcome.LEFT, marked[0], marked[1])]
        if not calls:
            return updated
        line, code = self._line(original), self._code(head)
        left = [c for c in calls if c[0] is Outcome.LEFT]
        if not left:
            stored = [c for c in calls if c[0] is Outcome.STORED_ONLY]
            outcome = Outcome.STORED_ONLY if stored else Outcome.PORTED
            self.record(line, outcome, [c[1] for c in calls], "; ".join(c[2] for c in stored), code)
            return updated
        if self.generate and isinstance(original, cst.SimpleStatementLine):
            written = self.writer.rewrite(original)
            if written is not None:
                statements, note = written
                self.record(line, Outcome.REWRITTEN, [c[1] for c in left], note, code)
                if not statements:
                    return cst.RemovalSentinel.REMOVE
                first = statements[0]
                if isinstance(first, cst.SimpleStatementLine):
                    statements[0] = first.with_changes(leading_lines=list(updated.leading_lines)
                                                       + list(first.leading_lines))
                return cst.FlattenSentinel(statements)
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
        for small in original_node.body:
            if isinstance(small, (cst.Import, cst.ImportFrom)):
                bound = import_rewriter.bound_names(small)
                self.job_imports += bool(bound)
                for local, path in bound.items():
                    self._bind_path(local, path)
                continue
            calls += self._calls_in([small])
            if isinstance(small, cst.Assign):
                value = self.ref_of(small.value)
                self._bind_targets([t.target for t in small.targets], value)
                self.writer.assigned([t.target for t in small.targets], small.value)
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                self._bind_targets([small.target], self.ref_of(small.value))
        return self._settle(original_node, updated_node, original_node.body[0], calls)

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> Union[cst.BaseStatement, cst.FlattenSentinel[cst.BaseStatement], cst.RemovalSentinel]:
        calls = self._calls_in([d for d in original_node.decorators])
        for base in original_node.bases:
            ref = self.ref_of(base.value)
            if ref is not None and ref.kind is RefKind.PIPELINE:
                calls.append((Outcome.LEFT, ref.api, ref.hint))
            elif ref is not None and ref.kind is RefKind.CLASS:
                calls.append((Outcome.PORTED, ref.api, ""))
        self.bindings.pop(original_node.name.value, None)
        return self._settle(original_node, updated_node, original_node.name, calls)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
                          ) -> Union[cst.BaseStatement, cst.FlattenSentinel[cst.BaseStatement], cst.RemovalSentinel]:
        calls = self._calls_in([d for d in original_node.decorators])
        self.bindings.pop(original_node.name.value, None)
        return self._settle(original_node, updated_node, original_node.name, calls)

    # -- blocks ----------------------------------------------------------------------------
    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self.depth += 1

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
                            ) -> cst.IndentedBlock:
        ending = self.writer.flush(self.depth) if self.generate else []
        self.depth -= 1
        return updated_node.with_changes(body=list(updated_node.body) + ending) if ending else updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        ending = self.writer.flush(0) if self.generate else []
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
