"""The Spark JVM, and the JVM classes and static methods looked up in it, once per gateway.

Looking a class or a static method up through py4j is a JVM round trip each time; both stay
valid for as long as the gateway does, so they are kept here until the gateway changes.
Nothing touches the JVM at import time: the gateway is reached when first needed.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, TypeVar

__all__ = ["jvm", "java_class", "java_static", "class_object", "per_gateway",
           "context_class_loader", "class_loadable"]

T = TypeVar("T")

# The gateway last reached and what was looked up through it (by class name, "class#method",
# or a key of per_gateway).
_cache: Dict[str, Any] = {}
_cached_gateway: List[Any] = [None]


def _live_gateway() -> Optional[Any]:
    """The gateway already reached, if its ``SparkContext`` is still the active one (checked
    without touching the JVM), else ``None``."""
    gateway = _cached_gateway[0]
    if gateway is None:
        return None
    from pyspark import SparkContext

    context = SparkContext._active_spark_context
    if context is None or context._gateway is not gateway:
        return None
    return gateway


def jvm() -> Any:
    """The Spark JVM as py4j shows it, reached through the session's gateway when first needed
    (nothing touches the JVM at import time)."""
    gateway = _live_gateway()
    if gateway is None:
        from pyflink_compat.java_gateway import get_gateway

        gateway = get_gateway()
        if gateway is not _cached_gateway[0]:
            _cache.clear()
            _cached_gateway[0] = gateway
    return gateway.jvm


def java_class(name: str) -> Any:
    """The JVM class ``name`` (fully qualified), looked up once per gateway."""
    view = jvm()
    found = _cache.get(name)
    if found is None:
        # the whole name in one look-up (one per package and class when walked part by part)
        found = _cache[name] = getattr(view, name)
    return found


def java_static(class_name: str, method: str) -> Any:
    """The static method ``method`` of the JVM class ``class_name``, looked up once per
    gateway."""
    key = class_name + "#" + method
    jvm()  # drops the cache when the gateway changed
    found = _cache.get(key)
    if found is None:
        found = getattr(java_class(class_name), method)
        _cache[key] = found
    return found


def per_gateway(key: str, make: Callable[[], T]) -> T:
    """What ``make`` returns, made once per gateway and kept under ``key`` (a JVM object that
    stays valid as long as the gateway does)."""
    jvm()  # drops the cache when the gateway changed
    found: Optional[T] = _cache.get(key)
    if found is None:
        found = make()
        _cache[key] = found
    return found


def class_object(name: str) -> Any:
    """The ``java.lang.Class`` object of ``name``, looked up once per gateway."""
    return per_gateway("#class " + name, lambda: java_class("java.lang.Class").forName(name))


def context_class_loader() -> Any:
    """The class loader of the calling JVM thread, which sees the classes a user added."""
    return jvm().Thread.currentThread().getContextClassLoader()


def class_loadable(name: str) -> bool:
    """Whether the JVM finds class ``name`` through the calling thread's context class loader."""
    try:
        jvm().java.lang.Class.forName(name, False, context_class_loader())
    except Exception:  # ClassNotFoundException and friends
        return False
    return True
