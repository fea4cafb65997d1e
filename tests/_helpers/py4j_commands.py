"""Counting the py4j commands that reach the JVM (a count, not a timing)."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator, List, Optional

from py4j import protocol

from pyflink_compat.java_gateway import get_gateway


@contextmanager
def sent_commands(thread_name: Optional[str] = None) -> Iterator[List[str]]:
    """The py4j commands sent meanwhile by the calling thread, or by the threads named
    ``thread_name``. py4j's own releases of JVM objects are left out.
    """
    client = get_gateway()._gateway_client
    caller = threading.get_ident()

    def counted() -> bool:
        if thread_name is None:
            return threading.get_ident() == caller
        return threading.current_thread().name == thread_name

    sent: List[str] = []
    send: Callable[..., Any] = client.send_command

    def counting(command: str, *args: Any, **kwargs: Any) -> Any:
        if counted() and not command.startswith(protocol.MEMORY_COMMAND_NAME):
            sent.append(command)
        return send(command, *args, **kwargs)

    client.send_command = counting
    try:
        yield sent
    finally:
        del client.send_command
