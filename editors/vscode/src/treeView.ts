// "annoscore: Show Tree": a webview beside the editor drawing the tree of the
// sentence under the cursor, from the server's `annoscore/tree` answer.
// What to ask and when to redraw is decided in treeFollow.ts; the drawing is
// treeLayout.ts + treeSvg.ts; the page and its messages are treePage.ts and
// media/treeView.js. This class wires them to VS Code: it follows the
// cursor of the active CoNLL-U editor, highlights the line of a hovered word,
// moves the cursor to a clicked one, and copies or saves the SVG.

import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { onAnswer, onCursor, Shown } from './treeFollow';
import { layoutTree } from './treeLayout';
import { FromPage, parsePageMessage, ToPage, treePage } from './treePage';
import { SentenceTree, TreeCheck } from './treePayload';
import { summaryText, treeSummary, treeSvg } from './treeSvg';

export const SHOW_TREE_COMMAND = 'annoscore.showTree';
const VIEW_TYPE = 'annoscore.tree';
/** Cursor moves closer together than this are one move (holding an arrow key). */
const FOLLOW_DELAY_MS = 60;

/** Asks the server for the tree at a position; undefined when it cannot answer (a reason is logged). */
export type TreeFetcher = (uri: string, position: { line: number; character: number }) => Promise<TreeCheck | undefined>;

