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

from scorer.excerpt import excerpt, quoted
from scorer.validation.chars import DEPREL, DEPS, FEATS, HEAD, LEMMA, MISC, UPOS, cell_span, item_span
from scorer.validation.incident import Incident
from scorer.validation.level1 import Sentence
from scorer.validation.level2 import DEPS_HEAD_SET, DEPS_PAIRS, _Memo, _where
from scorer.validation.tree import ITEMS, Tree

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


PAIR_ISSUES = _Memo(_pair_issues)


def _feats_facts(feats: str) -> tuple:
    """(ExtPos or '', lacks PronType, VerbForm=Fin without Mood, Typo=Yes, Polarity=Neg, Poss=Yes)."""
    items = ITEMS[feats]
    return (items.get("ExtPos", ""), items.get("PronType", "") == "",
            items.get("VerbForm", "") == "Fin" and items.get("Mood", "") == "",
            items.get("Typo", "") == "Yes", items.get("Polarity", "") == "Neg",
            items.get("Poss", "") == "Yes")


FEATS_FACTS = _Memo(_feats_facts)


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


EDEPS_ROOT = _Memo(_edeps_root_issues)
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


def _add(s: Sentence, t: Tree, test_id: str, k: int, message: str, column: int | None = None) -> None:
    line = t.line[k]
    span = cell_span(s.text_of(line), column) if column is not None else None
    s.add(test_id, line, message, span)


def _conditional(s: Sentence, t: Tree, facts: TreeFacts, test_id: str, k: int, message: str,
                 column: int) -> None:
    if test_id in s.keep:
        line = t.line[k]
        start, end = cell_span(s.text_of(line), column)
        facts.if_features.append(Incident(test_id, message, line, start, end, s.sent_id))


# --- checks on every node (words and empty nodes) ---------------------------------------


def check_roots(s: Sentence, t: Tree, facts: TreeFacts) -> None:
    """``check_zero_root`` and the facts of ``check_enhanced_orphan``."""
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


def egraph_unconnected(s: Sentence, t: Tree) -> None:
    """``check_egraph_connected`` (level 2): every node reachable from 0 in DEPS."""
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


