"""The fixture the command-line tests share (their `run` is tests.support.cli's)."""

from __future__ import annotations

import pytest

from tests.support.cli import pred_and_gold


@pytest.fixture
def files(request, tmp_path):
    """The module's ``PRED`` and ``GOLD`` written as pred.conllu and gold.conllu:
    (pred, gold) paths."""
    module = request.module
    return pred_and_gold(tmp_path, module.PRED, module.GOLD)
