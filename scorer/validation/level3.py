"""Level 3: the annotation against the universal guidelines (one sentence).

The official validator visits every node and runs a dozen checks on each.
Most checks look at one relation label and a few cells, and almost every
node passes them, so here each check first picks out the few nodes it can
concern from whole columns (the nodes whose relation is ``punct``, the
heads of ``fixed`` children, ...) and runs the official rule on those only:

* per node: ``root`` iff HEAD 0, UPOS against DEPREL (one dictionary look-up
  per distinct (relation, UPOS) pair), expected features;
* relation-driven: left-to-right relations, subjects and objects per
  predicate, ``obl`` under nominals, ``orphan``, function words with
  children, ``fixed`` and ``goeswith`` spans and morphology;
* punctuation and non-projectivity: one sweep over the arcs finds whether
  the tree is projective at all; the official per-punctuation search runs
  only on the few trees that are not.

Two warnings/errors depend on the whole corpus having features (they are
returned apart, in ``if_features``).  The enhanced-graph root checks and
the empty-node/orphan facts are here too; connectivity of the enhanced
graph, a level-2 check, is `egraph_unconnected`.
"""

from __future__ import annotations

import re

from annoscore.scorer.excerpt import excerpt, quoted
from annoscore.scorer.columns import DEPREL, DEPS, FEATS, HEAD, LEMMA, MISC, UPOS
from annoscore.scorer.validation.chars import cell_span, item_span
from annoscore.scorer.validation.incident import Incident
from annoscore.scorer.validation.level1 import ValidatedSentence
from annoscore.scorer.validation.level2 import DEPS_HEAD_SET, DEPS_PAIRS, positions
from annoscore.scorer.validation.memo import Memo
from annoscore.scorer.validation.registry import checks
from annoscore.scorer.validation.tree import ITEMS, Tree

_FUNCTION = frozenset("case mark cc aux cop det clf fixed goeswith punct".split())
_LEFT_HEADED = frozenset("conj fixed flat goeswith appos".split())
_OUTER = re.compile(r"^[nc]subj:outer$")
_NOMINAL_PARENT = frozenset(("nsubj", "obj", "iobj", "obl", "vocative", "dislocated", "expl", "nmod"))
_ORPHAN_PARENT = frozenset("conj parataxis root csubj ccomp advcl acl reparandum".split())
_LEAF_OK = {
    "mark": frozenset("advmod obl goeswith fixed reparandum conj cc punct".split()),
    "case": frozenset("advmod obl goeswith fixed reparandum conj cc punct".split()),
    "aux": frozenset("goeswith fixed reparandum conj cc punct".split()),
    "cop": frozenset("goeswith fixed reparandum conj cc punct".split()),
    "det": frozenset("det case advmod obl clf goeswith fixed flat compound reparandum discourse "
                     "parataxis conj cc punct".split()),
    "clf": frozenset("advmod obl goeswith fixed reparandum conj cc punct".split()),
    "cc": frozenset("goeswith fixed reparandum conj punct".split()),
    "fixed": frozenset("goeswith reparandum conj punct".split()),
    "goeswith": frozenset(),
    "punct": frozenset(("punct",)),
}
_LEAF_ID = {"mark": "leaf-mark-case", "case": "leaf-mark-case", "aux": "leaf-aux-cop",
            "cop": "leaf-aux-cop", "det": "leaf-det", "clf": "leaf-clf", "cc": "leaf-cc",
            "fixed": "leaf-fixed", "goeswith": "leaf-goeswith", "punct": "leaf-punct"}


