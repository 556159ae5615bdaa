"""docs/performance.md's table of the latest figures (scripts/write_speed_table.py):
written from the newest results file of each benchmark, never stale, and
never retyped (a figure the page's table shows is in the file it names)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "write_speed_table.py"
RESULTS = ROOT / "benchmarks" / "results"


def load_script():
    spec = importlib.util.spec_from_file_location("write_speed_table", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def table_rows(text: str) -> list[list[str]]:
    block = text.split("<!-- speed-table: begin")[1].split("<!-- speed-table: end -->")[0]
    return [[cell.strip() for cell in line.strip("|").split(" | ")] for line in block.splitlines()
            if line.startswith("| ") and not line.startswith("| What ")]


def test_the_table_is_up_to_date():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_newer_results_file_makes_the_table_stale(tmp_path, monkeypatch, capsys):
    script = load_script()
    results = tmp_path / "results"
    shutil.copytree(RESULTS, results)
    newest = max(results.glob("*-bench_labels.txt"))
    text = newest.read_text(encoding="utf-8")
    # The same benchmark run again later, LABEL's ratio now 9.9x: the page must change.
    rerun = re.sub(r"^(LABEL\s+[\d.]+s\s+[\d.]+s\s+)[\d.]+x", r"\g<1>9.9x", text, flags=re.M)
    assert rerun != text
    (results / "2099-01-01-000000-bench_labels.txt").write_text(rerun, encoding="utf-8")
    page = tmp_path / "performance.md"
    page.write_text((ROOT / "docs" / "performance.md").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(script, "RESULTS", results)
    monkeypatch.setattr(script, "PAGE", page)
    monkeypatch.setattr(sys, "argv", ["write_speed_table.py", "--check"])
    assert script.main() == 1
    assert "out of date" in capsys.readouterr().err
    monkeypatch.setattr(sys, "argv", ["write_speed_table.py"])
    assert script.main() == 0
    row = next(r for r in table_rows(page.read_text(encoding="utf-8")) if r[0].startswith("label scoring, LABEL"))
    assert row[3] == "9.9×" and row[5] == "`2099-01-01-000000-bench_labels.txt`"


def test_the_newest_file_of_every_benchmark_in_the_table_gives_rows():
    """A benchmark whose output changed so that the reader no longer finds
    its figures fails here, instead of the table quietly keeping older ones."""
    script = load_script()
    newest: dict[str, Path] = {}
    for path in sorted(RESULTS.glob("*.txt")):
        match = script.FILE_NAME.fullmatch(path.name)
        if match:
            newest[match["benchmark"]] = path
    assert set(script.READERS) <= set(newest), set(script.READERS) - set(newest)
    for benchmark, reader in script.READERS.items():
        assert list(reader(script.read_results(newest[benchmark]).output)), newest[benchmark].name


def test_every_figure_in_the_table_is_in_the_file_it_names():
    text = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    rows = table_rows(text)
    assert len(rows) >= len(load_script().READERS)
    for what, ours, beside, ratio, load, source in rows:
        output = (RESULTS / source.strip("`")).read_text(encoding="utf-8")
        assert f"load: {load} " in output or f"(load {load} " in output, (what, load)
        # As the benchmark printed them, not converted or rounded (a target is the design's, not measured).
        for figure in (ours, *([] if beside.startswith("target ") else [beside])):
            number = re.search(r"[\d.,]+(?= (?:s|ms|MB)\b)", figure)
            assert not number or number[0] in output, (what, figure, source)


def test_every_benchmark_writes_a_results_file_through_results_py():
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        assert "results.run(main, __file__)" in script.read_text(encoding="utf-8"), script.name
