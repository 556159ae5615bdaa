"""``annoscore check`` against the official UD validator (udtools 0.2.9), the
way a user runs it: ``check --json`` and the validator on the same file, the
same multiset of (line, test id, error|warning), compared per test id.

The diagnostics that carry a test id are the validator's findings; where
annoscore reports the same problem (a cycle is also ``non-tree``) the one
diagnostic keeps annoscore's code and carries the test id, and ``ud_line``
when the validator puts it on another line.  The core cases need nothing
but the repository (the self-made corpus with every reachable test id
injected, the whole-file scenarios, random damage); with ``../shared``, the
real treebanks too, as they are and with injected errors.  Then the exit
status and the options.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from annoscore.server.cli import main

SCORER_TESTS = Path(__file__).resolve().parents[2] / "scorer"

from tests.support.validation_inject import inject, random_damage, repeat, scenarios  # noqa: E402
from tests.support.validation_oracle import compare, official  # noqa: E402

BASE = (SCORER_TESTS / "data" / "validation_base.conllu").read_text(encoding="utf-8")


def checked(capsys, path: Path, *options: str) -> tuple[int, list[dict], str]:
    status = main(["check", "--json", str(path), *options])
    captured = capsys.readouterr()
    return status, json.loads(captured.out)["files"][0]["diagnostics"], captured.err


def keys(diagnostics: list[dict]) -> Counter:
    """What the validator reports, read from check's JSON: (0-based line, test id, severity)."""
    return Counter(((d.get("ud_line") or d["line"]) - 1, d["test_id"], d["severity"])
                   for d in diagnostics if "test_id" in d)


def same_as_udvalidate(capsys, path: Path, level: int, lang: str) -> Counter:
    expected = official(path, level, lang)
    status, diagnostics, _ = checked(capsys, path, "--level", str(level), "--lang", lang)
    table = compare(expected, keys(diagnostics))
    assert not table, f"{path.name} at level {level}: check differs from udvalidate\n{table}"
    # The validator's rule for the exit status: 1 when it found an error.
    errors = any(severity == "error" for _, _, severity in expected)
    own = [d for d in diagnostics if "test_id" not in d and d["severity"] in ("error", "warning")]
    if not own:
        assert status == (1 if errors else 0), (path.name, level)
    return expected


@pytest.mark.parametrize("seed", [1, 2])
def test_injected_errors_are_the_validators(capsys, tmp_path, seed):
    path = tmp_path / f"en_inject{seed}-ud-test.conllu"
    path.write_bytes(inject(repeat(BASE, 40), seed).encode("utf-8"))
    seen: set[str] = set()
    for level in (1, 2, 3, 4, 5):
        seen |= {k[1] for k in same_as_udvalidate(capsys, path, level, "en")}
    assert len(seen) > 100  # (nearly every test id the validator has)


def test_whole_file_scenarios_are_the_validators(capsys, tmp_path):
    for name, text in scenarios(BASE).items():
        path = tmp_path / f"en_{name.replace('-', '')}-ud-test.conllu"
        path.write_bytes(text.encode("utf-8"))
        for level in (1, 3, 5):
            same_as_udvalidate(capsys, path, level, "en")


def test_random_damage_is_the_validators(capsys, tmp_path):
    """Characters inserted, deleted or replaced at random: whatever annoscore
    makes of the damage itself, the validator's findings are all there, once."""
    rng = random.Random(13)
    path = tmp_path / "en_damaged-ud-test.conllu"
    for _ in range(25):
        text = random_damage(BASE, rng, 6)
        path.write_bytes(text.encode("utf-8"))
        same_as_udvalidate(capsys, path, 5, "en")


def _treebanks():
    from tests.support.data import SHARED
    root = SHARED / "data" / "ud"
    return sorted(root.glob("*/*.conllu")) if root.is_dir() else []


@pytest.mark.parametrize("path", _treebanks() or [None], ids=lambda p: p.name if p else "none")
def test_treebanks_are_the_validators(shared, capsys, path):
    if path is None:
        shared("data", "ud")
    from annoscore.scorer.validation import guess_language

    same_as_udvalidate(capsys, path, 5, guess_language(path))


@pytest.mark.parametrize("path", [p for p in _treebanks() if "test" in p.name] or [None],
                         ids=lambda p: p.name if p else "none")