def _pair_issues(key: tuple) -> tuple[str, ...]:
    """The UPOS-DEPREL rules that depend only on (relation, UPOS as used)."""
    deprel, upos = key
    u = upos or ""  # Udapi's None (UPOS _) matches none of the tag patterns
    ids = []
    if deprel == "det" and not u.startswith(("DET", "PRON")):
        ids.append("rel-upos-det")
    if deprel == "nummod" and u not in ("NUM", "NOUN", "SYM"):
        ids.append("rel-upos-nummod")
    if deprel == "advmod" and not u.startswith(("ADV", "ADJ", "CCONJ", "DET", "PART", "SYM")):
        ids.append("rel-upos-advmod")  # unless the node has a goeswith child (checked by the caller)
    if deprel == "expl" and u not in ("PRON", "DET", "PART"):
        ids.append("rel-upos-expl")
    if deprel == "aux" and not u.startswith("AUX"):
        ids.append("rel-upos-aux")
    if deprel == "cop" and not u.startswith(("AUX", "PRON", "DET", "SYM")):
        ids.append("rel-upos-cop")
    if deprel == "case" and u.startswith(("PROPN", "ADJ", "PRON", "DET", "NUM", "AUX")):
        ids.append("rel-upos-case")
    if deprel == "mark" and u.startswith(("NOUN", "PROPN", "ADJ", "PRON", "DET", "NUM", "AUX", "INTJ")):
        ids.append("rel-upos-mark")
    if deprel == "cc" and u.startswith(("NOUN", "PROPN", "ADJ", "PRON", "DET", "NUM", "VERB", "AUX", "INTJ")):
        ids.append("rel-upos-cc")
    if deprel == "punct" and upos != "PUNCT":
        ids.append("rel-upos-punct")
    if upos == "PUNCT" and not (deprel or "").startswith(("punct", "root")):
        ids.append("upos-rel-punct")
    if upos == "PROPN" and deprel == "fixed":
        ids.append("rel-upos-fixed")
    return tuple(ids)


PAIR_ISSUES = Memo(_pair_issues)


def _feats_facts(feats: str) -> tuple:
    """(ExtPos or '', lacks PronType, VerbForm=Fin without Mood, Typo=Yes, Polarity=Neg, Poss=Yes)."""
    items = ITEMS[feats]
    return (items.get("ExtPos", ""), items.get("PronType", "") == "",
            items.get("VerbForm", "") == "Fin" and items.get("Mood", "") == "",
            items.get("Typo", "") == "Yes", items.get("Polarity", "") == "Neg",
            items.get("Poss", "") == "Yes")


FEATS_FACTS = Memo(_feats_facts)


def _edeps_root_issues(deps: str) -> tuple:
    """(test id, item) of the enhanced root rules, and whether an 'orphan' is there."""
    if deps == "_":
        return (), False
    issues = []
    orphan = False
    for k, (head, rel) in enumerate(DEPS_PAIRS[deps]):
        universal = rel.split(":", 1)[0]
        if head == "0" and universal != "root":
            issues.append(("enhanced-0-is-not-root", k))
        if head != "0" and universal == "root":
            issues.append(("enhanced-root-is-not-0", k))
        if universal == "orphan":
            orphan = True
    return tuple(issues), orphan


EDEPS_ROOT = Memo(_edeps_root_issues)
_NO_ROOT_ISSUE = ((), False)


# (UPOS, FEATS) and (relation, UPOS) pairs met before that need no further look.
# (Each holds the root's pair too: the columns start with the root.)
_ROOT_EXPECTED = ("<ROOT>", "_")
_ROOT_PAIR = ("<ROOT>", "<ROOT>")
_GOOD_EXPECTED: set[tuple] = {_ROOT_EXPECTED}
_GOOD_PAIRS: set[tuple] = {_ROOT_PAIR}
_GOOD_EDEPS: set = {"_"}  # DEPS values with no enhanced root issue and no orphan


def _remember(good: set, pair: tuple) -> None:
    if len(good) > 200_000:
        good.clear()
        good.update((_ROOT_EXPECTED, _ROOT_PAIR, "_"))
    good.add(pair)


class _LazyFacts:
    """``FEATS_FACTS`` of word k, looked up only when asked."""

    __slots__ = ("feats",)

    def __init__(self, feats) -> None:
        self.feats = feats

    def __getitem__(self, k: int) -> tuple:
        return FEATS_FACTS[self.feats[k]]


class TreeFacts:
    """What the tree checks leave for the document-wide ones."""

    __slots__ = ("if_features", "egraph_events")

    def __init__(self) -> None:
        self.if_features: list[Incident] = []   # reported only if the corpus has features
        # (line, is an empty node, has an enhanced 'orphan') of nodes that are
        # either, in node order: the validator's empty-node/orphan rule.
        self.egraph_events: list[tuple[int, bool, bool]] = []


