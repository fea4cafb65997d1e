"""What a statement's :class:`~pyflink_compat.table.TableResult` holds."""

__all__ = ['ResultKind']


class ResultKind(object):
    """The kind of a statement's result.

    :data:`SUCCESS`: the statement (DDL, ``SET``...) ran; the result is a simple "OK".

    :data:`SUCCESS_WITH_CONTENT`: the statement (a query, an ``INSERT``) gives rows.
    """

    SUCCESS = 0
    SUCCESS_WITH_CONTENT = 1


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
