"""Declared PyFlink module ``pyflink.datastream.connectors.file_system``.

Using a name below raises :class:`~pyflink_compat.missing.NotSupportedError`,
naming the PySpark way to do the same.
Written by ``tests/parity/generate_declared_modules.py`` from the recorded import
surface of PyFlink 1.20.5.
"""
from pyflink_compat.missing.declared import Declared

__all__ = ['FileCompactor', 'FileCompactStrategy', 'OutputFileConfig', 'FileSource',
    'FileSourceBuilder', 'FileSink', 'StreamingFileSink', 'StreamFormat', 'BulkFormat',
    'FileEnumeratorProvider', 'FileSplitAssignerProvider', 'RollingPolicy', 'BucketAssigner']


class BucketAssigner(Declared):
    pass


class BulkFormat(Declared):
    pass


class DefaultRollingPolicy(Declared):
    pass


class FileCompactStrategy(Declared):
    pass


class FileCompactor(Declared):
    pass


class FileEnumeratorProvider(Declared):
    pass


class FileSink(Declared):
    pass


class FileSource(Declared):
    pass


class FileSourceBuilder(Declared):
    pass


class FileSplitAssignerProvider(Declared):
    pass


class OnCheckpointRollingPolicy(Declared):
    pass


class OutputFileConfig(Declared):
    pass


class RollingPolicy(Declared):
    pass


class StreamFormat(Declared):
    pass


class StreamingFileSink(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