def _add(s: ValidatedSentence, t: Tree, test_id: str, k: int, message: str, column: int | None = None) -> None:
    line = t.line[k]
    span = cell_span(s.text_of(line), column) if column is not None else None
    s.add(test_id, line, message, span)


def _conditional(s: ValidatedSentence, t: Tree, facts: TreeFacts, test_id: str, k: int, message: str,
                 column: int) -> None:
    if test_id in s.keep:
        line = t.line[k]
        start, end = cell_span(s.text_of(line), column)
        facts.if_features.append(Incident(test_id, message, line, start, end, s.sent_id))


# --- checks on every node (words and empty nodes) ---------------------------------------


@checks("0-is-not-root root-is-not-0 enhanced-0-is-not-root enhanced-root-is-not-0")
def check_roots(s: ValidatedSentence, t: Tree, facts: TreeFacts) -> None:
    """A word attached to 0 has the relation ``root``, and only such a word;
    the same in the enhanced graph (DEPS).  Collects the facts of the
    empty-node/``orphan`` rule for the document (``check_zero_root``,
    ``check_enhanced_orphan``)."""
    udeprel = t.udeprel
    for r in t.children[0]:
        if udeprel[r] != "root":
            _add(s, t, "0-is-not-root", r, "DEPREL must be 'root' when HEAD is 0", DEPREL)
    if udeprel.count("root") > sum(1 for r in t.children[0] if udeprel[r] == "root"):
        for k in range(1, t.n + 1):
            if udeprel[k] == "root" and t.head[k] != 0:
                _add(s, t, "root-is-not-0", k, "DEPREL cannot be 'root' when HEAD is not 0", DEPREL)
    # Enhanced relations, in node order (words and empty nodes interleaved).
    if not t.empty:
        if _GOOD_EDEPS.issuperset(t.raw_deps):
            return
        fresh = set(t.raw_deps).difference(_GOOD_EDEPS)
        if all(EDEPS_ROOT[d] == _NO_ROOT_ISSUE for d in fresh):
            for d in fresh:
                _remember(_GOOD_EDEPS, d)
            return
    nodes = [(k, t.line[k], t.raw_deps[k]) for k in range(1, t.n + 1)]
    if t.empty:
        nodes += [(number, line, cols[DEPS]) for number, line, cols in t.empty]
        nodes.sort(key=lambda node: node[0])
        empty_numbers = {number for number, _, _ in t.empty}
    else:
        empty_numbers = set()
    for number, line, deps in nodes:
        issues, orphan = EDEPS_ROOT[deps]
        for test_id, item in issues:
            message = ("an enhanced relation from head 0 must be 'root'" if test_id == "enhanced-0-is-not-root"
                       else "an enhanced 'root' relation must come from head 0")
            s.add(test_id, line, message, item_span(s.text_of(line), DEPS, item))
        is_empty = number in empty_numbers
        if is_empty or orphan:
            facts.egraph_events.append((line, is_empty, orphan))


@checks("unconnected-egraph")
def egraph_unconnected(s: ValidatedSentence, t: Tree) -> None:
    """Level 2: every node of an enhanced graph (words and empty nodes) is
    reached from 0 through DEPS (``check_egraph_connected``)."""
    blanks = t.raw_deps.count("_") - 1  # (index 0, the root, is "_" too)
    if not t.empty:
        if blanks == t.n:
            return  # no enhanced graph: nothing is required of it
        if not blanks:
            # Quick: every word lists its basic head among its enhanced heads,
            # so the basic tree's paths reach every word.
            heads = t.heads_text if t.heads_text is not None else [str(h) for h in t.head[1:]]
            if all(map(frozenset.__contains__, map(DEPS_HEAD_SET.__getitem__, t.raw_deps[1:]), heads)):
                return
    if not t.empty:
        # Words only: number them, as the validator's string ids would sort apart.
        under: list[list[int]] = [[] for _ in range(t.n + 1)]
        for k in range(1, t.n + 1):
            for parent, _ in t.edeps(t.raw_deps[k]):
                if isinstance(parent, int) and parent <= t.n:
                    under[parent].append(k)
        order = [0]
        seen = [False] * (t.n + 1)
        seen[0] = True
        for k in order:
            for child in under[k]:
                if not seen[child]:
                    seen[child] = True
                    order.append(child)
        if len(order) == t.n + 1:
            return
    children: dict[str, set[str]] = {"0": set()}
    ids: list[str] = []
    nodes = [(k, t.raw_deps[k]) for k in range(1, t.n + 1)] + [(n, c[DEPS]) for n, _, c in t.empty]
    for number, raw in nodes:
        key = str(number)
        ids.append(key)
        children.setdefault(key, set())
        for parent, _ in t.edeps(raw):
            children.setdefault(str(parent), set()).add(key)
    reached: set[str] = set()
    stack = ["0"]
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in reached:
                reached.add(child)
                stack.append(child)
    unreachable = sorted(set(ids) - reached)
    if unreachable:
        line = t.lines_by_id().get(unreachable[0], s.sentence_line)
        shown = ", ".join(unreachable[:10]) + (", ..." if len(unreachable) > 10 else "")
        s.add("unconnected-egraph", line, f"the enhanced graph is not connected: nodes {shown} "
              "cannot be reached from the root")


