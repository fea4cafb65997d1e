"""``common.Configuration`` and ``common.Duration``."""
from __future__ import annotations

from collections.abc import Callable
import operator
from typing import TYPE_CHECKING, Any

from ._helpers import raised_class

if TYPE_CHECKING:
    from ..battery import Api, Recorder

K = "execution.checkpointing.interval"


def scenario_configuration_basics(api: Api, rec: Recorder) -> None:
    conf = api.Configuration()
    rec.step("new.str", lambda: str(conf))
    rec.step("new.to_dict", conf.to_dict)
    ordered = api.Configuration()
    for key in ("zeta.b", "alpha.a", "execution.checkpointing.interval", "m.k", "b"):
        ordered.set_string(key, "1")
    rec.step("to_dict.order", lambda: list(ordered.to_dict()))
    rec.step("new.key_set", conf.key_set)
    rec.step("new.contains", lambda: conf.contains_key(K))
    rec.step("set_string", lambda: conf.set_string(K, "3 s") is conf)
    rec.step("get_string", lambda: conf.get_string(K, "default"))
    rec.step("get_string.missing", lambda: conf.get_string("no.such", "default"))
    rec.step("get_string.missing_none", lambda: conf.get_string("no.such", None))
    rec.step("contains", lambda: conf.contains_key(K))
    rec.step("contains.missing", lambda: conf.contains_key("no.such"))
    rec.step("set_integer", lambda: conf.set_integer("int.key", 42) is conf)
    rec.step("get_integer", lambda: conf.get_integer("int.key", 0))
    rec.step("get_integer.missing", lambda: conf.get_integer("no.such", 7))
    rec.step("get_integer.from_string", lambda: conf.get_integer(K, 0))
    rec.step("get_string.from_integer", lambda: conf.get_string("int.key", ""))
    rec.step("set_boolean", lambda: conf.set_boolean("bool.key", True) is conf)
    rec.step("get_boolean", lambda: conf.get_boolean("bool.key", False))
    rec.step("get_boolean.missing", lambda: conf.get_boolean("no.such", True))
    rec.step("get_string.from_boolean", lambda: conf.get_string("bool.key", ""))
    rec.step("to_dict", conf.to_dict)
    rec.step("key_set", conf.key_set)
    rec.step("key_set.type", lambda: type(conf.key_set()).__name__)
    rec.step("to_dict.type", lambda: type(conf.to_dict()).__name__)
    rec.step("str", lambda: str(conf))
    rec.step("repr_is_object_repr", lambda: " object at " in repr(conf))
    rec.step("overwrite", lambda: conf.set_string(K, "4 s").get_string(K, ""))
    rec.step("chain", lambda: conf.set_string("a.b", "1").set_integer("c.d", 2)
             .set_boolean("e.f", False) is conf)
    rec.step("chain.to_dict", conf.to_dict)


def scenario_configuration_values(api: Api, rec: Recorder) -> None:
    conf = api.Configuration()
    cases: list[tuple[str, Callable[[], Any]]] = [
        ("set_string.int_value", lambda: conf.set_string("k1", 5)),
        ("set_string.none_value", lambda: conf.set_string("k2", None)),
        # the NPE message differs between JVM runs, so only the classes are recorded
        ("set_string.none_key", lambda: raised_class(lambda: conf.set_string(None, "x"))),
        ("set_string.empty", lambda: conf.set_string("k3", "") is conf),
        ("get_string.empty", lambda: conf.get_string("k3", "d")),
        ("set_integer.long_max", lambda: conf.set_integer("k4", 2**63 - 1) is conf),
        ("get_integer.long_max", lambda: conf.get_integer("k4", 0)),
        ("set_integer.overflow", lambda: conf.set_integer("k5", 2**63)),
        ("set_integer.str", lambda: conf.set_integer("k6", "5")),
        ("set_integer.float", lambda: conf.set_integer("k7", 1.5)),
        ("set_integer.bool", lambda: conf.set_integer("k8", True)),
        ("set_boolean.int", lambda: conf.set_boolean("k9", 1)),
        ("set_boolean.str", lambda: conf.set_boolean("k10", "true")),
        ("get_integer.bad_string", lambda: conf.set_string("k11", "abc").get_integer("k11", 0)),
        ("get_boolean.bad_string", lambda: conf.set_string("k12", "abc").get_boolean("k12",
                                                                                   False)),
        ("get_boolean.upper_string", lambda: conf.set_string("k13", "TRUE").get_boolean(
            "k13", False)),
        ("get_integer.str_default", lambda: conf.get_integer("missing", "x")),
        ("get_string.int_default", lambda: conf.get_string("missing", 5)),
        ("keys_after", lambda: sorted(conf.key_set())),
        ("to_dict_after", conf.to_dict),
    ]
    for label, call in cases:
        rec.step(label, call)


