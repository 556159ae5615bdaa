// The navigation commands (next / previous low-confidence cell, refused tree,
// gold difference, unparsed sentence): each asks the server's
// `annoscore/next` from the cursor, selects what it answers (the whole cell,
// so the annotator can type the correction), and says so when there is no
// further one instead of wrapping around. The server answers from its own
// results, so places past the `maxDiagnostics` cap are reached too.
// Should the request fail (an older server), low-confidence falls back to the
// published diagnostics (navigation.ts), wrapping as it always did.

import * as vscode from 'vscode';
import { Direction, findTarget, isLowConfidence } from './navigation';
import { NextKind, NextParams, NextResult } from './protocol';

/** Asks `annoscore/next`; undefined when the server cannot answer. */
export type NextFetcher = (params: NextParams) => Promise<NextResult | undefined>;

export async function goTo(fetchNext: NextFetcher, kind: NextKind, direction: Direction): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    return;
  }
  const position = editor.selection.start;
  const answer = await fetchNext({
    uri: editor.document.uri.toString(),
    position: { line: position.line, character: position.character },
    kind,
    direction,
  });
  if (answer === undefined) {
    if (kind === 'low-confidence') {
      goToLowConfidenceDiagnostic(editor, direction);
    } else {
      void vscode.window.showWarningMessage('annoscore: the server cannot answer annoscore/next (see the annoscore output channel).');
    }
    return;
  }
  if (!answer.found) {
    void vscode.window.showInformationMessage(`annoscore: ${answer.message}`);
    return;
  }
  const { start, end } = answer.range;
  const target = new vscode.Range(start.line, start.character, end.line, end.character);
  editor.selection = new vscode.Selection(target.start, target.end);
  editor.revealRange(target, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  if (answer.message !== null) {
    void vscode.window.setStatusBarMessage(`annoscore: ${answer.message}`, 5000);
  }
}

function goToLowConfidenceDiagnostic(editor: vscode.TextEditor, direction: Direction): void {
  const ranges = vscode.languages
    .getDiagnostics(editor.document.uri)
    .filter(isLowConfidence)
    .map((diagnostic) => diagnostic.range);
  const target = findTarget(ranges, editor.selection.start, direction);
  if (target === undefined) {
    void vscode.window.setStatusBarMessage('annoscore: no low-confidence cells in this file', 3000);
    return;
  }
  editor.selection = new vscode.Selection(target.start, target.end);
  editor.revealRange(target, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}