# --- checks on words (the basic tree) --------------------------------------------------


class WordContext:
    """What the word checks of one sentence share: the sentence, its tree and
    columns, the relations present, the heads of ``fixed`` and ``goeswith``
    children, and whether the tree is projective (found once, when asked)."""

    __slots__ = ("s", "t", "facts", "n", "upos", "udeprel", "deprel", "head", "children", "keep",
                 "feats_facts", "relations", "fixed_heads", "goeswith_heads", "_projective")

    def __init__(self, s: ValidatedSentence, t: Tree, facts: TreeFacts) -> None:
        self.s, self.t, self.facts, self.n = s, t, facts, t.n
        self.upos, self.udeprel, self.deprel, self.head, self.children = (
            t.upos, t.udeprel, t.deprel, t.head, t.children)
        self.keep = s.keep
        self.feats_facts = _LazyFacts(t.feats)
        udeprel = t.udeprel
        self.relations = relations = set(udeprel)
        self.fixed_heads = {t.head[k] for k in positions(udeprel, "fixed")} if "fixed" in relations else set()
        self.goeswith_heads = ({t.head[k] for k in positions(udeprel, "goeswith")} if "goeswith" in relations
                               else set())
        self._projective: bool | None = None

    @property
    def projective(self) -> bool:
        if self._projective is None:
            self._projective = _is_projective(self.t)
        return self._projective


def check_words(s: ValidatedSentence, t: Tree, facts: TreeFacts) -> None:
    """The level-3 checks of the basic tree's words, in the validator's order."""
    if not t.n:
        return
    w = WordContext(s, t, facts)
    for check in WORD_CHECKS:
        check(w)


@checks("pron-det-without-prontype verbform-fin-without-mood")
def check_expected_features(w: WordContext) -> None:
    """Features a word's part of speech calls for: a PRON or DET has a
    PronType, a finite verb (VerbForm=Fin) a Mood.  PronType is required only
    when the treebank has features at all (the document decides)."""
    s, t, upos = w.s, w.t, w.upos
    pairs = list(zip(upos, t.feats))
    if _GOOD_EXPECTED.issuperset(pairs):
        return
    for k in [k for k, pair in enumerate(pairs) if pair not in _GOOD_EXPECTED]:
        f = w.feats_facts[k]
        bad = False
        if f[1] and upos[k] in ("PRON", "DET"):
            bad = True
            _conditional(s, t, w.facts, "pron-det-without-prontype", k,
                         f"{quoted(t.formtl(k))} is {upos[k]} but has no PronType feature", FEATS)
        if f[2]:
            bad = True
            _add(s, t, "verbform-fin-without-mood", k,
                 f"the finite verb {quoted(t.formtl(k))} has no Mood feature", FEATS)
        if not bad:
            _remember(_GOOD_EXPECTED, pairs[k])


@checks("rel-upos-det rel-upos-nummod rel-upos-advmod rel-upos-expl rel-upos-aux rel-upos-cop "
        "rel-upos-case rel-upos-mark rel-upos-cc rel-upos-punct upos-rel-punct")
