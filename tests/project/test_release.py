"""What a release is made of: one version number everywhere, and the
wheel and sdist that ``python -m build`` makes, checked by ``twine check``
and installed into a clean virtual environment, where the installed
program runs the bundled demo and checks the bundled example.

The build and the install need PyPI (or pip's cache): setuptools for the
isolated build, the dependencies for the environment.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from annoscore.scorer import __version__

ROOT = Path(__file__).resolve().parents[2]


def test_one_version_for_the_package_the_extension_and_the_neovim_plugin():
    package = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text(encoding="utf-8"))
    lock = json.loads((ROOT / "editors" / "vscode" / "package-lock.json").read_text(encoding="utf-8"))
    nvim = re.search(r'(?m)^M\.version = "([^"]+)"$',
                     (ROOT / "editors" / "nvim" / "lua" / "annoscore" / "init.lua").read_text(encoding="utf-8"))
    vsix_names = set(re.findall(r"annoscore-(\d[\w.]*)\.vsix",
                                (ROOT / "editors" / "vscode" / "README.md").read_text(encoding="utf-8")))
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert {"package.json": package["version"], "package-lock.json": lock["version"],
            "package-lock.json packages['']": lock["packages"][""]["version"],
            "editors/nvim init.lua": nvim and nvim.group(1),
            "editors/vscode/README.md .vsix names": ",".join(sorted(vsix_names))} == dict.fromkeys(
        ["package.json", "package-lock.json", "package-lock.json packages['']", "editors/nvim init.lua",
         "editors/vscode/README.md .vsix names"], __version__)


def run(*command: str, cwd: Path, env: dict | None = None, timeout: int = 900) -> subprocess.CompletedProcess:
    result = subprocess.run(list(command), cwd=cwd, capture_output=True, text=True, timeout=timeout,
                            env={**os.environ, **(env or {})}, stdin=subprocess.DEVNULL)
    assert result.returncode in (0, 1), f"{command}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def test_the_built_wheel_and_sdist_pass_twine_and_the_wheel_works_in_a_clean_venv(tmp_path):
    pytest.importorskip("build", reason="needs build (the test extras)")
    pytest.importorskip("twine", reason="needs twine (the test extras)")
    dist = tmp_path / "dist"
    built = run(sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT), cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "deprecated" not in (built.stdout + built.stderr).lower()  # the metadata as setuptools wants it now
    wheel, = dist.glob(f"annoscore-{__version__}-*.whl")  # platform-tagged: the compiled lane
    sdist, = dist.glob(f"annoscore-{__version__}.tar.gz")
    checked = run(sys.executable, "-m", "twine", "check", "--strict", str(wheel), str(sdist), cwd=tmp_path)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        metadata = zf.read(f"annoscore-{__version__}.dist-info/METADATA").decode("utf-8")
    assert "annoscore/server/demo/sample.conllu" in names and "annoscore/server/demo/sample.gold.conllu" in names
    # One namespace: nothing installed at the top level but annoscore (and its dist-info).
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"annoscore"}, tops
    # The LSP protocol's JSON Schemas are package data (docs/lsp-protocol.md).
    schemas = {f"annoscore/server/lsp/schemas/{p.name}" for p in (ROOT / "server" / "lsp" / "schemas").glob("*.json")}
    assert len(schemas) > 10 and schemas <= set(names), schemas - set(names)
    assert not any(n.startswith(("tests/", "benchmarks/", "editors/")) for n in names)
    assert "License-Expression: Apache-2.0" in metadata and "Description-Content-Type: text/markdown" in metadata
    # Levels 4-5 from one install: the ud extra brings the UD language data (udtools' data files).
    assert "Provides-Extra: ud" in metadata and 'Requires-Dist: udtools==0.2.9; extra == "ud"' in metadata

    # A clean environment: no site packages, run from a folder without the checkout.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    installed = run(str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    str(wheel), cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    program = str(venv / "bin" / "annoscore")
    version = run(program, "--version", cwd=tmp_path)
    first, *rest = version.stdout.strip().splitlines()
    assert first == f"annoscore {__version__}"
    # The wheel carries the compiled plain lane when the build had a compiler; --version says which lane runs.
    compiled = any(n.startswith("annoscore/scorer/conllu/_plain") and n.endswith((".so", ".pyd")) for n in names)
    assert len(rest) == 1 and rest[0].startswith("plain lane: compiled" if compiled else "plain lane: python"), version.stdout
    python = str(venv / "bin" / "python")
    found = run(python, "-c", "import importlib.util as u; print([bool(u.find_spec(n)) for n in ('scorer', 'server', 'annoscore')])", cwd=tmp_path)
    assert found.stdout.strip() == "[False, False, True]", found.stdout + found.stderr
    api = run(python, "-c", "from annoscore import evaluate_conllu, compare_conllu, __version__; print(__version__)", cwd=tmp_path)
    assert api.stdout.strip() == __version__, api.stdout + api.stderr
    as_module = run(python, "-m", "annoscore", "--version", cwd=tmp_path)
    assert as_module.stdout.splitlines()[0] == f"annoscore {__version__}", as_module.stdout + as_module.stderr
    demo = run(program, "demo", cwd=tmp_path)
    assert demo.returncode == 0, demo.stdout + demo.stderr
    first = demo.stdout.splitlines()[0]
    assert first.startswith("$ annoscore evaluate ") and "LAS" in demo.stdout
    pred = Path(first.split()[3])
    assert pred.name == "sample.conllu" and venv in pred.parents  # the installed copy, not the checkout's
    check = run(program, "check", str(pred), cwd=tmp_path)
    assert check.returncode == 1  # the example has a cycle and an unparsed sentence
    assert "error cycle word 3 is its own ancestor" in check.stdout and "information unparsed" in check.stdout
    assert "LAS 75.32" in check.stderr  # scored against the bundled gold beside it
