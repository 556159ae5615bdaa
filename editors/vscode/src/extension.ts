// Entry point: wires the status bar, the report view, the commands and the
// language client together. The decisions live in the plain modules
// (statusView, settings, serverCommand, navigation, documentSelector).

import * as vscode from 'vscode';
import { compareWithAnnotation } from './compareCommand';
import { registerEditingCommands } from './editingCommands';
import { goTo } from './navigationCommands';
import { NextParams } from './protocol';
import { onDidChangeInterpreter } from './pythonEnvironment';
import { REPORT_SCHEME, ReportDocuments } from './reportView';
import { ServerController } from './serverController';
import { RESTART_SETTINGS } from './settings';
import { ScoreStatusBar, SHOW_REPORT_COMMAND, uriKey } from './statusBar';
import { TreeView } from './treeView';

let controller: ServerController | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('annoscore', { log: true });
  context.subscriptions.push(log);

  // The controller decides which documents are annoscore's; the status bar asks it.
  const statusBar: ScoreStatusBar = new ScoreStatusBar((document) => {
    if (document.uri.scheme === REPORT_SCHEME) {
      return uriKey(ReportDocuments.sourceUri(document.uri));
    }
    return server.isAnnoscoreDocument(document) ? uriKey(document.uri) : undefined;
  });
  const reports = new ReportDocuments((uri) => server.requestReport(uri));
  const server: ServerController = new ServerController(log, statusBar, (payload) => {
    statusBar.setPayload(payload);
    void reports.refreshIfOpen(payload.uri);
    tree.refresh(payload.uri);
  });
  controller = server;
  const tree = new TreeView(
    context.extensionUri,
    (uri, position) => server.requestTree(uri, position),
    (document) => document.languageId === 'conllu' && server.isAnnoscoreDocument(document),
  );
  context.subscriptions.push(statusBar, reports, server, tree);
  const next = (params: NextParams) => server.requestNext(params);
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, reports));

  const followActiveEditor = async (editor: vscode.TextEditor | undefined): Promise<void> => {
    statusBar.followEditor(editor);
    const uri = statusBar.activeUri;
    if (uri !== undefined && !statusBar.hasPayload(uri)) {
      const payload = await server.requestScore(uri);
      if (payload !== undefined) {
        statusBar.setPayload(payload);
      }
    }
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_REPORT_COMMAND, async (uri?: string | vscode.Uri) => {
      const target = uri !== undefined ? uriKey(uri) : statusBar.activeUri;
      if (target === undefined) {
        void vscode.window.showInformationMessage('annoscore: open a file that annoscore scores (CoNLL-U, segmentation or labels) first.');
        return;
      }
      await reports.show(target);
    }),
    // The navigation commands (navigationCommands.ts NAVIGATION_COMMANDS; named here for package.json's test).
    vscode.commands.registerCommand('annoscore.nextLowConfidence', () => goTo(next, 'low-confidence', 'next')),
    vscode.commands.registerCommand('annoscore.previousLowConfidence', () => goTo(next, 'low-confidence', 'previous')),
    vscode.commands.registerCommand('annoscore.nextRefused', () => goTo(next, 'refused', 'next')),
    vscode.commands.registerCommand('annoscore.previousRefused', () => goTo(next, 'refused', 'previous')),
    vscode.commands.registerCommand('annoscore.nextGoldDifference', () => goTo(next, 'gold-diff', 'next')),
    vscode.commands.registerCommand('annoscore.previousGoldDifference', () => goTo(next, 'gold-diff', 'previous')),
    vscode.commands.registerCommand('annoscore.nextUnparsed', () => goTo(next, 'unparsed', 'next')),
    vscode.commands.registerCommand('annoscore.previousUnparsed', () => goTo(next, 'unparsed', 'previous')),
    vscode.commands.registerCommand('annoscore.nextSegmentationMismatch', () => goTo(next, 'segmentation-mismatch', 'next')),
    vscode.commands.registerCommand('annoscore.previousSegmentationMismatch',
      () => goTo(next, 'segmentation-mismatch', 'previous')),
    vscode.commands.registerCommand('annoscore.nextValidationProblem', () => goTo(next, 'validation', 'next')),
    vscode.commands.registerCommand('annoscore.previousValidationProblem', () => goTo(next, 'validation', 'previous')),
    vscode.commands.registerCommand('annoscore.nextError', () => goTo(next, 'error', 'next')),
    vscode.commands.registerCommand('annoscore.previousError', () => goTo(next, 'error', 'previous')),
    vscode.commands.registerCommand('annoscore.nextDisagreement', () => goTo(next, 'disagreement', 'next')),
    vscode.commands.registerCommand('annoscore.previousDisagreement', () => goTo(next, 'disagreement', 'previous')),
    vscode.commands.registerCommand('annoscore.compareWithAnnotation', (uri?: vscode.Uri) => compareWithAnnotation(uri)),
    vscode.commands.registerCommand('annoscore.restartServer', () => server.restart()),
    vscode.commands.registerCommand('annoscore.showTree', () => tree.show()),
    // The structural edits (editingCommands.ts); annoscore.edit itself is the server's.
    ...registerEditingCommands(server),
    // annoscore.rescore is registered by the language client from the server's
    // executeCommandProvider (a second registration here would make the client fail).
  );

  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor((editor) => void followActiveEditor(editor)),
    vscode.workspace.onDidCloseTextDocument((document) => statusBar.forget(document.uri)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_SETTINGS.some((setting) => event.affectsConfiguration(setting))) {
        void server.restart().then(() => followActiveEditor(vscode.window.activeTextEditor));
      } else if (event.affectsConfiguration('annoscore')) {
        server.refreshSettings();
        server.notifyConfigurationChanged();
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      // Relative globs in annoscore.files.* are anchored at the folders.
      void server.restart();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void server.restart()),
  );

  // Neither the Python extension's activation nor the server's start may hold
  // up ours: the grammar and the commands work meanwhile.
  void onDidChangeInterpreter(() => {
    if (server.usesAutomaticCommand) {
      log.info('The selected Python environment changed: restarting the server.');
      void server.restart();
    }
  }, log).then((listener) => {
    if (listener !== undefined) {
      context.subscriptions.push(listener);
    }
  });

  statusBar.followEditor(vscode.window.activeTextEditor);
  void server.start().then(() => followActiveEditor(vscode.window.activeTextEditor));
}

export async function deactivate(): Promise<void> {
  await controller?.stop();
  controller = undefined;
}