def check_upos_against_deprel(w: WordContext) -> None:
    """A relation goes with some parts of speech only (the UPOS as used:
    ExtPos when the word has one): ``det`` with DET or PRON, ``nummod`` with
    NUM, NOUN or SYM, ``advmod`` with ADV and a few others (unless the word
    has a ``goeswith`` child), ``expl``, ``aux``, ``cop``, ``case``, ``mark``,
    ``cc`` likewise, ``punct`` with PUNCT and PUNCT with ``punct`` (or
    ``root``).  Each distinct (relation, UPOS) pair is judged once."""
    s, t, udeprel, upos = w.s, w.t, w.udeprel, w.upos
    with_ext = "ExtPos=" in "".join(t.feats)
    if not with_ext and _GOOD_PAIRS.issuperset(zip(udeprel, upos)):
        return
    for k in range(1, w.n + 1) if with_ext else [k for k, pair in enumerate(zip(udeprel, upos))
                                                 if pair not in _GOOD_PAIRS]:
        used = (w.feats_facts[k][0] or upos[k]) if with_ext else upos[k]
        issues = PAIR_ISSUES[(udeprel[k], used)]
        if not issues:
            _remember(_GOOD_PAIRS, (udeprel[k], used))
            continue
        for test_id in issues:
            if test_id == "rel-upos-advmod" and k in w.goeswith_heads:
                continue
            _add(s, t, test_id, k, _pair_message(test_id, t, k, used),
                 UPOS if test_id != "upos-rel-punct" else DEPREL)


@checks("fixed-without-extpos rel-upos-fixed")
def check_fixed_heads(w: WordContext) -> None:
    """The head of a ``fixed`` expression should say what the expression
    as a whole is (ExtPos), and ``fixed`` is not for proper nouns."""
    s, t, udeprel = w.s, w.t, w.udeprel
    for k in w.fixed_heads:
        if k == 0:
            continue
        ext = w.feats_facts[k][0]
        if not ext:
            forms = " ".join([t.form[k]] + [t.form[c] for c in w.children[k] if udeprel[c] == "fixed"])
            _add(s, t, "fixed-without-extpos", k,
                 f"the fixed expression {quoted(forms)} has no ExtPos feature", FEATS)
        if (ext or w.upos[k]) == "PROPN" and udeprel[k] != "fixed":
            _add(s, t, "rel-upos-fixed", k, f"'fixed' is not for proper nouns ({quoted(t.formtl(k))})", UPOS)


@checks("flat-foreign-upos-feats")
def check_flat_foreign(w: WordContext) -> None:
    """Both ends of ``flat:foreign`` are foreign words: UPOS X and the
    features Foreign=Yes only."""
    if "flat:foreign" not in w.deprel:
        return
    s, t, upos = w.s, w.t, w.upos
    for k in range(1, w.n + 1):
        if w.deprel[k] != "flat:foreign":
            continue
        if upos[k] != "X" or t.feats[k] != "Foreign=Yes":
            _add(s, t, "flat-foreign-upos-feats", k,
                 "the child of flat:foreign should have UPOS X and only Foreign=Yes", UPOS)
        p = w.head[k]
        if p and (upos[p] != "X" or t.feats[p] != "Foreign=Yes"):
            _add(s, t, "flat-foreign-upos-feats", p,
                 "the parent of flat:foreign should have UPOS X and only Foreign=Yes", UPOS)
        elif not p:
            # The root's UPOS is '<ROOT>': the validator reports the root's
            # line, which is no line of the sentence; we give the child's.
            _add(s, t, "flat-foreign-upos-feats", k,
                 "the parent of flat:foreign (the root) should have UPOS X and only Foreign=Yes", DEPREL)


@checks("right-to-left-conj right-to-left-fixed right-to-left-flat right-to-left-goeswith "
        "right-to-left-appos")
def check_left_headed(w: WordContext) -> None:
    """``conj``, ``fixed``, ``flat``, ``goeswith`` and ``appos`` go from
    left to right: the parent comes before the child (test id
    ``right-to-left-`` and the relation)."""
    for relation in _LEFT_HEADED & w.relations:
        for k in positions(w.udeprel, relation):
            if k < w.head[k]:
                _add(w.s, w.t, "right-to-left-" + relation, k,
                     f"the parent of '{w.deprel[k]}' must come before the child", DEPREL)


