// The structural editing commands (editing.ts says what each sends): ask
// what the operation needs (the FORM in an input box, the head in a quick
// pick), send `annoscore.edit` for the cursor of the active editor, apply
// the answer as one WorkspaceEdit (so one Ctrl+Z reverts it), and say what
// was done in the status bar, or why nothing was in a warning.

import * as vscode from 'vscode';
import {
  EDIT_COMMANDS,
  EditCommand,
  editArguments,
  EditArguments,
  EditExtras,
  headChoices,
  HeadChoice,
  parseEditAnswer,
  staleEdit,
  wordAtLine,
} from './editing';
import { TreeCheck } from './treePayload';

export interface EditServer {
  requestEdit(args: EditArguments): Promise<unknown>;
  requestTree(uri: string, position: { line: number; character: number }): Promise<TreeCheck | undefined>;
}

const LABEL_MS = 8000;

function entry(command: string): EditCommand {
  const found = EDIT_COMMANDS.find((c) => c.command === command);
  if (found === undefined) {
    throw new Error(`no edit command ${command}`);
  }
  return found;
}

function warn(message: string): void {
  void vscode.window.showWarningMessage(`annoscore: ${message}`);
}

/** The FORM of the new word; undefined when the annotator pressed Esc. */
async function askForm(operation: string): Promise<EditExtras | undefined> {
  const form = await vscode.window.showInputBox({
    title: `annoscore: ${operation === 'insertAfter' ? 'Insert word after' : 'Insert word before'}`,
    prompt: 'FORM of the new word (empty: _)',
    placeHolder: 'FORM',
    validateInput: (value) => (value !== value.trim() ? 'the FORM cannot start or end with a space' : undefined),
  });
  return form === undefined ? undefined : { form };
}

/** The head (and DEPREL) to attach the word at the cursor to; undefined on Esc. */
async function askHead(server: EditServer, editor: vscode.TextEditor): Promise<EditExtras | undefined> {
  const position = editor.selection.active;
  const check = await server.requestTree(editor.document.uri.toString(), { line: position.line, character: position.character });
  if (check === undefined || check.tree === null) {
    warn(check === undefined ? 'the server cannot say the sentence\'s words (see the annoscore output channel)'
      : 'put the cursor on a word of a sentence');
    return undefined;
  }
  const word = wordAtLine(check.tree, position.line);
  if (word === undefined) {
    warn('put the cursor on a word\'s line');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick<HeadChoice & vscode.QuickPickItem>(headChoices(check.tree, word), {
    title: `annoscore: Attach ${word.id} ${word.form} to…`,
    placeHolder: 'the head word (type to filter by ID, FORM or UPOS)',
    matchOnDescription: true,
  });
  if (picked === undefined) {
    return undefined;
  }
  const deprel = await vscode.window.showInputBox({
    title: `annoscore: Attach ${word.id} ${word.form} to ${picked.label}`,
    prompt: 'DEPREL (Enter keeps it; empty keeps the word\'s own)',
    value: word.deprel === '_' ? '' : word.deprel,
  });
  if (deprel === undefined) {
    return undefined;
  }
  return { head: picked.head, deprel };
}

/** Sends the operation for the cursor and applies the answer. */
export async function runEdit(server: EditServer, command: EditCommand): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.document.languageId !== 'conllu') {
    warn('put the cursor in a CoNLL-U file first');
    return;
  }
  let extras: EditExtras | undefined = {};
  if (command.input === 'form') {
    extras = await askForm(command.operation);
  } else if (command.input === 'head') {
    extras = await askHead(server, editor);
  }
  if (extras === undefined) {
    return;  // Esc: nothing asked, nothing changed
  }
  const document = editor.document;
  const args = editArguments(document.uri.toString(), document.version, editor.selection.active, command.operation, extras);
  const raw = await server.requestEdit(args);
  if (raw instanceof Error) {
    warn(`${command.title}: ${raw.message}`);
    return;
  }
  const answer = parseEditAnswer(raw);
  if (answer.kind === 'refused') {
    warn(`${command.title}: ${answer.reason}`);
    return;
  }
  if (answer.kind === 'broken') {
    warn(`${command.title}: the server's answer breaks the contract (${answer.problem}); nothing was changed`);
    return;
  }
  const versionOf = (uri: string): number | undefined =>
    vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri)?.version;
  const stale = staleEdit(answer.documents, versionOf);
  if (stale !== undefined) {
    warn(`${command.title}: ${stale}`);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  for (const part of answer.documents) {
    const uri = vscode.Uri.parse(part.uri);
    for (const { range, newText } of part.edits) {
      edit.replace(uri, new vscode.Range(range.start.line, range.start.character, range.end.line, range.end.character), newText);
    }
  }
  if (!(await vscode.workspace.applyEdit(edit))) {
    warn(`${command.title}: VS Code did not apply the edit (the document changed meanwhile?); ask again`);
    return;
  }
  vscode.window.setStatusBarMessage(`annoscore: ${answer.label}`, LABEL_MS);
}

/** The commands (the names are spelled out for package.json's test). */
export function registerEditingCommands(server: EditServer): vscode.Disposable[] {
  const run = (name: string) => () => runEdit(server, entry(name));
  return [
    vscode.commands.registerCommand('annoscore.insertWordAfter', run('annoscore.insertWordAfter')),
    vscode.commands.registerCommand('annoscore.insertWordBefore', run('annoscore.insertWordBefore')),
    vscode.commands.registerCommand('annoscore.deleteWord', run('annoscore.deleteWord')),
    vscode.commands.registerCommand('annoscore.splitWord', run('annoscore.splitWord')),
    vscode.commands.registerCommand('annoscore.mergeWithNextWord', run('annoscore.mergeWithNextWord')),
    vscode.commands.registerCommand('annoscore.makeMultiwordToken', run('annoscore.makeMultiwordToken')),
    vscode.commands.registerCommand('annoscore.undoMultiwordToken', run('annoscore.undoMultiwordToken')),
    vscode.commands.registerCommand('annoscore.splitSentence', run('annoscore.splitSentence')),
    vscode.commands.registerCommand('annoscore.joinWithNextSentence', run('annoscore.joinWithNextSentence')),
    vscode.commands.registerCommand('annoscore.attachTo', run('annoscore.attachTo')),
    vscode.commands.registerCommand('annoscore.renumberSentence', run('annoscore.renumberSentence')),
  ];
}
