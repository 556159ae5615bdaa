// The structural edits (issue 27): which editor command asks the server's
// `annoscore.edit` for which operation, the arguments it sends, the answer
// checked and put in a plain form, and the quick pick's choices for "Attach
// to…" (from the server's `annoscore/tree` answer, so the words come from the
// same reading of the sentence the server edits). Plain TypeScript, no vscode
// import: the unit tests and the commands (editingCommands.ts) share it.
//
// On the wire (server/lsp/features/editing.py, docs/editing.md): one argument
// {uri, version, line, character, operation, form?, head?, deprel?, …};
// the answer is {label, edit} with ONE WorkspaceEdit of versioned document
// changes, or {refused: reason}.

import { SentenceTree, TreeWord } from './treePayload';

export const EDIT_COMMAND = 'annoscore.edit';

export type EditOperation =
  | 'insertAfter' | 'insertBefore' | 'delete' | 'splitWord' | 'mergeWithNext'
  | 'makeToken' | 'undoToken' | 'splitSentence' | 'joinWithNext' | 'attach' | 'renumber';

/** What a command asks the annotator before it sends the request. */
export type EditInput = 'form' | 'head' | 'none';

export interface EditCommand {
  command: string;
  /** The command palette's title (package.json says it with the "annoscore" category). */
  title: string;
  operation: EditOperation;
  input: EditInput;
}

/** The commands, in the order of the context menu. */
export const EDIT_COMMANDS: readonly EditCommand[] = [
  { command: 'annoscore.insertWordAfter', title: 'Insert word after', operation: 'insertAfter', input: 'form' },
  { command: 'annoscore.insertWordBefore', title: 'Insert word before', operation: 'insertBefore', input: 'form' },
  { command: 'annoscore.deleteWord', title: 'Delete word', operation: 'delete', input: 'none' },
  { command: 'annoscore.splitWord', title: 'Split token into words', operation: 'splitWord', input: 'none' },
  { command: 'annoscore.mergeWithNextWord', title: 'Merge with next word', operation: 'mergeWithNext', input: 'none' },
  { command: 'annoscore.makeMultiwordToken', title: 'Make multiword token', operation: 'makeToken', input: 'none' },
  { command: 'annoscore.undoMultiwordToken', title: 'Undo multiword token', operation: 'undoToken', input: 'none' },
  { command: 'annoscore.splitSentence', title: 'Split sentence here', operation: 'splitSentence', input: 'none' },
  { command: 'annoscore.joinWithNextSentence', title: 'Join with next sentence', operation: 'joinWithNext', input: 'none' },
  { command: 'annoscore.attachTo', title: 'Attach to…', operation: 'attach', input: 'head' },
  { command: 'annoscore.renumberSentence', title: 'Renumber sentence', operation: 'renumber', input: 'none' },
];

export interface EditArguments {
  uri: string;
  /** The document's version the cursor is in: the server refuses the edit for any other. */
  version: number;
  line: number;
  character: number;
  operation: EditOperation;
  form?: string;
  head?: number;
  deprel?: string;
}

/** What the operation adds to the request: the FORM of a new word, the head (and DEPREL) to attach to. */
export interface EditExtras {
  form?: string;
  head?: number;
  deprel?: string;
}

/**
 * The one argument of `annoscore.edit`. An empty DEPREL is left out (the
 * word keeps its own); an empty FORM is sent as it is (the server writes `_`).
 */
export function editArguments(uri: string, version: number, position: { line: number; character: number },
  operation: EditOperation, extras: EditExtras = {}): EditArguments {
  const out: EditArguments = { uri, version, line: position.line, character: position.character, operation };
  if (extras.form !== undefined) {
    out.form = extras.form;
  }
  if (extras.head !== undefined) {
    out.head = extras.head;
  }
  if (extras.deprel !== undefined && extras.deprel.trim() !== '') {
    out.deprel = extras.deprel.trim();
  }
  return out;
}

export interface PlainTextEdit {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  newText: string;
}

/** One document's part of the WorkspaceEdit. */
export interface DocumentEdits {
  uri: string;
  /** The version the edits were made for (null: any). */
  version: number | null;
  edits: PlainTextEdit[];
}

export type EditAnswer =
  | { kind: 'edit'; label: string; documents: DocumentEdits[] }
  | { kind: 'refused'; reason: string }
  /** The answer breaks the contract (a server bug): nothing is applied. */
  | { kind: 'broken'; problem: string };

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPosition(value: unknown): value is { line: number; character: number } {
  return isRecord(value) && Number.isInteger(value.line) && (value.line as number) >= 0
    && Number.isInteger(value.character) && (value.character as number) >= 0;
}

