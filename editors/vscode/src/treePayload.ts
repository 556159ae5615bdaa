// The answer of the server's `annoscore/tree` request, checked and put in the
// form the tree view draws from. Plain TypeScript (no vscode import), shared
// by the tree view, the unit tests and the wire-contract tests.
//
// On the wire (docs/lsp-protocol.md, "The sentence's tree"): {sentId, text,
// line, endLine, unparsed, refused, words: [{id, form, lemma, upos, feats,
// deprel, head, line, problems}], multiwords: [{id, form, first, last, line}],
// emptyNodes: [{id, form, upos, line, after}], gold: {words, unaligned, uas,
// las} | null, goldNote}, where gold.words[i] is the gold word aligned with
// words[i] (null when none is), its head renumbered to the prediction's words
// (null, with headOutside, when gold's head word is aligned with none of
// them), and its `differs` names the cells the scorer finds different.
// Empty nodes are put among the words here (after the word they follow), so
// the view draws one row; they have no basic HEAD and get no arc.
// A field the view does not need may be missing; one it needs with the wrong
// type makes the whole payload refused, with the reasons, so that a server bug
// shows as one logged line rather than a wrong tree.

export const TREE_REQUEST = 'annoscore/tree';

export interface TreeParams {
  uri: string;
  position: { line: number; character: number };
}

export interface TreeWord {
  /** "7", or "7.1" for an empty node (which has no basic HEAD). */
  id: string;
  form: string;
  lemma: string;
  upos: string;
  feats: string;
  deprel: string;
  /** The head's ID (0: the root), or null when HEAD is `_` or not a number. */
  head: number | null;
  /** 0-based line of the word in the document. */
  line: number;
  /** Diagnostic codes of the word's cells (refused tree, low confidence ...). */
  problems: string[];
}

export interface TreeMultiword {
  /** "3-4" */
  id: string;
  form: string;
  line: number;
  /** The first and last of `words` (0-based places) the token spans. */
  first: number;
  last: number;
}

/** The gold word aligned with a predicted word. */
export interface GoldWord {
  form: string;
  upos: string;
  deprel: string;
  /** Gold's head in the prediction's numbering (0: root); null when gold's HEAD is `_` or its head word has no partner here. */
  head: number | null;
  /** Gold's head word is aligned with no word here. */
  headOutside: boolean;
  /** The cells the scorer finds different (upos, xpos, lemma, feats, head, deprel); null when the server does not say. */
  differs: string[] | null;
}

export interface GoldOnlyWord {
  form: string;
  /** The place in `words` of the word it follows (-1: before the first). */
  after: number;
}

