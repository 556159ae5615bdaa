// The full score report in a read-only editor: a virtual document per scored
// file (scheme annoscore-report), filled by the server's `annoscore/report`
// and refreshed after each rescoring while it is open.

import * as vscode from 'vscode';
import { uriBaseName } from './statusView';

export const REPORT_SCHEME = 'annoscore-report';

/** Fetches the report text for a document URI; undefined when the server has none. */
export type ReportFetcher = (sourceUri: string) => Promise<string | undefined>;

export class ReportDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;

  constructor(private readonly fetchReport: ReportFetcher) {}

  /** The report's URI names the scored file, so the tab says which file it is about. */
  static reportUri(sourceUri: string): vscode.Uri {
    return vscode.Uri.from({
      scheme: REPORT_SCHEME,
      path: `/${uriBaseName(sourceUri)} (annoscore report)`,
      query: sourceUri,
    });
  }

  /** The scored file a report URI is about. */
  static sourceUri(reportUri: vscode.Uri): string {
    return reportUri.query;
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const known = this.texts.get(uri.toString());
    if (known !== undefined) {
      return known;
    }
    // Reopened after the window reloaded: ask the server again.
    const sourceUri = ReportDocuments.sourceUri(uri);
    return (await this.fetchReport(sourceUri)) ?? `No annoscore report for ${sourceUri}.`;
  }

  /** Fetches the report and shows it beside the scored file. */
  async show(sourceUri: string): Promise<void> {
    const text = await this.fetchReport(sourceUri);
    if (text === undefined) {
      void vscode.window.showWarningMessage(
        `annoscore: no report for ${uriBaseName(sourceUri)} yet (is the server running? See the annoscore output channel).`);
      return;
    }
    const reportUri = ReportDocuments.reportUri(sourceUri);
    this.texts.set(reportUri.toString(), text);
    this.changes.fire(reportUri);
    const document = await vscode.workspace.openTextDocument(reportUri);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }

  /** After a rescoring: refresh the report of that file if it is open. */
  async refreshIfOpen(sourceUri: string): Promise<void> {
    const reportUri = ReportDocuments.reportUri(sourceUri);
    const key = reportUri.toString();
    const isOpen = vscode.workspace.textDocuments.some((d) => d.uri.toString() === key);
    if (!isOpen) {
      this.texts.delete(key);
      return;
    }
    const text = await this.fetchReport(sourceUri);
    if (text !== undefined && text !== this.texts.get(key)) {
      this.texts.set(key, text);
      this.changes.fire(reportUri);
    }
  }

  dispose(): void {
    this.changes.dispose();
  }
}