def check_words(s: Sentence, t: Tree, facts: TreeFacts) -> None:
    n = t.n
    if not n:
        return
    upos, udeprel, deprel, head, children = t.upos, t.udeprel, t.deprel, t.head, t.children
    keep = s.keep
    feats_facts = _LazyFacts(t.feats)
    relations = set(udeprel)
    fixed_heads = {head[k] for k in _where(udeprel, "fixed")} if "fixed" in relations else set()
    goeswith_heads = {head[k] for k in _where(udeprel, "goeswith")} if "goeswith" in relations else set()

    # Expected features (pron-det waits for the corpus to have features).
    pairs = list(zip(upos, t.feats))
    if not _GOOD_EXPECTED.issuperset(pairs):
        for k in [k for k, pair in enumerate(pairs) if pair not in _GOOD_EXPECTED]:
            f = feats_facts[k]
            bad = False
            if f[1] and upos[k] in ("PRON", "DET"):
                bad = True
                _conditional(s, t, facts, "pron-det-without-prontype", k,
                             f"{quoted(t.formtl(k))} is {upos[k]} but has no PronType feature", FEATS)
            if f[2]:
                bad = True
                _add(s, t, "verbform-fin-without-mood", k,
                     f"the finite verb {quoted(t.formtl(k))} has no Mood feature", FEATS)
            if not bad:
                _remember(_GOOD_EXPECTED, pairs[k])

    # UPOS against DEPREL (the UPOS as used: ExtPos when there is one).
    with_ext = "ExtPos=" in "".join(t.feats)
    if with_ext or not _GOOD_PAIRS.issuperset(zip(udeprel, upos)):
        for k in range(1, n + 1) if with_ext else [k for k, pair in enumerate(zip(udeprel, upos))
                                                    if pair not in _GOOD_PAIRS]:
            used = (feats_facts[k][0] or upos[k]) if with_ext else upos[k]
            issues = PAIR_ISSUES[(udeprel[k], used)]
            if not issues:
                _remember(_GOOD_PAIRS, (udeprel[k], used))
                continue
            for test_id in issues:
                if test_id == "rel-upos-advmod" and k in goeswith_heads:
                    continue
                _add(s, t, test_id, k, _pair_message(test_id, t, k, used),
                     UPOS if test_id != "upos-rel-punct" else DEPREL)
    for k in fixed_heads:
        if k == 0:
            continue
        ext = feats_facts[k][0]
        if not ext:
            forms = " ".join([t.form[k]] + [t.form[c] for c in children[k] if udeprel[c] == "fixed"])
            _add(s, t, "fixed-without-extpos", k,
                 f"the fixed expression {quoted(forms)} has no ExtPos feature", FEATS)
        if (ext or upos[k]) == "PROPN" and udeprel[k] != "fixed":
            _add(s, t, "rel-upos-fixed", k, f"'fixed' is not for proper nouns ({quoted(t.formtl(k))})", UPOS)

    # flat:foreign wants X and Foreign=Yes on both ends.
    if "flat:foreign" in deprel:
        for k in range(1, n + 1):
            if deprel[k] != "flat:foreign":
                continue
            if upos[k] != "X" or t.feats[k] != "Foreign=Yes":
                _add(s, t, "flat-foreign-upos-feats", k,
                     "the child of flat:foreign should have UPOS X and only Foreign=Yes", UPOS)
            p = head[k]
            if p and (upos[p] != "X" or t.feats[p] != "Foreign=Yes"):
                _add(s, t, "flat-foreign-upos-feats", p,
                     "the parent of flat:foreign should have UPOS X and only Foreign=Yes", UPOS)
            elif not p:
                # The root's UPOS is '<ROOT>': the validator reports the root's
                # line, which is no line of the sentence; we give the child's.
                _add(s, t, "flat-foreign-upos-feats", k,
                     "the parent of flat:foreign (the root) should have UPOS X and only Foreign=Yes", DEPREL)

    # Relations that go left to right.
    for relation in _LEFT_HEADED & relations:
        for k in _where(udeprel, relation):
            if k < head[k]:
                _add(s, t, "right-to-left-" + relation, k,
                     f"the parent of '{deprel[k]}' must come before the child", DEPREL)

    # One subject and one object per predicate.
    subjects: dict[int, list[int]] = {}
    objects: dict[int, list[int]] = {}
    kinds = [u for u in relations if u is not None and "subj" in u]
    if kinds:
        heads = [head[k] for u in kinds for k in _where(udeprel, u)]
        if len(set(heads)) == len(heads):
            kinds = []  # no predicate has two: nothing to count
    if kinds or udeprel.count("obj") > 1:
        for k in range(1, n + 1):
            u = udeprel[k]
            if u is None:
                continue
            if "subj" in u and not _OUTER.match(deprel[k]) and t.misc_of(k).get("Subject", "") != "Outer":
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

    # obl under a nominal that is not a predicate; orphan's parent.
    for k in _where(udeprel, "obl") if "obl" in relations else ():
        p = head[k]
        if upos[p] in ("NOUN", "PROPN", "PRON") and udeprel[p] in _NOMINAL_PARENT:
            if not any(udeprel[c] in ("cop", "nsubj", "csubj") for c in children[p]):
                _add(s, t, "obl-should-be-nmod", k, f"the parent ({p} {quoted(t.formtl(p))}) is a "
                     "nominal, not a predicate: the relation should be 'nmod', not 'obl'", DEPREL)
    for k in _where(udeprel, "orphan") if "orphan" in relations else ():
        p = head[k]
        if udeprel[p] not in _ORPHAN_PARENT:
            _add(s, t, "orphan-parent", k, f"the parent of 'orphan' should normally be 'conj', "
                 f"not '{udeprel[p]}'", DEPREL)

    projective = _is_projective(t)

    # Function words should be leaves.
    for p in [p for p in range(1, n + 1) if children[p] and udeprel[p] in _FUNCTION]:
        pdeprel = udeprel[p]
        allowed = _LEAF_OK[pdeprel]
        test_id = _LEAF_ID[pdeprel]
        if test_id not in keep:
            continue
        pposs = feats_facts[p][5]
        nonprojective = None
        for c in children[p]:
            cdeprel = udeprel[c]
            if pdeprel != "punct" and cdeprel == "advmod" and upos[c] in ("PART", "ADV") and feats_facts[c][4]:
                continue
            if cdeprel == "punct":
                if nonprojective is None:
                    nonprojective = not projective and _arc_nonprojective(t, p)
                if nonprojective:
                    continue
            if cdeprel in allowed:
                continue
            if pdeprel == "det" and pposs and cdeprel in ("appos", "acl", "nmod"):
                continue
            line = t.line[c]
            s.add(test_id, line, f"'{pdeprel}' is not expected to have children ({p}:{excerpt(t.form[p])}:"
                  f"{pdeprel} --> {c}:{excerpt(t.form[c])}:{cdeprel})", cell_span(s.text_of(line), DEPREL))

    # fixed and goeswith groups.
    for k in sorted(fixed_heads | goeswith_heads):
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
            if not feats_facts[k][3]:
                _conditional(s, t, facts, "goeswith-missing-typo", k,
                             "the treebank has features, so a goeswith head must have Typo=Yes", FEATS)
    if goeswith_heads:
        for k in range(1, n + 1):
            if udeprel[k] != "goeswith":
                continue
            if t.lemma[k] != "_":
                _add(s, t, "goeswith-lemma", k, "the lemma of a goeswith word belongs on its first part", LEMMA)
            if upos[k] != "X":
                _add(s, t, "goeswith-upos", k, "the non-first parts of a goeswith word must be tagged X", UPOS)
            if t.feats[k] != "_":
                _add(s, t, "goeswith-feats", k, "the features of a goeswith word belong on its first part", FEATS)
            raw = _canonical_deps(t, k)
            if raw != "_" and raw != f"{head[k]}:{deprel[k]}":
                _add(s, t, "goeswith-edeps", k,
                     "a goeswith word cannot have other relations in the enhanced graph", DEPS)

    # Punctuation must not make the tree non-projective.
    if not projective and "punct" in udeprel:
        for k in range(1, n + 1):
            if udeprel[k] != "punct":
                continue
            crossed = _caused_nonprojectivities(t, k)
            if crossed:
                _add(s, t, "punct-causes-nonproj", k,
                     f"the punctuation makes nodes {crossed[:10]} non-projective", DEPREL)
            gap = _gap(t, k)
            if gap:
                _add(s, t, "punct-is-nonproj", k,
                     f"the punctuation is attached non-projectively over nodes {gap[:10]}", HEAD)


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
