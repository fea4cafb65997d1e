"""PyFlink's whole import surface imports from pyflink_compat; declared-only names say what to use.

The surface was recorded from live PyFlink 1.20.5 by ``tests/parity/record_import_surface.py``:
for every recorded module, its ``__all__`` and every public name in its ``dir()``, that is every
name not starting with an underscore that is a class, a function or a submodule of PyFlink's own.
Objects of the standard library and of other packages that PyFlink's modules merely import
(``typing.List``, py4j's ``JavaObject``...) have a ``__module__`` outside ``pyflink`` and are not
PyFlink's names: they are not recorded, and pyflink_compat need not hold them.
"""

from __future__ import annotations

import importlib
import inspect
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

from pyflink_compat.missing import NotSupportedError, not_supported
from pyflink_compat.missing.declared import Declared, DeclaredValue
from pyflink_compat.missing.hints import BASES, DEFAULT_HINT, HINTS, hint_for

SURFACE = json.loads(
    (Path(__file__).resolve().parents[1] / "parity" / "pyflink-1.20.5-import-surface.json").read_text())
MODULES: Dict[str, Any] = SURFACE["modules"]
NAMES: List[Tuple[str, str]] = [(m, n) for m, spec in MODULES.items() for n in spec["names"]]

# Words that show a hint names a PySpark API rather than just prose.
_PYSPARK_WORDS = ("spark", "DataFrame", "pyspark", "Spark", "withWatermark", "writeStream")


def compat(module: str) -> str:
    return "pyflink_compat" + module[len("pyflink"):]


def is_placeholder(obj: Any) -> bool:
    if inspect.isclass(obj):
        return "_pyflink_api" in vars(obj)
    if isinstance(obj, DeclaredValue):
        return True
    return inspect.isfunction(obj) and "declared so that imports work" in (obj.__doc__ or "")


def placeholders() -> Iterator[Tuple[str, str, Any]]:
    for module, name in NAMES:
        obj = getattr(importlib.import_module(compat(module)), name)
        if is_placeholder(obj):
            yield module, name, obj


def use(obj: Any, entry: Dict[str, Any]) -> Optional[str]:
    """Use a placeholder the way a job would; returns the attribute used, if any."""
    if entry["kind"] == "enum" and entry["members"]:
        member = entry["members"][0]
        getattr(obj, member)
        return member
    if entry["kind"] == "class" and entry.get("attributes"):
        attribute = entry["attributes"][0]
        getattr(obj, attribute)
        return attribute
    obj()
    return None


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_recorded_module_imports_with_pyflinks_all(module):
    mirrored = importlib.import_module(compat(module))
    recorded = MODULES[module]["__all__"]
    if recorded is not None:
        assert mirrored.__all__ == recorded


def surface_problems() -> List[Tuple[str, str, str]]:
    """Every recorded name that pyflink_compat does not hold at the same path with its kind."""
    wrong = []
    for module, name in NAMES:
        entry = MODULES[module]["names"][name]
        obj = getattr(importlib.import_module(compat(module)), name, None)
        if obj is None and entry["kind"] != "constant":
            wrong.append((module, name, "missing"))
        elif entry["kind"] in ("class", "enum") and not inspect.isclass(obj):
            wrong.append((module, name, "not a class"))
        elif entry["kind"] == "function" and not inspect.isroutine(obj):
            wrong.append((module, name, "not a function"))
        elif entry["kind"] == "module" and not inspect.ismodule(obj):
            wrong.append((module, name, "not a module"))
        elif "value" in entry and obj != entry["value"]:
            wrong.append((module, name, "value {!r}".format(obj)))
    return wrong


def test_every_recorded_name_exists_with_the_recorded_kind():
    assert surface_problems() == []


def test_a_name_missing_or_of_another_kind_is_listed(monkeypatch):
    from pyflink_compat.datastream import state
    from pyflink_compat.table import types

    monkeypatch.delattr(types, "DataType")
    monkeypatch.setattr(state, "State", lambda: None)
    problems = surface_problems()
    assert ("pyflink.table.types", "DataType", "missing") in problems
    # the modules that re-export it miss it too
    assert ("pyflink.table.table_environment", "DataType", "missing") in problems
    assert ("pyflink.datastream.state", "State", "not a class") in problems
    assert {name for _, name, _ in problems} == {"DataType", "State"}


