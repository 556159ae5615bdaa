"""The kinds of test, named in one place: each kind is a pytest marker, given
to the modules its patterns match (paths from the repository's root) and to
any module that says ``pytestmark = pytest.mark.KIND`` itself.

The kinds past ``unit`` make the slow tier (marker ``slow``), which
``scripts/test --fast`` (``-m "not slow"``) leaves out; ``unit`` is every test
of no other kind, so ``-m unit`` is the fast tier too. CONTRIBUTING.md says
which folder a new test goes in; the folder gives most of the kinds."""

from __future__ import annotations

from pathlib import Path

SLOW_KINDS: dict[str, tuple[str, ...]] = {
    # a real editor: Neovim, VS Code (code-server and Chromium)
    "editor": ("tests/editors/*",),
    # the language server on the wire (a client over stdio, or raw bytes)
    "lsp": ("tests/server/lsp/test_lsp*.py",),
    # the official scorer or validator on whole treebanks or many files
    "oracle": ("tests/scorer/test_*parity*.py", "tests/server/cli/test_check_validation.py",
               "tests/server/cli/test_fuzz_check.py"),
    # a build, an install, another git repository
    "build": ("tests/project/test_release.py", "tests/project/test_no_compiler.py",
              "tests/project/test_pre_commit_hook.py"),
}

MARKERS = {
    "unit": "a unit or guard test: no other kind (the fast tier, `scripts/test --fast`)",
    "editor": "drives a real editor (tests/editors/)",
    "lsp": "talks to the language server process on the wire",
    "oracle": "runs the official scorer or validator on whole treebanks",
    "build": "builds or installs annoscore, or runs another tool on a repository",
    "slow": "the slow tier: editor, lsp, oracle and build tests; `scripts/test --fast` leaves it out",
}


def kinds_of(module: Path) -> set[str]:
    """The slow kinds a module (a path from the repository's root) has by its place."""
    return {kind for kind, patterns in SLOW_KINDS.items() if any(module.match(p) for p in patterns)}
