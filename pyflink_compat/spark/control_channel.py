"""The control channel of a running job: requests written to its registry directory, and the
acknowledgements it writes back.

Any process that can write the job's checkpoint storage asks a running job to take a savepoint,
to stop with a savepoint, or to cancel, by writing a request file into the job's directory of
the registry (:mod:`pyflink_compat.spark.job_registry`): ``requests/<request id>.json``. The
job looks for requests once per micro-batch interval, five to ten times a second
(:func:`request_poll_seconds`, :mod:`pyflink_compat.spark.job_presence`), and
answers in ``acks/<request id>.json``: first ``ACCEPTED``, then ``SUCCEEDED`` with the result (a
savepoint's directory) or ``FAILED`` with the error. Nothing listens on a network port, and the
registry's directories are ``0700``, so only the account that runs the job can send requests.

Each request is served at most once, and none is lost while its sender waits:

* a request id is new for every request (time and random bits), and the job keeps the ids it
  has taken, so no request is served twice by the job's process;
* the job accepts a request by writing its ``ACCEPTED`` acknowledgement and then checking that
  the request file is still there; a sender that gives up first removes the request, then reads
  the acknowledgement once more. Either the job saw the request after accepting it (and the
  sender then sees ``ACCEPTED``, and waits for the result), or the job answers ``WITHDRAWN``
  and does nothing;
* a request the job has not taken when it ends is answered ``FAILED`` (the job ended), and a
  sender whose job's driver is gone stops waiting at once (:func:`send_request`).
"""

from __future__ import annotations

import enum
import json
import os
import time
import uuid
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional

import attrs

from pyflink_compat.spark.job_registry import (
    LOCAL_CADENCE, JobRecord, JobRegistry, StorageCadence, driver_gone, this_host)

__all__ = [
    "Action", "Outcome", "Request", "Acknowledgement", "ControlChannel", "RequestFailed", "JobNotRunning",
    "NoAnswer", "send_request", "request_poll_seconds", "POLL_SECONDS", "SHORTEST_POLL_SECONDS",
]

#: How often a running job looks for requests at least on local storage, in seconds (other
#: storage: :data:`~pyflink_compat.spark.job_registry.REMOTE_CADENCE`).
POLL_SECONDS = LOCAL_CADENCE.poll_seconds
#: How often it looks at most on local storage, in seconds (:func:`request_poll_seconds`).
SHORTEST_POLL_SECONDS = LOCAL_CADENCE.shortest_poll_seconds
_REQUESTS = "requests"
_ACKS = "acks"
#: How long a sender that withdrew a request waits for the job's answer to the withdrawal.
_GRACE_SECONDS = 2.0
#: How long a sender whose accepted request is not answered yet waits for the answer after the
#: job's record says it ended: a job answers the requests it took as it ends (a stop's savepoint
#: is its answer, given once the job has finished), a moment after it writes its end.
_ENDED_ANSWER_SECONDS = 10.0


def request_poll_seconds(batch_intervals_ms: Iterable[Optional[int]],
                         cadence: StorageCadence = LOCAL_CADENCE) -> float:
    """How often a running job looks for requests: once per micro-batch interval of its fastest
    query, so that a request that arrives while a batch runs waits for no more than one interval
    before it is taken, within the storage's bounds (on local storage
    :data:`SHORTEST_POLL_SECONDS` and :data:`POLL_SECONDS`; elsewhere 1 to 2 s).

    :param batch_intervals_ms: Each query's trigger interval in ms; ``None`` for a query whose
        next batch starts as soon as input arrives (or that runs once).
    :param cadence: The cadence of the job's storage.
    """
    shortest = min((0 if ms is None else ms for ms in batch_intervals_ms), default=None)
    if shortest is None:
        return cadence.poll_seconds
    return min(cadence.poll_seconds, max(cadence.shortest_poll_seconds, shortest / 1000.0))


class Action(enum.Enum):
    """What a request asks of the job."""

    SAVEPOINT = "savepoint"
    STOP = "stop"
    CANCEL = "cancel"


class Outcome(enum.Enum):
    """Where a request stands, as its acknowledgement says."""

    ACCEPTED = "ACCEPTED"
    SUCCEEDED = "SUCCEEDED"
    FAILED = "FAILED"
    #: The sender gave up before the job took it; the job did nothing.
    WITHDRAWN = "WITHDRAWN"

    @property
    def final(self) -> bool:
        return self is not Outcome.ACCEPTED


