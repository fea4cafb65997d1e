"""The one exception the checkpoint and savepoint tools raise."""

from __future__ import annotations

__all__ = ["CheckpointFileError", "SavepointError"]


class CheckpointFileError(Exception):
    """A checkpoint, savepoint or job file that cannot be read, written, verified, restored or
    disposed.

    The message names the path concerned and the cause.

    :param path: The file or directory the problem is about.
    :param cause: What is wrong with it, in words.
    """

    def __init__(self, path: str, cause: str):
        super().__init__("{}: {}".format(path, cause))
        self.path = path
        self.cause = cause


#: The former name of :class:`CheckpointFileError`, the same class, kept so that code catching
#: it keeps working.
SavepointError = CheckpointFileError