def scenario_configuration_copy_and_equality(api: Api, rec: Recorder) -> None:
    cls = api.Configuration
    a = cls()
    a.set_string(K, "5 s")
    b: Any = rec.step("copy", lambda: cls(a))
    rec.step("copy.to_dict", lambda: b.to_dict())
    rec.step("copy.keyword", lambda: cls(other=a).to_dict())
    rec.step("copy.eq", lambda: a == b)
    rec.step("copy.is", lambda: a is b)
    rec.step("copy.hash_eq", lambda: hash(a) == hash(b))
    rec.step("copy.independent", lambda: [b.set_string(K, "6 s") is b, a.get_string(K, ""),
                                          b.get_string(K, "")])
    rec.step("after_change.eq", lambda: a == b)
    rec.step("eq_dict", lambda: a == {K: "5 s"})
    rec.step("empty_eq_empty", lambda: cls() == cls())
    rec.step("empty_hash_eq", lambda: hash(cls()) == hash(cls()))
    rec.step("same_content_eq", lambda: cls().set_string("x", "1") == cls().set_string("x", "1"))
    rec.step("copy_of_dict", lambda: cls({K: "1 s"}))
    rec.step("bad_keyword", lambda: cls(configuration=a))


def scenario_configuration_str(api: Api, rec: Recorder) -> None:
    conf = api.Configuration()
    rec.step("empty", lambda: str(conf))
    conf.set_string(K, "3 s")
    rec.step("one", lambda: str(conf))
    conf.set_integer("execution.checkpointing.max-concurrent-checkpoints", 2)
    rec.step("two.sorted_parts", lambda: sorted(str(conf).strip("{}").split(", ")))
    rec.step("two.braces", lambda: [str(conf)[0], str(conf)[-1]])


def scenario_duration(api: Api, rec: Recorder) -> None:
    d = api.Duration
    rec.step("of_millis.type", lambda: type(d.of_millis(5)).__name__)
    rec.step("of_millis.repr_is_object_repr", lambda: " object at " in repr(d.of_millis(5)))
    equalities: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("minutes_60_vs_hours_1", lambda: d.of_minutes(60), lambda: d.of_hours(1)),
        ("seconds_1_vs_millis_1000", lambda: d.of_seconds(1), lambda: d.of_millis(1000)),
        ("millis_1_vs_nanos_1000000", lambda: d.of_millis(1), lambda: d.of_nanos(1000000)),
        ("days_1_vs_hours_24", lambda: d.of_days(1), lambda: d.of_hours(24)),
        ("millis_1_vs_millis_2", lambda: d.of_millis(1), lambda: d.of_millis(2)),
        ("nanos_1_vs_millis_0", lambda: d.of_nanos(1), lambda: d.of_millis(0)),
        ("negative", lambda: d.of_millis(-5), lambda: d.of_seconds(0)),
        ("negative_same", lambda: d.of_millis(-1000), lambda: d.of_seconds(-1)),
    ]
    for label, left, right in equalities:
        rec.step(f"eq.{label}", lambda x=left, y=right: x() == y())
        rec.step(f"ne.{label}", lambda x=left, y=right: x() != y())
    rec.step("eq.int", lambda: d.of_millis(1000) == 1000)
    rec.step("eq.none", lambda: operator.eq(d.of_millis(0), None))
    rec.step("eq.str", lambda: d.of_seconds(1) == "PT1S")
    rec.step("hash", lambda: hash(d.of_millis(1)))
    rec.step("in_set", lambda: {d.of_millis(1)})
    rec.step("bool", lambda: bool(d.of_millis(0)))
    rec.step("str_is_object_repr", lambda: " object at " in str(d.of_millis(1)))
    for unit in ("days", "hours", "minutes", "seconds", "millis", "nanos"):
        factory = f"of_{unit}"
        rec.step(f"{factory}.float", lambda f=factory: getattr(d, f)(1.5))
        rec.step(f"{factory}.str", lambda f=factory: getattr(d, f)("1"))
        rec.step(f"{factory}.none", lambda f=factory: getattr(d, f)(None))
        rec.step(f"{factory}.bool", lambda f=factory: type(getattr(d, f)(True)).__name__)
        rec.step(f"{factory}.long_max_plus1", lambda f=factory: getattr(d, f)(2**63))
        rec.step(f"{factory}.keyword", lambda f=factory, u=unit: type(
            getattr(d, f)(**{u: 1})).__name__)
    rec.step("of_days.overflow", lambda: d.of_days(2**62))
    rec.step("of_hours.overflow", lambda: d.of_hours(2**62))
    rec.step("of_seconds.long_max", lambda: type(d.of_seconds(2**63 - 1)).__name__)
    rec.step("of_millis.long_max", lambda: type(d.of_millis(2**63 - 1)).__name__)
    rec.step("of_nanos.long_min", lambda: type(d.of_nanos(-(2**63))).__name__)
    rec.step("bool_equals_int", lambda: d.of_seconds(True) == d.of_seconds(1))
    rec.step("eq.subclass_free", lambda: d.of_millis(3) == d.of_millis(3))


