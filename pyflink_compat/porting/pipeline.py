"""The writer of PySpark for the mechanical part of a pipeline.

Given one pipeline statement, :class:`PipelineWriter` writes its PySpark when everything it
configures is static in the code (literals, and names bound to literals):

* sources: ``KafkaSource.builder()...build()``, ``FlinkKafkaConsumer(...)``,
  ``FileSource`` of text lines, ``read_text_file``, ``from_collection``, and
  ``env.from_source`` / ``env.add_source`` of them: a streaming DataFrame;
* sinks: ``KafkaSink.builder()...build()``, ``FlinkKafkaProducer(...)``, ``FileSink``: a
  function from a DataFrame to its ``writeStream``; ``print()``, ``sink_to`` and ``add_sink``
  of a generated DataFrame: ``env.add_sink(..., name=...)``;
* Table API: ``execute_sql`` of ``CREATE TABLE`` (``datagen``, ``filesystem``, ``kafka``,
  ``print``) and of ``INSERT INTO ... SELECT`` that Spark SQL runs as it is. Each INSERT
  registers its sink; ``env.execute`` runs the sinks registered so far where the job waits
  (``.wait()`` of the INSERT or of its result), else once where the INSERTs' block ends. An
  execution takes the environment's sinks, so no INSERT runs twice, and INSERTs Flink runs as
  concurrent jobs run as concurrent queries of one Spark job.

Anything else gives None and the statement is left to a person, whole.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any, Dict, FrozenSet, List, Optional, Protocol, Sequence, Set, Tuple

import attrs
import libcst as cst

from pyflink_compat.porting import connectors, sql
from pyflink_compat.porting.connectors import ReaderSpec, WriterSpec
from pyflink_compat.porting.resolver import Ref, RefKind
from pyflink_compat.spark.connector_packages import installed_kafka_package

__all__ = ["PipelineWriter"]

Rewrite = Tuple[List[cst.BaseStatement], str]

#: PyFlink's basic types (``Types.X()``) as Spark DDL.
_BASIC_TYPES = {"STRING": "STRING", "INT": "INT", "LONG": "BIGINT", "BIG_INT": "DECIMAL(38,0)",
                "FLOAT": "FLOAT", "DOUBLE": "DOUBLE", "BOOLEAN": "BOOLEAN", "SHORT": "SMALLINT",
                "BYTE": "TINYINT", "SQL_DATE": "DATE", "SQL_TIMESTAMP": "TIMESTAMP",
                "BIG_DEC": "DECIMAL(38,18)"}
_WATERMARKS_WITHOUT_TIME = frozenset({"no_watermarks", "for_monotonous_timestamps"})
#: The modules whose builders the writer calls to build a connector's configuration as the
#: job's own calls would (they only describe; nothing is read or written).
_BUILDER_MODULES = frozenset({"pyflink_compat.datastream.connectors.file_system",
                              "pyflink_compat.common.serialization", "pyflink_compat.common.time"})


class Porter(Protocol):
    """What the writer needs of the classifier walking the job."""

    module: cst.Module
    #: the job's source (the module's code)
    text: str
    bindings: Dict[Tuple[Any, str], Optional[Ref]]
    notes: List[str]
    #: how many indented blocks enclose the statement being ported
    depth: int

    def ref_of(self, node: cst.BaseExpression) -> Optional[Ref]:
        ...

    def translated(self, query: str) -> Optional[str]:
        ...


class _NotStatic(Exception):
    """A value that is not known from the code alone."""


@attrs.frozen
class _Frame:
    """A streaming DataFrame the writer generated: the environment expression it belongs to,
    whether it ends, and its columns when known."""

    env: str
    bounded: bool
    columns: Optional[Tuple[str, ...]]


@attrs.frozen
class _Sink:
    """A sink the writer turned into a function of a DataFrame."""

    function: str
    spec: WriterSpec


def _chain(node: cst.BaseExpression) -> Tuple[cst.BaseExpression, List[Tuple[str, cst.Call]]]:
    """``root.a(...).b(...)`` as ``root`` and the calls in order."""
    calls: List[Tuple[str, cst.Call]] = []
    while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
        calls.append((node.func.attr.value, node))
        node = node.func.value
    calls.reverse()
    return node, calls


def _statement(code: str) -> cst.BaseStatement:
    return cst.parse_statement(code)


#: The calls that run or register SQL, whose INSERT targets are sinks.
_SQL_METHODS = frozenset({"execute_sql", "add_insert_sql", "sql_update"})
#: The calls that write a table into the sink table named by their first argument.
_SINK_METHODS = frozenset({"execute_insert", "add_insert", "insert_into"})
_INSERT_TARGET = re.compile(r"INSERT\s+INTO\s+`?(\w+)`?", re.IGNORECASE)


def _insert_targets(text: str) -> Set[str]:
    return {m.lower() for m in _INSERT_TARGET.findall(text)}


def _static_text(node: cst.BaseExpression) -> str:
    """The text a string expression holds where it is written out: a literal, the literal
    parts of an f-string, both sides of a ``+`` (empty for anything else)."""
    if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
        value = node.evaluated_value
        return value if isinstance(value, str) else ""
    if isinstance(node, cst.FormattedString):
        # a placeholder ends a literal part: no name is read across it
        return "\0".join(p.value for p in node.parts if isinstance(p, cst.FormattedStringText))
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        return _static_text(node.left) + _static_text(node.right)
    return ""


class PipelineWriter:
    """Writes PySpark for the pipeline statements of one job, in source order.

    :param porter: The classifier walking the job (for names and the source text).
    :param keep: The names of streams not to write as DataFrames, and of tables whose
        ``CREATE TABLE`` is not to be written.
    """

    def __init__(self, porter: Porter, keep: FrozenSet[str] = frozenset()):
        self.porter = porter
        # the streams and tables that stay PyFlink's: a statement the writer cannot write uses them
        self.keep = keep
        self.constants: Dict[str, Any] = {}
        # names bound more than once: their value depends on the path taken, so none is static
        self._rebound: Set[str] = set()
        self.frames: Dict[str, _Frame] = {}
        self.sinks: Dict[str, _Sink] = {}
        self.views: Dict[str, bool] = {}
        self.tables: Dict[str, sql.Table] = {}
        self.sink_names: Set[str] = set()
        # INSERTs registered but not run yet: per enclosing block depth, the environment and
        # the sinks; and the names bound to an INSERT's result, with the depth of their INSERT
        self.pending: Dict[int, Tuple[str, List[str]]] = {}
        self.results: Dict[str, int] = {}
        # the tables a job writes: their CREATE TABLE becomes a writer, not a source. Taken
        # from the SQL and table names the job passes to the calls that write, as the walk
        # ahead meets them (not from the file's text, where a comment or an unrelated string
        # may name a table)
        self.table_sinks: Set[str] = set()
        # the SQL arguments that are names, resolved once the walk ahead has seen them bound
        self._sql_names: Set[str] = set()
        self._strings: Dict[str, List[str]] = {}

    # -- the tables a job writes ----------------------------------------------------------
    def note_call(self, call: cst.Call) -> None:
        """Take the tables a call of the job writes to (``execute_sql("INSERT INTO t ...")``,
        ``add_insert_sql``, ``execute_insert("t")``, ``add_insert("t", ...)``)."""
        func = call.func
        if not isinstance(func, cst.Attribute) or not call.args:
            return
        method, first = func.attr.value, call.args[0].value
        if method in _SQL_METHODS:
            if isinstance(first, cst.Name):
                self._sql_names.add(first.value)
                for text in self._strings.get(first.value, ()):
                    self.table_sinks |= _insert_targets(text)
            else:
                self.table_sinks |= _insert_targets(_static_text(first))
        elif method in _SINK_METHODS:
            name = _static_text(first)
            if re.fullmatch(r"\w+", name):
                self.table_sinks.add(name.lower())

    def note_string(self, name: str, value: cst.BaseExpression) -> None:
        """Remember a name bound to a string the job may pass to ``execute_sql`` later."""
        text = _static_text(value)
        if text:
            self._strings.setdefault(name, []).append(text)
            if name in self._sql_names:
                self.table_sinks |= _insert_targets(text)

    # -- values ----------------------------------------------------------------------------
    def assigned(self, targets: Sequence[cst.BaseExpression], value: cst.BaseExpression) -> None:
        """Remember names bound to literals (for topics, paths, servers...)."""
        for target in targets:
            if isinstance(target, cst.Name):
                name = target.value
                if name in self.constants or name in self._rebound:
                    self._rebound.add(name)
                    self.constants.pop(name, None)
                    continue
                try:
                    self.constants[name] = self._literal(value)
                except _NotStatic:
                    self._rebound.add(name)

    def _literal(self, node: cst.BaseExpression) -> Any:
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            value = node.evaluated_value
            if isinstance(value, str):
                return value
        if isinstance(node, (cst.Integer, cst.Float)):
            return node.evaluated_value
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            return -self._literal(node.expression)
        if isinstance(node, cst.Name):
            if node.value in ("True", "False", "None"):
                return {"True": True, "False": False, "None": None}[node.value]
            if node.value in self.constants:
                return self.constants[node.value]
        if isinstance(node, (cst.List, cst.Tuple)):
            items = [self._literal(e.value) for e in node.elements if isinstance(e, cst.Element)]
            if len(items) != len(node.elements):
                raise _NotStatic()
            return items if isinstance(node, cst.List) else tuple(items)
        if isinstance(node, cst.Dict):
            result = {}
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    raise _NotStatic()
                result[self._literal(element.key)] = self._literal(element.value)
            return result
        raise _NotStatic()

    def _api(self, node: cst.BaseExpression) -> Optional[str]:
        ref = self.porter.ref_of(node)
        return None if ref is None else ref.api

    def _value(self, node: cst.BaseExpression) -> Any:
        """A literal, or a PyFlink value the connectors know, as plain Python."""
        try:
            return self._literal(node)
        except _NotStatic:
            pass
        if isinstance(node, cst.Attribute) and self._api(node.value) == "DeliveryGuarantee":
            return ("DeliveryGuarantee", node.attr.value)
        root, calls = _chain(node)
        owner = self._api(root)
        names = [name for name, _ in calls]
        if owner in ("SimpleStringSchema", "pyflink.common.serialization.SimpleStringSchema") or (
                isinstance(node, cst.Call) and self._api(node.func) == "SimpleStringSchema"):
            return "SimpleStringSchema"
        if owner == "KafkaOffsetsInitializer" and len(calls) == 1 and not calls[0][1].args:
            return names[0]
        if owner == "Duration" and len(calls) == 1 and len(calls[0][1].args) == 1:
            amount = self._literal(calls[0][1].args[0].value)
            scale = {"of_seconds": 1.0, "of_millis": 0.001, "of_minutes": 60.0}.get(names[0])
            if scale is not None:
                return amount * scale
        if owner == "KafkaRecordSerializationSchema" and names and names[0] == "builder" and names[-1] == "build":
            result: Dict[str, Any] = {}
            for name, call in calls[1:-1]:
                if name == "set_topic" and len(call.args) == 1:
                    result["topic"] = self._literal(call.args[0].value)
                elif name == "set_value_serialization_schema" and len(call.args) == 1:
                    result["value"] = self._value(call.args[0].value)
                else:
                    raise _NotStatic()
            return result
        if isinstance(node, cst.Call) and not node.args and self._api(node.func) in (
                "StreamFormat.text_line_format", "Encoder.simple_string_encoder"):
            return "text"
        raise _NotStatic()

    def _arguments(self, call: cst.Call, names: Sequence[str]) -> Dict[str, cst.BaseExpression]:
        """A call's arguments by parameter name (positional ones named by ``names``)."""
        found: Dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(call.args):
            if arg.star:
                raise _NotStatic()
            if arg.keyword is not None:
                found[arg.keyword.value] = arg.value
            elif index < len(names):
                found[names[index]] = arg.value
            else:
                raise _NotStatic()
        return found

    def _code(self, node: cst.CSTNode) -> str:
        return self.porter.module.code_for_node(node).strip()

    # -- sources and sinks of the DataStream API -------------------------------------------
    def _reader(self, node: cst.BaseExpression) -> Optional[ReaderSpec]:
        """The streaming read a source expression builds, else None."""
        root, calls = _chain(node)
        owner = self._api(root)
        if owner == "KafkaSource" and calls and calls[0][0] == "builder" and calls[-1][0] == "build":
            if any(a.keyword is not None for _, call in calls for a in call.args):
                return None
            return connectors.kafka_source([(name, [self._value(a.value) for a in call.args])
                                            for name, call in calls[1:]])
        if isinstance(node, cst.Call) and self._api(node.func) == "FlinkKafkaConsumer":
            args = self._arguments(node, ["topics", "deserialization_schema", "properties"])
            return connectors.kafka_consumer(self._value(args["topics"]), self._value(args["deserialization_schema"]),
                                             self._value(args["properties"]))
        if owner == "FileSource" and len(calls) >= 2 and calls[-1][0] == "build":
            return connectors.file_source(self._built(node))
        return None

    def _writer(self, node: cst.BaseExpression) -> Optional[WriterSpec]:
        """The streaming write a sink expression builds, else None."""
        root, calls = _chain(node)
        owner = self._api(root)
        if owner == "KafkaSink" and calls and calls[0][0] == "builder" and calls[-1][0] == "build":
            methods = [(name, [self._value(a.value) for a in call.args]) for name, call in calls[1:]]
            return connectors.kafka_sink(methods)
        if isinstance(node, cst.Call) and self._api(node.func) == "FlinkKafkaProducer":
            args = self._arguments(node, ["topic", "serialization_schema", "producer_config"])
            return connectors.kafka_producer(self._value(args["topic"]), self._value(args["serialization_schema"]),
                                             self._value(args["producer_config"]))
        if owner == "FileSink" and len(calls) >= 2 and calls[-1][0] == "build":
            return connectors.file_sink(self._built(node))
        return None

    def _built(self, node: cst.BaseExpression) -> Any:
        """What a connector's configuration expression builds, built by pyflink_compat's own
        builders (only those of :data:`_BUILDER_MODULES`, which have no effects), so that the
        runtime's mapping of it can be asked; literals are themselves."""
        try:
            return self._literal(node)
        except _NotStatic:
            pass
        if not isinstance(node, cst.Call):
            raise _NotStatic()
        args: List[Any] = []
        keywords: Dict[str, Any] = {}
        for arg in node.args:
            if arg.star:
                raise _NotStatic()
            if arg.keyword is None:
                args.append(self._built(arg.value))
            else:
                keywords[arg.keyword.value] = self._built(arg.value)
        function = self._builder_callable(node.func)
        try:
            return function(*args, **keywords)
        except Exception:  # noqa: BLE001 - what pyflink_compat refuses to build is not written
            raise _NotStatic() from None

    def _builder_callable(self, func: cst.BaseExpression) -> Any:
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Call):
            receiver = self._built(func.value)
            if type(receiver).__module__ not in _BUILDER_MODULES:
                raise _NotStatic()
            return getattr(receiver, func.attr.value)
        ref = self.porter.ref_of(func)
        if ref is None or ref.obj is None or ref.kind not in (RefKind.CLASS, RefKind.CALLABLE) \
                or getattr(ref.obj, "__module__", None) not in _BUILDER_MODULES:
            raise _NotStatic()
        return ref.obj

    def _collection(self, call: cst.Call, env: str) -> Optional[Tuple[str, Tuple[str, ...]]]:
        """``from_collection(rows, type_info)`` as a bounded stream of those rows."""
        args = self._arguments(call, ["collection", "type_info"])
        rows = self._literal(args["collection"])
        if not isinstance(rows, (list, tuple)) or not rows:
            return None
        schema = self._schema(args.get("type_info"))
        scalar = not isinstance(rows[0], (list, tuple))
        if scalar:
            rows = [(r,) for r in rows]
            if schema is None or "," in schema:
                return None
        if schema is None:
            return None
        names = tuple(part.split()[0].strip("`") for part in schema.split(", "))
        code = "as_stream({}.spark_session.createDataFrame({!r}, {!r}))".format(env, list(rows), schema)
        return code, names

    def _schema(self, node: Optional[cst.BaseExpression]) -> Optional[str]:
        """A DDL schema from ``Types.ROW([...])``, ``Types.ROW_NAMED([...], [...])``,
        ``Types.TUPLE([...])`` or one basic ``Types.X()`` (a column ``value``)."""
        if node is None or not isinstance(node, cst.Call):
            return None
        api = self._api(node.func) or ""
        owner, _, name = api.rpartition(".")
        if owner != "Types":
            return None
        if name in _BASIC_TYPES and not node.args:
            return "value " + _BASIC_TYPES[name]
        if name in ("ROW", "TUPLE") and len(node.args) == 1 and isinstance(node.args[0].value, cst.List):
            kinds = [self._basic(e.value) for e in node.args[0].value.elements]
            if None in kinds:
                return None
            return ", ".join("f{} {}".format(i, k) for i, k in enumerate(kinds))
        if name == "ROW_NAMED" and len(node.args) == 2 and isinstance(node.args[1].value, cst.List):
            names = self._literal(node.args[0].value)
            kinds = [self._basic(e.value) for e in node.args[1].value.elements]
            if None in kinds or len(names) != len(kinds):
                return None
            return ", ".join("`{}` {}".format(n, k) for n, k in zip(names, kinds))
        return None

    def _basic(self, node: cst.BaseExpression) -> Optional[str]:
        if isinstance(node, cst.Call) and not node.args:
            owner, _, name = (self._api(node.func) or "").rpartition(".")
            if owner == "Types":
                return _BASIC_TYPES.get(name)
        return None

    def _env_of(self, node: cst.BaseExpression, kind: str) -> Optional[str]:
        ref = self.porter.ref_of(node)
        if ref is None or ref.kind is not RefKind.INSTANCE or ref.obj is None:
            return None
        names = {c.__name__ for c in ref.obj.__mro__}
        return self._code(node) if kind in names else None

    def _sink_name(self, wanted: str) -> str:
        name, number = wanted, 2
        while name in self.sink_names:
            name, number = "{}_{}".format(wanted, number), number + 1
        self.sink_names.add(name)
        return name

    def _note_kafka(self) -> None:
        self.porter.notes.append(connectors.KAFKA_PACKAGE_NOTE.format(installed_kafka_package()))

    # -- statements ------------------------------------------------------------------------
    def rewrite(self, line: cst.SimpleStatementLine) -> Optional[Rewrite]:
        """The PySpark statements for a pipeline statement and what they do, or None."""
        if len(line.body) != 1:
            return None
        small = line.body[0]
        target: Optional[str] = None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.targets[0].target, cst.Name):
            target, value = small.targets[0].target.value, small.value
        elif isinstance(small, cst.Expr):
            value = small.value
        else:
            return None
        try:
            return self._rewrite(target, value)
        except (_NotStatic, KeyError, TypeError, ValueError):
            return None

    def _rewrite(self, target: Optional[str], value: cst.BaseExpression, waited: bool = False) -> Optional[Rewrite]:
        if not isinstance(value, cst.Call):
            return None
        func = value.func
        if target is not None and target in self.keep:
            return None
        if target is not None:
            reader = self._reader(value)
            if reader is not None:
                return self._source_variable(target, reader)
            writer = self._writer(value)
            if writer is not None:
                return self._sink_function(target, writer)
        if not isinstance(func, cst.Attribute):
            return None
        method, receiver = func.attr.value, func.value
        if method == "wait" and not value.args and isinstance(receiver, cst.Call):
            return self._rewrite(target, receiver, waited=True)
        if method == "wait" and not value.args and isinstance(receiver, cst.Name) and target is None \
                and receiver.value in self.results:
            return self._wait_for(self.results[receiver.value])
        env = self._env_of(receiver, "StreamExecutionEnvironment")
        if env is not None and target is not None:
            return self._datastream_source(target, env, method, value)
        table_env = self._env_of(receiver, "TableEnvironment")
        if table_env is not None and method == "execute_sql" and len(value.args) == 1:
            return self._execute_sql(table_env, self._literal(value.args[0].value), waited, target)
        if isinstance(receiver, cst.Name) and receiver.value in self.frames and target is None:
            return self._datastream_sink(receiver.value, method, value)
        return None

    def _source_variable(self, target: str, reader: ReaderSpec) -> Optional[Rewrite]:
        env = self._some_env("StreamExecutionEnvironment")
        if env is None:
            return None
        if reader.kafka:
            self._note_kafka()
        self.porter.notes.extend(reader.notes)
        imports = [_statement(line) for line in reader.imports]
        self.frames[target] = _Frame(env, reader.bounded, ("value",) if reader.format in ("text", "kafka") else None)
        code = "{} = {}".format(target, reader.render(env + ".spark_session"))
        if reader.lines is not None:
            return imports + [_statement(code)], "a streaming DataFrame of the files' lines, read as the runtime reads"
        return imports + [_statement(code)], "a streaming DataFrame: spark.readStream.format({!r})".format(
            reader.format)

    def _some_env(self, kind: str) -> Optional[str]:
        """The name of the job's environment of ``kind`` (the first bound one)."""
        for (_, name), ref in self.porter.bindings.items():
            if ref is not None and ref.kind is RefKind.INSTANCE and ref.obj is not None \
                    and kind in {c.__name__ for c in ref.obj.__mro__}:
                return name
        return None

    def _sink_function(self, target: str, writer: WriterSpec) -> Rewrite:
        if writer.kafka:
            self._note_kafka()
        self.sinks[target] = _Sink(target, writer)
        comment = "".join("    # {}\n".format(line) for line in textwrap.wrap(writer.note or "", 90))
        code = "def {}(frame):\n{}    return {}\n".format(target, comment, writer.render("frame"))
        imports = [_statement(line) for line in writer.imports]
        return imports + [_statement(code)], "a function giving the DataFrame's writeStream.format({!r})".format(
            writer.format)

    def _datastream_source(self, target: str, env: str, method: str, call: cst.Call) -> Optional[Rewrite]:
        if method == "from_source":
            args = self._arguments(call, ["source", "watermark_strategy", "source_name"])
            strategy = args.get("watermark_strategy")
            if strategy is not None:
                _, calls = _chain(strategy)
                if [name for name, _ in calls] not in ([w] for w in _WATERMARKS_WITHOUT_TIME):
                    return None
            return self._stream_of(target, env, args["source"])
        if method == "add_source":
            args = self._arguments(call, ["source_func", "source_name", "type_info"])
            return self._stream_of(target, env, args["source_func"])
        if method == "read_text_file":
            args = self._arguments(call, ["file_path", "charset_name"])
            charset = self._literal(args["charset_name"]) if "charset_name" in args else "UTF-8"
            reader = connectors.text_file(self._literal(args["file_path"]), charset)
            return None if reader is None else self._source_variable(target, reader)
        if method == "from_collection":
            made = self._collection(call, env)
            if made is None:
                return None
            code, names = made
            self.frames[target] = _Frame(env, True, names)
            statements = [_statement("from pyflink_compat.sources import as_stream"),
                          _statement("{} = {}".format(target, code))]
            return statements, "a bounded streaming DataFrame of the collection's rows"
        return None

    def _stream_of(self, target: str, env: str, source: cst.BaseExpression) -> Optional[Rewrite]:
        if isinstance(source, cst.Name) and source.value in self.frames:
            self.frames[target] = self.frames[source.value]
            return [_statement("{} = {}".format(target, source.value))], "the source's streaming DataFrame"
        reader = self._reader(source)
        if reader is None:
            return None
        return self._source_variable(target, reader)

    def _datastream_sink(self, frame_name: str, method: str, call: cst.Call) -> Optional[Rewrite]:
        frame = self.frames[frame_name]
        statements: List[cst.BaseStatement] = []
        if method == "print" and not call.args:
            if frame.columns == ("value",):
                writer = connectors.DATASTREAM_PRINT
            elif frame.columns and frame.columns[0] != "f0":
                writer = connectors.TABLE_PRINT  # a named row prints as Flink's Row: +I[...]
            else:
                return None  # a tuple prints as Java's tuple: left to a person
            name = "print"
            code = writer.render(frame_name)
            statements += [_statement(line) for line in writer.imports]
        elif method in ("sink_to", "add_sink") and len(call.args) == 1:
            sink = call.args[0].value
            if isinstance(sink, cst.Name) and sink.value in self.sinks:
                writer, name = self.sinks[sink.value].spec, sink.value
                code = "{}({})".format(sink.value, frame_name)
            else:
                found = self._writer(sink)
                if found is None:
                    return None
                writer, name = found, "sink"
                if writer.kafka:
                    self._note_kafka()
                code = writer.render(frame_name)
                statements += [_statement(line) for line in writer.imports]
            if (writer.columns is not None or writer.format == "files") and frame.columns != ("value",):
                return None
        else:
            return None
        statement = "{}.add_sink({}, name={!r}{})".format(
            frame.env, code, self._sink_name(name), ", bounded=True" if frame.bounded else "")
        return statements + [_statement(statement)], "env.add_sink of writeStream.format({!r})".format(writer.format)

    # -- Table API -------------------------------------------------------------------------
    def _execute_sql(self, table_env: str, statement: Any, waited: bool = False,
                     target: Optional[str] = None) -> Optional[Rewrite]:
        if not isinstance(statement, str):
            return None
        env = table_env + ".stream_execution_environment"
        table = sql.create_table(statement)
        if table is not None:
            return self._create_table(env, table, statement)
        insert = sql.insert_into(statement)
        if insert is not None:
            return self._insert(env, *insert, waited=waited, target=target)
        return None

    def _create_table(self, env: str, table: sql.Table, statement: str) -> Optional[Rewrite]:
        """A ``CREATE TABLE`` as the runtime's connector reads or writes the table."""
        key = table.name.lower()
        if key in self.keep:
            return None
        spark = env + ".spark_session"
        if key in self.table_sinks:
            writer = sql.table_writer(table, statement)
            if writer is None:
                return None
            writer = attrs.evolve(writer, names=tuple(sql.column_names(table)))
            self.tables[key] = table
            return self._sink_function("write_" + re.sub(r"\W", "_", table.name), writer)
        if table.connector == "datagen":
            generated = sql.datagen_source(statement)
            if generated is None:
                return None
            columns, rows, per_second = generated
            if rows is not None:
                code = "as_stream({}.range(0, {}, 1, 1).selectExpr({}))".format(
                    spark, rows, ", ".join(map(repr, columns)))
                statements = [_statement("from pyflink_compat.sources import as_stream")]
            else:
                code = ("{}.readStream.format('rate').option('rowsPerSecond', {!r}).load()"
                        ".withColumnRenamed('value', 'id').selectExpr({})").format(
                    spark, per_second, ", ".join(map(repr, columns)))
                statements = []
            self.views[key] = rows is not None
        else:
            source = sql.table_reader(table, statement)
            if source is None:
                return None
            if source.kafka:
                self._note_kafka()
            code, statements = source.render(spark), []
            self.views[key] = source.bounded
        # named as the runtime's translation names the tables a query reads
        statements.append(_statement("{}.createOrReplaceTempView({!r})".format(
            code, "flink_" + table.name.replace("$", "_"))))
        return statements, "a streaming DataFrame registered as the temporary view {!r}".format(table.name)

    def _insert(self, env: str, sink: str, query: str, waited: bool = False,
                target: Optional[str] = None) -> Optional[Rewrite]:
        key = sink.lower()
        function = "write_" + re.sub(r"\W", "_", sink)
        if key not in self.tables or function not in self.sinks or not sql.spark_query(query):
            return None
        translated = self.porter.translated(query)
        if translated is None:
            return None
        sources = {m.lower() for m in re.findall(r"\b(?:FROM|JOIN)\s+`?(\w+)`?", query, re.IGNORECASE)}
        if not sources or not sources <= set(self.views):
            return None
        grouped = sql.grouped(query)
        writer = self.sinks[function].spec
        if grouped and writer.format == "print":
            # the runtime's print sink shows each key's -U/+U: its keys, as the planner finds them
            keys = sql.changelog_keys(query)
            if keys is None:
                return None
            writer = attrs.evolve(writer, foreach="ChangelogPrinter(None, False, True, {!r})".format(keys))
        elif grouped and writer.format not in ("kafka", "noop"):
            return None
        bounded = all(self.views[s] for s in sources)
        frame = "{}.spark_session.sql({!r})".format(env, translated)
        writer_code = writer.render(frame, "update") if grouped else "{}({})".format(function, frame)
        name = self._sink_name(sink)
        statements = [_statement("{}.add_sink({}, name={!r}{})".format(
            env, writer_code, name, ", bounded=True" if bounded else ""))]
        depth = self.porter.depth
        _, names = self.pending.setdefault(depth, (env, []))
        names.append(name)
        if target is not None:
            self.results[target] = depth
        # Spark's aggregation, as written, changes a key once per micro-batch
        per_batch = ("; Spark's aggregation emits a key's change once per micro-batch, where Flink "
                     "emits one per input row (the final rows are the same)") if grouped else ""
        if not waited:
            return statements, ("spark.sql over the temporary views, written by env.add_sink; the "
                                "INSERTs of a block run together, when it ends or a result is waited "
                                "for" + per_batch)
        statements.append(self._execute(depth))
        return statements, ("spark.sql over the temporary views, written by env.add_sink and run by "
                            "env.execute" + per_batch)

    def _execute(self, depth: int) -> cst.BaseStatement:
        """``env.execute(...)`` of the INSERTs registered at ``depth`` (all the environment's
        sinks so far: they run as one job of several queries, as a Flink statement set does)."""
        env, names = self.pending.pop(depth)
        return _statement("{}.execute({!r})".format(env, "insert-into_" + ",".join(names)))

    def _wait_for(self, depth: int) -> Rewrite:
        """``result.wait()`` of an INSERT: runs the INSERTs of its block when in that block;
        elsewhere (a nested block, or once they ran) the block's end runs and waits for them."""
        if depth == self.porter.depth and depth in self.pending:
            return [self._execute(depth)], "env.execute of the INSERTs registered so far"
        return [], "nothing to wait for here: the INSERTs run, and are waited for, where their block ends"

    def uses_frame(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` names a DataFrame the writer wrote in place of a PyFlink value."""
        return bool(self.frames_used(node))

    def frames_used(self, node: cst.CSTNode) -> Set[str]:
        """The DataFrames and sink functions the writer wrote in place of PyFlink values that
        ``node`` names."""
        names: List[str] = []

        class _Names(cst.CSTVisitor):
            def visit_Name(self, name: cst.Name) -> None:
                names.append(name.value)

        node.visit(_Names())
        return {name for name in names if name in self.frames or name in self.sinks}

    def tables_named(self, node: cst.CSTNode) -> Set[str]:
        """The tables whose ``CREATE TABLE`` the writer wrote as PySpark that the strings of
        ``node`` (literals, and names bound to them) name."""
        written = set(self.tables) | set(self.views)
        if not written:
            return set()
        texts: List[str] = []
        strings = self._strings

        class _Strings(cst.CSTVisitor):
            def visit_SimpleString(self, string: cst.SimpleString) -> None:
                texts.append(_static_text(string))

            def visit_FormattedString(self, string: cst.FormattedString) -> bool:
                texts.append(_static_text(string))
                return True

            def visit_Name(self, name: cst.Name) -> None:
                texts.extend(strings.get(name.value, ()))

        node.visit(_Strings())
        return written & {word.lower() for text in texts for word in re.findall(r"\w+", text)}

    def flush(self, depth: int) -> List[cst.BaseStatement]:
        """What ends a block at ``depth``: ``env.execute`` of its INSERTs not run yet."""
        if depth not in self.pending:
            return []
        return [self._execute(depth)]