@checks("too-many-subjects too-many-objects")
def check_subjects_and_objects(w: WordContext) -> None:
    """A predicate has at most one subject (relations with ``subj``, outer
    subjects ``:outer`` or ``Subject=Outer`` apart) and one direct object."""
    s, t, udeprel, head = w.s, w.t, w.udeprel, w.head
    subjects: dict[int, list[int]] = {}
    objects: dict[int, list[int]] = {}
    kinds = [u for u in w.relations if u is not None and "subj" in u]
    if kinds:
        heads = [head[k] for u in kinds for k in positions(udeprel, u)]
        if len(set(heads)) == len(heads):
            kinds = []  # no predicate has two: nothing to count
    if kinds or udeprel.count("obj") > 1:
        for k in range(1, w.n + 1):
            u = udeprel[k]
            if u is None:
                continue
            if "subj" in u and not _OUTER.match(w.deprel[k]) and t.misc_of(k).get("Subject", "") != "Outer":
                subjects.setdefault(head[k], []).append(k)
            elif u == "obj":
                objects.setdefault(head[k], []).append(k)
    for p, group in subjects.items():
        if len(group) > 1 and p:
            _add(s, t, "too-many-subjects", p, f"several subjects {group} under {quoted(t.formtl(p))} "
                 "not subtyped ':outer' (outer subjects are allowed when a clause is the predicate)", DEPREL)
    for p, group in objects.items():
        if len(group) > 1 and p:
            _add(s, t, "too-many-objects", p, f"several direct objects {group} under {quoted(t.formtl(p))}",
                 DEPREL)


@checks("obl-should-be-nmod orphan-parent")
def check_obl_and_orphan_parents(w: WordContext) -> None:
    """``obl`` attaches to predicates: under a nominal (NOUN, PROPN, PRON
    in a nominal relation, without a copula or subject of its own) it
    should be ``nmod``.  The parent of ``orphan`` is normally ``conj`` (or
    another clausal relation)."""
    s, t, udeprel, upos = w.s, w.t, w.udeprel, w.upos
    for k in positions(udeprel, "obl") if "obl" in w.relations else ():
        p = w.head[k]
        if upos[p] in ("NOUN", "PROPN", "PRON") and udeprel[p] in _NOMINAL_PARENT:
            if not any(udeprel[c] in ("cop", "nsubj", "csubj") for c in w.children[p]):
                _add(s, t, "obl-should-be-nmod", k, f"the parent ({p} {quoted(t.formtl(p))}) is a "
                     "nominal, not a predicate: the relation should be 'nmod', not 'obl'", DEPREL)
    for k in positions(udeprel, "orphan") if "orphan" in w.relations else ():
        p = w.head[k]
        if udeprel[p] not in _ORPHAN_PARENT:
            _add(s, t, "orphan-parent", k, f"the parent of 'orphan' should normally be 'conj', "
                 f"not '{udeprel[p]}'", DEPREL)


@checks("leaf-mark-case leaf-aux-cop leaf-det leaf-clf leaf-cc leaf-fixed leaf-goeswith leaf-punct")
def check_function_word_leaves(w: WordContext) -> None:
    """Function words (``case``, ``mark``, ``cc``, ``aux``, ``cop``,
    ``det``, ``clf``, ``fixed``, ``goeswith``, ``punct``) are leaves: only
    the children `_LEAF_OK` lists for each are allowed (a negating ADV or
    PART ``advmod`` too; ``appos``, ``acl``, ``nmod`` under a possessive
    ``det``; a ``punct`` child attached non-projectively is left to the
    punctuation rules)."""
    s, t, udeprel, upos, children = w.s, w.t, w.udeprel, w.upos, w.children
    for p in [p for p in range(1, w.n + 1) if children[p] and udeprel[p] in _FUNCTION]:
        pdeprel = udeprel[p]
        allowed = _LEAF_OK[pdeprel]
        test_id = _LEAF_ID[pdeprel]
        if test_id not in w.keep:
            continue
        pposs = w.feats_facts[p][5]
        nonprojective = None
        for c in children[p]:
            cdeprel = udeprel[c]
            if pdeprel != "punct" and cdeprel == "advmod" and upos[c] in ("PART", "ADV") and w.feats_facts[c][4]:
                continue
            if cdeprel == "punct":
                if nonprojective is None:
                    nonprojective = not w.projective and _arc_nonprojective(t, p)
                if nonprojective:
                    continue
            if cdeprel in allowed:
                continue
            if pdeprel == "det" and pposs and cdeprel in ("appos", "acl", "nmod"):
                continue
            line = t.line[c]
            s.add(test_id, line, f"'{pdeprel}' is not expected to have children ({p}:{excerpt(t.form[p])}:"
                  f"{pdeprel} --> {c}:{excerpt(t.form[c])}:{cdeprel})", cell_span(s.text_of(line), DEPREL))


