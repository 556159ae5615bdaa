"""Levels 4-5: the language's own lists (features, relations, spaces, AUX, cop).

Level 4 checks each node's features against the language's documented
features (and the UPOS each value may go with), its relation labels and
enhanced relations against the language's lists, and that words with
whitespace are among the language's exceptions; level 5 checks AUX and
``cop`` lemmas against the documented auxiliaries and copulas.  A word with
``Lang=xx`` in MISC (code switching) is checked against that language's
lists, as the validator does (``Foreign`` always against the main one).

Everything a (FEATS, UPOS) pair decides is computed once per distinct pair
(`LanguageChecks` keeps the answers per language); a word with ``Lang`` in
MISC takes the slow way.
"""

from __future__ import annotations

from annoscore.scorer.excerpt import excerpt, quoted
from annoscore.scorer.columns import DEPREL, DEPS, FEATS, FORM, LEMMA, MISC, UPOS
from annoscore.scorer.validation.chars import WS, cell_span, item_span
from annoscore.scorer.validation.langdata import LanguageData
from annoscore.scorer.validation.level1 import ValidatedSentence
from annoscore.scorer.validation.level2 import DEPS_PAIRS, CellFacts
from annoscore.scorer.validation.memo import Memo
from annoscore.scorer.validation.registry import checks
from annoscore.scorer.validation.tree import ITEMS, Tree


class LanguageChecks:
    """The level 4-5 answers for one main language, remembered per value."""

    _cache: dict[tuple[int, str], "LanguageChecks"] = {}

    def __init__(self, data: LanguageData, lang: str) -> None:
        self.data = data
        self.lang = lang
        self.feature_issues = Memo(self._feature_issues)
        # Values met before that have nothing to report (the root's too).
        self.good_features: set[tuple] = {("_", "<ROOT>")}
        self.good_deprels: set[str] = set(data.deprels(lang)) - {"ref"}
        self.good_deps: set[str] = {"_"}

    @staticmethod
    def remember(good: set, value) -> None:
        if len(good) > 200_000:
            good.clear()
            good.update((("_", "<ROOT>"), "_"))
        good.add(value)

    @classmethod
    def of(cls, data: LanguageData, lang: str) -> "LanguageChecks":
        key = (id(data), lang)
        checks = cls._cache.get(key)
        if checks is None or checks.data is not data:
            checks = cls._cache[key] = cls(data, lang)
        return checks

    def _feature_issues(self, key: tuple) -> tuple:
        """(test id, feature, value, language) for each value of a FEATS cell."""
        feats, upos, lang = key
        data = self.data
        default_set = data.feats(self.lang)
        featset = data.feats(lang) if lang != self.lang else default_set
        issues = []
        for name, value in ITEMS[feats].items():
            for v in str(value).split(","):
                effective, effective_lang = (default_set, self.lang) if name == "Foreign" else (featset, lang)
                record = effective.get(name)
                if record is None:
                    issues.append(("feature-unknown", name, v, effective_lang))
                elif _number(record.get("permitted")) == 0:
                    issues.append(("feature-not-permitted", name, v, effective_lang))
                else:
                    values = (list(record.get("uvalues", ())) + list(record.get("lvalues", ()))
                              + list(record.get("unused_uvalues", ())) + list(record.get("unused_lvalues", ())))
                    byupos = record.get("byupos", {})
                    if v not in values:
                        issues.append(("feature-value-unknown", name, v, effective_lang))
                    elif upos not in byupos:
                        issues.append(("feature-upos-not-permitted", name, v, effective_lang))
                    elif v not in byupos[upos] or byupos[upos][v] == 0:
                        issues.append(("feature-value-upos-not-permitted", name, v, effective_lang))
        return tuple(issues)


def _number(value: object) -> float:
    return value if isinstance(value, (int, float)) else 0