def test_the_surface_holds_every_public_name_of_pyflinks_own_and_no_other():
    counts = Counter(entry["kind"] for spec in MODULES.values() for entry in spec["names"].values())
    public = counts["class"] + counts["enum"] + counts["function"] + counts["module"]
    assert len(MODULES) == 93 and public == 1238
    # names that only dir() shows, beside __all__
    for module, name in [("pyflink.table.types", "DataType"), ("pyflink.common.typeinfo", "BasicTypeInfo"),
                         ("pyflink.datastream.state", "State"), ("pyflink.datastream", "connectors"),
                         ("pyflink.util.java_utils", "get_j_env_configuration"),
                         ("pyflink.datastream.stream_execution_environment", "get_j_env_configuration")]:
        assert name in MODULES[module]["names"], (module, name)
        assert MODULES[module]["__all__"] is None or name not in MODULES[module]["__all__"]
    # imported from the standard library or py4j, not PyFlink's
    assert "List" not in MODULES["pyflink.datastream.data_stream"]["names"]
    assert "JavaObject" not in MODULES["pyflink.common.configuration"]["names"]
    outside = [(m, n) for m, spec in MODULES.items() for n, e in spec["names"].items()
               if e["kind"] != "constant" and not (e["defined_in"] + ".").startswith("pyflink.")]
    assert outside == []


def test_how_many_recorded_names_are_implemented_and_how_many_declared():
    implemented, declared, submodules = 0, 0, 0
    for module, name in NAMES:
        entry = MODULES[module]["names"][name]
        if entry["kind"] == "constant":
            continue
        obj = getattr(importlib.import_module(compat(module)), name)
        if entry["kind"] == "module":
            submodules += 1
        elif is_placeholder(obj):
            declared += 1
        else:
            implemented += 1
    assert implemented + declared + submodules == 1238
    assert submodules == 98
    assert implemented >= 204 and declared <= 936


def test_re_exports_are_the_very_objects_of_their_defining_modules():
    differ = []
    for module, name in NAMES:
        entry = MODULES[module]["names"][name]
        home = entry["defined_in"]
        if entry["kind"] == "module":
            if getattr(importlib.import_module(compat(module)), name) is not \
                    importlib.import_module(compat(home)):
                differ.append((module, name, home))
            continue
        if home == module or home not in MODULES or name not in MODULES[home]["names"]:
            continue
        here = getattr(importlib.import_module(compat(module)), name)
        there = getattr(importlib.import_module(compat(home)), name)
        if here is not there:
            differ.append((module, name, home))
    assert differ == []
    import pyflink_compat.common as common
    import pyflink_compat.table as table
    from pyflink_compat.common import typeinfo, types

    assert common.Types is typeinfo.Types
    assert table.Row is common.Row is types.Row


def test_using_any_placeholder_raises_not_supported_naming_the_api_and_a_pyspark_way():
    checked = 0
    for module, name, obj in placeholders():
        entry = MODULES[module]["names"][name]
        with pytest.raises(NotSupportedError) as raised:
            use(obj, entry)
        message = str(raised.value)
        assert raised.value.api.split(".")[0] == name, (module, name, message)
        assert name in message
        assert any(word in raised.value.hint for word in _PYSPARK_WORDS), (module, name, message)
        checked += 1
    assert checked > 350  # fewer as declared names come to run