@checks("fixed-gap goeswith-gap goeswith-nospace goeswith-missing-typo")
def check_fixed_and_goeswith_groups(w: WordContext) -> None:
    """A ``fixed`` expression has no gaps (but punctuation); a ``goeswith``
    group is contiguous, its parts separated by whitespace (no SpaceAfter=No)
    and its head marked Typo=Yes (when the treebank has features)."""
    s, t, udeprel, children = w.s, w.t, w.udeprel, w.children
    for k in sorted(w.fixed_heads | w.goeswith_heads):
        if k == 0:
            continue
        fixed = [c for c in children[k] if udeprel[c] == "fixed"]
        if fixed:
            group = sorted([k] + fixed)
            span = range(k, fixed[-1] + 1)
            if any(udeprel[m] != "punct" and m not in group for m in span):
                shown = " ".join(t.form[m] if m in group else "*" for m in span)
                _add(s, t, "fixed-gap", k, f"gaps in the fixed expression {group} {quoted(shown)}", DEPREL)
        goeswith = [c for c in children[k] if udeprel[c] == "goeswith"]
        if goeswith:
            group = sorted([k] + goeswith)
            span = list(range(k, goeswith[-1] + 1))
            if group != span:
                _add(s, t, "goeswith-gap", k, f"gaps in the goeswith group {group} != {span}", DEPREL)
            if any(t.misc_of(m).get("SpaceAfter", "") == "No" for m in group[:-1]):
                _add(s, t, "goeswith-nospace", k,
                     "'goeswith' cannot join words that no whitespace separates", MISC)
            if not w.feats_facts[k][3]:
                _conditional(s, t, w.facts, "goeswith-missing-typo", k,
                             "the treebank has features, so a goeswith head must have Typo=Yes", FEATS)


@checks("goeswith-lemma goeswith-upos goeswith-feats goeswith-edeps")
def check_goeswith_parts(w: WordContext) -> None:
    """The non-first parts of a word split by ``goeswith`` carry nothing of
    their own: LEMMA and FEATS ``_``, UPOS X, and no enhanced relation but
    the basic one."""
    if not w.goeswith_heads:
        return
    s, t, head = w.s, w.t, w.head
    for k in range(1, w.n + 1):
        if w.udeprel[k] != "goeswith":
            continue
        if t.lemma[k] != "_":
            _add(s, t, "goeswith-lemma", k, "the lemma of a goeswith word belongs on its first part", LEMMA)
        if w.upos[k] != "X":
            _add(s, t, "goeswith-upos", k, "the non-first parts of a goeswith word must be tagged X", UPOS)
        if t.feats[k] != "_":
            _add(s, t, "goeswith-feats", k, "the features of a goeswith word belong on its first part", FEATS)
        raw = _canonical_deps(t, k)
        if raw != "_" and raw != f"{head[k]}:{w.deprel[k]}":
            _add(s, t, "goeswith-edeps", k,
                 "a goeswith word cannot have other relations in the enhanced graph", DEPS)


@checks("punct-causes-nonproj punct-is-nonproj")
def check_punctuation_projectivity(w: WordContext) -> None:
    """Punctuation must not make the tree non-projective: no arc crosses
    over a ``punct`` node that does not also cross its parent, and a
    ``punct`` node is not attached over words its parent does not dominate.
    Searched only in trees that are not projective (one sweep says)."""
    if w.projective or "punct" not in w.udeprel:
        return
    s, t = w.s, w.t
    for k in range(1, w.n + 1):
        if w.udeprel[k] != "punct":
            continue
        crossed = _caused_nonprojectivities(t, k)
        if crossed:
            _add(s, t, "punct-causes-nonproj", k,
                 f"the punctuation makes nodes {crossed[:10]} non-projective", DEPREL)
        gap = _gap(t, k)
        if gap:
            _add(s, t, "punct-is-nonproj", k,
                 f"the punctuation is attached non-projectively over nodes {gap[:10]}", HEAD)


