"""An `Annotation` read in another process comes back whole: `agree` reads
large files in processes of their own and pickles each back, with its
sentence records packed as columns (`Annotation.__getstate__`)."""

from __future__ import annotations

import pickle

from annoscore.scorer.agreement.annotation import RECORD_FIELDS, SentenceRecord, read_annotation
from tests.support.pair_maker import make_gold_sentences, make_prediction, write


def _fields(record: SentenceRecord) -> tuple:
    """What a record says (its parsed `Sentence`, which compares by identity, by what it holds)."""
    values = tuple(getattr(record, name) for name in RECORD_FIELDS if name != "parsed")
    s = record.parsed
    return values + ((None,) if s is None else (s.first_line, s.body, s.sent_id, s.form, s.head, s.deps,
                                                   [s.line_id(w) for w in range(len(s.form))]))


def test_an_annotation_pickles_back_to_the_same(tmp_path):
    gold = make_gold_sentences(9, 300)
    text = write(tmp_path / "a.conllu", make_prediction(gold, 4, noise=0.2, tokenization=0.2, merge=0.03,
                                                       drop=0.03, conf=False)).read_text(encoding="utf-8")
    # A sentence the reader must parse (a malformed line) among the plain ones.
    path = tmp_path / "b.conllu"
    path.write_text(text.replace("\n\n", "\n\n1\tbroken line\n\n", 1), encoding="utf-8")
    annotation = read_annotation(path, "B")
    records = annotation.sentences
    assert any(r.parsed is not None for r in records) and any(r.mwts for r in records)
    assert any(r.parsed is None and not r.mwts for r in records)
    back = pickle.loads(pickle.dumps(annotation, protocol=pickle.HIGHEST_PROTOCOL))
    assert list(map(_fields, back.sentences)) == list(map(_fields, records))
    assert [type(r) for r in back.sentences] == [type(r) for r in records]
    for name in ("name", "path", "sha256", "problems", "form", "lemma", "upos", "xpos", "feats", "head", "deprel",
                 "deps"):
        assert getattr(back, name) == getattr(annotation, name), name
    assert back.codes.keys() == annotation.codes.keys()
    for name, (codes, names) in annotation.codes.items():
        assert back.codes[name][1] == names and back.codes[name][0].tolist() == codes.tolist()
    assert [back.chars(r) for r in back.sentences] == [annotation.chars(r) for r in records]
