// Tree answers (`annoscore/tree`) written compactly, for the tests.

import { checkTreePayload, SentenceTree } from '../../src/treePayload';

/** [id, form, upos, head, deprel, problems?] — head as the server writes it ("_" when unparsed). */
export type Row = [string, string, string, string, string, string?];
/** Gold's [head, deprel] aligned with each predicted word, null for none. */
export type GoldRow = [string | null, string] | null;

/** The payload as it comes on the wire: words on lines 2, 3, ... (after two comments). */
export function wirePayload(rows: Row[], gold?: GoldRow[], multiwords: Multiword[] = []): Record<string, unknown> {
  return {
    sentId: 'test-1',
    line: 0,
    endLine: rows.length + 1,
    words: rows.map(([id, form, upos, head, deprel, problems], i) => ({
      id, form, lemma: form.toLowerCase(), upos, feats: '_', head, deprel, line: i + 2,
      problems: problems === undefined ? [] : problems.split(','),
    })),
    multiwords,
    emptyNodes: [],
    // No `differs`: the view then compares HEAD and DEPREL itself (the server's own is tested in test/contract).
    gold: gold === undefined ? null : { words: gold.map((g) => (g === null ? null : { form: '', upos: '', head: g[0], deprel: g[1] })) },
  };
}

/** A multiword token over words[first..last] (0-based places, as the server sends them). */
export type Multiword = { id: string; form: string; line: number; first: number; last: number };

export function tree(rows: Row[], gold?: GoldRow[], multiwords: Multiword[] = []): SentenceTree {
  const check = checkTreePayload(wirePayload(rows, gold, multiwords));
  if (check.tree === null) throw new Error(`bad test payload: ${check.problems.join('; ')}`);
  return check.tree;
}

/** "A hearing is scheduled on the issue today ." (UD's classic non-projective example): nmod 7→2 crosses the root's arcs. */
export const HEARING: Row[] = [
  ['1', 'A', 'DET', '2', 'det'],
  ['2', 'hearing', 'NOUN', '4', 'nsubj:pass'],
  ['3', 'is', 'AUX', '4', 'aux:pass'],
  ['4', 'scheduled', 'VERB', '0', 'root'],
  ['5', 'on', 'ADP', '7', 'case'],
  ['6', 'the', 'DET', '7', 'det'],
  ['7', 'issue', 'NOUN', '2', 'nmod'],
  ['8', 'today', 'NOUN', '4', 'obl:tmod'],
  ['9', '.', 'PUNCT', '4', 'punct'],
];

/** A random tree over n words (every word reachable from the root), from a seed. */
export function randomRows(n: number, seed: number): Row[] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const order = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  // order[0] is the root; each later word hangs from an earlier one in this order.
  const head = new Map<number, number>([[order[0]!, 0]]);
  for (let k = 1; k < n; k++) head.set(order[k]!, order[Math.floor(next() * k)]!);
  return Array.from({ length: n }, (_, i): Row => [String(i + 1), `w${i + 1}`, 'X', String(head.get(i + 1)), i + 1 === order[0] ? 'root' : 'dep']);
}
