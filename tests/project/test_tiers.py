"""The fast tier (`scripts/test --fast`, CONTRIBUTING.md) leaves out exactly
the slow tier named in tests/support/tiers.py, and keeps the unit and guard tests."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # it collects the whole suite twice

ROOT = Path(__file__).resolve().parents[2]


def collected(*args: str) -> tuple[set[str], dict[str, set[str]]]:
    """The modules collected, and each module's kinds (every test's markers among
    the kinds, from tests/support/kinds_report.py)."""
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-p", "tests.support.kinds_report", "-n", "0", *args, "tests"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    modules = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line and not line.startswith("KINDS ")}
    kinds: dict[str, set[str]] = {}
    for line in done.stdout.splitlines():
        if line.startswith("KINDS "):
            node, names = line[len("KINDS "):].rsplit(" ", 1)  # (a test's id may hold spaces)
            kinds.setdefault(node.split("::")[0], set()).update(names.split(",") if names else ())
            assert ("unit" in names.split(",")) != ("slow" in names.split(",")), line  # one tier each
    return modules, kinds


def test_the_fast_tier_leaves_out_the_slow_modules_only():
    whole, kinds = collected()
    fast, _ = collected("-m", "not slow")  # the selection scripts/test --fast makes
    assert set(kinds) == whole
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
    assert {m for m in whole if "unit" in kinds[m]} == fast  # the unit tests are the fast tier
    assert {m for m in whole if "lsp" in kinds[m]} == {m for m in whole if Path(m).match("tests/server/lsp/test_lsp*.py")}
    assert {m for m in whole if "editor" in kinds[m]} == {m for m in whole if m.startswith("tests/editors/")}
    assert "oracle" in kinds["tests/scorer/test_validation_parity.py"] and "build" in kinds["tests/project/test_release.py"]


def test_scripts_test_has_a_fast_tier():
    script = (ROOT / "scripts" / "test").read_text(encoding="utf-8")
    assert '--fast' in script and '-m "not slow"' in script
