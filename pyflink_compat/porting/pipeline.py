"""The writer of PySpark for the mechanical part of a pipeline (placeholder)."""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import libcst as cst

__all__ = ["PipelineWriter"]


class PipelineWriter:
    def __init__(self, porter: Any):
        self.porter = porter

    def assigned(self, targets: Sequence[cst.BaseExpression], value: cst.BaseExpression) -> None:
        pass

    def rewrite(self, line: cst.SimpleStatementLine) -> Optional[Tuple[List[cst.BaseStatement], str]]:
        return None