@pytest.mark.parametrize("use_it, api, spark_way", [
    (lambda c: c.common.Types.STRING().get_java_type_info(), "TypeInformation.get_java_type_info",
     "pyspark.sql.types"),
    (lambda c: c.common.WatermarkStrategy.for_monotonous_timestamps().with_watermark_alignment("g", None),
     "WatermarkStrategy.with_watermark_alignment", "DataFrame.withWatermark"),
    (lambda c: c.datastream.connectors.kafka.KafkaSource.builder().set_unbounded(None),
     "KafkaSourceBuilder.set_unbounded", 'spark.readStream.format("kafka")'),
    (lambda c: c.table.expressions.concat_ws("-", "a"), "concat_ws", "pyspark.sql.functions"),
    (lambda c: c.datastream.connectors.cassandra.CassandraSink.add_sink(None), "CassandraSink.add_sink",
     "foreachBatch"),
])
def test_a_job_using_a_declared_api_is_told_the_pyspark_way(use_it, api, spark_way):
    import pyflink_compat.common
    import pyflink_compat.datastream.connectors.cassandra
    import pyflink_compat.datastream.connectors.kafka
    import pyflink_compat.datastream.functions
    import pyflink_compat.datastream.window
    import pyflink_compat.table.expressions
    import pyflink_compat.table.udf

    with pytest.raises(NotSupportedError) as raised:
        use_it(pyflink_compat)
    assert raised.value.api == api
    assert api in str(raised.value) and spark_way in str(raised.value)


def test_placeholders_import_check_subclass_and_type_hint_without_raising():
    from typing import get_type_hints

    from pyflink_compat.datastream.functions import JavaFunctionWrapper as MapFunction
    from pyflink_compat.datastream.state import ListState
    from pyflink_compat.datastream.window import TimeWindowSerializer as Types

    class Doubler(MapFunction):
        def map(self, value: int) -> int:
            return 2 * value

    def typed(x: Optional[Types], y: List[MapFunction], z: "ListState[int]") -> None:
        pass

    assert Doubler().map(2) == 4 and isinstance(Doubler(), MapFunction)
    assert not isinstance(3, Types)
    hints = get_type_hints(typed, localns=locals())
    assert hints["y"] == List[MapFunction] and hints["z"] == ListState[int]
    assert not hasattr(Types, "serialize")
    assert getattr(Types, "serialize", None) is None
    assert Types.__doc__ and "TimeWindowSerializer" in repr(Types)
    # dunder and private lookups behave as on any class
    with pytest.raises(AttributeError) as raised:
        _ = Types.__wrapped__
    assert not isinstance(raised.value, NotSupportedError)
    with pytest.raises(NotSupportedError):
        _ = Doubler.open


def test_every_hint_table_key_names_something_pyflink_has():
    modules = set(MODULES)
    classes: Dict[str, set] = {}
    names = set()
    for module, spec in MODULES.items():
        for name, entry in spec["names"].items():
            names.update((name, module + "." + name))
            if entry["kind"] in ("class", "enum"):
                members = set(entry.get("attributes", [])) | set(entry.get("members", []))
                classes.setdefault(name, set()).update(members)
    stale = []
    for key in list(HINTS) + list(BASES) + list(BASES.values()):
        owner, _, member = key.rpartition(".")
        if key in modules or key in names:
            continue
        if owner in classes and member in classes[owner]:
            continue
        stale.append(key)
    assert stale == []


def test_the_hint_table_holds_the_pipeline_methods_of_both_environments():
    for api in ("StreamExecutionEnvironment.from_source", "StreamExecutionEnvironment.add_source",
                "StreamExecutionEnvironment.read_text_file", "StreamExecutionEnvironment.create_input",
                "TableEnvironment.execute_sql", "TableEnvironment.sql_query", "TableEnvironment.from_path",
                "TableEnvironment.from_elements", "TableEnvironment.create_temporary_view",
                "TableEnvironment.create_table", "TableEnvironment.create_temporary_function",
                "TableEnvironment.explain_sql", "StreamTableEnvironment.from_data_stream"):
        assert api in HINTS
    # StreamTableEnvironment reads TableEnvironment's entries
    assert hint_for("StreamTableEnvironment.execute_sql") == HINTS["TableEnvironment.execute_sql"]
    error = not_supported("StreamExecutionEnvironment.from_source")
    assert error.api == "StreamExecutionEnvironment.from_source"
    assert 'spark.readStream.format("kafka")' in str(error)
    assert isinstance(error, NotImplementedError)