export class TreeView implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private shown: Shown | undefined;
  /** The standalone SVG of the tree shown, for copy and save. */
  private standaloneSvg: string | undefined;
  private sentence: SentenceTree | undefined;
  /** The CoNLL-U editor followed (kept while focus is in the tree view). */
  private editor: vscode.TextEditor | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Answers are drawn only if no later question was asked meanwhile. */
  private asked = 0;
  /** The page script has started: messages sent before would be lost. */
  private pageReady = false;
  /** The last tree (or message) drawn, and the cursor's line: sent again to a page that (re)loads. */
  private drawn: ToPage | undefined;
  private cursorLine: number | null = null;
  private readonly hoverDecoration = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor('editor.rangeHighlightBackground'),
  });
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly fetchTree: TreeFetcher,
    private readonly isTreeDocument: (document: vscode.TextDocument) => boolean,
  ) {
    this.subscriptions.push(
      vscode.window.onDidChangeTextEditorSelection((event) => this.follow(event.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((editor) => editor !== undefined && this.follow(editor)),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (this.editor !== undefined && event.document === this.editor.document) this.follow(this.editor);
      }),
    );
  }

  /** Opens the view beside the active editor (or shows it again). */
  show(): void {
    const editor = vscode.window.activeTextEditor;
    if (this.panel !== undefined) {
      this.panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      this.panel = this.createPanel();
    }
    if (editor !== undefined && this.isTreeDocument(editor.document)) {
      this.follow(editor, 0);
    } else if (this.editor === undefined) {
      this.post({ type: 'empty', message: 'Open a CoNLL-U file and put the cursor in a sentence.' });
    }
  }

  /** After a rescoring: gold's differences and the problems may have changed. */
  refresh(uri: string): void {
    if (this.editor !== undefined && this.editor.document.uri.toString() === vscode.Uri.parse(uri).toString()) {
      // Ask again, but keep the SVG shown: an answer that draws the same is not drawn again.
      if (this.shown !== undefined) this.shown = { ...this.shown, version: -1 };
      this.follow(this.editor);
    }
  }

  private createPanel(): vscode.WebviewPanel {
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, 'annoscore tree', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: true,
      localResourceRoots: [media],
    });
    this.pageReady = false;
    const nonce = randomBytes(18).toString('base64url');
    panel.webview.html = treePage({ nonce, scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'treeView.js')).toString() });
    panel.webview.onDidReceiveMessage((message: unknown) => {
      const parsed = parsePageMessage(message);
      if (parsed !== undefined) void this.receive(parsed);
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
      this.shown = undefined;
      this.drawn = undefined;
      this.clearHover();
    });
    return panel;
  }

  private follow(editor: vscode.TextEditor, delay = FOLLOW_DELAY_MS): void {
    if (this.panel === undefined || !this.isTreeDocument(editor.document)) return;
    this.editor = editor;
    const cursor = { uri: editor.document.uri.toString(), version: editor.document.version, line: editor.selection.active.line };
    if (onCursor(this.shown, cursor) === 'mark') {
      this.post({ type: 'cursor', line: cursor.line });
      return;
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.ask(editor);
    }, delay);
  }

  private async ask(editor: vscode.TextEditor): Promise<void> {
    const asked = ++this.asked;
    const document = editor.document;
    const version = document.version;
    const position = editor.selection.active;
    const answer = await this.fetchTree(document.uri.toString(), { line: position.line, character: position.character });
    if (asked !== this.asked || this.panel === undefined) return;
    if (answer === undefined) {
      this.shown = undefined;
      this.post({ type: 'empty', message: 'The annoscore server cannot draw the tree now (see the annoscore output channel).' });
      return;
    }
    if (answer.tree === null) {
      this.shown = undefined;
      this.post({ type: 'empty', message: answer.problems.length > 0
        ? `The server's answer could not be drawn: ${answer.problems.slice(0, 3).join('; ')}.`
        : 'No sentence at the cursor: put it on a sentence\'s comment or token lines.' });
      return;
    }
    const tree = answer.tree;
    const layout = layoutTree(tree);
    const svg = treeSvg(tree, layout, { standalone: false });
    const decision = onAnswer(this.shown, svg);
    this.shown = { uri: document.uri.toString(), version, firstLine: tree.line, lastLine: tree.endLine, svg };
    const cursorLine = editor.selection.active.line;
    if (decision === 'mark') {
      this.post({ type: 'cursor', line: cursorLine });
      return;
    }
    this.sentence = tree;
    this.standaloneSvg = treeSvg(tree, layout, { standalone: true });
    this.post({ type: 'tree', svg, summary: summaryText(tree, treeSummary(layout)), cursorLine });
  }

  private post(message: ToPage): void {
    if (message.type === 'cursor') {
      this.cursorLine = message.line;
    } else {
      this.drawn = message;
      if (message.type === 'tree') this.cursorLine = message.cursorLine;
    }
    if (this.pageReady) void this.panel?.webview.postMessage(message);
  }

  private async receive(message: FromPage): Promise<void> {
    switch (message.type) {
      case 'ready':
        // The page (re)loaded (first shown, or shown again after being hidden): draw what it should show.
        this.pageReady = true;
        if (this.drawn !== undefined) {
          void this.panel?.webview.postMessage(this.drawn.type === 'tree' ? { ...this.drawn, cursorLine: this.cursorLine } : this.drawn);
        }
        return;
      case 'hover':
        this.highlight(message.line);
        return;
      case 'reveal':
        await this.reveal(message.line);
        return;
      case 'copy':
        if (this.standaloneSvg !== undefined) {
          await vscode.env.clipboard.writeText(this.standaloneSvg);
          void vscode.window.setStatusBarMessage('annoscore: the tree\'s SVG is on the clipboard', 3000);
        }
        return;
      case 'save':
        await this.save();
        return;
    }
  }

  /** The editor showing the followed document (it may have moved to another column). */
  private visibleEditor(): vscode.TextEditor | undefined {
    const document = this.editor?.document;
    if (document === undefined) return undefined;
    return vscode.window.visibleTextEditors.find((e) => e.document === document) ?? this.editor;
  }

  private highlight(line: number | null): void {
    const editor = this.visibleEditor();
    if (editor === undefined) return;
    editor.setDecorations(this.hoverDecoration, line === null || line >= editor.document.lineCount ? [] : [new vscode.Range(line, 0, line, 0)]);
  }

  private clearHover(): void {
    const editor = this.visibleEditor();
    editor?.setDecorations(this.hoverDecoration, []);
  }

  /** Puts the cursor on the word's FORM cell and gives the editor the focus, to type a correction. */
  private async reveal(line: number): Promise<void> {
    const editor = this.visibleEditor();
    if (editor === undefined || line >= editor.document.lineCount) return;
    const text = editor.document.lineAt(line).text;
    const tab = text.indexOf('\t');
    const start = new vscode.Position(line, tab < 0 ? 0 : tab + 1);
    const formEnd = tab < 0 ? -1 : text.indexOf('\t', tab + 1);
    const end = formEnd < 0 ? start : new vscode.Position(line, formEnd);
    const shown = await vscode.window.showTextDocument(editor.document, {
      viewColumn: editor.viewColumn,
      preserveFocus: false,
      selection: new vscode.Range(start, end),
    });
    shown.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async save(): Promise<void> {
    if (this.standaloneSvg === undefined || this.editor === undefined) return;
    const document = this.editor.document.uri;
    const name = (this.sentence?.sentId ?? `line-${(this.sentence?.line ?? 0) + 1}`).replace(/[^\w.-]+/g, '_');
    const target = await vscode.window.showSaveDialog({
      defaultUri: document.with({ path: `${document.path.slice(0, document.path.lastIndexOf('/'))}/${name}.svg` }),
      filters: { SVG: ['svg'] },
      title: 'Save the tree as SVG',
    });
    if (target === undefined) return;
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(this.standaloneSvg));
    void vscode.window.setStatusBarMessage(`annoscore: saved ${target.fsPath}`, 3000);
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.clearHover();
    this.panel?.dispose();
    this.hoverDecoration.dispose();
    this.subscriptions.forEach((s) => s.dispose());
  }
}
