"""PyFlink's ``pyflink.datastream.output_tag``: the tag of a side output.

A process function (``ProcessFunction``, ``KeyedProcessFunction``, the co-process functions,
``ProcessWindowFunction``) sends a value to a side output by yielding ``(tag, value)``; the
stream's ``get_side_output(tag)`` reads those values, and a windowed stream's
``side_output_late_data(tag)`` sends it the records too late for their windows.
"""
from typing import Any, Optional, Union

from pyflink_compat.common.typeinfo import RowTypeInfo, TypeInformation, Types

__all__ = ['OutputTag']


class OutputTag(object):
    """A named side output of an operator, with the type of its values.

    :param tag_id: The side output's name (not empty).
    :param type_info: The type of its values: a type, a list of field types (a row), or
        ``None`` (values travel pickled).
    """

    def __init__(self, tag_id: str, type_info: Optional[Union[TypeInformation, list]] = None):
        if not tag_id:
            raise ValueError("OutputTag tag_id cannot be None or empty string")
        self.tag_id = tag_id
        if type_info is None:
            self.type_info: Any = Types.PICKLED_BYTE_ARRAY()
        elif isinstance(type_info, list):
            self.type_info = RowTypeInfo(type_info)
        elif not isinstance(type_info, TypeInformation):
            raise TypeError("OutputTag type_info must be None, list or TypeInformation")
        else:
            self.type_info = type_info

    def __getstate__(self) -> Any:
        return self.tag_id, self.type_info

    def __setstate__(self, state: Any) -> None:
        self.tag_id, self.type_info = state

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, OutputTag) and other.tag_id == self.tag_id

    def __hash__(self) -> int:
        return hash(self.tag_id)

    def __repr__(self) -> str:
        return "OutputTag(%r)" % self.tag_id


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
