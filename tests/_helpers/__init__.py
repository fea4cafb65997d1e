"""Plain modules of helpers that the test folders share.

Fixtures and hooks live in the ``conftest.py`` files; everything a test file imports lives here
(or, when only one folder uses it, in an underscore module of that folder).
"""
