// annoscore.nextLowConfidence / previousLowConfidence: select the next or
// previous `low-confidence` diagnostic's cell in the active editor, wrapping
// around. Selecting the whole cell lets the annotator type the correction.

import * as vscode from 'vscode';
import { Direction, findTarget, isLowConfidence } from './navigation';

export function goToLowConfidence(direction: Direction): void {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) {
    return;
  }
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