def test_a_name_the_table_does_not_know_falls_back_to_its_module_then_the_default():
    assert hint_for("KafkaSourceBuilder", "pyflink.datastream.connectors.kafka") == \
        HINTS["pyflink.datastream.connectors.kafka"]
    assert hint_for("Nothing") == DEFAULT_HINT


def test_util_exceptions_mirrors_pyflinks_classes_and_keeps_its_own_helpers():
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.util import exceptions

    assert issubclass(exceptions.TableException, exceptions.JavaException)
    assert not issubclass(exceptions.JavaException, Declared)
    assert str(exceptions.CatalogException("no such catalog")) == "no such catalog"
    assert exceptions.exception_mapping["org.apache.flink.table.api.TableException"] is \
        exceptions.TableException
    assert issubclass(exceptions.JavaIllegalArgumentError, Py4JJavaError)
    assert callable(exceptions.call_java) and callable(exceptions.illegal_argument)


def test_capture_java_exception_converts_mapped_jvm_errors_and_passes_others_through(spark):
    from py4j.java_gateway import JavaObject
    from py4j.protocol import Py4JJavaError

    from pyflink_compat.util.exceptions import (
        JavaException, TableNotExistException, capture_java_exception, convert_py4j_exception)

    jvm = spark.sparkContext._jvm

    class FlinkNamed(JavaObject):
        # Spark's JVM has no Flink classes: a real JVM exception that py4j shows as Flink's.
        def toString(self) -> str:
            return "org.apache.flink.table.catalog.exceptions.TableNotExistException: no table t"

    def raise_flink_named() -> None:
        real = jvm.java.lang.RuntimeException("no table t")
        raise Py4JJavaError("An error occurred while calling x.\n",
                            FlinkNamed(real._target_id, real._gateway_client))

    def raise_spark_side() -> None:
        raise Py4JJavaError("An error occurred while calling x.\n",
                            jvm.java.lang.RuntimeException("plain"))

    with pytest.raises(TableNotExistException):
        capture_java_exception(raise_flink_named)()
    with pytest.raises(Py4JJavaError) as raised:
        capture_java_exception(raise_spark_side)()
    converted = convert_py4j_exception(raised.value)
    assert type(converted) is JavaException
    assert str(converted).startswith("java.lang.RuntimeException: plain")


def test_importing_datastream_loads_no_py4j_no_pyspark_and_no_jvm():
    probe = ("import sys, time\n"
             "t = time.perf_counter()\n"
             "import pyflink_compat.datastream, pyflink_compat.common, pyflink_compat.table\n"
             "import pyflink_compat.datastream.connectors\n"
             "from pyflink_compat.datastream import MapFunction, TimeCharacteristic\n"
             "from pyflink_compat.datastream.connectors.kafka import KafkaSource\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('py4j', 'pyspark')))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         timeout=120)
    assert out.stdout.splitlines()[-1] == "[]"


def test_names_pyflink_modules_hold_besides_their_all_are_the_defining_modules_objects():
    import importlib

    from pyflink_compat._reexports import REEXPORTS, SUBMODULES

    assert REEXPORTS["pyflink_compat.datastream.connectors"]["FileSink"] == \
        "pyflink_compat.datastream.connectors.file_system"
    assert REEXPORTS["pyflink_compat.table.table_environment"]["DataType"] == "pyflink_compat.table.types"
    for module, names in REEXPORTS.items():
        mirrored = importlib.import_module(module)
        for name, home in names.items():
            assert getattr(mirrored, name) is getattr(importlib.import_module(home), name), (module, name)
    assert SUBMODULES["pyflink_compat"]["datastream"] == "pyflink_compat.datastream"
    for module, names in SUBMODULES.items():
        mirrored = importlib.import_module(module)
        for name, home in names.items():
            assert getattr(mirrored, name) is importlib.import_module(home), (module, name)


def test_a_submodule_is_an_attribute_of_its_package_before_it_is_imported():
    probe = ("import pyflink_compat.datastream as d, sys\n"
             "print('pyflink_compat.datastream.connectors.kafka' in sys.modules)\n"
             "print(d.connectors.kafka.__name__)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         timeout=120)
    assert out.stdout.split() == ["False", "pyflink_compat.datastream.connectors.kafka"]
