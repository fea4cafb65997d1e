"""A corpus of real public PyFlink job preambles, run under PyFlink and under the shim."""