def test_treebanks_with_injected_errors_are_the_validators(shared, capsys, tmp_path, path):
    if path is None:
        shared("data", "ud")
    from annoscore.scorer.validation import guess_language

    blocks = path.read_text(encoding="utf-8").split("\n\n")
    target = tmp_path / path.name
    target.write_bytes(inject("\n\n".join(blocks[:400]).strip("\n") + "\n\n", len(path.name)).encode("utf-8"))
    same_as_udvalidate(capsys, target, 5, guess_language(path))


# --- what check says and how it exits ----------------------------------------------------

# The first two sentences: valid UD (one alone is not: its enhanced graph copies the basic tree).
VALID = "\n\n".join(BASE.split("\n\n")[:2]) + "\n\n"


def test_exit_status_errors_fail_and_warnings_do_not(capsys, tmp_path):
    path = tmp_path / "en_s-ud-test.conllu"
    path.write_text(VALID, encoding="utf-8")
    assert checked(capsys, path)[0] == 0
    # A finite verb without Mood: the validator's warning, which does not fail (as udvalidate passes it).
    path.write_text(VALID.replace("Mood=Ind|Number=Sing", "Number=Sing", 1), encoding="utf-8")
    status, diagnostics, _ = checked(capsys, path)
    assert status == 0 and [(d["code"], d["severity"], d["level"], d["class"]) for d in diagnostics] == [
        ("verbform-fin-without-mood", "warning", 3, "MORPHO")]
    assert checked(capsys, path, "--fail-on", "warning")[0] == 1
    # An error fails.
    path.write_text(VALID.replace("\tNOUN\t", "\tNOUNX\t", 1), encoding="utf-8")
    status, diagnostics, _ = checked(capsys, path)
    assert status == 1 and "unknown-upos" in {d["code"] for d in diagnostics}
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:6:11: error unknown-upos unknown UPOS tag 'NOUNX'" in out


def test_options_choose_what_is_validated(capsys, tmp_path):
    path = tmp_path / "plain.conllu"  # no language in the name
    path.write_text(VALID.replace("\tNOUN\tNN\tNumber=Sing\t", "\tNOUN\tNN\tNumber=Sing|Zzz=Yes\t", 1)
                    .replace("# text = The cat sleeps.\n", ""), encoding="utf-8")
    status, diagnostics, err = checked(capsys, path)
    assert [d["code"] for d in diagnostics] == ["missing-text"]
    assert "annoscore check: UD validation: levels 4-5 need a language" in err
    _, diagnostics, err = checked(capsys, path, "--lang", "en")
    assert {d["code"] for d in diagnostics} == {"missing-text", "feature-unknown"} and "need a language" not in err
    _, diagnostics, _ = checked(capsys, path, "--lang", "en", "--exclude", "METADATA")
    assert [d["code"] for d in diagnostics] == ["feature-unknown"]
    _, diagnostics, _ = checked(capsys, path, "--lang", "en", "--include-only", "missing-text")
    assert [d["code"] for d in diagnostics] == ["missing-text"]
    _, diagnostics, _ = checked(capsys, path, "--lang", "en", "--level", "2")
    assert [d["code"] for d in diagnostics] == ["missing-text"]
    assert checked(capsys, path, "--level", "0")[:2] == (0, [])
    # No data where it is said to be: level 3, and why.
    _, diagnostics, err = checked(capsys, path, "--lang", "en", "--ud-data", str(tmp_path / "nowhere"))
    assert [d["code"] for d in diagnostics] == ["missing-text"] and "does not exist" in err
    # The UD tools' own data folder, named: the same as the installed one.
    from annoscore.scorer.validation import installed_data_dir
    _, diagnostics, _ = checked(capsys, path, "--lang", "en", "--ud-data", str(installed_data_dir()))
    assert {d["code"] for d in diagnostics} == {"missing-text", "feature-unknown"}
    # A name that is no test id nor class is a usage error.
    assert main(["check", str(path), "--exclude", "unknwn-upos"]) == 2
    assert "--exclude: 'unknwn-upos' is neither a code of annoscore's" in capsys.readouterr().err


