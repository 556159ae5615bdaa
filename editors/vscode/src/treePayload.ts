// The answer of the server's `annoscore/tree` request, checked and put in the
// form the tree view draws from. Plain TypeScript (no vscode import), shared
// by the tree view, the unit tests and the wire-contract tests.
//
// On the wire (see README "Requests"): {sentId, line, words: [{id, form,
// lemma, upos, feats, deprel, head, line, problems}], multiwords: [{id, form,
// line}], gold: {words: [...]} | null}, where gold.words[i] is the gold word
// aligned with words[i] (null when none is), its head renumbered to the
// prediction's words (null when gold's head word is aligned with none of them).
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
  /** The first and last word IDs the token spans. */
  first: number;
  last: number;
}

/** The gold word aligned with a predicted word. */
export interface GoldWord {
  form: string;
  upos: string;
  deprel: string;
  /** Gold's head in the prediction's numbering (0: root); null when gold's head word has no partner here. */
  head: number | null;
}

export interface SentenceTree {
  sentId: string | null;
  /** 0-based first line of the sentence (its first comment or token line). */
  line: number;
  words: TreeWord[];
  multiwords: TreeMultiword[];
  /** Parallel to `words` (null: no gold word aligned); null when the document has no gold. */
  gold: Array<GoldWord | null> | null;
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

function parseMultiword(value: unknown, where: string, problems: string[]): TreeMultiword | undefined {
  const match = isRecord(value) && typeof value.id === 'string' ? /^(\d+)-(\d+)$/.exec(value.id) : null;
  if (!isRecord(value) || match === null || !isLine(value.line)) {
    problems.push(`${where} is not {id: "N-M", form, line}`);
    return undefined;
  }
  return { id: value.id as string, form: text(value.form), line: value.line, first: Number(match[1]), last: Number(match[2]) };
}

function parseGoldWord(value: unknown): GoldWord | null {
  if (!isRecord(value)) {
    return null;
  }
  return { form: text(value.form), upos: text(value.upos), deprel: text(value.deprel), head: parseHead(value.head) };
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
  const words = Array.isArray(value.words)
    ? value.words.map((w, i) => parseWord(w, `words[${i}]`, problems)).filter((w): w is TreeWord => w !== undefined)
    : [];
  const multiwords = Array.isArray(value.multiwords)
    ? value.multiwords.map((m, i) => parseMultiword(m, `multiwords[${i}]`, problems)).filter((m): m is TreeMultiword => m !== undefined)
    : [];
  let gold: Array<GoldWord | null> | null = null;
  if (isRecord(value.gold)) {
    if (!Array.isArray(value.gold.words) || value.gold.words.length !== words.length) {
      problems.push('gold.words is not a list as long as words');
    } else {
      gold = value.gold.words.map(parseGoldWord);
    }
  } else if (value.gold !== null && value.gold !== undefined) {
    problems.push('gold is neither an object nor null');
  }
  if (problems.length > 0) {
    return { tree: null, problems };
  }
  const sentId = typeof value.sentId === 'string' ? value.sentId : null;
  return { tree: { sentId, line: value.line as number, words, multiwords, gold }, problems: [] };
}

/** The last line of the sentence (its last token line). */
export function lastLine(tree: SentenceTree): number {
  let last = tree.line;
  for (const item of [...tree.words, ...tree.multiwords]) {
    last = Math.max(last, item.line);
  }
  return last;
}

/** True for an empty node (ID "7.1"): it has no basic HEAD and gets no arc. */
export function isEmptyNode(word: TreeWord): boolean {
  return word.id.includes('.');
}
