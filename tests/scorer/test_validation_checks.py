"""Unit tests of the validator's checks, settings and data on small inputs
of our own (expectations written by hand, not taken from the oracle)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.validation_inject import random_damage

from annoscore.scorer.validation import (TESTS, ValidationSettings, guess_language, installed_data_dir,
                               language_data, prepare, validate_block, validate_text)
from annoscore.scorer.validation.langdata import FILES, LanguageData

W = "\t"


def row(*cells: str) -> str:
    return W.join(cells)


def sentence(*rows: str, sent_id: str = "s1", text: str | None = None, extra: tuple = ()) -> str:
    forms = [r.split(W)[1] for r in rows if "-" not in r.split(W)[0] and "." not in r.split(W)[0]]
    lines = list(extra) + [f"# sent_id = {sent_id}", f"# text = {text if text is not None else ' '.join(forms)}"]
    return "\n".join(lines + list(rows))


GOOD = (row("1", "Dogs", "dog", "NOUN", "NNS", "Number=Plur", "2", "nsubj", "_", "_"),
        row("2", "bark", "bark", "VERB", "VBP", "Mood=Ind|Tense=Pres|VerbForm=Fin", "0", "root", "_", "_"))


def ids(text: str, level: int = 3, lang: str | None = None, **settings) -> list[tuple[int, str]]:
    result = validate_text(text, ValidationSettings(level=level, lang=lang, **settings))
    return [(i.line, i.test_id) for i in result.incidents]


def one(text: str, test_id: str, level: int = 3, lang: str | None = None):
    result = validate_text(text, ValidationSettings(level=level, lang=lang))
    found = [i for i in result.incidents if i.test_id == test_id]
    assert len(found) == 1, [(i.line, i.test_id) for i in result.incidents]
    return found[0], text.split("\n")[found[0].line]


# --- where an incident points ----------------------------------------------------------------


def test_a_clean_sentence_has_no_incident():
    assert ids(sentence(*GOOD) + "\n\n") == []


def test_unknown_upos_points_at_the_upos_cell():
    text = sentence(GOOD[0].replace("NOUN", "NOUNX"), GOOD[1]) + "\n\n"
    incident, line = one(text, "unknown-upos", level=2)
    assert line[incident.start:incident.end] == "NOUNX"
    assert (incident.level, incident.test_class, incident.is_error) == (2, "MORPHO", True)
    assert incident.sent_id == "s1"


def test_feature_problems_point_at_the_item():
    text = sentence(GOOD[0].replace("Number=Plur", "Number=Plur|case=Nom"), GOOD[1]) + "\n\n"
    incident, line = one(text, "invalid-feature", level=2)
    assert line[incident.start:incident.end] == "case=Nom"
    text = sentence(GOOD[0], GOOD[1].replace("Mood=Ind|Tense=Pres", "Tense=Pres|Mood=Ind")) + "\n\n"
    incident, line = one(text, "unsorted-features", level=2)
    assert line[incident.start:incident.end] == "Tense=Pres|Mood=Ind|VerbForm=Fin"


def test_text_form_mismatch_points_at_the_form_and_where_the_text_parts():
    text = sentence(*GOOD, text="Dogs bork") + "\n\n"
    incident, line = one(text, "text-form-mismatch", level=2)
    assert line[incident.start:incident.end] == "bark"
    (related,) = incident.related
    text_line = text.split("\n")[related.line]
    assert text_line.startswith("# text = ")
    assert text_line[related.start:] == "bork"  # where the text and the FORMs part


def test_a_whitespace_only_line_ends_a_sentence():
    # '  ' ends the first sentence (pseudo-empty-line); the rest is a second
    # sentence without sent_id or text.
    root = row("1", "Dogs", "dog", "NOUN", "NNS", "Number=Plur", "0", "root", "_", "_")
    block = sentence(root) + "\n  \n" + root
    got = ids(block + "\n\n", level=2)
    assert got == [(3, "pseudo-empty-line"), (4, "missing-sent-id"), (4, "missing-text")]


def test_no_blank_line_at_the_end():
    text = sentence(*GOOD)
    assert ids(text, level=2) == [(3, "missing-empty-line")]
    # Without the blank line the validator checks the last sentence further
    # even after a misplaced comment (its one exception to stopping).
    text = sentence(*GOOD) + "\n# late comment\n" + row("3", "x", "x", "NOUNX", "_", "_", "2", "obj", "_", "_")
    got = ids(text, level=2)
    assert (5, "missing-empty-line") in got and (4, "misplaced-comment") in got
    assert any(t == "number-of-columns" for _, t in got)


def test_byte_order_mark_columns_count_after_it():
    text = "\ufeff" + sentence(GOOD[0].replace("NOUN", "NOUNX"), GOOD[1], sent_id="x") + "\n\n"
    got = validate_text(text, ValidationSettings(level=2)).incidents
    # The mark makes the first line no comment: the validator's view.
    assert [(i.line, i.test_id) for i in got] == [(0, "invalid-line"), (1, "misplaced-comment")]
    assert (got[0].start, got[0].end) == (0, len("# sent_id = x"))


def test_crlf_is_one_incident_on_the_last_line():
    text = (sentence(*GOOD) + "\n\n").replace("\n", "\r\n")
    assert ids(text, level=1) == [(4, "non-unix-newline")]


def test_extra_blank_lines_are_empty_sentences():
    text = "\n" + sentence(*GOOD) + "\n\n\n" + sentence(*GOOD, sent_id="s2") + "\n\n"
    assert ids(text, level=2) == [(0, "empty-sentence"), (6, "empty-sentence")]


def test_features_warnings_wait_for_features():
    pron = row("1", "It", "it", "PRON", "PRP", "_", "2", "nsubj", "_", "_")
    verb = row("2", "barks", "bark", "VERB", "VBZ", "_", "0", "root", "_", "_")
    no_features = sentence(pron, verb) + "\n\n"
    assert ids(no_features) == []
    later = no_features + sentence(*GOOD, sent_id="s2") + "\n\n"
    assert ids(later) == [(2, "pron-det-without-prontype")]


def test_repeated_sent_id_is_found_across_blocks():
    text = sentence(*GOOD) + "\n\n" + sentence(*GOOD) + "\n\n"
    assert ids(text, level=2) == [(7, "non-unique-sent-id")]


def test_enhanced_graph_in_some_sentences_only():
    with_deps = tuple(r.replace("\tnsubj\t_", "\tnsubj\t2:nsubj").replace("\troot\t_", "\troot\t0:root")
                      for r in GOOD)
    text = sentence(*GOOD) + "\n\n" + sentence(*with_deps, sent_id="s2") + "\n\n"
    assert ids(text, level=2) == [(7, "edeps-only-sometimes")]
    # And copies of the basic trees everywhere are an error at level 3.
    text = sentence(*with_deps) + "\n\n"
    assert ids(text, level=3) == [(3, "edeps-identical-to-basic-trees")]


def test_punctuation_over_an_arc():
    rows = (row("1", "a", "a", "NOUN", "_", "_", "3", "nsubj", "_", "SpaceAfter=No"),
            row("2", ",", ",", "PUNCT", "_", "_", "4", "punct", "_", "_"),
            row("3", "b", "b", "VERB", "_", "_", "0", "root", "_", "_"),
            row("4", "c", "c", "NOUN", "_", "_", "3", "obj", "_", "_"))
    # The comma hangs over 'b' (not under 'c'); the arc a-b over the comma
    # does not count against it, as 'b' is the comma's ancestor.
    assert ids(sentence(*rows, text="a, b c") + "\n\n") == [(3, "punct-is-nonproj")]
    # Here the comma is under 'c' (the root) and 'a' hangs on 'b' across the
    # comma: 'b' is no ancestor of the comma, so the comma is to blame.
    rows = (row("1", "a", "a", "NOUN", "_", "_", "3", "obj", "_", "SpaceAfter=No"),
            row("2", ",", ",", "PUNCT", "_", "_", "4", "punct", "_", "_"),
            row("3", "b", "b", "NOUN", "_", "_", "4", "nsubj", "_", "_"),
            row("4", "c", "c", "VERB", "_", "_", "0", "root", "_", "_"))
    assert ids(sentence(*rows, text="a, b c") + "\n\n") == [(3, "punct-causes-nonproj")]


# --- settings ----------------------------------------------------------------------------


def test_exclude_by_id_and_by_class_and_include_only():
    text = sentence(GOOD[0].replace("NOUN", "NOUNX"), GOOD[1].replace("root", "rooty")) + "\n\n"
    assert {t for _, t in ids(text, level=2)} == {"unknown-upos", "unknown-udeprel"}
    assert {t for _, t in ids(text, level=2, exclude={"unknown-upos"})} == {"unknown-udeprel"}
    assert {t for _, t in ids(text, level=2, exclude={"MORPHO"})} == {"unknown-udeprel"}
    assert {t for _, t in ids(text, level=2, include_only={"unknown-upos"})} == {"unknown-upos"}
    assert {t for _, t in ids(text, level=2, exclude={"syntax"})} == {"unknown-upos"}
    notes = prepare(ValidationSettings(exclude={"no-such-id"})).notes
    assert notes and "no-such-id" in notes[0]


def test_levels_4_and_5_need_a_language():
    prepared = prepare(ValidationSettings(level=5))
    assert prepared.level == 3 and prepared.lang == "ud"
    assert "needs a language" in prepared.notes[0]


def test_levels_4_and_5_need_the_data(tmp_path):
    prepared = prepare(ValidationSettings(level=5, lang="en", data_dir=str(tmp_path / "missing")))
    assert prepared.level == 3 and "does not exist" in prepared.notes[0]
    prepared = prepare(ValidationSettings(level=5, lang="en", data_dir=str(tmp_path)))
    assert prepared.level == 3 and "has no" in prepared.notes[0]


def test_an_unknown_language_falls_back_to_level_3():
    prepared = prepare(ValidationSettings(level=5, lang="xx"))
    assert prepared.level == 3 and "'xx'" in prepared.notes[0]


def test_a_malformed_data_file_is_one_message(tmp_path):
    source = installed_data_dir()
    for name, _ in FILES.values():
        (tmp_path / name).write_text((source / name).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "feats.json").write_text('{"features": {"en": {"Case": [1, 2', encoding="utf-8")
    prepared = prepare(ValidationSettings(level=5, lang="en", data_dir=str(tmp_path)))
    assert prepared.level == 3
    assert len(prepared.notes) == 1 and "feats.json" in prepared.notes[0]


def test_level_out_of_range():
    assert prepare(ValidationSettings(level=7, lang="en")).level == 5
    assert prepare(ValidationSettings(level=0)).level == 1


def test_guess_language():
    assert guess_language("cop_scriptorium-ud-test.conllu") == "cop"
    assert guess_language("/x/en_ewt-ud-train.conllu") == "en"
    assert guess_language("notes.conllu") is None


def test_validate_text_guesses_the_language_from_the_path():
    text = sentence(GOOD[0].replace("nsubj", "nsubj:foo"), GOOD[1]) + "\n\n"
    result = validate_text(text, ValidationSettings(level=4), path="en_x-ud-test.conllu")
    assert result.level == 4 and result.lang == "en"
    assert [i.test_id for i in result.incidents] == ["unknown-deprel"]


# --- the language data ----------------------------------------------------------------------


def test_the_data_folder_is_found_without_running_udtools():
    code = ("import sys; from annoscore.scorer.validation import installed_data_dir; "
            "folder = installed_data_dir(); print(folder is not None, 'udtools' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout.split()
    assert out == ["True", "False"]


@pytest.mark.parametrize("kind", sorted(FILES))
def test_one_language_decoded_alone_equals_the_whole_file(kind):
    folder = installed_data_dir()
    name, key = FILES[kind]
    whole = json.loads((folder / name).read_text(encoding="utf-8"))[key]
    data = LanguageData(folder)
    for lang in whole:
        assert data.section(kind, lang) == whole[lang], (kind, lang)
    assert data.section(kind, "no-such-language") is None
    assert data._whole == {}, "decoded the whole file instead of one language"


def test_universal_sets_equal_the_data_files():
    from annoscore.scorer.validation.langdata import UDEPRELS, UPOS
    folder = installed_data_dir()
    assert set(json.loads((folder / "upos.json").read_text())["upos"]) == UPOS
    assert set(json.loads((folder / "udeprels.json").read_text())["udeprels"]) == UDEPRELS


def test_language_data_is_read_once_per_folder():
    folder = installed_data_dir()
    assert language_data(folder) is language_data(folder)


# --- building blocks -----------------------------------------------------------------------


def test_whitespace_class_is_regex_whitespace():
    import regex
    from annoscore.scorer.validation.chars import WS
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        assert bool(WS.match(ch)) == bool(regex.match(r"\s", ch)), hex(code)


def test_projectivity_sweep_equals_the_definition():
    from annoscore.scorer.validation.level3 import _is_projective

    class T:
        pass

    rng = random.Random(5)
    for _ in range(3000):
        n = rng.randint(1, 9)
        order = list(range(1, n + 1))
        rng.shuffle(order)
        head = [None] + [0] * n
        for i, k in enumerate(order[1:], 1):
            head[k] = rng.choice(order[:i])
        children = [[] for _ in range(n + 1)]
        for k in range(1, n + 1):
            children[head[k]].append(k)

        def under(p):
            out, stack = set(), list(children[p])
            while stack:
                m = stack.pop()
                out.add(m)
                stack.extend(children[m])
            return out

        definition = all(all(m in under(head[k]) for m in range(min(k, head[k]) + 1, max(k, head[k])))
                         for k in range(1, n + 1) if head[k])
        t = T()
        t.head, t.n = head, n
        # Arcs from the root count too: a word between 0 and the root word
        # is always under the root, so the definition above is the rule.
        assert _is_projective(t) == definition, head


def test_the_table_gives_each_incident_its_level_and_class():
    for test_id, (level, test_class, severity) in TESTS.items():
        assert 1 <= level <= 5 and test_class in ("UNICODE", "FORMAT", "MORPHO", "SYNTAX", "ENHANCED", "METADATA")


def test_block_results_do_not_depend_on_the_block_position():
    block = sentence(GOOD[0].replace("NOUN", "NOUNX"), GOOD[1])
    result = validate_block(block, ValidationSettings(level=2))
    assert [(i.line, i.test_id) for i in result.incidents] == [(2, "unknown-upos")]
    assert result.sent_ids == ((2, "s1"),)
    assert [(i.line, i.test_id) for i in result.shifted_incidents(10)] == [(12, "unknown-upos")]


def test_quick_paths_agree_with_the_exact_checks(monkeypatch):
    """The whole-column screens only skip work: with them off, the exact
    per-line checks give the same incidents (the guard of every screen)."""
    from tests.support.validation_inject import inject, repeat
    import annoscore.scorer.validation.block as block
    import annoscore.scorer.validation.level45 as level45
    import annoscore.scorer.validation.metadata as metadata

    base = (Path(__file__).parent / "data" / "validation_base.conllu").read_text(encoding="utf-8")
    text = inject(repeat(base, 12), 11)
    settings = ValidationSettings(level=5, lang="en")
    fast = [(i.line, i.test_id, i.start, i.end) for i in validate_text(text, settings).incidents]
    monkeypatch.setattr(block, "plain_sentence", lambda s, b: None)
    monkeypatch.setattr(block, "quick_level2", lambda s, kinds, facts: None)
    monkeypatch.setattr(metadata, "_spelled", lambda s, kinds, text: None)
    monkeypatch.setattr(level45, "_clean", lambda *a: False)
    slow = [(i.line, i.test_id, i.start, i.end) for i in validate_text(text, settings).incidents]
    assert fast == slow
    assert len(fast) > 100


def test_the_listed_cell_space_class_is_isspace_but_tab_and_newline():
    from annoscore.scorer.validation.level1 import _CELL_SPACE
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        assert bool(_CELL_SPACE.match(ch)) == (ch.isspace() and ch not in "\t\n"), hex(code)


def test_no_input_crashes_the_validator():
    """Random damage of a corpus, character by character: every level
    returns incidents, never an exception."""
    base = (Path(__file__).parent / "data" / "validation_base.conllu").read_text(encoding="utf-8")
    rng = random.Random(7)
    for round_ in range(150):
        damaged = random_damage(base, rng, 12)
        for level in (1, 2, 3, 5):
            result = validate_text(damaged, ValidationSettings(level=level, lang="en"))
            for incident in result.incidents:
                assert incident.test_id in TESTS and 0 <= incident.start <= incident.end


def test_messages_quote_user_text_short_and_printable():
    """A huge cell or one with control characters is quoted as every
    annoscore message quotes user text (scorer/excerpt.py): cut, its length
    said, control characters escaped."""
    upos = "NOUN" + "X" * 50_000
    text = sentence(GOOD[0].replace("\tNOUN\t", f"\t{upos}\t"), GOOD[1])
    message = one(text + "\n\n", "unknown-upos", level=2)[0].message
    assert len(message) < 120 and "(50,004 characters)" in message, message
    text = sentence(GOOD[0].replace("\tNOUN\t", "\tNO\x1bUN\t"), GOOD[1])
    message = one(text + "\n\n", "unknown-upos", level=2)[0].message
    assert "'NO\\x1bUN'" in message and "\x1b" not in message
