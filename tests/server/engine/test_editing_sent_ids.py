"""A split's new sent_id is unique in the document, and stays so as the
document changes: the sent_ids are kept per document and follow the
segments that change (see `server.engine.editing.SentIds`)."""

from __future__ import annotations

from annoscore.server.engine import Engine
from annoscore.server.engine.editing import plan


def sentence(sent_id: str) -> str:
    return (f"# sent_id = {sent_id}\n# text = le chat dort\n"
            "1\tle\tle\tDET\t_\t_\t2\tdet\t_\t_\n"
            "2\tchat\tchat\tNOUN\t_\t_\t3\tnsubj\t_\t_\n"
            "3\tdort\tdormir\tVERB\t_\t_\t0\troot\t_\t_\n\n")


def new_id(engine: Engine) -> str:
    label = plan(engine, "k", "splitSentence", 4, 0).label  # before "dort" of s1
    return label.split("(new sent_id ")[1].split(")")[0]


def test_the_new_sent_id_follows_the_documents_changes():
    engine = Engine()
    engine.open("k", None, sentence("s1") + sentence("s1-2"), 1, language="conllu")
    assert new_id(engine) == "s1-3"  # before any rescore: read from the blocks
    engine.rescore("k")
    assert new_id(engine) == "s1-3"  # from the analyses
    # s1-2 renamed by hand (line 6 is its sent_id): its ID is free again.
    engine.change("k", 2, [((6, 12), (6, 16), "other")])
    assert engine.documents["k"].store.line(6) == "# sent_id = other"
    assert new_id(engine) == "s1-2"
    # And taken again, in a sentence typed in after it.
    engine.change("k", 3, [((12, 0), (12, 0), sentence("s1-2"))])
    assert new_id(engine) == "s1-3"
    # The whole text replaced: the kept sent_ids are those of the new text.
    engine.change("k", 4, [sentence("s1") + sentence("s1-3") + sentence("s1-2")])
    assert new_id(engine) == "s1-4"


def test_a_rescore_in_the_editor_leaves_the_sent_ids_gathered(tmp_path):
    """After publishing, the language server brings the sent_ids up to date
    (`Scoring._prepare_edits`), so that the session's first split does not
    gather a large document's (~0.5 s on 1M words)."""
    from annoscore.server.config import Settings
    from annoscore.server.engine import editing
    from annoscore.server.lsp import app as lsp_app
    from annoscore.server.lsp.features.scoring import Scoring

    ls = lsp_app.create_server()
    ls.engine = Engine(str(tmp_path), Settings())
    path = str(tmp_path / "doc.conllu")
    ls.engine.open(path, path, sentence("s1") + sentence("s2"), 1)
    ls.engine.rescore(path)
    store = ls.engine.documents[path].store
    assert store not in editing._SENT_IDS
    ls.get_feature(Scoring)._prepare_edits(path)
    kept = editing._SENT_IDS[store]
    assert kept.version == store.version and "s1" in kept and "s2" in kept
