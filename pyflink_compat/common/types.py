"""PyFlink's ``pyflink.common.types``: :class:`Row`, the record of rows, and :class:`RowKind`,
the change a row stands for."""

from enum import Enum
from typing import Any, Dict, Iterator, List, Optional, Sequence

__all__ = ['Row', 'RowKind']


class RowKind(Enum):
    """The change a row stands for in a changelog; printed as Flink's short codes."""

    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3

    def __str__(self) -> str:
        return _SHORT_CODES[self.value]

    def to_j_row_kind(self) -> Any:
        """Not supported: a row kind has no JVM counterpart on Spark."""
        from pyflink_compat.missing import not_supported

        raise not_supported("RowKind.to_j_row_kind")


_SHORT_CODES = {0: "+I", 1: "-U", 2: "+U", 3: "-D"}


def _create_row(fields: Optional[Sequence[str]], values: Sequence[Any],
                row_kind: Optional[RowKind] = None) -> "Row":
    # Used to unpickle rows (and by a row used as a factory of rows).
    row = Row(*values)
    if fields is not None:
        row._fields = list(fields)
    if row_kind is not None:
        row.set_row_kind(row_kind)
    return row


class Row(object):
    """A record whose fields are reached by position, by name (``row['name']``) or as
    attributes (``row.name``).

    ``Row(1, 'a')`` has positional fields only; ``Row(name='Alice', age=11)`` names its fields
    in the order given; ``Row('name', 'age')`` used as a callable makes rows with those names.
    Every row carries a :class:`RowKind` (``INSERT`` unless set).
    """

    def __init__(self, *args: Any, **kwargs: Any):
        if args and kwargs:
            raise ValueError("Can not use both args and kwargs to create Row")
        if kwargs:
            self._fields = list(kwargs.keys())
            self._values = [kwargs[name] for name in self._fields]
            self._from_dict = True
        else:
            self._values = list(args)
        self._row_kind = RowKind.INSERT

    def as_dict(self, recursive: bool = False) -> Dict[str, Any]:
        """The row as a dict from field name to value; nested rows too when ``recursive``."""
        if not hasattr(self, "_fields"):
            raise TypeError("Cannot convert a Row class into dict")

        def plain(obj: Any) -> Any:
            if not recursive:
                return obj
            if isinstance(obj, Row):
                return obj.as_dict(True)
            if isinstance(obj, list):
                return [plain(o) for o in obj]
            if isinstance(obj, dict):
                return {k: plain(v) for k, v in obj.items()}
            return obj

        return dict(zip(self._fields, (plain(o) for o in self)))

    def get_row_kind(self) -> RowKind:
        """The change this row stands for."""
        return self._row_kind

    def set_row_kind(self, row_kind: RowKind) -> None:
        """Set the change this row stands for."""
        self._row_kind = row_kind

    def set_field_names(self, field_names: List) -> None:
        """Name the fields."""
        self._fields = field_names

    def get_fields_by_names(self, names: List[str]) -> List[Any]:
        """The values of the fields ``names``, in that order."""
        if not hasattr(self, '_fields') or names == self._fields:
            return self._values
        unknown = list(set(names).difference(set(self._fields)))
        if unknown:
            raise Exception("Field names {0} not exist in {1}.".format(unknown, self._fields))
        return [self._values[self._fields.index(name)] for name in names]

    def _is_retract_msg(self) -> bool:
        return self._row_kind in (RowKind.UPDATE_BEFORE, RowKind.DELETE)

    def _is_accumulate_msg(self) -> bool:
        return self._row_kind in (RowKind.UPDATE_AFTER, RowKind.INSERT)

    @staticmethod
    def of_kind(row_kind: RowKind, *args: Any, **kwargs: Any) -> "Row":
        """A row of the given kind."""
        row = Row(*args, **kwargs)
        row.set_row_kind(row_kind)
        return row

    def __contains__(self, item: Any) -> bool:
        if getattr(self, "_fields", None) is not None:
            return item in self._fields
        return item in self._values

    def __call__(self, *args: Any) -> "Row":
        if len(args) > len(self):
            raise ValueError("Can not create Row with fields %s, expected %d values "
                             "but got %s" % (self, len(self), args))
        return _create_row(self._values, args, self._row_kind)

    def __getitem__(self, item: Any) -> Any:
        if isinstance(item, (int, slice)):
            return self._values[item]
        try:
            return self._values[self._fields.index(item)]
        except IndexError:
            raise KeyError(item) from None
        except ValueError:
            raise ValueError(item) from None

    def __setitem__(self, key: Any, value: Any) -> None:
        if isinstance(key, (int, slice)):
            self._values[key] = value
            return
        try:
            self._values[self._fields.index(key)] = value
        except (IndexError, AttributeError):
            raise KeyError(key) from None
        except ValueError:
            raise ValueError(value) from None

    def __getattr__(self, item: str) -> Any:
        if item.startswith("_"):
            raise AttributeError(item)
        try:
            return self[self._fields.index(item)]
        except (IndexError, ValueError):
            raise AttributeError(item) from None

    def __setattr__(self, key: str, value: Any) -> None:
        if key not in ("_fields", "_from_dict", "_row_kind", "_values"):
            raise AttributeError(key)
        self.__dict__[key] = value

    def __reduce__(self) -> Any:
        return _create_row, (getattr(self, "_fields", None), tuple(self), self._row_kind)

    def __repr__(self) -> str:
        if hasattr(self, "_fields"):
            return "Row(%s)" % ", ".join("%s=%r" % (k, v) for k, v in zip(self._fields, tuple(self)))
        return "<Row(%s)>" % ", ".join(repr(field) for field in self)

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Row) or self.__class__ != other.__class__:
            return False
        if self._row_kind != other._row_kind:
            return False
        if hasattr(self, "_fields") != hasattr(other, "_fields"):
            return False
        if not hasattr(self, "_fields"):
            return self._values == other._values
        if sorted(self._fields) != sorted(other._fields):
            return False
        return all(self[name] == other[name] for name in self._fields)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