_FEATURE_MESSAGES = {
    "feature-unknown": "feature {f} is not documented for [{lang}] ({f}={v})",
    "feature-not-permitted": "feature {f} is not permitted in [{lang}] ({f}={v})",
    "feature-value-unknown": "value {v} of {f} is not documented for [{lang}]",
    "feature-upos-not-permitted": "feature {f} is not permitted with UPOS {upos} in [{lang}]",
    "feature-value-upos-not-permitted": "{f}={v} is not permitted with UPOS {upos} in [{lang}]",
}


class _Node:
    """A word or an empty node, with what the level 4-5 checks read."""

    __slots__ = ("number", "line", "form", "lemma", "upos", "feats", "misc", "udeprel", "deprel",
                 "deps", "mwt", "word")

    def __init__(self, number, line, form, lemma, upos, feats, misc, udeprel, deprel, deps, mwt, word):
        self.number, self.line, self.form, self.lemma, self.upos = number, line, form, lemma, upos
        self.feats, self.misc, self.udeprel, self.deprel, self.deps = feats, misc, udeprel, deprel, deps
        self.mwt, self.word = mwt, word


def _nodes(t: Tree) -> list[_Node]:
    nodes = [_Node(k, t.line[k], t.form[k], t.lemma[k], t.upos[k], t.feats[k], t.misc_of(k), t.udeprel[k],
                   t.deprel[k], t.raw_deps[k], t.mwt_row[k], True) for k in range(1, t.n + 1)]
    if t.empty:
        for number, line, cols in t.empty:
            nodes.append(_Node(number, line, cols[FORM], cols[LEMMA], cols[UPOS], cols[FEATS],
                               ITEMS[cols[MISC]], None, None, cols[DEPS], None, False))
        nodes.sort(key=lambda node: node.number)
    return nodes


def _alt(misc: dict):
    value = misc.get("Lang", "")
    return value if value != "" else None


def check_language(s: ValidatedSentence, t: Tree, level: int, lang: str, data: LanguageData,
                   cells: CellFacts) -> None:
    """The level 4 (and, at level 5, 5) checks of every node."""
    checks = LanguageChecks.of(data, lang)
    if not t.empty and _clean(t, level, lang, data, checks):
        return
    _check_nodes(s, t, level, lang, data, cells, checks)


def _clean(t: Tree, level: int, lang: str, data: LanguageData, checks: LanguageChecks) -> bool:
    """True when no word of a sentence without empty nodes can have a level
    4-5 incident, judged by whole columns: no Lang= in MISC, no whitespace in
    FORM or LEMMA, every (FEATS, UPOS), relation and DEPS value known good."""
    if "Lang" in "".join(t.misc):
        return False
    if WS.search("\x00".join(t.form)) or WS.search("\x00".join(t.lemma)):
        return False
    if not checks.good_features.issuperset(zip(t.feats, t.upos)):
        for pair in set(zip(t.feats, t.upos)).difference(checks.good_features):
            if pair[0] != "_" and checks.feature_issues[(pair[0], pair[1], lang)]:
                return False
            checks.remember(checks.good_features, pair)
    if t.mwt_feats:
        return False  # Typo=Yes on a multiword token: the slow way
    if not checks.good_deprels.issuperset(t.deprel[1:]):
        return False
    if not checks.good_deps.issuperset(t.raw_deps):
        main_enhanced = data.edeprels(lang)
        for value in set(t.raw_deps).difference(checks.good_deps):
            if not all(rel in main_enhanced for _, rel in DEPS_PAIRS[value]):
                return False
            checks.remember(checks.good_deps, value)
    if level >= 5:
        if "AUX" in t.upos:
            lemmas = {l for u, l in zip(t.upos, t.lemma) if u == "AUX"}
            lemmas.discard("_")
            if not data.auxiliaries(lang).issuperset(lemmas):
                return False
        if "cop" in t.udeprel:
            lemmas = {l for u, l in zip(t.udeprel, t.lemma) if u == "cop"}
            lemmas.discard("_")
            if not data.copulas(lang).issuperset(lemmas):
                return False
    return True