function textEdit(value: unknown): PlainTextEdit | undefined {
  if (!isRecord(value) || typeof value.newText !== 'string' || !isRecord(value.range)
    || !isPosition(value.range.start) || !isPosition(value.range.end)) {
    return undefined;
  }
  const { start, end } = value.range;
  return {
    range: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } },
    newText: value.newText,
  };
}

function documentEdits(value: unknown): DocumentEdits | string {
  if (!isRecord(value) || !isRecord(value.textDocument) || typeof value.textDocument.uri !== 'string') {
    return 'a document change is not a text document edit {textDocument: {uri, version}, edits}';
  }
  const version = value.textDocument.version;
  if (version !== null && version !== undefined && !Number.isInteger(version)) {
    return `a document change's version is ${JSON.stringify(version)}`;
  }
  if (!Array.isArray(value.edits)) {
    return 'a document change has no edits';
  }
  const edits: PlainTextEdit[] = [];
  for (const item of value.edits) {
    const edit = textEdit(item);
    if (edit === undefined) {
      return `a text edit is not {range, newText}: ${JSON.stringify(item).slice(0, 120)}`;
    }
    edits.push(edit);
  }
  return { uri: value.textDocument.uri, version: (version ?? null) as number | null, edits };
}

/** The server's answer, checked: every part of it or nothing is taken. */
export function parseEditAnswer(value: unknown): EditAnswer {
  if (!isRecord(value)) {
    return { kind: 'broken', problem: `the answer is ${JSON.stringify(value)}, not an object` };
  }
  if (typeof value.refused === 'string') {
    return { kind: 'refused', reason: value.refused };
  }
  if (typeof value.label !== 'string') {
    return { kind: 'broken', problem: 'the answer has neither a label nor a refusal' };
  }
  const edit = value.edit;
  if (!isRecord(edit) || !Array.isArray(edit.documentChanges)) {
    return { kind: 'broken', problem: 'the answer\'s edit has no documentChanges' };
  }
  const documents: DocumentEdits[] = [];
  for (const change of edit.documentChanges) {
    const parsed = documentEdits(change);
    if (typeof parsed === 'string') {
      return { kind: 'broken', problem: parsed };
    }
    documents.push(parsed);
  }
  return { kind: 'edit', label: value.label, documents };
}

/**
 * Why the edits cannot be applied to the documents as they are now, or
 * undefined when they can: an edit made for another version would change
 * text it was not made for (the annotator typed while the server answered).
 */
export function staleEdit(documents: readonly DocumentEdits[], versionOf: (uri: string) => number | undefined): string | undefined {
  for (const document of documents) {
    const now = versionOf(document.uri);
    if (now === undefined) {
      return `the edit is for ${document.uri}, which is not open`;
    }
    if (document.version !== null && document.version !== now) {
      return `the document changed while the edit was made (version ${document.version}, now ${now}): nothing was changed, ask again`;
    }
  }
  return undefined;
}

export interface HeadChoice {
  /** "5 demir (NOUN)", "0 root". */
  label: string;
  /** "current head" on the word's own head. */
  description?: string;
  head: number;
}

/** The word on `line` (a multiword token's line stands for its first word, as the server reads it). */
export function wordAtLine(tree: SentenceTree, line: number): TreeWord | undefined {
  const direct = tree.words.find((w) => w.line === line);
  if (direct !== undefined) {
    return /^\d+$/.test(direct.id) ? direct : undefined;
  }
  const token = tree.multiwords.find((m) => m.line === line);
  return token === undefined ? undefined : tree.words[token.first];
}

/**
 * The heads the word can be attached to: the root, then every other word of
 * the sentence (not empty nodes, which take no basic dependents; not the
 * word itself). The server still refuses a cycle, with the path named.
 */
export function headChoices(tree: SentenceTree, word: TreeWord): HeadChoice[] {
  const current = (head: number): { description?: string } => (word.head === head ? { description: 'current head' } : {});
  const out: HeadChoice[] = [{ label: '0 root', head: 0, ...current(0) }];
  for (const other of tree.words) {
    if (other === word || !/^\d+$/.test(other.id)) {
      continue;
    }
    const id = Number(other.id);
    out.push({ label: `${other.id} ${other.form} (${other.upos})`, head: id, ...current(id) });
  }
  return out;
}
