"""Seeded error injection for the validator parity tests.

`inject(text, seed)` takes a clean CoNLL-U text, and for every official test
id (levels 1-5) applies one or more *mutators* to sentences of it, one
mutator per sentence, each sentence used once; the result is a corpus whose
official incidents cover every id the mutators aim at.  `scenarios(text)`
makes the whole-file cases (line ends, byte-order mark, no final blank line,
features or enhanced graphs in some sentences only, ...).

A mutator gets the random generator and a `Sent` (comments, rows of cells,
the lines after it) and changes it in place, or returns False when the
sentence does not suit it (the generator then tries another one).  The
mutators know nothing of our implementation: they only produce input.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ID, FORM, LEMMA, UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS, MISC = range(10)


@dataclass
class Sent:
    comments: list[str]
    rows: list[list[str]]
    after: list[str] = field(default_factory=lambda: [""])   # the lines after it (its blank line)
    raw: list[str] | None = None                              # token lines as text, when set

    def lines(self) -> list[str]:
        body = self.raw if self.raw is not None else ["\t".join(r) for r in self.rows]
        return self.comments + body + self.after

    # --- helpers -------------------------------------------------------------------------

    def words(self) -> list[int]:
        return [i for i, r in enumerate(self.rows) if r[ID].isdigit()]

    def word_row(self, k: int) -> list[str] | None:
        for r in self.rows:
            if r[ID] == str(k):
                return r
        return None

    def children(self, k: int) -> list[int]:
        return [int(r[ID]) for r in self.rows if r[ID].isdigit() and r[HEAD] == str(k)]

    def n(self) -> int:
        return len(self.words())

    def comment(self, key: str) -> int | None:
        for i, c in enumerate(self.comments):
            if c.startswith(f"# {key}"):
                return i
        return None

    def set_text(self, text: str) -> None:
        i = self.comment("text")
        if i is not None:
            self.comments[i] = "# text = " + text


def parse(text: str) -> list[Sent]:
    sents = []
    for block in text.strip("\n").split("\n\n"):
        lines = block.split("\n")
        comments = [l for l in lines if l.startswith("#")]
        rows = [l.split("\t") for l in lines if l and not l.startswith("#")]
        sents.append(Sent(comments, rows))
    return sents


def render(sents: list[Sent]) -> str:
    return "\n".join(line for s in sents for line in s.lines()) + "\n"


Mutator = Callable[[random.Random, Sent], "bool | None"]
MUTATORS: dict[str, list[Mutator]] = {}


def mutator(*test_ids: str):
    def register(function: Mutator) -> Mutator:
        for test_id in test_ids:
            MUTATORS.setdefault(test_id, []).append(function)
        return function
    return register


_TARGET = [""]  # the test id the current mutation aims at
_USES: dict[str, int] = {}


def _variant(rng: random.Random, options: dict[str, list]):
    """The options meant for the current target id, in turn (so that every
    one is used when the id gets as many cases); any option otherwise."""
    chosen = options.get(_TARGET[0])
    if chosen is None:
        return rng.choice([o for group in options.values() for o in group])
    uses = _USES.get(_TARGET[0], 0)
    _USES[_TARGET[0]] = uses + 1
    return chosen[uses % len(chosen)]


def _pick(rng: random.Random, s: Sent, test=lambda r: True) -> list[str] | None:
    rows = [r for r in s.rows if r[ID].isdigit() and test(r)]
    return rng.choice(rows) if rows else None


def _mwt(s: Sent) -> list[str] | None:
    rows = [r for r in s.rows if "-" in r[ID]]
    return rows[0] if rows else None


def _empty(s: Sent) -> list[str] | None:
    rows = [r for r in s.rows if "." in r[ID]]
    return rows[0] if rows else None


def _set_feats(row: list[str], add: dict[str, str] | None = None, drop: tuple = ()) -> None:
    items = {} if row[FEATS] == "_" else dict(i.split("=", 1) for i in row[FEATS].split("|"))
    for name in drop:
        items.pop(name, None)
    items.update(add or {})
    row[FEATS] = "|".join(f"{k}={v}" for k, v in sorted(items.items(), key=lambda kv: kv[0].lower())) or "_"


def _add_misc(row: list[str], item: str) -> None:
    row[MISC] = item if row[MISC] == "_" else row[MISC] + "|" + item


# --- level 1 -----------------------------------------------------------------------------


@mutator("invalid-utf")
def utf_form(rng, s):
    r = _pick(rng, s)
    r[FORM] = r[FORM][:1] + "\ufffd" + r[FORM][1:]


@mutator("invalid-utf")
def utf_comment(rng, s):
    s.comments.append("# note = bad \ufffd byte")


@mutator("unicode-normalization")
def nfc_form(rng, s):
    r = _pick(rng, s)
    r[FORM] = r[FORM] + "e\u0301"


@mutator("unicode-normalization")
def nfc_comment(rng, s):
    s.comments.append("# note = cafe\u0301")


@mutator("misplaced-comment")
def misplaced_comment(rng, s):
    s.raw = ["\t".join(r) for r in s.rows]
    s.raw.insert(rng.randrange(1, len(s.raw) + 1), "# a comment among the tokens")


@mutator("pseudo-empty-line")
def pseudo_inside(rng, s):
    if len(s.rows) < 3:
        return False
    s.raw = ["\t".join(r) for r in s.rows]
    s.raw.insert(rng.randrange(1, len(s.raw)), rng.choice([" ", "\t", "  \u00a0"]))


@mutator("pseudo-empty-line")
def pseudo_terminator(rng, s):
    s.after = [rng.choice([" ", "\t \t"])]


@mutator("pseudo-empty-line", "unicode-normalization")
def pseudo_terminator_then_blank(rng, s):
    s.after = ["\u2000", ""]  # not NFC either; the blank line after is an empty sentence


@mutator("empty-sentence")
def comments_only(rng, s):
    s.rows = []


@mutator("empty-sentence")
def extra_blank(rng, s):
    s.after = ["", ""] if rng.random() < 0.5 else ["", "", ""]


@mutator("invalid-line")
def invalid_line(rng, s):
    s.raw = ["\t".join(r) for r in s.rows]
    s.raw.insert(rng.randrange(0, len(s.raw) + 1), rng.choice(["foo bar", " 1\tx", "\u00b2\tsuperscript"]))


@mutator("invalid-line")
def invalid_among_comments(rng, s):
    s.comments.insert(rng.randrange(0, len(s.comments) + 1), "not a comment")


@mutator("number-of-columns")
def fewer_columns(rng, s):
    r = _pick(rng, s)
    del r[rng.randrange(1, 10)]


@mutator("number-of-columns")
def more_columns(rng, s):
    r = _pick(rng, s)
    r.append("extra")


@mutator("invalid-whitespace-mwt")
def space_in_mwt(rng, s):
    m = _mwt(s)
    if m is None:
        return False
    m[FORM] = m[FORM][:1] + " " + m[FORM][1:]


@mutator("invalid-whitespace")
def space_in_cell(rng, s):
    r = _pick(rng, s)
    column = rng.choice([UPOS, XPOS, FEATS, HEAD, DEPREL, DEPS])
    r[column] = r[column] + " x" if column != HEAD else " " + r[column]


@mutator("invalid-whitespace", "invalid-word-id")
def space_in_id(rng, s):
    r = _pick(rng, s)
    r[ID] = r[ID] + " "


@mutator("empty-column", "empty-string-in-xpos")
def empty_cell(rng, s):
    r = _pick(rng, s)
    r[rng.choice([LEMMA, XPOS, MISC, FORM])] = ""


@mutator("empty-string-in-xpos")
def empty_xpos(rng, s):
    r = _pick(rng, s) if rng.random() < 0.7 else _empty(s)
    if r is None:
        return False
    r[XPOS] = ""


@mutator("leading-whitespace")
def leading(rng, s):
    r = _pick(rng, s)
    r[FORM] = rng.choice([" ", "\x1c", "\u3000"]) + r[FORM]


@mutator("trailing-whitespace")
def trailing(rng, s):
    r = _pick(rng, s)
    column = rng.choice([LEMMA, MISC])
    r[column] = r[column] + rng.choice([" ", "\u00a0"])


@mutator("repeated-whitespace")
def repeated(rng, s):
    r = _pick(rng, s)
    r[LEMMA] = r[LEMMA] + "  x"


@mutator("invalid-word-id")
def bad_id(rng, s):
    r = _pick(rng, s)
    r[ID] = rng.choice(["0" + r[ID], r[ID] + "a", r[ID] + ".0"])


@mutator("misplaced-word-interval")
def mwt_after_word(rng, s):
    m = _mwt(s)
    if m is None:
        return False
    i = s.rows.index(m)
    s.rows[i], s.rows[i + 1] = s.rows[i + 1], s.rows[i]


@mutator("misplaced-empty-node")
def empty_renumbered(rng, s):
    e = _empty(s)
    if e is None:
        return False
    major = e[ID].split(".")[0]
    e[ID] = rng.choice([f"{major}.2", f"{int(major) + 1}.1" if int(major) < s.n() else f"{major}.3"])


@mutator("misplaced-empty-node")
def empty_after_mwt(rng, s):
    m = _mwt(s)
    if m is None:
        return False
    beg = int(m[ID].split("-")[0])
    if beg < 2:
        return False
    i = s.rows.index(m)
    s.rows.insert(i + 1, [f"{beg - 1}.1", "x", "x", "NOUN", "_", "_", "_", "_", f"{beg}:dep", "_"])


@mutator("word-id-sequence")
def duplicate_id(rng, s):
    words = s.words()
    if len(words) < 3:
        return False
    r = s.rows[rng.choice(words[1:])]
    r[ID] = str(int(r[ID]) + 1)


@mutator("word-id-sequence", "word-interval-out")
def drop_word(rng, s):
    words = s.words()
    del s.rows[rng.choice(words)]


@mutator("reversed-word-interval")
def reversed_range(rng, s):
    m = _mwt(s)
    if m is None:
        return False
    a, b = m[ID].split("-")
    m[ID] = f"{b}-{a}"


@mutator("word-interval-out")
def range_out(rng, s):
    n = s.n()
    last = s.rows.index(s.word_row(n))
    s.rows.insert(last, [f"{n}-{n + 1}", "xy", "_", "_", "_", "_", "_", "_", "_", "_"])


@mutator("overlapping-word-intervals")
def overlapping(rng, s):
    if _mwt(s) is not None or s.n() < 4:
        return False
    one, two = s.rows.index(s.word_row(1)), s.rows.index(s.word_row(2))
    s.rows.insert(two, ["2-3", "bc", "_", "_", "_", "_", "_", "_", "_", "_"])
    s.rows.insert(one, ["1-2", "ab", "_", "_", "_", "_", "_", "_", "_", "_"])


# --- level 2: cells ---------------------------------------------------------------------------


@mutator("mwt-nonempty-field")
def mwt_field(rng, s):
    m = _mwt(s)
    if m is None:
        return False
    column = rng.choice([LEMMA, UPOS, HEAD, DEPREL, FEATS])
    m[column] = {LEMMA: "x", UPOS: "NOUN", HEAD: "1", DEPREL: "dep", FEATS: "Typo=Yes" if rng.random() < 0.5 else "Number=Sing"}[column]


@mutator("empty-node-nonempty-field")
def empty_field(rng, s):
    e = _empty(s)
    if e is None:
        return False
    e[rng.choice([HEAD, DEPREL])] = rng.choice(["1", "dep"])


_UPOS_PATTERN_RELATIONS = ("det", "nummod", "advmod", "expl", "aux", "cop", "case", "mark", "cc")


@mutator("unknown-upos")
def bad_upos(rng, s):
    # (UPOS _ on a word whose relation has a UPOS pattern crashes the official validator.)
    r = _pick(rng, s, lambda r: r[DEPREL].split(":")[0] not in _UPOS_PATTERN_RELATIONS)
    r[UPOS] = rng.choice(["NOUNX", "noun", "_", "PROPER"])


@mutator("unknown-upos")
def empty_node_upos(rng, s):
    e = _empty(s)
    if e is None:
        return False
    e[UPOS] = rng.choice(["_", "XX"])


@mutator("unsorted-features")
def unsorted_feats(rng, s):
    r = _pick(rng, s, lambda r: r[FEATS].count("|") >= 1)
    if r is None:
        return False
    items = r[FEATS].split("|")
    items.reverse()
    r[FEATS] = "|".join(items)


@mutator("invalid-feature")
def bad_feature(rng, s):
    r = _pick(rng, s)
    item = rng.choice(["case=Nom", "Case", "Case=Nom=Acc", "Case=", "Ca-se=Nom"])
    r[FEATS] = item if r[FEATS] == "_" else r[FEATS] + "|" + item


@mutator("repeated-feature-value", "unsorted-feature-values", "repeated-feature")
def feature_values(rng, s):
    r = _pick(rng, s)
    r[FEATS] = _variant(rng, {"repeated-feature-value": ["Case=Acc,Acc", "Case=Nom,Acc,Acc"],
                              "unsorted-feature-values": ["PronType=Rel,Int"],
                              "repeated-feature": ["Case=Acc|Case=Nom"]})


@mutator("invalid-deprel")
def bad_deprel(rng, s):
    r = _pick(rng, s)
    r[DEPREL] = rng.choice(["Nsubj", "nsubj:pass:x", "nsubj_x", "obl:1"])


@mutator("unknown-udeprel")
def unknown_udeprel(rng, s):
    r = _pick(rng, s)
    r[DEPREL] = rng.choice(["subj", "subj:pass", "object"])


@mutator("unsorted-deps")
def unsorted_deps(rng, s):
    r = _pick(rng, s, lambda r: r[DEPS] != "_")
    if r is None:
        return False
    other = str(rng.choice([k for k in range(0, s.n() + 1) if str(k) != r[ID]]))
    r[DEPS] = r[DEPS] + "|" + other + ":dep" if int(other) < int(r[DEPS].split(":")[0].split(".")[0]) else other + ":dep|" + r[DEPS]


@mutator("unsorted-deps-2", "repeated-deps")
def same_head_deps(rng, s):
    r = _pick(rng, s, lambda r: r[DEPS] != "_" and "|" not in r[DEPS])
    if r is None:
        return False
    head, rel = r[DEPS].split(":", 1)
    unsorted = f"{head}:zz|{head}:{rel}" if rel < "zz" else f"{head}:{rel}|{head}:aa"
    r[DEPS] = _variant(rng, {"repeated-deps": [f"{head}:{rel}|{head}:{rel}"], "unsorted-deps-2": [unsorted]})


@mutator("deps-self-loop")
def deps_self(rng, s):
    r = _pick(rng, s, lambda r: r[DEPS] != "_")
    if r is None:
        return False
    pairs = r[DEPS].split("|") + [f"{r[ID]}:dep"]
    pairs.sort(key=lambda p: (int(p.split(":")[0].split(".")[0]), p))
    r[DEPS] = "|".join(pairs)


@mutator("invalid-edeprel", "unknown-eudeprel")
def bad_edeprel(rng, s):
    r = _pick(rng, s, lambda r: r[DEPS] != "_" and "|" not in r[DEPS])
    if r is None:
        return False
    head = r[DEPS].split(":", 1)[0]
    r[DEPS] = head + ":" + _variant(rng, {"invalid-edeprel": ["Obj", "obl:x_", "obl:in:by:for:x"],
                                          "unknown-eudeprel": ["subj", "obl:в", "ref", "subj:x"]})


@mutator("empty-misc", "empty-misc-key", "misc-extra-space", "misc-attr-typo", "repeated-misc")
def bad_misc(rng, s):
    r = _pick(rng, s)
    item = _variant(rng, {"empty-misc": ["X=1||Y=2", "Gloss=a|"], "empty-misc-key": ["=x"],
                          "misc-extra-space": ["Gloss =a", " Gloss=a", "Gloss= a", "Gloss=a b "],
                          "misc-attr-typo": ["spaceafter=No", "LANG=en", " Gloss=a"],
                          "repeated-misc": ["SpaceAfter=No|SpaceAfter=No", "Translit=a|Translit=b"]})
    r[MISC] = item if r[MISC] == "_" else r[MISC] + "|" + item


@mutator("invalid-head", "unknown-head")
def bad_head(rng, s):
    r = _pick(rng, s)
    e = _empty(s)
    r[HEAD] = _variant(rng, {"invalid-head": ["-1", "01"] + ([e[ID]] if e else []),
                             "unknown-head": [str(s.n() + 5), "-1"]})


@mutator("invalid-deps", "invalid-ehead", "unknown-ehead")
def bad_deps(rng, s):
    r = _pick(rng, s)
    r[DEPS] = _variant(rng, {"invalid-deps": ["2nsubj", "1:dep|"], "invalid-ehead": ["02:dep", "1.0:dep", "x:dep"],
                             "unknown-ehead": [f"{s.n() + 3}:dep"]})


@mutator("head-self-loop")
def self_loop(rng, s):
    r = _pick(rng, s)
    r[HEAD] = r[ID]


@mutator("multiple-roots")
def two_roots(rng, s):
    r = _pick(rng, s, lambda r: r[HEAD] != "0")
    r[HEAD] = "0"


@mutator("non-tree")
def cycle(rng, s):
    r = _pick(rng, s, lambda r: r[HEAD] != "0" and s.word_row(int(r[HEAD]))[HEAD] != "0")
    if r is None:
        return False
    s.word_row(int(r[HEAD]))[HEAD] = r[ID]


@mutator("unconnected-egraph")
def egraph_island(rng, s):
    rows = [s.rows[i] for i in s.words()]
    if len(rows) < 3 or any(r[DEPS] == "_" for r in rows):
        return False
    a, b = rng.sample(rows, 2)
    a[DEPS], b[DEPS] = f"{b[ID]}:dep", f"{a[ID]}:dep"
    for r in rows:  # nothing else may lead into the island
        if r is not a and r is not b:
            pairs = [p for p in r[DEPS].split("|") if p.split(":")[0] not in (a[ID], b[ID])]
            r[DEPS] = "|".join(pairs) if pairs else "0:root"


# --- level 2: metadata --------------------------------------------------------------------------


@mutator("invalid-sent-id")
def bad_sent_id(rng, s):
    i = s.comment("sent_id")
    s.comments[i] = rng.choice(["# sent_id = a b", "# sent_id =", "#sent_id", "# sent_id"])


@mutator("missing-sent-id")
def no_sent_id(rng, s):
    del s.comments[s.comment("sent_id")]


@mutator("multiple-sent-id")
def two_sent_ids(rng, s):
    s.comments.append(s.comments[s.comment("sent_id")] + "-bis")


@mutator("slash-in-sent-id")
def slash(rng, s):
    i = s.comment("sent_id")
    s.comments[i] = s.comments[i] + rng.choice(["/x", "/x/y"])


_REUSED: list[str] = []


@mutator("non-unique-sent-id")
def reuse_sent_id(rng, s):
    if not _REUSED:
        return False
    s.comments[s.comment("sent_id")] = "# sent_id = " + rng.choice(_REUSED)


@mutator("invalid-parallel-id", "multiple-parallel-id")
def bad_parallel(rng, s):
    bad, twice = _variant(rng, {"invalid-parallel-id": [("# parallel_id = PUD/1", False), ("# parallel_id=x", True)],
                                "multiple-parallel-id": [("# parallel_id = pud/1/alt", True), (None, True)]})
    if bad:
        s.comments.append(bad)
    if twice:
        s.comments.append("# parallel_id = pud/ok1")
        s.comments.append("# parallel_id = pud/ok2")


@mutator("spaceafter-value", "nospaceafter-yes")
def spaceafter_values(rng, s):
    r = _pick(rng, s)
    _add_misc(r, _variant(rng, {"spaceafter-value": ["SpaceAfter=Yes", "SpaceAfter=no"],
                                "nospaceafter-yes": ["NoSpaceAfter=Yes"]}))


@mutator("spaceafter-empty-node")
def spaceafter_empty(rng, s):
    e = _empty(s)
    if e is None:
        return False
    _add_misc(e, "SpaceAfter=No")


@mutator("spaceafter-mwt-node")
def spaceafter_mwt_word(rng, s):
    m = _mwt(s)
    if m is None:
        return False
    _add_misc(s.word_row(int(m[ID].split("-")[0])), "SpaceAfter=No")


@mutator("multiple-newdoc", "multiple-newpar")
def newdocpar_twice(rng, s):
    # ('# newdoc id = a' is no newdoc line for the validator: its expression wants one word after it.)
    s.comments[:0] = _variant(rng, {"multiple-newdoc": [["# newdoc", "# newdoc"], ["# newdoc id = a", "# newdoc", "# newdoc x"]],
                                    "multiple-newpar": [["# newpar", "# newpar id"], ["# newpar id = a", "# newpar", "# newpar"]]})


@mutator("missing-text")
def no_text(rng, s):
    del s.comments[s.comment("text")]


@mutator("multiple-text")
def two_texts(rng, s):
    s.comments.append(s.comments[s.comment("text")])


@mutator("empty-text", "text-trailing-whitespace")
def odd_text(rng, s):
    i = s.comment("text")
    s.comments[i] = _variant(rng, {"empty-text": ["# text = ", "# text ="],
                                   "text-trailing-whitespace": [s.comments[i] + " ", s.comments[i] + "\u00a0"]})


@mutator("text-form-mismatch")
def changed_form(rng, s):
    r = _pick(rng, s)
    r[FORM] = r[FORM] + "zz"


@mutator("text-form-mismatch")
def extra_spaceafter(rng, s):
    r = _pick(rng, s, lambda r: "SpaceAfter=No" not in r[MISC])
    _add_misc(r, "SpaceAfter=No")


@mutator("missing-spaceafter")
def missing_spaceafter(rng, s):
    r = _pick(rng, s, lambda r: r[MISC] == "SpaceAfter=No")
    if r is None:
        return False
    r[MISC] = "_"


@mutator("text-extra-chars")
def longer_text(rng, s):
    i = s.comment("text")
    s.comments[i] = s.comments[i] + rng.choice([" more", "!"])


# --- level 3 ------------------------------------------------------------------------------------


def _leaf(rng, s, test=lambda r: True):
    return _pick(rng, s, lambda r: not s.children(int(r[ID])) and r[HEAD] != "0" and test(r))


@mutator("pron-det-without-prontype")
def no_prontype(rng, s):
    r = _pick(rng, s, lambda r: r[UPOS] in ("PRON", "DET"))
    if r is None:
        return False
    _set_feats(r, drop=("PronType",))


@mutator("verbform-fin-without-mood")
def no_mood(rng, s):
    r = _pick(rng, s, lambda r: "VerbForm=Fin" in r[FEATS])
    if r is None:
        return False
    _set_feats(r, drop=("Mood",))


@mutator("0-is-not-root")
def root_renamed(rng, s):
    r = _pick(rng, s, lambda r: r[HEAD] == "0")
    r[DEPREL] = rng.choice(["nsubj", "dep"])


@mutator("root-is-not-0")
def root_elsewhere(rng, s):
    r = _pick(rng, s, lambda r: r[HEAD] != "0")
    r[DEPREL] = rng.choice(["root", "root:x"])


_RELS = {"rel-upos-det": ("det", "NOUN"), "rel-upos-nummod": ("nummod", "ADJ"), "rel-upos-advmod": ("advmod", "NOUN"),
         "rel-upos-expl": ("expl", "NOUN"), "rel-upos-aux": ("aux", "VERB"), "rel-upos-cop": ("cop", "VERB"),
         "rel-upos-case": ("case", "PRON"), "rel-upos-mark": ("mark", "NOUN"), "rel-upos-cc": ("cc", "VERB"),
         "rel-upos-punct": ("punct", "NOUN"), "upos-rel-punct": ("nsubj", "PUNCT"),
         "rel-upos-fixed": ("fixed", "PROPN")}


def _rel_upos(test_id):
    deprel, upos = _RELS[test_id]

    @mutator(test_id)
    def rel_upos(rng, s):
        r = _leaf(rng, s)
        if r is None:
            return False
        r[DEPREL], r[UPOS] = deprel, upos
        if rng.random() < 0.3:
            _set_feats(r, add={"ExtPos": rng.choice(["ADV", "PRON", "PROPN"])})
    return rel_upos


for _id in _RELS:
    _rel_upos(_id)


@mutator("rel-upos-advmod")
def advmod_goeswith(rng, s):
    # advmod NOUN with a goeswith child: no rel-upos-advmod (but goeswith ids).
    k = s.n()
    if k < 3:
        return False
    a, b = s.word_row(k - 2), s.word_row(k - 1)
    a[DEPREL], a[UPOS] = "advmod", "NOUN"
    b[HEAD], b[DEPREL], b[UPOS], b[LEMMA], b[FEATS] = a[ID], "goeswith", "X", "_", "_"
    if s.children(int(b[ID])):
        return False


def _right_to_left(relation):
    @mutator("right-to-left-" + relation)
    def rtl(rng, s):
        r = _pick(rng, s, lambda r: r[HEAD] != "0" and int(r[HEAD]) > int(r[ID]))
        if r is None:
            return False
        r[DEPREL] = relation + rng.choice(["", ":x"])


for _rel in ("conj", "fixed", "flat", "goeswith", "appos"):
    _right_to_left(_rel)


@mutator("too-many-subjects", "too-many-objects")
def two_arguments(rng, s):
    heads = [k for k in range(1, s.n() + 1) if len(s.children(k)) >= 2]
    if not heads:
        return False
    k = rng.choice(heads)
    a, b = rng.sample(s.children(k), 2)
    first, second, outer = _variant(rng, {
        "too-many-subjects": [("nsubj", "csubj:pass", False), ("nsubj", "nsubj:outer", False),
                              ("csubj", "nsubj", True), ("nsubj:pass", "nsubj:x", False)],
        "too-many-objects": [("obj", "obj", False), ("obj", "obj:x", False)]})
    s.word_row(a)[DEPREL] = first
    s.word_row(b)[DEPREL] = second
    if outer:
        _add_misc(s.word_row(b), "Subject=Outer")


@mutator("obl-should-be-nmod")
def obl_under_noun(rng, s):
    for p in range(1, s.n() + 1):
        pr = s.word_row(p)
        kids = s.children(p)
        if pr[HEAD] != "0" and kids:
            pr[UPOS] = rng.choice(["NOUN", "PROPN", "PRON"])
            pr[DEPREL] = rng.choice(["nsubj", "obj", "nmod", "obl"])
            for c in kids:
                if s.word_row(c)[DEPREL].split(":")[0] in ("cop", "nsubj", "csubj"):
                    s.word_row(c)[DEPREL] = "dep"
            s.word_row(rng.choice(kids))[DEPREL] = "obl"
            return True
    return False


@mutator("orphan-parent")
def orphan(rng, s):
    r = _pick(rng, s, lambda r: r[HEAD] != "0")
    if r is None:
        return False
    r[DEPREL] = "orphan"


def _leaf_mutator(test_id, relations):
    @mutator(test_id)
    def leaf(rng, s):
        parents = [k for k in range(1, s.n() + 1) if s.children(k) and s.word_row(k)[HEAD] != "0"]
        if not parents:
            return False
        p = rng.choice(parents)
        s.word_row(p)[DEPREL] = rng.choice(relations)
        c = s.word_row(rng.choice(s.children(p)))
        child, poss = _variant(rng, {test_id: [("amod", False), ("nmod", True), ("obj", False), ("punct", False),
                                               ("advmod", False), ("acl", True)]})
        c[DEPREL] = child
        if poss:
            _set_feats(s.word_row(p), add={"Poss": "Yes"})
    return leaf


for _id, _rels in (("leaf-mark-case", ["mark", "case"]), ("leaf-aux-cop", ["aux", "cop"]), ("leaf-det", ["det"]),
                   ("leaf-clf", ["clf"]), ("leaf-cc", ["cc"]), ("leaf-fixed", ["fixed"]),
                   ("leaf-goeswith", ["goeswith"]), ("leaf-punct", ["punct"])):
    _leaf_mutator(_id, _rels)


@mutator("fixed-gap", "fixed-without-extpos")
def fixed_far(rng, s):
    for p in range(1, s.n() + 1):
        far = [c for c in s.children(p) if c > p + 1]
        if far:
            s.word_row(rng.choice(far))[DEPREL] = "fixed"
            if rng.random() < 0.5:
                _set_feats(s.word_row(p), add={"ExtPos": "ADV"})
            return True
    return False


@mutator("goeswith-gap", "goeswith-nospace", "goeswith-missing-typo", "goeswith-lemma", "goeswith-upos",
         "goeswith-feats", "goeswith-edeps")
def goeswith(rng, s):
    for p in range(1, s.n() + 1):
        kids = [c for c in s.children(p) if c > p]
        if kids:
            c = rng.choice(kids)
            row = s.word_row(c)
            row[DEPREL] = "goeswith"
            if rng.random() < 0.5:
                row[UPOS], row[LEMMA], row[FEATS] = "X", "_", "_"
            if row[DEPS] != "_" and rng.random() < 0.5:
                row[DEPS] = f"{p}:goeswith"
            if rng.random() < 0.4:
                _add_misc(s.word_row(p), "SpaceAfter=No")
            if _TARGET[0] != "goeswith-missing-typo" and rng.random() < 0.4:
                _set_feats(s.word_row(p), add={"Typo": "Yes"})
            return True
    return False


@mutator("punct-causes-nonproj", "punct-is-nonproj")
def nonprojective_punct(rng, s):
    n = s.n()
    puncts = [r for r in s.rows if r[ID].isdigit() and r[UPOS] == "PUNCT" and not s.children(int(r[ID]))]
    if not puncts or n < 4:
        return False
    r = rng.choice(puncts)
    k = int(r[ID])
    targets = [h for h in range(1, n + 1) if abs(h - k) > 1 and h != k]
    # Attach it to a far word; as long as that keeps a tree (the word is not under it).
    r[HEAD] = str(rng.choice(targets))
    r[DEPREL] = "punct"


@mutator("punct-causes-nonproj")
def word_over_punct(rng, s):
    n = s.n()
    for r in s.rows:
        if r[ID].isdigit() and r[UPOS] == "PUNCT" and 1 < int(r[ID]) < n:
            k = int(r[ID])
            left = s.word_row(k - 1)
            if not s.children(k - 1) and left[HEAD] != "0":
                left[HEAD] = str(k + 1) if k + 1 <= n and s.word_row(k + 1)[HEAD] != str(k - 1) else left[HEAD]
                return True
    return False


@mutator("flat-foreign-upos-feats")
def flat_foreign(rng, s):
    r = _pick(rng, s, lambda r: r[HEAD] != "0")
    r[DEPREL] = "flat:foreign"
    if rng.random() < 0.5:
        r[UPOS], r[FEATS] = "X", "Foreign=Yes"


@mutator("enhanced-0-is-not-root", "enhanced-root-is-not-0")
def enhanced_root(rng, s):
    root = _TARGET[0] == "enhanced-0-is-not-root"
    r = _pick(rng, s, lambda r: r[DEPS] != "_" and (r[HEAD] == "0") == root)
    if r is None:
        return False
    if r[HEAD] == "0":
        r[DEPS] = rng.choice(["0:dep", "0:nsubj|0:root"])
    else:
        r[DEPS] = f"{r[HEAD]}:root" if rng.random() < 0.5 else f"{r[HEAD]}:root:x"


# --- levels 4-5 ---------------------------------------------------------------------------------


@mutator("invalid-word-with-space")
def word_with_space(rng, s):
    r = _pick(rng, s)
    column = rng.choice([FORM, LEMMA])
    r[column] = rng.choice(["ab cd", "898 000", "a\u00a0b"])
    if rng.random() < 0.3:
        _add_misc(r, "Lang=cs")


@mutator("mwt-typo-repeated-at-word")
def typo_twice(rng, s):
    m = _mwt(s)
    if m is None:
        return False
    m[FEATS] = "Typo=Yes"
    _set_feats(s.word_row(int(m[ID].split("-")[0])), add={"Typo": "Yes"})


@mutator("feature-unknown", "feature-value-unknown", "feature-upos-not-permitted",
         "feature-value-upos-not-permitted")
def odd_features(rng, s):
    r = _pick(rng, s)
    add = _variant(rng, {"feature-unknown": [{"Foo": "Bar"}, {"Foreign": "Yes", "Zzz": "Yes"}],
                         "feature-value-unknown": [{"Case": "Xyz"}, {"Number": "Sing,Xyz"}],
                         "feature-upos-not-permitted": [{"Case": "Nom", "UPOS": "PUNCT"}, {"Abbr": "Yes", "UPOS": "SYM"}],
                         "feature-value-upos-not-permitted": [{"PronType": "Dem", "UPOS": "NUM"}]})
    add = dict(add)
    upos = add.pop("UPOS", None)
    _set_feats(r, add=add)
    if upos:
        r[UPOS] = upos


@mutator("feature-not-permitted")
def not_permitted(rng, s):
    choice = _not_permitted()
    if choice is None:
        return False
    lang, feature, value = choice
    r = _pick(rng, s)
    _set_feats(r, add={feature: value})
    _add_misc(r, f"Lang={lang}")


@mutator("unknown-lang")
def unknown_lang(rng, s):
    r = _pick(rng, s, lambda r: r[FEATS] != "_")
    if r is None:
        return False
    _add_misc(r, rng.choice(["Lang=xx", "Lang"]))


@mutator("unknown-deprel", "unknown-edeprel")
def unknown_subtype(rng, s):
    r = _pick(rng, s, lambda r: r[HEAD] != "0")
    rel = r[DEPREL].split(":")[0] + ":" + rng.choice(["foo", "pass", "relcl", "tmod"])
    r[DEPREL] = rel
    if r[DEPS] != "_" and "|" not in r[DEPS]:
        r[DEPS] = r[DEPS].split(":")[0] + ":" + rel + rng.choice(["", ":xyz"])


@mutator("unknown-deprel")
def code_switched_deprel(rng, s):
    r = _pick(rng, s, lambda r: r[HEAD] != "0")
    parent = s.word_row(int(r[HEAD]))
    r[DEPREL] = "nsubj:pass" if rng.random() < 0.5 else "obl:arg"
    _add_misc(r, "Lang=de")
    if rng.random() < 0.7:
        _add_misc(parent, "Lang=de")


@mutator("aux-lemma", "cop-lemma")
def odd_lemmas(rng, s):
    r = _pick(rng, s, lambda r: r[UPOS] == "AUX" or r[DEPREL] == "cop")
    if r is None:
        return False
    r[LEMMA] = rng.choice(["xyz", "werden", "_"])
    if rng.random() < 0.4:
        _add_misc(r, rng.choice(["Lang=de", "Lang=xx"]))


@mutator("aux-lemma", "cop-lemma")
def make_aux(rng, s):
    r = _leaf(rng, s)
    if r is None:
        return False
    if rng.random() < 0.5:
        r[UPOS] = "AUX"
    else:
        r[DEPREL] = "cop"


_NOT_PERMITTED: list = []


def _not_permitted():
    """A (language, feature, value) the UD data lists as not permitted (read
    from the installed udtools data at run time)."""
    if not _NOT_PERMITTED:
        from annoscore.scorer.validation import installed_data_dir
        folder = installed_data_dir()
        found = None
        if folder is not None:
            feats = json.loads((Path(folder) / "feats.json").read_text(encoding="utf-8"))["features"]
            for lang in sorted(feats):
                for name, record in sorted(feats[lang].items()):
                    if record.get("permitted") == 0:
                        values = list(record.get("uvalues") or ()) + list(record.get("lvalues") or ())
                        found = (lang, name, values[0] if values else "Yes")
                        break
                if found:
                    break
        _NOT_PERMITTED.append(found)
    return _NOT_PERMITTED[0]


# --- putting it together -------------------------------------------------------------------------


def inject(text: str, seed: int, cases: int = 2, ids: list[str] | None = None) -> str:
    """The text with ``cases`` sentences changed by each mutator of each id."""
    rng = random.Random(seed)
    _USES.clear()
    sents = parse(text)
    free = list(range(len(sents)))
    rng.shuffle(free)
    _REUSED[:] = [s.comments[s.comment("sent_id")].split("=", 1)[1].strip()
                  for s in sents[: max(1, len(sents) // 3)] if s.comment("sent_id") is not None]
    for test_id in sorted(ids or MUTATORS):
        for function in dict.fromkeys(MUTATORS.get(test_id, ())):
            _TARGET[0] = test_id
            done = 0
            untried = list(free)
            while done < cases and untried:
                index = untried.pop()
                s = sents[index]
                backup = _copy(s)
                try:
                    suits = s.comment("sent_id") is not None and s.comment("text") is not None \
                        and function(rng, s) is not False
                except (TypeError, ValueError, IndexError, KeyError, AttributeError):
                    suits = False  # the sentence lacks what the mutator needs (a word of some kind)
                if not suits:
                    sents[index] = backup  # leave it for other mutators
                    continue
                free.remove(index)
                done += 1
            _TARGET[0] = ""
    return render(sents)


def _copy(s: Sent) -> Sent:
    return Sent(list(s.comments), [list(r) for r in s.rows], list(s.after), None if s.raw is None else list(s.raw))


def repeat(text: str, times: int) -> str:
    """The sentences of a text ``times`` over, with fresh sent_ids."""
    sents = parse(text)
    out = []
    for k in range(times):
        for s in sents:
            c = _copy(s)
            i = c.comment("sent_id")
            if i is not None:
                c.comments[i] = f"{c.comments[i]}-r{k}"
            out.append(c)
    return render(out)


def scenarios(text: str) -> dict[str, str]:
    """Whole-file cases, by name."""
    sents = parse(text)
    base = render(sents)
    out: dict[str, str] = {}
    out["crlf"] = base.replace("\n", "\r\n")
    out["lone-cr"] = base.replace("\n", "\r", 3)
    out["no-final-blank"] = base[:-1]
    out["no-final-newline"] = base[:-2]
    out["bom"] = "\ufeff" + base
    out["bom-blank"] = "\ufeff\n" + base
    out["leading-blanks"] = "\n\n" + base
    out["trailing-blanks"] = base + "\n\n"
    out["ends-pseudo"] = base[:-1] + " \n"
    out["only-comments-end"] = base + "# sent_id = tail\n# text = x"
    # Features: none at all; then only in the last sentence.
    plain = [_copy(s) for s in sents]
    for s in plain:
        for r in s.rows:
            r[FEATS] = "_" if "-" not in r[ID] else r[FEATS]
    gw = _copy(plain[0])
    _TARGET[0] = "goeswith-missing-typo"
    goeswith(random.Random(1), gw)
    _TARGET[0] = ""
    out["no-features"] = render(plain + [gw])
    late = [_copy(s) for s in plain] + [_copy(gw), _copy(sents[-1])]
    out["late-features"] = render(late)
    # Enhanced graphs: none; one sentence has one; all identical to the basic trees.
    nodeps = [_copy(s) for s in plain]
    for s in nodeps:
        s.rows = [r for r in s.rows if "." not in r[ID]]
        for r in s.rows:
            r[DEPS] = "_"
    out["edeps-some"] = render(nodeps[:2] + [_copy(sents[0])] + nodeps[2:])
    out["edeps-first-only"] = render([_copy(sents[0])] + nodeps)
    identical = [_copy(s) for s in nodeps]
    for s in identical:
        for r in s.rows:
            if "-" not in r[ID]:
                r[DEPS] = f"{r[HEAD]}:{r[DEPREL]}"
    out["edeps-identical"] = render(identical)
    out["edeps-identical-trailing"] = render(identical) + "\n\n"
    bad_last = [_copy(s) for s in identical]
    bad_last[-1].rows[0][ID] = "x1"
    out["edeps-identical-bad-last"] = render(bad_last)
    # 'ref' as a basic relation, before and after the first enhanced graph.
    ref_first = [_copy(s) for s in nodeps]
    ref_first[0].rows[-1][DEPREL] = "ref"
    out["ref-no-deps"] = render(ref_first)
    out["ref-before-deps"] = render(ref_first + [_copy(sents[1])])
    ref_after = [_copy(sents[1])] + [_copy(s) for s in ref_first]
    out["ref-after-deps"] = render(ref_after)
    # Empty nodes and enhanced orphans, in both orders.
    orphaned = [_copy(s) for s in sents]
    for s in orphaned:
        s.rows = [r for r in s.rows if "." not in r[ID]]
        for r in s.rows:
            if r[DEPS] != "_" and "." in r[DEPS]:
                r[DEPS] = f"{r[HEAD]}:{r[DEPREL]}"
    o = orphaned[0]
    o.rows[-1][DEPS] = o.rows[-1][DEPS].split(":")[0] + ":orphan"
    with_empty = [s for s in sents if any("." in r[ID] for r in s.rows)]
    if with_empty:
        out["orphan-then-empty"] = render([o] + orphaned[1:] + [_copy(with_empty[0])])
        out["empty-then-orphan"] = render([_copy(with_empty[0])] + orphaned)
    # SpaceAfter=No before a new paragraph or document; the state across sentences.
    pars = [_copy(s) for s in sents]
    for k, s in enumerate(pars):
        last = s.rows[-1]
        if k % 2 == 0:
            _add_misc(last, "SpaceAfter=No")
            s.set_text(s.comments[s.comment("text")].split("=", 1)[1].strip())
        if k % 3 == 1:
            s.comments.insert(0, rng_choice(k, ["# newpar", "# newdoc", "# newpar id = p", "# newdoc id = d"]))
        if k % 5 == 4:
            del s.comments[s.comment("text")]
    out["spaceafter-newpar"] = render(pars)
    # Parallel ids.
    par = [_copy(s) for s in sents]
    suffixes = ["", "/alt1", "/alt2", "/alt4", "/part2", "", "/alt1part1", "/part1", "/part2", "/part2"]
    for k, s in enumerate(par):
        s.comments.append(f"# parallel_id = pud/s{k % 3}{suffixes[k % len(suffixes)]}")
    out["parallel"] = render(par + [_copy(par[0])])
    # The same sent_id in several sentences.
    out["duplicate-ids"] = render(sents + [_copy(s) for s in sents[:3]] + [_copy(sents[0])])
    return out


def rng_choice(k: int, items: list[str]) -> str:
    return items[k % len(items)]


# Characters the damage tests insert: the ones the validator's level 1-2
# checks care about (separators, digits, marks, odd spaces, U+FFFD, a BOM).
DAMAGE_POOL = "\t\n \r_#-.:|=0123456789aZ\ufffd\u0301\ufeff\x1c\u00a0é"


def random_damage(text: str, rng, most: int = 6) -> str:
    """``text`` with 1 to ``most`` characters inserted, deleted or replaced at
    random (from `DAMAGE_POOL`)."""
    chars = list(text)
    for _ in range(rng.randint(1, most)):
        at = rng.randrange(len(chars))
        action = rng.random()
        if action < 0.4:
            chars.insert(at, rng.choice(DAMAGE_POOL))
        elif action < 0.7:
            del chars[at]
        else:
            chars[at] = rng.choice(DAMAGE_POOL)
    return "".join(chars)
