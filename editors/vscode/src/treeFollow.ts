// When the tree view asks the server again and when it draws again. Pure
// (no vscode import), unit-tested; treeView.ts applies the decisions.
//
// - The cursor moves: inside the sentence shown (same document, same
//   version, a line between the sentence's first and last) nothing is asked
//   and nothing redrawn, only the cursor's word is marked; elsewhere the
//   server is asked for the sentence there.
// - An answer arrives: it is drawn only when its SVG differs from the one
//   shown, so a rescoring that changed nothing in this sentence, or moving
//   back and forth over a blank line, costs no render.

export interface Shown {
  uri: string;
  /** The document version the tree was asked for. */
  version: number;
  firstLine: number;
  lastLine: number;
  /** The SVG drawn (the page variant), to tell a new tree from the same one. */
  svg: string;
}

export interface CursorAt {
  uri: string;
  version: number;
  line: number;
}

export type CursorDecision = 'mark' | 'ask';

export function onCursor(shown: Shown | undefined, cursor: CursorAt): CursorDecision {
  if (shown === undefined || shown.uri !== cursor.uri || shown.version !== cursor.version) {
    return 'ask';
  }
  return cursor.line >= shown.firstLine && cursor.line <= shown.lastLine ? 'mark' : 'ask';
}

export type AnswerDecision = 'render' | 'mark';

export function onAnswer(shown: Shown | undefined, svg: string): AnswerDecision {
  return shown !== undefined && shown.svg === svg ? 'mark' : 'render';
}