@attrs.frozen
class Request:
    """One request to a job.

    :param request_id: Unique; requests are served oldest first by it.
    :param action: What to do.
    :param directory: Where to write the savepoint (``None``: the job's configured default).
    :param sent: When it was sent (epoch seconds).
    :param sender: Host and process that sent it.
    """

    request_id: str
    action: Action
    directory: Optional[str] = None
    sent: float = 0.0
    sender: str = ""

    @classmethod
    def new(cls, action: Action, directory: Optional[str] = None) -> "Request":
        now = time.time()
        return cls("{:013d}-{}".format(int(now * 1000), uuid.uuid4().hex[:16]), action, directory, now,
                   "{}:{}".format(this_host(), os.getpid()))

    def to_json(self) -> Dict[str, Any]:
        return {"request_id": self.request_id, "action": self.action.value, "directory": self.directory,
                "sent": self.sent, "sender": self.sender}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Request":
        """:raises ValueError: when it is not a request."""
        try:
            return cls(str(data["request_id"]), Action(data["action"]), data.get("directory"),
                       float(data.get("sent", 0.0)), str(data.get("sender", "")))
        except (KeyError, TypeError) as e:
            raise ValueError("not a request: {}".format(e)) from e


@attrs.frozen
class Acknowledgement:
    """A job's answer to a request.

    :param request_id: The request answered.
    :param outcome: Where it stands.
    :param time: When this was written (epoch seconds).
    :param result: What it produced (a savepoint's directory).
    :param error: Why it failed.
    :param job_status: The job's status when this was written.
    """

    request_id: str
    outcome: Outcome
    time: float
    result: Optional[str] = None
    error: Optional[str] = None
    job_status: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        return {"request_id": self.request_id, "outcome": self.outcome.value, "time": self.time,
                "result": self.result, "error": self.error, "job_status": self.job_status}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Acknowledgement":
        """:raises ValueError: when it is not an acknowledgement."""
        try:
            return cls(str(data["request_id"]), Outcome(data["outcome"]), float(data["time"]), data.get("result"),
                       data.get("error"), data.get("job_status"))
        except (KeyError, TypeError) as e:
            raise ValueError("not an acknowledgement: {}".format(e)) from e


class ControlChannel:
    """The requests and acknowledgements of one job, both sides.

    :param registry: The registry the job records itself in.
    :param job_id: The job's id.
    """

    def __init__(self, registry: JobRegistry, job_id: str):
        self.registry = registry
        self.job_id = job_id
        self._access = registry.access

    def _file(self, folder: str, request_id: str) -> str:
        return self.registry.path(self.job_id, folder, request_id + ".json")

    def _read(self, path: str) -> Optional[Dict[str, Any]]:
        try:
            data = json.loads(self._access.read_text(path))
        except (FileNotFoundError, NotADirectoryError):
            return None
        return data if isinstance(data, dict) else None

    # -- the sender's side ------------------------------------------------------------------------
    def send(self, request: Request) -> None:
        """Write a request for the job to serve.

        :raises OSError: when the storage cannot be written.
        """
        self.registry.make_dir(self.registry.path(self.job_id, _REQUESTS))
        self._access.write_atomic(self._file(_REQUESTS, request.request_id),
                                  json.dumps(request.to_json()).encode("utf-8"))

    def acknowledgement(self, request_id: str) -> Optional[Acknowledgement]:
        """The job's answer so far (``None``: not taken yet)."""
        try:
            data = self._read(self._file(_ACKS, request_id))
            return None if data is None else Acknowledgement.from_json(data)
        except ValueError:  # being replaced on a store without atomic renames: not there yet
            return None

    def withdraw(self, request_id: str) -> Optional[Acknowledgement]:
        """Take a request back; the job's answer if it took the request first."""
        try:
            self._access.remove_file(self._file(_REQUESTS, request_id))
        except FileNotFoundError:
            pass
        return self.acknowledgement(request_id)

    # -- the job's side ---------------------------------------------------------------------------
    def pending(self) -> List[Request]:
        """The requests not answered yet, oldest first; a file that is not a request is
        answered ``FAILED`` and removed."""
        found = []
        for name in self._access.listdir(self.registry.path(self.job_id, _REQUESTS)):
            if name.startswith(".") or not name.endswith(".json"):
                continue  # a request being written
            request_id = name[:-len(".json")]
            try:
                data = self._read(self._file(_REQUESTS, request_id))
                if data is None:
                    continue
                found.append(Request.from_json(data))
            except ValueError as e:
                self.answer(request_id, Outcome.FAILED, error="The request file cannot be read: {}".format(e))
        return found

    def accept(self, request: Request, job_status: str) -> bool:
        """Take a request: acknowledge it, then check that its sender has not withdrawn it.

        :return: Whether the job is to serve it (otherwise it is answered ``WITHDRAWN``).
        """
        self.registry.make_dir(self.registry.path(self.job_id, _ACKS))
        self._write_ack(Acknowledgement(request.request_id, Outcome.ACCEPTED, time.time(), job_status=job_status))
        if self._access.exists(self._file(_REQUESTS, request.request_id)):
            return True
        self._write_ack(Acknowledgement(request.request_id, Outcome.WITHDRAWN, time.time(), job_status=job_status))
        return False

    def answer(self, request_id: str, outcome: Outcome, result: Optional[str] = None,
               error: Optional[str] = None, job_status: Optional[str] = None) -> None:
        """Write a request's final answer, then remove the request."""
        self.registry.make_dir(self.registry.path(self.job_id, _ACKS))
        self._write_ack(Acknowledgement(request_id, outcome, time.time(), result, error, job_status))
        try:
            self._access.remove_file(self._file(_REQUESTS, request_id))
        except FileNotFoundError:
            pass

    def _write_ack(self, ack: Acknowledgement) -> None:
        self._access.write_atomic(self._file(_ACKS, ack.request_id), json.dumps(ack.to_json()).encode("utf-8"))


