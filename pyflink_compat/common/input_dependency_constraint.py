"""When a task of a batch program may be scheduled (obsolete in Flink since 1.13)."""
from enum import Enum

__all__ = ['InputDependencyConstraint']


class InputDependencyConstraint(Enum):
    """The input condition for scheduling a task. Flink no longer uses it; it is stored and
    read back only.

    :data:`ANY`:

    The task may be scheduled once any of its inputs can be consumed.

    :data:`ALL`:

    The task may be scheduled once all of its inputs can be consumed.
    """

    ANY = 0
    ALL = 1

    @staticmethod
    def _from_j_input_dependency_constraint(j_input_dependency_constraint) \
            -> 'InputDependencyConstraint':
        name = (j_input_dependency_constraint if isinstance(j_input_dependency_constraint, str)
                else j_input_dependency_constraint.name())
        return InputDependencyConstraint[str(name)]

    def _to_j_input_dependency_constraint(self):
        """The name of this constraint, as it is stored."""
        return self.name


from pyflink_compat._reexports import with_reexports  # noqa: E402

__getattr__ = with_reexports(__name__)
