"""``str()`` of the state backends whose Flink text is deterministic, reproduced as Flink
prints it (including its missing quotes)."""
import json
from typing import Any, Dict, Optional

from pyflink_compat.settings import registry

__all__ = ["memory_text", "fs_text", "legacy_text", "paths_text"]

_LEGACY_WRITE_BATCH_SIZE = 2 * 1024 * 1024


def paths_text(value: Optional[str]) -> str:
    """Stored local directories as Java's ``Arrays.toString`` shows them."""
    return "null" if value is None else "[" + ", ".join(json.loads(value)) + "]"


def transfer_threads(value: int) -> int:
    return registry.DEFAULT_TRANSFER_THREADS if value == -1 else value


def _null(value: Any) -> str:
    return "null" if value is None else str(value)


def memory_text(record: Dict[str, Any]) -> str:
    return ("MemoryStateBackend (data in heap memory / checkpoints to JobManager) "
            f"(checkpoints: '{_null(record['checkpoint_path'])}', "
            f"savepoints: '{_null(record['savepoint_path'])}, "
            f"maxStateSize: {record['max_state_size']})")


def fs_text(record: Dict[str, Any]) -> str:
    return (f"File State Backend (checkpoints: '{_null(record['checkpoint_path'])}', "
            f"savepoints: '{_null(record['savepoint_path'])}, "
            f"fileStateThreshold: {record['file_state_size_threshold']})")


def legacy_text(record: Dict[str, Any]) -> str:
    inner = json.loads(record["checkpoint_backend"])
    inner_text = {"fs": fs_text, "memory": memory_text}.get(inner["type"], legacy_text)(inner)
    return (f"RocksDBStateBackend{{checkpointStreamBackend={inner_text}, "
            f"localRocksDbDirectories={paths_text(record['db_storage_paths'])}, "
            f"enableIncrementalCheckpointing={'true' if record['incremental'] else 'false'}, "
            "numberOfTransferThreads="
            f"{transfer_threads(record['number_of_transfer_threads'])}, "
            f"writeBatchSize={_LEGACY_WRITE_BATCH_SIZE}}}")
