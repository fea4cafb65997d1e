"""Results that arrive later, shaped like PyFlink's ``CompletableFuture``."""
from concurrent.futures import Future
from typing import Any, Callable, Generic, Optional, TypeVar

__all__ = ['CompletableFuture']

T = TypeVar('T')


class CompletableFuture(Generic[T]):
    """The eventual result of an operation on a job.

    :param future: The :class:`concurrent.futures.Future` that completes it.
    """

    def __init__(self, future: 'Future[T]'):
        self._future = future

    @staticmethod
    def _completed(value: T) -> 'CompletableFuture[T]':
        future: 'Future[T]' = Future()
        future.set_result(value)
        return CompletableFuture(future)

    def cancel(self) -> bool:
        """Give up waiting; returns whether the future was cancelled."""
        return self._future.cancel()

    def cancelled(self) -> bool:
        """Whether the future was cancelled."""
        return self._future.cancelled()

    def done(self) -> bool:
        """Whether the result (or an exception) is there."""
        return self._future.done()

    def result(self, timeout: Optional[float] = None) -> T:
        """Wait for the result and return it, or raise what the operation raised.

        :param timeout: Seconds to wait at most; ``None`` waits as long as it takes.
        """
        return self._future.result(timeout)

    def exception(self, timeout: Optional[float] = None) -> Optional[BaseException]:
        """Wait, then return the exception the operation raised, or ``None``."""
        return self._future.exception(timeout)

    def add_done_callback(self, fn: Callable[['CompletableFuture[T]'], Any]) -> None:
        """Call ``fn`` with this future once it is done."""
        self._future.add_done_callback(lambda _: fn(self))

    def __str__(self):
        return "<CompletableFuture done=%s>" % self.done()


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