# In the order the official validator runs them.
WORD_CHECKS = (check_expected_features, check_upos_against_deprel, check_fixed_heads, check_flat_foreign,
               check_left_headed, check_subjects_and_objects, check_obl_and_orphan_parents,
               check_function_word_leaves, check_fixed_and_goeswith_groups, check_goeswith_parts,
               check_punctuation_projectivity)


def _pair_message(test_id: str, t: Tree, k: int, used: str | None) -> str:
    word = excerpt(t.formtl(k))
    if test_id == "upos-rel-punct":
        return f"'PUNCT' must be 'punct', not '{t.deprel[k]}' ('{word}')"
    if test_id == "rel-upos-fixed":
        return f"'fixed' is not for proper nouns ('{word}')"
    relation = test_id[len("rel-upos-"):]
    return f"'{relation}' does not go with UPOS '{used}' ('{word}')"


def _canonical_deps(t: Tree, k: int) -> str:
    """DEPS as Udapi writes it back: heads and relations sorted, repeats dropped."""
    edeps = t.edeps(t.raw_deps[k])
    if not edeps:
        return "_"
    return "|".join(f"{p}:{r}" for p, r in sorted(set(edeps)))


# --- projectivity -------------------------------------------------------------------


def _is_projective(t: Tree) -> bool:
    """No two arcs cross (the root's arcs from position 0 included): sorted
    by left end (the longer first), each arc must end within the arcs still
    open around it."""
    head = t.head
    # (left, -right) of the arcs that are not between neighbours (those
    # cannot be crossed, nor cross anything).
    arcs = [(k, -h) if k < h else (h, -k)
            for k, h in zip(range(1, t.n + 1), head[1:]) if h - k not in (1, -1)]
    if len(arcs) < 2:
        return True
    arcs.sort()
    stack = [1 << 30]
    pop = stack.pop
    push = stack.append
    for lo, minus_hi in arcs:
        while stack[-1] <= lo:
            pop()
        if -minus_hi > stack[-1]:
            return False
        push(-minus_hi)
    return True


def _ancestors(t: Tree, k: int) -> set[int]:
    result = set()
    while k:
        k = t.head[k]
        result.add(k)
    return result


def _descendants(t: Tree, k: int) -> set[int]:
    result = set()
    stack = list(t.children[k])
    while stack:
        m = stack.pop()
        result.add(m)
        stack.extend(t.children[m])
    return result


def _arc_nonprojective(t: Tree, k: int) -> bool:
    """Udapi's ``is_nonprojective``: a node between k and its parent that the
    parent does not dominate."""
    p = t.head[k]
    if not p:
        return False
    lo, hi = (k, p) if k < p else (p, k)
    if hi - lo == 1:
        return False
    inside = sum(1 for m in _descendants(t, p) if lo < m < hi)
    return inside != hi - lo - 1


def _caused_nonprojectivities(t: Tree, k: int) -> list[int]:
    """Nodes whose arc crosses over punctuation k although its parent is not
    k's ancestor (the validator's ``get_caused_nonprojectivities``)."""
    head, n = t.head, t.n
    ancestors = _ancestors(t, k)
    p = head[k]
    if p < k:
        left, right = range(p + 1, k), range(k + 1, n + 1)
    else:
        left, right = range(1, k), range(k + 1, p)
    left_cross = [x for x in left if head[x] not in ancestors and head[x] > k]
    right_cross = [x for x in right if head[x] not in ancestors and head[x] < k]
    if p < k:
        right_cross = [x for x in right_cross if head[x] > p]
    else:
        left_cross = [x for x in left_cross if head[x] < p]
    return sorted(left_cross + right_cross)


def _gap(t: Tree, k: int) -> list[int]:
    """Nodes between k and its parent that the parent does not dominate."""
    p = t.head[k]
    between = range(k + 1, p) if k < p else range(p + 1, k)
    if not between or not p:
        return []
    under = _descendants(t, p)
    return [m for m in between if m not in under]
