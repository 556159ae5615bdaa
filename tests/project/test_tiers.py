"""The fast tier (`scripts/test --fast`, CONTRIBUTING.md) leaves out exactly
the slow tier named in tests/support/tiers.py, and keeps the unit and guard tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # it collects the whole suite twice

ROOT = Path(__file__).resolve().parents[2]


def collected(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-n", "0", *args, "tests"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}


def test_the_fast_tier_leaves_out_the_slow_modules_only():
    whole = collected()
    fast = collected("-m", "not slow")
    left_out = whole - fast
    assert "tests/server/lsp/test_lsp.py" in left_out and "tests/scorer/test_validation_parity.py" in left_out
    from tests.support.tiers import SLOW_KINDS, kinds_of

    def slow(module: str) -> bool:  # named in the table of kinds, or marked in its own file
        text = (ROOT / module).read_text(encoding="utf-8")
        return bool(kinds_of(Path(module))) or \
            any(f"pytestmark = pytest.mark.{kind}" in text for kind in [*SLOW_KINDS, "slow"])

    assert all(slow(m) for m in left_out), sorted(m for m in left_out if not slow(m))
    assert all(m in left_out for m in whole if slow(m))
    assert {"tests/scorer/test_conllu_score.py", "tests/server/cli/test_cli_fix.py"} <= fast
    assert collected("-m", "unit") == fast  # the unit tests are the fast tier
    assert collected("-m", "lsp") == {m for m in whole if Path(m).match("tests/server/lsp/test_lsp*.py")}
    assert collected("-m", "editor") == {m for m in whole if m.startswith("tests/editors/")}


def test_scripts_test_has_a_fast_tier():
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert '--fast' in script and '-m "not slow"' in script