class NodeContext:
    """What the level 4-5 checks of one sentence share: its nodes (words and
    empty nodes in order), the main language and its data, and whether any
    node switches language (``Lang=`` in MISC)."""

    __slots__ = ("s", "t", "nodes", "lang", "data", "cells", "checks", "any_lang")

    def __init__(self, s: ValidatedSentence, t: Tree, lang: str, data: LanguageData, cells: CellFacts,
                 checks: LanguageChecks) -> None:
        self.s, self.t, self.lang, self.data, self.cells, self.checks = s, t, lang, data, cells, checks
        self.nodes = _nodes(t)
        self.any_lang = any("Lang" in t.misc[k] for k in range(1, t.n + 1)) or any(
            "Lang" in cols[MISC] for _, _, cols in t.empty)

    def alt(self, node: _Node):
        """The node's own language (``Lang=`` in MISC), or None."""
        return _alt(node.misc) if self.any_lang else None


def _check_nodes(s: ValidatedSentence, t: Tree, level: int, lang: str, data: LanguageData,
                 cells: CellFacts, checks: LanguageChecks) -> None:
    """Every node, the validator's way (empty nodes, code switching, ...)."""
    c = NodeContext(s, t, lang, data, cells, checks)
    check_words_with_spaces(c)
    check_features(c)
    check_relations(c)
    if level >= 5:
        check_auxiliaries_and_copulas(c)


@checks("invalid-word-with-space")
def check_words_with_spaces(c: NodeContext) -> None:
    """A FORM or LEMMA with whitespace must be one of the words the
    language's data lists as allowed to contain it (``tospace``; a no-break
    space counts as a space)."""
    s, nodes = c.s, c.nodes
    if "invalid-word-with-space" not in s.keep or not WS.search("\x00".join(
            [node.form for node in nodes] + [node.lemma for node in nodes])):
        return
    for node in nodes:
        for column, word in ((FORM, node.form), (LEMMA, node.lemma)):
            if WS.search(word) is None:
                continue
            use = c.alt(node)
            pattern = c.data.tospace(use if use is not None else c.lang)
            if pattern is None or not pattern.fullmatch(word.replace("\xa0", " ")):
                s.add("invalid-word-with-space", node.line,
                      f"{quoted(word)} in {'FORM' if column == FORM else 'LEMMA'} is not among "
                      f"the words of [{use if use is not None else c.lang}] allowed to contain whitespace",
                      cell_span(s.text_of(node.line), column))


@checks("unknown-lang mwt-typo-repeated-at-word feature-unknown feature-not-permitted feature-value-unknown "
        "feature-upos-not-permitted feature-value-upos-not-permitted")
def check_features(c: NodeContext) -> None:
    """Each feature and value is documented for the language (or, for a
    word with ``Lang=``, for that one, which UD must know; ``Foreign``
    always for the main one), permitted in it, and permitted with the
    word's UPOS.  Typo=Yes on a multiword token is not repeated on its words."""
    s, data = c.s, c.data
    for node in c.nodes:
        if node.feats == "_":
            continue
        featlang = c.lang
        alt = c.alt(node)
        if alt is not None:
            if not data.is_known_language(alt):
                s.add_cell("unknown-lang", node.line, MISC,
                           f"language [{excerpt(str(alt))}] is unknown in Universal Dependencies")
                continue
            featlang = alt
        if node.mwt is not None and "Typo" in node.feats and ITEMS[node.mwt[FEATS]].get("Typo", "") == "Yes":
            typo = ITEMS[node.feats].get("Typo")
            if typo is not None:
                for _ in str(typo).split(","):
                    s.add_cell("mwt-typo-repeated-at-word", node.line, FEATS,
                               "Typo is on the multiword token already; it cannot be on its words too")
        issues = c.checks.feature_issues[(node.feats, node.upos, featlang)]
        if issues:
            text = s.text_of(node.line)
            names = [item.split("=", 1)[0] for item in node.feats.split("|")]
            for test_id, name, value, issue_lang in issues:
                # The item of the feature (its last occurrence: the one Udapi keeps).
                index = len(names) - 1 - names[::-1].index(name) if name in names else 0
                s.add(test_id, node.line, _FEATURE_MESSAGES[test_id].format(
                    f=name, v=value, lang=issue_lang, upos=node.upos),
                    item_span(text, FEATS, index))