def scenario_configuration_other_members(api: Api, rec: Recorder) -> None:
    """The remaining public Configuration members (floats, bytes, add_all, remove, copy)."""
    import copy

    cls = api.Configuration
    conf = cls()
    rec.step("set_float", lambda: conf.set_float("f.key", 1.5) is conf)
    rec.step("get_float", lambda: conf.get_float("f.key", 0.0))
    rec.step("get_float.missing", lambda: conf.get_float("no.such", 2))
    rec.step("set_float.int", lambda: conf.set_float("f.int", 3) is conf)
    rec.step("get_string.from_float", lambda: conf.get_string("f.int", ""))
    rec.step("set_float.str", lambda: conf.set_float("f.bad", "x"))
    rec.step("set_bytearray", lambda: conf.set_bytearray("b.key", bytearray(b"\x01\x02")) is conf)
    rec.step("get_bytearray", lambda: list(conf.get_bytearray("b.key", bytearray())))
    rec.step("get_bytearray.type", lambda: type(conf.get_bytearray("b.key", bytearray())).__name__)
    other = cls().set_string("x.y", "1").set_string(K, "2 s")
    rec.step("add_all", lambda: conf.add_all(other) is conf)
    rec.step("add_all.keys", lambda: sorted(conf.key_set()))
    rec.step("add_all.prefix", lambda: conf.add_all(other, "pre.") is conf)
    rec.step("add_all.prefix.keys", lambda: sorted(conf.key_set()))
    rec.step("add_all.bad", lambda: conf.add_all({"a": "b"}))
    target: dict[str, Any] = {"keep": "me"}
    rec.step("add_all_to_dict", lambda: conf.add_all_to_dict(target))
    rec.step("add_all_to_dict.result", lambda: dict(target))
    rec.step("remove_config", lambda: conf.remove_config("x.y"))
    rec.step("remove_config.missing", lambda: conf.remove_config("x.y"))
    rec.step("remove_config.keys", lambda: sorted(conf.key_set()))
    rec.step("deepcopy", lambda: copy.deepcopy(conf).to_dict() == conf.to_dict())
    rec.step("deepcopy.independent", lambda: copy.deepcopy(conf).set_string("only.copy", "1")
             .contains_key("only.copy") and not conf.contains_key("only.copy"))
    rec.step("parse_list_value.yaml", lambda: cls.parse_list_value("[a, b]"))
    rec.step("parse_list_value.semicolon", lambda: cls.parse_list_value("a;b", False))
    rec.step("parse_list_value.empty", lambda: cls.parse_list_value(""))
    rec.step("parse_list_value.scalar", lambda: cls.parse_list_value("a;b"))