def test_the_program_checks_a_large_file_with_helpers_and_ends_cleanly(capsys, tmp_path):
    """The ``annoscore`` program (not `main` in this process): a file large
    enough for the helper processes, its JSON one diagnostic per line and
    equal to `main`'s, the exit status kept through the quick exit, nothing
    on stderr (no helper's traceback, no warning of
    semaphores left behind), and no helper left running."""
    import subprocess
    import time

    path = tmp_path / "en_big-ud-test.conllu"
    path.write_text(inject(repeat(BASE, 240), 3), encoding="utf-8")
    assert path.stat().st_size >= 1 << 20  # check starts the helpers for it (HELPED_BYTES)
    status, diagnostics, _ = checked(capsys, path, "--level", "5", "--lang", "en")
    # In a session of its own: its helpers are told from other programs' (another
    # pytest worker's, another checkout's) by their session id, which they keep.
    program = subprocess.Popen([sys.executable, "-m", "annoscore", "check", "--json", "--level", "5", "--lang", "en",
                                str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env={**os.environ, "ANNOSCORE_HELPERS": "1"})
    stdout, stderr = program.communicate(timeout=120)
    done = subprocess.CompletedProcess(program.args, program.returncode, stdout, stderr)
    assert (done.returncode, json.loads(done.stdout)["files"][0]["diagnostics"]) == (status, diagnostics)
    assert status == 1 and len(diagnostics) > 100
    lines = done.stdout.splitlines()
    shown = [line.rstrip(",").removesuffix("]") for line in lines[2:2 + len(diagnostics)]]
    assert [json.loads(line) for line in shown] == diagnostics
    assert done.stderr == "", done.stderr
    for _ in range(50):  # the forkserver and helpers end once the program has (a moment after)
        left = _forkservers(program.pid)
        if not left:
            break
        time.sleep(0.1)
    assert not left


def test_the_language_server_told_to_exit_while_its_helpers_validate_ends_cleanly(tmp_path):
    """``exit`` during a large document's first validation (the helpers at
    work, a thread of the server holding their pool): exit status 0, and
    nothing on stderr but the server's own log — multiprocessing's tracker
    reported the pool's semaphores leaked, a line that Neovim files in its
    log as an error."""
    import subprocess
    import time

    if not Path("/proc/self/task").exists():
        pytest.skip("needs /proc to see the helper processes")
    text = inject(repeat(BASE, 240), 3)
    (tmp_path / "annoscore.toml").write_text('lang = "en"\n[validation]\nlevel = 5\n', encoding="utf-8")
    path = tmp_path / "big.conllu"
    path.write_text(text, encoding="utf-8")
    server = subprocess.Popen([sys.executable, "-m", "annoscore", "lsp"], cwd=tmp_path, stdin=subprocess.PIPE,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def send(message: dict) -> None:
        body = json.dumps(message).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    def descendants(pid: int) -> set[int]:
        try:
            children = {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
        except OSError:
            return set()
        return children.union(*(descendants(c) for c in children))

    try:
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}})
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": path.as_uri(), "languageId": "conllu", "version": 1, "text": text}}})
        # The helpers are the forkserver's children: wait until they are at work.
        deadline = time.monotonic() + 60
        while len(descendants(server.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        if len(descendants(server.pid)) < 2:
            pytest.skip("no helper processes here")
        send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        send({"jsonrpc": "2.0", "method": "exit"})
        _, err = server.communicate(timeout=60)
    finally:
        server.kill()
    assert server.returncode == 0
    log = [line for line in err.decode().splitlines() if not line.startswith("annoscore ")]
    assert log == [], "\n".join(log[-5:])


def _forkservers(session: int) -> set[str]:
    import subprocess

    return set(subprocess.run(["pgrep", "-s", str(session), "-f", "from multiprocessing.forkserver import main"],
                              capture_output=True, text=True).stdout.split())


def test_check_gives_the_helpers_a_head_start_that_the_engine_takes(capsys, tmp_path, monkeypatch):
    """A large file's blocks go to the helpers before the engine has read it
    (`validation_parts.start_early`); the engine takes that job when its
    blocks and settings are the same, and otherwise validates with its own
    (the head start cancelled): the diagnostics are the same every way."""
    from dataclasses import replace

    from annoscore.server.engine.conllu import validation_parts

    if validation_parts.helpers() < 2:
        pytest.skip("one core: no helper processes")
    monkeypatch.setenv("ANNOSCORE_HELPERS", "1")  # (whatever the machine's load)
    path = tmp_path / "en_big-ud-test.conllu"
    path.write_text(inject(repeat(BASE, 240), 4), encoding="utf-8")
    jobs, taken = [], []
    start_early, take_early, job_init = (validation_parts.start_early, validation_parts.take_early,
                                         validation_parts.BlockJob.__init__)
    monkeypatch.setattr(validation_parts.BlockJob, "__init__",
                        lambda self, *a, **k: (jobs.append(self), job_init(self, *a, **k))[1])
    monkeypatch.setattr(validation_parts, "take_early", lambda *a: (taken.append(take_early(*a)), taken[-1])[1])
    monkeypatch.setattr("annoscore.server.engine.conllu.validation.take_early", validation_parts.take_early)
    from annoscore.server.engine.conllu.handler import ConlluHandler
    stores = []
    new_store = ConlluHandler.new_store
    monkeypatch.setattr(ConlluHandler, "new_store", lambda *a: (stores.append(a[1]), new_store(*a))[1])
    expected = checked(capsys, path, "--level", "5", "--lang", "en")
    assert expected[0] == 1 and len(expected[1]) > 100
    assert len(jobs) == 1 and taken == jobs  # the head start, taken
    assert stores == []  # and the text's store cut for it, not cut again
    # Other settings (or other blocks: the file changed after the head
    # start): not taken, the engine's own job, the head start cancelled.
    for changed in (lambda blocks, s: start_early(blocks, replace(s, level=3)),
                    lambda blocks, s: start_early(blocks[:-1], s)):
        jobs.clear()
        taken.clear()
        monkeypatch.setattr(validation_parts, "start_early", changed)
        assert checked(capsys, path, "--level", "5", "--lang", "en") == expected
        assert len(jobs) == 2 and taken == [None] and jobs[0]._cancelled and not jobs[1]._cancelled
    # No head start at all: the same.
    jobs.clear()
    monkeypatch.setattr(validation_parts, "start_early", lambda *a: None)
    assert checked(capsys, path, "--level", "5", "--lang", "en") == expected
    assert len(jobs) == 1


def test_the_engine_takes_a_store_made_already_only_for_its_own_text(tmp_path):
    from annoscore.server.engine import Engine
    from annoscore.server.textstore import TextStore

    path = str(tmp_path / "a.conllu")
    engine = Engine(str(tmp_path))
    store = TextStore(VALID, lone_cr_ends_lines=True)
    assert engine.open(path, path, VALID, store=store).store is store
    other = TextStore(VALID + "\n", lone_cr_ends_lines=True)
    engine.close(path)
    assert engine.open(path, path, VALID, store=other).store is not other
    engine.close(path)
    crs = TextStore(VALID, lone_cr_ends_lines=False)
    assert engine.open(path, path, VALID, store=crs).store is not crs


def test_check_validates_in_its_own_process_when_helpers_would_not_gain(capsys, tmp_path, monkeypatch):
    """No idle core (by the load average, `server.processes.helpers_gain`):
    a large file is validated in this process, no helper job started, and
    the diagnostics are those the helpers give."""
    from annoscore.server import processes
    from annoscore.server.engine.conllu import validation_parts

    if validation_parts.helpers() < 2:
        pytest.skip("one core: no helper processes")
    path = tmp_path / "en_big-ud-test.conllu"
    path.write_text(inject(repeat(BASE, 240), 5), encoding="utf-8")
    jobs = []
    job_init = validation_parts.BlockJob.__init__
    monkeypatch.setattr(validation_parts.BlockJob, "__init__",
                        lambda self, *a, **k: (jobs.append(self), job_init(self, *a, **k))[1])
    monkeypatch.setenv("ANNOSCORE_HELPERS", "1")
    helped = checked(capsys, path, "--level", "5", "--lang", "en")
    assert len(jobs) == 1 and len(helped[1]) > 100
    jobs.clear()
    monkeypatch.delenv("ANNOSCORE_HELPERS")
    monkeypatch.setattr(processes.os, "getloadavg", lambda: (processes.default_jobs() - 0.5, 0.0, 0.0))
    assert not processes.helpers_gain()
    assert checked(capsys, path, "--level", "5", "--lang", "en") == helped
    assert jobs == [] and validation_parts.helpers() >= 2  # (only within the check)
    monkeypatch.setattr(processes.os, "getloadavg", lambda: (0.1, 0.0, 0.0))
    assert processes.helpers_gain()
