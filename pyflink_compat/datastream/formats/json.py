"""PyFlink's ``pyflink.datastream.formats.json``: rows read from and written as JSON objects.

A schema holds a description of the format (its row type and options) that the Kafka
connector reads (``pyflink_compat.runtime.kafka_io``).
"""
from typing import Any

from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.missing import not_supported

_MODULE = 'pyflink.datastream.formats.json'

__all__ = ['JsonRowDeserializationSchema', 'JsonRowSerializationSchema']


class JsonRowDeserializationSchema(DeserializationSchema):
    """Reads each JSON object as a row of a row type.

    :param j_deserialization_schema: The description of the format.
    """

    def __init__(self, j_deserialization_schema: Any):
        super(JsonRowDeserializationSchema, self).__init__(j_deserialization_schema)

    @staticmethod
    def builder() -> 'JsonRowDeserializationSchema.Builder':
        return JsonRowDeserializationSchema.Builder()

    class Builder(object):
        """Builds a :class:`JsonRowDeserializationSchema`."""

        def __init__(self) -> None:
            self._type_info: Any = None
            self._fail_on_missing_field = False
            self._ignore_parse_errors = False

        def type_info(self, type_info: Any) -> 'JsonRowDeserializationSchema.Builder':
            """The row type the objects are read as."""
            self._type_info = type_info
            return self

        def json_schema(self, json_schema: str) -> 'JsonRowDeserializationSchema.Builder':
            if json_schema is None:
                raise TypeError("The json_schema must not be None.")
            raise not_supported("JsonRowDeserializationSchema.Builder.json_schema", _MODULE)

        def fail_on_missing_field(self) -> 'JsonRowDeserializationSchema.Builder':
            """A missing field fails the job (else it is ``None``)."""
            self._fail_on_missing_field = True
            return self

        def ignore_parse_errors(self) -> 'JsonRowDeserializationSchema.Builder':
            """A record that is not JSON is skipped (else it fails the job)."""
            self._ignore_parse_errors = True
            return self

        def build(self) -> 'JsonRowDeserializationSchema':
            if self._type_info is None:
                raise TypeError("Typeinfo should be set.")
            return JsonRowDeserializationSchema(
                ("json-row", self._type_info, self._fail_on_missing_field, self._ignore_parse_errors))


class JsonRowSerializationSchema(SerializationSchema):
    """Writes each row as a JSON object of its named fields.

    :param j_serialization_schema: The description of the format.
    """

    def __init__(self, j_serialization_schema: Any):
        super(JsonRowSerializationSchema, self).__init__(j_serialization_schema)

    @staticmethod
    def builder() -> 'JsonRowSerializationSchema.Builder':
        return JsonRowSerializationSchema.Builder()

    class Builder(object):
        """Builds a :class:`JsonRowSerializationSchema`."""

        def __init__(self) -> None:
            self._type_info: Any = None

        def with_type_info(self, type_info: Any) -> 'JsonRowSerializationSchema.Builder':
            self._type_info = type_info
            return self

        def build(self) -> 'JsonRowSerializationSchema':
            if self._type_info is None:
                raise TypeError("Typeinfo should be set.")
            return JsonRowSerializationSchema(("json-row", self._type_info))


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
