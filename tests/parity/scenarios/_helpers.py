"""Shared building blocks for the scenario modules (not a scenario module itself)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..battery import Api, Recorder


Case = tuple[str, Any]

#: Non-int values for an int/long parameter.
WRONG_TYPES: list[Case] = [
    ("str_num", "1000"),
    ("str_abc", "abc"),
    ("float_int", 1000.0),
    ("float_frac", 1.5),
    ("bool_true", True),
    ("bool_false", False),
    ("none", None),
]

#: Int values at the edges of Java int/long.
INT_EDGES: list[Case] = [
    ("int_max", 2**31 - 1),
    ("int_max_plus1", 2**31),
    ("long_max", 2**63 - 1),
    ("long_max_plus1", 2**63),
    ("long_min", -(2**63)),
    ("long_min_minus1", -(2**63) - 1),
]

#: Non-bool values for a boolean parameter.
BOOL_WRONG_TYPES: list[Case] = [
    ("int_1", 1),
    ("int_0", 0),
    ("str_true", "true"),
    ("none", None),
    ("float_1", 1.0),
]

#: Checkpoint path forms (label, path) used for every path-taking API.
PATH_FORMS: list[Case] = [
    ("file_triple_slash", "file:///tmp/x/"),
    ("file_authority", "file://var/x"),
    ("file_dotdot", "file:///tmp/a/../b/./c"),
    ("file_single_slash", "file:/tmp/single"),
    ("hdfs", "hdfs://nn:9000/x"),
    ("hdfs_no_port", "hdfs://namenode/ckpt/"),
    ("s3", "s3://bucket/x"),
    ("spaces", "file:///tmp/with space/dir"),
    ("query_fragment", "hdfs://nn:9000/ckpt?x=1#frag"),
    ("double_slash_inside", "file:///tmp//double//slash"),
    ("relative", "relative/ckpt"),
    ("absolute_no_scheme", "/abs/ckpt"),
    ("windows", "C:\\ckpt"),
    ("empty", ""),
    ("bad_uri", "::bad uri"),
    ("hdfs_root", "hdfs://"),
    ("file_root", "file:///"),
    ("none", None),
    ("int", 42),
]


def probe_setter(rec: Recorder, prefix: str, target: Any, setter: str, getter: str,
                 cases: Sequence[Case]) -> None:
    """For each case: ``<prefix>.<label>`` = set returns self?; ``.get`` = value read back.

    The same target is used for all cases, so a rejected call shows (in ``.get``) whether
    the previous value survived.
    """
    for label, value in cases:
        rec.step(f"{prefix}.{label}",
                 lambda v=value: getattr(target, setter)(v) is target)
        rec.step(f"{prefix}.{label}.get", getattr(target, getter))


def probe_calls(rec: Recorder, prefix: str, fn: Callable[..., Any],
                cases: Sequence[Case]) -> None:
    """``<prefix>.<label>`` = ``fn(value)`` for each case (value recorded as returned)."""
    for label, value in cases:
        rec.step(f"{prefix}.{label}", lambda v=value: fn(v))


def duration_checks(api: Api, rec: Recorder, prefix: str, get: Callable[[], Any],
                    millis: Sequence[int] = (), nanos: Sequence[int] = ()) -> None:
    """Compare a Duration-returning call with candidates through ``Duration.__eq__``."""
    duration = api.Duration
    for ms in millis:
        rec.step(f"{prefix}.eq_millis_{ms}", lambda m=ms: get() == duration.of_millis(m))
    for ns in nanos:
        rec.step(f"{prefix}.eq_nanos_{ns}", lambda n=ns: get() == duration.of_nanos(n))


STORAGE_GETTERS = {
    "JobManagerCheckpointStorage": ("get_checkpoint_path", "get_savepoint_path",
                                    "get_max_state_size"),
    "FileSystemCheckpointStorage": ("get_checkpoint_path", "get_savepoint_path",
                                    "get_min_file_size_threshold", "get_write_buffer_size"),
}


def describe_error(exc: BaseException) -> str:
    """Compact text for an exception raised inside a summary: ``!<class>: <what>``."""
    cls = type(exc)
    text = f"!{cls.__module__}.{cls.__qualname__}"
    java = getattr(exc, "java_exception", None)
    if java is not None:
        try:
            return f"{text}: {java.getClass().getName()}: {java.getMessage()}"
        except Exception:  # the JVM went away
            return text
    if any(k.__name__ == "Py4JError" for k in cls.__mro__):
        lines = [ln for ln in str(exc).splitlines()[1:] if ln.strip()]
        return f"{text}: {lines[0].strip() if lines else ''}"
    return f"{text}: {exc}"


def safe(fn: Callable[[], Any]) -> Any:
    """``fn()``, or :func:`describe_error` text when it raises."""
    try:
        return fn()
    except Exception as exc:  # errors are part of the summary
        return describe_error(exc)


def raised_class(fn: Callable[[], Any]) -> Any:
    """Only the class (and Java class) of what ``fn`` raises, for errors whose message is
    not stable across JVM runs; ``None`` when nothing is raised.

    The class is the first one in the exception's MRO that pyflink_compat does not define
    itself, which is the class rule applied elsewhere: pyflink_compat raises subclasses of the
    classes PyFlink raises.
    """
    try:
        fn()
    except Exception as exc:  # any error is the result
        cls = next(c for c in type(exc).__mro__ if c.__module__.split(".")[0] != "pyflink_compat")
        java = getattr(exc, "java_exception", None)
        java_name = None if java is None else str(java.getClass().getName())
        return [f"{cls.__module__}.{cls.__qualname__}", java_name]
    return None


def summary(obj: Any, getters: Sequence[str]) -> Any:
    """Class name and each getter's value (or error text) of ``obj``.

    ``str(obj)`` is deliberately not part of it: it is recorded as its own step (see
    :func:`record_object`) so that a difference in ``str`` alone stays one observation.
    """
    if obj is None:
        return None
    out = {"class": type(obj).__name__}
    for getter in getters:
        out[getter] = safe(getattr(obj, getter))
    return out


def record_object(rec: Recorder, step_id: str, make: Callable[..., Any],
                  describe: Callable[[Any], Any]) -> None:
    """``<step_id>`` = ``describe(make())``; then, if that worked, ``<step_id>.str``."""
    made: list[Any] = []

    def build() -> Any:
        obj = make()
        made.append(obj)
        return describe(obj)

    rec.step(step_id, build)
    if made:
        rec.step(f"{step_id}.str", lambda: str(made[0]))


def storage_summary(storage: Any) -> Any:
    """Public view of a checkpoint storage: class name, its getters and ``str``."""
    if storage is None:
        return None
    return summary(storage, STORAGE_GETTERS.get(type(storage).__name__, ()))


def record_storage(rec: Recorder, step_id: str, make: Callable[..., Any]) -> None:
    """A storage built by ``make``: its summary, then its ``str``."""
    record_object(rec, step_id, make, storage_summary)


def fresh_config(api: Api) -> Any:
    """The CheckpointConfig of a brand new environment."""
    return api.new_env().get_checkpoint_config()
