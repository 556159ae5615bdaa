// The status bar item for the active document: keeps the last score payload
// of each open document and renders the one of the active editor. What it
// shows is decided by statusView.ts; this class only feeds it and copies it.

import * as vscode from 'vscode';
import { ScorePayload } from './protocol';
import { StatusState, statusView } from './statusView';

export const SHOW_REPORT_COMMAND = 'annoscore.showReport';

/** Canonical form of a URI string, so the server's and the editor's spellings compare equal. */
export function uriKey(uri: string | vscode.Uri): string {
  return (typeof uri === 'string' ? vscode.Uri.parse(uri) : uri).toString();
}

export class ScoreStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly payloads = new Map<string, ScorePayload>();
  private serverProblem: string | undefined;
  /** The annoscore document the item is about; kept while focus is on a panel or a report. */
  private currentUri: string | undefined;

  /**
   * @param scoredUriOf the URI (uriKey form) whose score a document stands for:
   *   its own for an annoscore document, the scored file's for its report,
   *   undefined for any other document.
   */
  constructor(private readonly scoredUriOf: (document: vscode.TextDocument) => string | undefined) {
    this.item = vscode.window.createStatusBarItem('annoscore.score', vscode.StatusBarAlignment.Left, 100);
    this.item.name = 'annoscore score';
    this.item.command = SHOW_REPORT_COMMAND;
  }

  /** The annoscore document the status bar shows, if any. */
  get activeUri(): string | undefined {
    return this.currentUri;
  }

  hasPayload(uri: string): boolean {
    return this.payloads.has(uriKey(uri));
  }

  setPayload(payload: ScorePayload): void {
    this.payloads.set(uriKey(payload.uri), payload);
    this.render();
  }

  forget(uri: string | vscode.Uri): void {
    this.payloads.delete(uriKey(uri));
    this.render();
  }

  /** undefined when the server runs; otherwise one line saying why it does not. */
  setServerProblem(problem: string | undefined): void {
    this.serverProblem = problem;
    this.render();
  }

  /** Follows the active editor; a non-annoscore editor hides the item, no editor keeps it. */
  followEditor(editor: vscode.TextEditor | undefined): void {
    if (editor !== undefined) {
      this.currentUri = this.scoredUriOf(editor.document);
    }
    this.render();
  }

  render(): void {
    const view = statusView(this.state());
    if (!view.visible) {
      this.item.hide();
      return;
    }
    this.item.text = view.text;
    this.item.tooltip = new vscode.MarkdownString(view.tooltip);
    this.item.backgroundColor = view.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  private state(): StatusState {
    if (this.currentUri === undefined) {
      return { kind: 'hidden' };
    }
    if (this.serverProblem !== undefined) {
      return { kind: 'serverNotRunning', reason: this.serverProblem };
    }
    const payload = this.payloads.get(this.currentUri);
    return payload !== undefined ? { kind: 'scored', payload } : { kind: 'waiting', uri: this.currentUri };
  }

  dispose(): void {
    this.item.dispose();
  }
}
