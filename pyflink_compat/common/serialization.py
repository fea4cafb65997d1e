"""PyFlink's ``pyflink.common.serialization``: how records become bytes and back.

A schema or encoder here holds a description of the format (a tuple naming it and its
settings), which the connectors read when they build the Spark reader or writer; PyFlink's
hold a Java object. The bulk writer factories are declared only: using one raises
:class:`~pyflink_compat.missing.NotSupportedError`.
"""
from typing import Any

from pyflink_compat.missing.declared import Declared

__all__ = ['SerializationSchema', 'DeserializationSchema', 'SimpleStringSchema', 'Encoder',
    'BulkWriterFactory']


class SerializationSchema(object):
    """Turns a record into the bytes a sink writes.

    :param j_serialization_schema: The description of the format.
    """

    def __init__(self, j_serialization_schema: Any = None):
        self._j_serialization_schema = j_serialization_schema


class DeserializationSchema(object):
    """Turns the bytes a source reads into a record.

    :param j_deserialization_schema: The description of the format.
    """

    def __init__(self, j_deserialization_schema: Any = None):
        self._j_deserialization_schema = j_deserialization_schema


class SimpleStringSchema(SerializationSchema, DeserializationSchema):
    """Records are strings, read and written as text in ``charset``.

    :param charset: The text's character set.
    """

    def __init__(self, charset: str = 'UTF-8'):
        description = ("simple-string", charset)
        SerializationSchema.__init__(self, j_serialization_schema=description)
        DeserializationSchema.__init__(self, j_deserialization_schema=description)


class Encoder(object):
    """Writes the records of a row-format file sink.

    :param j_encoder: The description of the encoding.
    """

    def __init__(self, j_encoder: Any):
        self._j_encoder = j_encoder

    @staticmethod
    def simple_string_encoder(charset_name: str = "UTF-8") -> 'Encoder':
        """Each record's text (as the JVM's ``toString`` writes it), one record a line."""
        return Encoder(("simple-string", charset_name))


class BulkWriterFactory(Declared):
    pass


class RowDataBulkWriterFactory(Declared):
    pass


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
