"""Without a C compiler annoscore still builds, installs and scores: the
extension is optional (setup.py), the Python lane takes over and says so,
and a core subset of the suite passes on that install."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.support.pair_maker import make_pair

ROOT = Path(__file__).resolve().parents[2]


def test_build_install_and_score_without_a_compiler(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("annoscore", "scorer", "server"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    env = {**os.environ, "CC": "false", "CXX": "false"}  # any compiler call fails
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "out"),
                            str(source)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert built.returncode == 0, built.stderr[-3000:]
    wheel = next((tmp_path / "out").glob("annoscore-*.whl"))
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".so")]
    site = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site),
                                str(wheel)], capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert installed.returncode == 0, installed.stderr[-3000:]
    run_env = {**os.environ, "PYTHONPATH": str(site)}
    run_env.pop("ANNOSCORE_NO_EXTENSION", None)
    work = tmp_path / "work"
    work.mkdir()

    def annoscore(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "annoscore", *args], capture_output=True, text=True,
                              env=run_env, cwd=work, timeout=300)

    version = annoscore("--version")
    assert "plain lane: python (the C extension is not built" in version.stdout, version
    system, gold = make_pair(work, 7, n=200)
    there = annoscore("evaluate", str(system), str(gold), "--json", "--jobs", "1")
    here = subprocess.run([sys.executable, "-m", "annoscore", "evaluate", str(system), str(gold), "--json",
                           "--jobs", "1"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert json.loads(there.stdout)["metrics"] == json.loads(here.stdout)["metrics"]
    # A core subset of the suite, on that install (its scorer, not this checkout's).
    where = subprocess.run([sys.executable, "-c", "import annoscore.scorer.conllu.lane as l; print(l.__file__, l._plain)"],
                           capture_output=True, text=True, env=run_env, cwd=work, timeout=60).stdout
    assert where.startswith(str(site)) and where.strip().endswith("None")
    tests = [str(ROOT / "tests" / "scorer" / name) for name in
             ("test_conllu_bulk.py", "test_conllu_score.py", "test_conllu_checks.py")]
    # importlib mode: pytest puts no folder of the checkout first on sys.path, so annoscore comes
    # from the install (first on PYTHONPATH) and only the tests package from the checkout.
    suite = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                            "--import-mode=importlib", "--rootdir", str(ROOT), *tests, "-W", "ignore"],
                           capture_output=True, text=True,
                           env={**run_env, "PYTHONPATH": f"{site}{os.pathsep}{ROOT}"}, cwd=work,
                           timeout=900)
    assert suite.returncode == 0, suite.stdout[-3000:]
    assert " passed" in suite.stdout
