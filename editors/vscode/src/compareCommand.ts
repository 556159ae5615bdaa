// "annoscore: Compare with Another Annotation…": pick another annotation of
// the same text and ask the server to compare the active CoNLL-U file with
// it (the server's annoscore.compareWith command, which the language
// client registers from the server's executeCommandProvider).

import * as vscode from 'vscode';
import { COMPARE_WITH_COMMAND } from './protocol';

export const COMPARE_WITH_ANNOTATION_COMMAND = 'annoscore.compareWithAnnotation';

export async function compareWithAnnotation(target?: vscode.Uri): Promise<void> {
  const document = target !== undefined
    ? await vscode.workspace.openTextDocument(target)
    : vscode.window.activeTextEditor?.document;
  if (document === undefined || document.languageId !== 'conllu') {
    void vscode.window.showInformationMessage('annoscore: open a CoNLL-U file first, then compare it with another annotation.');
    return;
  }
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Compare',
    title: 'Another annotation of the same text',
    defaultUri: vscode.Uri.joinPath(document.uri, '..'),
    filters: { 'CoNLL-U': ['conllu', 'conll'] },
  });
  const other = picked?.[0];
  if (other === undefined) return;
  await vscode.commands.executeCommand(COMPARE_WITH_COMMAND, document.uri.toString(), other.toString());
}
