"""The language server's JSON of diagnostics (`AnnoscoreServer.lsp_diagnostics`):
kept from one publication to the next, and always what encoding afresh gives.
"""

from __future__ import annotations

import json

from annoscore.server.config import Settings, ValidationConfig
from annoscore.server.engine import Engine
from annoscore.server.engine.conllu import validation
from annoscore.server.lsp import server as lsp_server

SENTENCE = ("# sent_id = s{k}\n# text = The cat sleeps.\n"
            "1\tThe\tthe\tDET\tDT\tDefinite=Def|PronType=Art\t2\tdet\t_\t_\n"
            "2\tcat\tcat\tNOUNX\tNN\tNumber=Sing\t3\tnsubj\t_\t_\n"
            "3\tsleeps\tsleep\tVERB\tVBZ\tMood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin\t0\troot\t_"
            "\tSpaceAfter=No\n4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_\n\n")


def server_with(tmp_path, text: str) -> tuple[lsp_server.AnnoscoreServer, str]:
    ls = lsp_server.AnnoscoreServer()
    ls.engine = Engine(str(tmp_path), Settings(validation=ValidationConfig(level=3)))
    path = str(tmp_path / "doc.conllu")
    ls.engine.open(path, path, text, 1)
    ls.engine.rescore(path)
    return ls, path


def encoded(ls, path) -> list[str]:
    return ls.lsp_diagnostics(path, ls.engine.diagnostics(path))


def test_unchanged_findings_are_not_encoded_again_and_the_json_is_a_fresh_servers(tmp_path, monkeypatch):
    monkeypatch.setattr(validation, "PAGE_SEGMENTS", 2)
    text = "".join(SENTENCE.format(k=k) for k in range(12))
    ls, path = server_with(tmp_path, text)
    first = encoded(ls, path)
    assert sum('"unknown-upos"' in d for d in first) == 12
    dumps = []
    original = json.dumps
    monkeypatch.setattr(lsp_server.json, "dumps", lambda *a, **k: dumps.append(1) or original(*a, **k))
    assert encoded(ls, path) == first and dumps == []  # nothing changed: nothing encoded
    lines = text.split("\n")
    last = max(k for k, line in enumerate(lines) if "\tNOUNX\t" in line)
    start = lines[last].index("NOUNX")
    ls.engine.change(path, 2, [((last, start), (last, start + 5), "NOUN")])
    ls.engine.rescore(path)
    after = encoded(ls, path)
    assert sum('"unknown-upos"' in d for d in after) == 11
    # Only what is new was encoded: at most the edited page's two sentences.
    assert len(dumps) < len(after) // 4
    dumps.clear()
    assert encoded(ls, path) == after and dumps == []  # and what was kept stays kept
    lines[last] = lines[last].replace("NOUNX", "NOUN")
    fresh, fresh_path = server_with(tmp_path, "\n".join(lines))
    assert sorted(after) == sorted(encoded(fresh, fresh_path))