# -- sending a request and waiting for the answer ---------------------------------------------------
class RequestFailed(Exception):
    """The job answered a request with an error."""


class JobNotRunning(Exception):
    """The job cannot serve requests: it has ended, or its driver is gone."""


class NoAnswer(Exception):
    """The job did not answer in time.

    :param accepted: Whether it had accepted the request (which may then still complete).
    """

    def __init__(self, message: str, accepted: bool):
        super().__init__(message)
        self.accepted = accepted


def _not_running(record: Optional[JobRecord], job_id: str) -> Optional[str]:
    if record is None:
        return "Job {} has no record any more.".format(job_id)
    if record.terminal:
        return "Job {} ({}) has ended: {}.".format(record.name, job_id, record.status)
    gone = driver_gone(record)
    if gone is not None:
        return "Job {} ({}) is not running: {}.".format(record.name, job_id, gone)
    return None


def send_request(registry: JobRegistry, job_id: str, request: Request, timeout: float,
                 clock: Callable[[], float] = time.monotonic) -> Acknowledgement:
    """Send a request to a running job and wait for its final answer.

    :param timeout: Seconds to wait for the answer. A request the job has not accepted by then
        is withdrawn.
    :return: The ``SUCCEEDED`` acknowledgement.
    :raises JobNotRunning: at once when the job has ended or its driver is gone (before the
        request is sent, or while waiting).
    :raises RequestFailed: when the job answers with an error.
    :raises NoAnswer: when no answer comes within ``timeout``.
    :raises OSError: when the storage cannot be written.
    """
    reason = _not_running(registry.read(job_id), job_id)
    if reason is not None:
        raise JobNotRunning(reason)
    channel = ControlChannel(registry, job_id)
    channel.send(request)
    deadline = clock() + timeout
    looked = clock()
    accepted = withdrawn = False
    ended_at: Optional[float] = None
    while True:
        ack = channel.acknowledgement(request.request_id)
        if ack is not None and ack.outcome.final:
            if ack.outcome is Outcome.SUCCEEDED:
                return ack
            if ack.outcome is Outcome.WITHDRAWN:
                raise NoAnswer("Job {} did not take the request within {:.0f} s; it was withdrawn.".format(
                    job_id, timeout), accepted=False)
            raise RequestFailed(ack.error or "the job gave no reason")
        accepted = accepted or ack is not None
        now = clock()
        if now - looked >= registry.cadence.record_every_seconds:
            looked = now
            record = registry.read(job_id)
            reason = _not_running(record, job_id)
            if reason is not None:
                if accepted and record is not None and record.terminal:
                    # it ended by itself, so it answers what it took: wait for that a while
                    ended_at = now if ended_at is None else ended_at
                    if now - ended_at < _ENDED_ANSWER_SECONDS:
                        time.sleep(registry.cadence.answer_poll_seconds)
                        continue
                ack = channel.withdraw(request.request_id)
                if ack is not None and ack.outcome.final:
                    continue  # it answered as it ended: report that
                raise JobNotRunning(reason + (" The request was accepted, but not answered." if accepted else ""))
        if now >= deadline:
            if not accepted and not withdrawn:
                # the job may take it between now and the withdrawal: then its answer decides
                withdrawn = True
                channel.withdraw(request.request_id)
                deadline = now + _GRACE_SECONDS
                continue
            if not accepted:
                raise NoAnswer("Job {} did not take the request within {:.0f} s; it was withdrawn.".format(
                    job_id, timeout), accepted=False)
            raise NoAnswer("Job {} accepted the request but gave no result within {:.0f} s; it may still "
                           "complete (see `pyflink-compat info {}`).".format(job_id, timeout, job_id),
                           accepted=True)
        time.sleep(registry.cadence.answer_poll_seconds)
