"""Settings that can never work on Spark, found before a job starts.

A state store provider or checkpoint file manager is a JVM class Spark loads when a query
starts; a name it cannot load (a typo such as ``state.backend.type: rocks-db``, or a custom
class missing from the class path) would fail every start, and a restart strategy would retry
forever. The job fails at start instead, naming the setting.
"""

from __future__ import annotations

from typing import Optional

from pyflink_compat.settings.kinds import HEAP_BACKENDS, ROCKSDB_BACKENDS, StorageKind
from pyflink_compat.spark.plan import JobPlan
from pyflink_compat.spark.rules import unloadable_class
from pyflink_compat.spark.translation import FILE_MANAGER_CLASS, HDFS_PROVIDER, PROVIDER_CLASS, ROCKSDB_PROVIDER
from pyflink_compat.util.java_classes import context_class_loader, jvm

__all__ = ["impossible_settings", "class_loadable"]


def class_loadable(name: str) -> bool:
    """Whether the JVM finds class ``name`` through the calling thread's context class loader."""
    try:
        jvm().java.lang.Class.forName(name, False, context_class_loader())
    except Exception:  # ClassNotFoundException and friends
        return False
    return True


def impossible_settings(plan: JobPlan) -> Optional[str]:
    """Why the settings of ``plan`` cannot run on Spark, or ``None``."""
    provider = plan.spark_conf.get(PROVIDER_CLASS)
    if provider is not None and provider not in (HDFS_PROVIDER, ROCKSDB_PROVIDER):
        problem = unloadable_class("state.backend.type (or the state backend's class)", provider,
                                   HEAP_BACKENDS + ROCKSDB_BACKENDS, class_loadable(provider))
        if problem is not None:
            return problem
    manager = plan.spark_conf.get(FILE_MANAGER_CLASS)
    if manager is not None:
        return unloadable_class("execution.checkpointing.storage (or the checkpoint storage's class)",
                                manager, (StorageKind.JOBMANAGER.value, StorageKind.FILESYSTEM.value),
                                class_loadable(manager))
    return None
