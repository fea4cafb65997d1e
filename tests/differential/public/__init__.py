"""Public PyFlink jobs that the repository does not hold: where each comes from (repository,
path, commit, licence), how it is run and what live PyFlink 1.20.5 printed for it.

``python -m tests.differential.public --sources DIR [NAME ...]`` runs them under pyflink_compat
from a directory where their repositories are checked out (``DIR/<owner>/<repo>``).
"""
