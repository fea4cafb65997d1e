"""The ownership marker of a job directory on the local file system, in plain Python.

Creating the marker through Hadoop's file system API costs tens of milliseconds in a fresh JVM
(its classes, and the permission calls of Hadoop's local file system), all of it before the
job's first query can start; the same bytes cost well under a millisecond from Python. The
files are the ones Hadoop's local file system would leave: the marker and, next to it, a
``.<name>.crc`` checksum file in Hadoop's format, so that Hadoop reads and checks the marker as
any other file, and the checksum files Hadoop wrote are checked here in turn.

Replacing the marker never leaves a checksum file that does not match it: the old checksum
file goes first, then the new marker is renamed over the old one, then its checksum file
follows. A process killed in between leaves the old or the new marker, unchecked at worst.
"""

from __future__ import annotations

import io
import os
from typing import Optional

from pyflink_compat.checkpoints.layout import crc_name
from pyflink_compat.checkpoints.file_checks import hadoop_crc, hadoop_crc_problem

__all__ = ["LocalMarker", "MarkerFileError"]


class MarkerFileError(Exception):
    """The marker or its directory cannot be read or written; the message names it and why."""


class LocalMarker:
    """One marker file.

    :param directory: The job directory, a local path.
    :param name: The marker's file name.
    :param location: The job directory as the job names it (a ``file:`` URI), for messages.
    """

    def __init__(self, directory: str, name: str, location: str):
        self.directory = directory
        self.name = name
        self.path = os.path.join(directory, name)
        self.location = location
        self._marker_location = location.rstrip("/") + "/" + name

    def _remove(self, name: str) -> None:
        try:
            os.unlink(os.path.join(self.directory, name))
        except FileNotFoundError:
            pass

    def read(self) -> Optional[bytes]:
        """The marker's bytes, checked against its checksum file when there is one; ``None``
        when there is no marker.

        :raises MarkerFileError: when it cannot be read, or does not match its checksum file.
        """
        try:
            with open(self.path, "rb") as stream:
                data = stream.read()
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as e:
            raise MarkerFileError("{} cannot be read: {}".format(self._marker_location, e.strerror or e)) from e
        try:
            with open(os.path.join(self.directory, crc_name(self.name)), "rb") as stream:
                crc = stream.read()
        except FileNotFoundError:
            return data
        except OSError as e:
            raise MarkerFileError("{} cannot be read: {}".format(self._marker_location, e.strerror or e)) from e
        problem = hadoop_crc_problem(io.BytesIO(data), crc)
        if problem is not None:
            raise MarkerFileError("{} is corrupt (its content does not match its checksum file: "
                                  "{})".format(self._marker_location, problem))
        return data

    def make_directory(self) -> None:
        """Create the job directory and any missing parent.

        :raises MarkerFileError: when it cannot be created.
        """
        try:
            os.makedirs(self.directory, exist_ok=True)
        except OSError as e:
            raise MarkerFileError("The checkpoint directory {} cannot be created: {}".format(
                self.location, e.strerror or e)) from e

    def write(self, data: bytes) -> None:
        """Replace the marker (and its checksum file) with ``data``.

        :raises MarkerFileError: when it cannot be written; the old marker is then left.
        """
        aside = self.name + ".new"
        try:
            with open(os.path.join(self.directory, aside), "wb") as stream:
                stream.write(data)
            with open(os.path.join(self.directory, crc_name(aside)), "wb") as stream:
                stream.write(hadoop_crc(data))
            self._remove(crc_name(self.name))
            os.replace(os.path.join(self.directory, aside), self.path)
            os.replace(os.path.join(self.directory, crc_name(aside)),
                       os.path.join(self.directory, crc_name(self.name)))
        except OSError as e:
            raise MarkerFileError("{} cannot be written: {}".format(self._marker_location, e.strerror or e)) from e
