"""Files on disk: input files written for streaming sources (at once, or arriving while a test
runs), and what tests read back from output and checkpoint directories."""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from typing import Any, Callable, Dict, Iterable, List


# -- input files --------------------------------------------------------------------------------
def write_input(directory: Any, name: str, rows: Iterable[Dict[str, Any]]) -> None:
    """Write ``rows`` as the JSON-lines file ``<directory>/<name>``.

    The file is written under a hidden name first and then renamed, so a streaming source never
    sees half of it (Spark's file sources skip names that start with a dot).
    """
    os.makedirs(str(directory), exist_ok=True)
    hidden = os.path.join(str(directory), "." + name + ".tmp")
    with open(hidden, "w") as out:
        out.writelines(json.dumps(row) + "\n" for row in rows)
    os.replace(hidden, os.path.join(str(directory), name))


def write_json_files(directory: Any, n_files: int, rows_per_file: int, start_file: int = 0,
                     n_keys: int = 3) -> List[Dict[str, Any]]:
    """Write ``n_files`` JSON-lines files of unique ids into ``directory``.

    File ``f`` is ``part-<f>.json`` and holds ids ``f * rows_per_file ...``; keys cycle over
    ``k0 .. k<n_keys-1>``.

    :return: The records written.
    """
    records: List[Dict[str, Any]] = []
    for f in range(start_file, start_file + n_files):
        rows = [{"id": f * rows_per_file + i, "key": "k{}".format((f * rows_per_file + i) % n_keys)}
                for i in range(rows_per_file)]
        write_input(directory, "part-{:05d}.json".format(f), rows)
        records.extend(rows)
    return records


def file_uri(path: Any) -> str:
    return "file://" + os.path.abspath(str(path))


# -- reading directories back ---------------------------------------------------------------------
def files_under(directory: Any) -> List[str]:
    """Every file below ``directory``, as paths relative to it."""
    return sorted(path for path in tree(directory) if not path.endswith("/"))


def tree(directory: Any) -> Dict[str, str]:
    """Every file below ``directory`` with a hash of its content, and every directory with an
    empty string (its relative path ends in ``/``): equal trees mean nothing was deleted,
    added or changed."""
    found: Dict[str, str] = {}
    for root, dirs, names in os.walk(str(directory)):
        for name in dirs:
            found[os.path.relpath(os.path.join(root, name), str(directory)) + "/"] = ""
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, str(directory))] = hashlib.sha256(f.read()).hexdigest()
    return found


def digest(directory: Any) -> Dict[str, str]:
    """The SHA-256 of every file below ``directory``, by relative path."""
    return {path: sha for path, sha in tree(directory).items() if not path.endswith("/")}


def log_ids(checkpoint: Any, log: str) -> List[int]:
    """The batch ids present in ``<checkpoint>/<log>`` (Spark's ``offsets`` or ``commits``)."""
    directory = os.path.join(str(checkpoint), log)
    if not os.path.isdir(directory):
        return []
    return sorted(int(name) for name in os.listdir(directory) if name.isdigit())


def read_batch_files(out: Any) -> Dict[int, List[Dict[str, Any]]]:
    """The rows a batch-keyed sink wrote to ``<out>/batch_id=<n>.json``, by batch id."""
    found: Dict[int, List[Dict[str, Any]]] = {}
    if not os.path.isdir(str(out)):
        return found
    for name in os.listdir(str(out)):
        if name.startswith("batch_id=") and name.endswith(".json"):
            with open(os.path.join(str(out), name)) as f:
                found[int(name[len("batch_id="):-len(".json")])] = json.load(f)
    return found


def all_ids(batches: Dict[int, List[Dict[str, Any]]]) -> List[int]:
    """The ids of every row of every batch, sorted (duplicates kept)."""
    return sorted(row["id"] for rows in batches.values() for row in rows)


def ids_of(records: Iterable[Dict[str, Any]]) -> List[int]:
    return sorted(r["id"] for r in records)


class Arrivals:
    """Input that keeps arriving while a block runs: ``write(n)`` for ``n = first, first + 1,
    ...``, one call every ``pause`` seconds in a thread; what each call returns is kept in
    :attr:`written`."""

    def __init__(self, write: Callable[[int], Any], pause: float, first: int = 0):
        self.write = write
        self.pause = pause
        self.next = first
        self.written: List[Any] = []
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._feed, daemon=True)

    def _feed(self) -> None:
        while not self._stopping.is_set():
            self.written.append(self.write(self.next))
            self.next += 1
            time.sleep(self.pause)

    def __enter__(self) -> "Arrivals":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stopping.set()
        self._thread.join()