export interface SentenceTree {
  sentId: string | null;
  text: string | null;
  /** 0-based first and last lines of the sentence (comments included). */
  line: number;
  endLine: number;
  /** Every HEAD is `_`. */
  unparsed: boolean;
  /** Why the official scorer would refuse the sentence (codes); empty when it would not. */
  refused: string[];
  /** The words and the empty nodes, in the order of the lines. */
  words: TreeWord[];
  multiwords: TreeMultiword[];
  /** Parallel to `words` (null: no gold word aligned); null when there is no gold to show. */
  gold: Array<GoldWord | null> | null;
  /** Gold's words aligned with no word here (a different tokenization). */
  goldOnly: GoldOnlyWord[];
  /** (correct, gold words) of what the sentence is counted with. */
  uas: [number, number] | null;
  las: [number, number] | null;
  /** Why there is no gold when the document has gold (not rescored since the last edit ...). */
  goldNote: string | null;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLine(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** A HEAD as a number: 7, "7" → 7; "_", null, "x" → null. */
export function parseHead(value: unknown): number | null {
  if (typeof value === 'number') {
    return Number.isInteger(value) && value >= 0 ? value : null;
  }
  if (typeof value === 'string' && /^\d+$/.test(value)) {
    return Number(value);
  }
  return null;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '_';
}

function parseWord(value: unknown, where: string, problems: string[]): TreeWord | undefined {
  if (!isRecord(value)) {
    problems.push(`${where} is not an object`);
    return undefined;
  }
  const id = typeof value.id === 'number' ? String(value.id) : value.id;
  if (typeof id !== 'string' || !/^\d+(\.\d+)?$/.test(id)) {
    problems.push(`${where}.id is not a word ID`);
    return undefined;
  }
  if (typeof value.form !== 'string') {
    problems.push(`${where}.form is not a string`);
  }
  if (!isLine(value.line)) {
    problems.push(`${where}.line is not a line number`);
    return undefined;
  }
  const codes = Array.isArray(value.problems) ? value.problems.filter((c): c is string => typeof c === 'string') : [];
  return {
    id,
    form: text(value.form),
    lemma: text(value.lemma),
    upos: text(value.upos),
    feats: text(value.feats),
    deprel: text(value.deprel),
    head: parseHead(value.head),
    line: value.line,
    problems: codes,
  };
}

function parseMultiword(value: unknown, where: string, problems: string[]): Omit<TreeMultiword, 'first' | 'last'> & { first: unknown; last: unknown } | undefined {
  if (!isRecord(value) || typeof value.id !== 'string' || !isLine(value.line)) {
    problems.push(`${where} is not {id, form, first, last, line}`);
    return undefined;
  }
  return { id: value.id, form: text(value.form), line: value.line, first: value.first, last: value.last };
}

function parseEmptyNode(value: unknown, where: string, problems: string[]): { node: TreeWord; after: number } | undefined {
  if (!isRecord(value) || typeof value.id !== 'string' || !isLine(value.line) || typeof value.after !== 'number') {
    problems.push(`${where} is not {id, form, line, after}`);
    return undefined;
  }
  const codes = Array.isArray(value.problems) ? value.problems.filter((c): c is string => typeof c === 'string') : [];
  return {
    node: { id: value.id, form: text(value.form), lemma: text(value.lemma), upos: text(value.upos), feats: text(value.feats), deprel: '_', head: null, line: value.line, problems: codes },
    after: value.after,
  };
}

function pair(value: unknown): [number, number] | null {
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [correct, total] = value as unknown[];
  return typeof correct === 'number' && typeof total === 'number' ? [correct, total] : null;
}

function parseGoldWord(value: unknown): GoldWord | null {
  if (!isRecord(value)) {
    return null;
  }
  return {
    form: text(value.form),
    upos: text(value.upos),
    deprel: text(value.deprel),
    head: parseHead(value.head),
    headOutside: value.headOutside === true,
    differs: Array.isArray(value.differs) ? value.differs.filter((d): d is string => typeof d === 'string') : null,
  };
}

export type TreeCheck = { tree: SentenceTree | null; problems: string[] };

/**
 * Checks a tree answer: `{tree: null}` for null (no sentence at that
 * position), the normalized tree when it is sound, else the problems found.
 */
export function checkTreePayload(value: unknown): TreeCheck {
  if (value === null || value === undefined) {
    return { tree: null, problems: [] };
  }
  if (!isRecord(value)) {
    return { tree: null, problems: ['the answer is neither an object nor null'] };
  }
  const problems: string[] = [];
  if (!isLine(value.line)) {
    problems.push('line is not a line number');
  }
  if (!Array.isArray(value.words)) {
    problems.push('words is not a list');
  }
  const predicted = Array.isArray(value.words)
    ? value.words.map((w, i) => parseWord(w, `words[${i}]`, problems)).filter((w): w is TreeWord => w !== undefined)
    : [];
  const empty = Array.isArray(value.emptyNodes)
    ? value.emptyNodes.map((e, i) => parseEmptyNode(e, `emptyNodes[${i}]`, problems)).filter((e) => e !== undefined)
    : [];
  // The merged row: each empty node after the word it follows; place[i] is words[i]'s place in it.
  const words: TreeWord[] = [];
  const place: number[] = [];
  const emptyAfter = (index: number): void => {
    for (const e of empty) if (e.after === index) words.push(e.node);
  };
  emptyAfter(-1);
  predicted.forEach((word, i) => {
    place.push(words.length);
    words.push(word);
    emptyAfter(i);
  });
  const multiwords: TreeMultiword[] = [];
  if (Array.isArray(value.multiwords)) {
    value.multiwords.forEach((m, i) => {
      const token = parseMultiword(m, `multiwords[${i}]`, problems);
      if (token === undefined) return;
      const first = typeof token.first === 'number' ? place[token.first] : undefined;
      const last = typeof token.last === 'number' ? place[token.last] : undefined;
      if (first === undefined || last === undefined || last < first) {
        problems.push(`multiwords[${i}] does not span words of the sentence`);
        return;
      }
      multiwords.push({ ...token, first, last });
    });
  }
  let gold: Array<GoldWord | null> | null = null;
  let goldOnly: GoldOnlyWord[] = [];
  let uas: [number, number] | null = null;
  let las: [number, number] | null = null;
  if (isRecord(value.gold)) {
    if (!Array.isArray(value.gold.words) || value.gold.words.length !== predicted.length) {
      problems.push('gold.words is not a list as long as words');
    } else {
      gold = words.map(() => null);
      value.gold.words.forEach((g, i) => {
        gold![place[i]!] = parseGoldWord(g);
      });
    }
    if (Array.isArray(value.gold.unaligned)) {
      goldOnly = value.gold.unaligned.filter(isRecord).map((u) => ({
        form: text(u.form),
        after: typeof u.after === 'number' && u.after >= 0 && u.after < place.length ? place[u.after]! : -1,
      }));
    }
    uas = pair(value.gold.uas);
    las = pair(value.gold.las);
  } else if (value.gold !== null && value.gold !== undefined) {
    problems.push('gold is neither an object nor null');
  }
  if (problems.length > 0) {
    return { tree: null, problems };
  }
  const line = value.line as number;
  const lastWordLine = Math.max(line, ...words.map((w) => w.line), ...multiwords.map((m) => m.line));
  return {
    tree: {
      sentId: typeof value.sentId === 'string' ? value.sentId : null,
      text: typeof value.text === 'string' ? value.text : null,
      line,
      endLine: isLine(value.endLine) && value.endLine >= lastWordLine ? value.endLine : lastWordLine,
      unparsed: value.unparsed === true,
      refused: Array.isArray(value.refused) ? value.refused.filter((c): c is string => typeof c === 'string') : [],
      words,
      multiwords,
      gold,
      goldOnly,
      uas,
      las,
      goldNote: typeof value.goldNote === 'string' ? value.goldNote : null,
    },
    problems: [],
  };
}

/** True for an empty node (ID "7.1"): it has no basic HEAD and gets no arc. */
export function isEmptyNode(word: TreeWord): boolean {
  return word.id.includes('.');
}