@checks("unknown-deprel unknown-edeprel")
def check_relations(c: NodeContext) -> None:
    """Each relation (DEPREL) and enhanced relation (DEPS) is in the
    language's list; a word and its parent both in another language
    (``Lang=``) may use that language's.  In the 'ud' lists ``ref`` is known
    only once the validator has read an enhanced graph (the document decides)."""
    s, t, lang, data = c.s, c.t, c.lang, c.data
    main = data.deprels(lang)
    main_enhanced = data.edeprels(lang)
    for node in c.nodes:
        alt = c.alt(node)
        if node.word and node.deprel not in main:
            _unknown_deprel(c, node, alt)
        if node.deps == "_":
            continue
        pairs = DEPS_PAIRS[node.deps]
        if alt is None and all(rel in main_enhanced for _, rel in pairs):
            continue
        alt_enhanced = data.edeprels(alt)
        text = s.text_of(node.line)
        for k, (head, rel) in enumerate(pairs):
            if rel in main_enhanced:
                continue
            parent_alt = None
            if alt is not None:
                number = float(head) if "." in head else int(head)
                parent_alt = _alt(t.misc_items_of_number(number)) if number else None
            if alt is not None and alt != lang and alt == parent_alt and rel in alt_enhanced:
                continue
            s.add("unknown-edeprel", node.line, f"unknown enhanced relation {quoted(rel)} in [{lang}]",
                  item_span(text, DEPS, k))


def _unknown_deprel(c: NodeContext, node: _Node, alt) -> None:
    """A word's DEPREL not in the main language's list."""
    s, t, lang, deprel = c.s, c.t, c.lang, node.deprel
    parent_alt = _alt(t.misc_of(t.head[node.number])) if c.any_lang and t.head[node.number] else None
    other = c.data.deprels(alt) if alt is not None and alt != lang and alt == parent_alt else frozenset()
    if deprel in other:
        return
    if lang == "ud" and deprel == "ref":
        # The validator's 'ud' list gains 'ref' once it has read a DEPS.
        if not c.cells.deps_seen and "unknown-deprel" in s.keep:
            c.cells.ref_candidates.append(("unknown-deprel", node.line, *cell_span(s.text_of(node.line), DEPREL)))
    else:
        s.add_cell("unknown-deprel", node.line, DEPREL, f"unknown relation {quoted(str(deprel))} in [{lang}]")


@checks("aux-lemma cop-lemma")
def check_auxiliaries_and_copulas(c: NodeContext) -> None:
    """Level 5: the lemma of an AUX is one of the language's documented
    auxiliaries, and the lemma of a ``cop`` one of its copulas (a word in a
    language UD does not know is not checked)."""
    s, data = c.s, c.data
    for node in c.nodes:
        is_aux = node.upos == "AUX" and node.lemma != "_"
        is_cop = node.udeprel == "cop" and node.lemma != "_"
        if not (is_aux or is_cop):
            continue
        use = c.lang
        alt = c.alt(node)
        if alt is not None:
            if not data.is_known_language(alt):
                continue
            use = alt
        if is_aux and node.lemma not in data.auxiliaries(use):
            s.add_cell("aux-lemma", node.line, LEMMA,
                       f"{quoted(_lemmatl(node))} is not an auxiliary in [{use}]")
        if is_cop and node.lemma not in data.copulas(use):
            s.add_cell("cop-lemma", node.line, LEMMA,
                       f"{quoted(_lemmatl(node))} is not a copula in [{use}]")


def _lemmatl(node: _Node) -> str:
    translit = node.misc.get("LTranslit", "")
    return node.lemma + (" " + str(translit) if translit != "" else "")
