// The extension bundle activated under node with a fake `vscode` module (see
// support/fakeVscode.ts) and the real vscode-languageclient inside it, against
// a fake server that speaks the contract (support/fakeServer.ts): the status
// bar, the commands and the error for a missing server, end to end.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BuiltBundle, buildBundle, loadBundle } from '../support/bundle';
import { createFakeVscode, fakeDocument, MarkdownString } from '../support/fakeVscode';

const FAKE_SERVER = path.join(__dirname, '..', 'support', 'fakeServer.js');
const DOC_URI = 'file:///work/pred.conllu';

interface Extension {
  activate(context: { subscriptions: Array<{ dispose(): unknown }> }): unknown;
  deactivate(): Promise<void>;
}

let bundle: BuiltBundle;

before(() => {
  bundle = buildBundle();
});

after(() => {
  bundle.remove();
});

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function activateWith(settings: Record<string, unknown>) {
  const document = fakeDocument(DOC_URI, 'conllu', '1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\tConf=0.3\n\n');
  const fake = createFakeVscode({ settings, documents: [document] });
  fake.setActiveEditor(document);
  const extension = loadBundle(bundle.path, (request) => (request === 'vscode' ? fake.vscode : undefined)) as unknown as Extension;
  const context = { subscriptions: [] as Array<{ dispose(): unknown }> };
  extension.activate(context);
  const statusItem = () => fake.statusItems[0]!;
  return { fake, document, extension, context, statusItem };
}

describe('extension against a server that follows the contract', { timeout: 60000 }, () => {
  it('shows the score, navigates low-confidence cells, rescores and shows the report', async () => {
    const { fake, document, extension, context, statusItem } = activateWith({
      'annoscore.server.command': [process.execPath, FAKE_SERVER],
    });
    try {
      const text = await waitFor('the score in the status bar', () => statusItem().text.includes('LAS') && statusItem().text);
      assert.equal(text, '$(graph) LAS 87.35 UAS 90.12 | 1 unparsed, 2 low-conf');
      assert.equal(statusItem().visible, true);
      assert.equal(statusItem().command, 'annoscore.showReport');
      const tooltip = statusItem().tooltip as MarkdownString;
      assert.match(tooltip.value, /^\| LAS \| 87\.00 \| 88\.00 \| 87\.35 \|$/m);
      assert.equal(fake.contexts.get('annoscore.serverRunning'), true);
      await waitFor('the log line about the broken payload', () => fake.logLines.some((l) => /breaks the contract/.test(l)));
      assert.equal(statusItem().text, text, 'a payload that breaks the contract changes nothing');

      // Low-confidence navigation over the published diagnostics (the `cycle` one is not visited).
      await waitFor('diagnostics', () => fake.diagnostics.get(DOC_URI)?.length === 3);
      const editor = fake.setActiveEditor(document)!;
      const starts: string[] = [];
      for (const command of ['next', 'next', 'next', 'previous']) {
        await fake.vscode.commands.executeCommand(`annoscore.${command}LowConfidence`);
        starts.push(`${editor.selection.start.line}:${editor.selection.start.character}-${editor.selection.end.character}`);
      }
      assert.deepEqual(starts, ['2:10-15', '7:30-31', '2:10-15', '7:30-31']);

      // Rescore from the palette: no argument, the client passes the active file.
      const result = await fake.vscode.commands.executeCommand('annoscore.rescore');
      assert.deepEqual(result, { command: 'annoscore.rescore', arguments: [DOC_URI] });
      await waitFor('the rescored counts', () => statusItem().text.includes('1 refused'));

      // Clicking the item: the report in a read-only document.
      await fake.vscode.commands.executeCommand('annoscore.showReport');
      const report = fake.openedDocuments.at(-1)!;
      assert.equal(report.uri.scheme, 'annoscore-report');
      assert.equal(report.getText(), `REPORT for ${DOC_URI}\nLAS 87.35\n`);

      // Another kind of file hides the item; coming back shows it again.
      fake.setActiveEditor(fakeDocument('file:///work/notes.md', 'markdown', '# notes'));
      assert.equal(statusItem().visible, false);
      fake.setActiveEditor(document);
      assert.equal(statusItem().visible, true);
      assert.match(statusItem().text, /LAS 87\.35/);
    } finally {
      await extension.deactivate();
      context.subscriptions.forEach((d) => d.dispose());
    }
  });
});

describe('extension without a server', { timeout: 60000 }, () => {
  it('says what to install, lists what it tried, and shows the server is not running', async () => {
    const emptyBin = fs.mkdtempSync(path.join(os.tmpdir(), 'annoscore-empty-path-'));
    const savedPath = process.env.PATH;
    process.env.PATH = emptyBin;
    const { fake, extension, context, statusItem } = activateWith({
      'python.defaultInterpreterPath': '/nonexistent/venv/bin/python',
    });
    try {
      const message = await waitFor('the error message', () => fake.messages.find((m) => m.startsWith('error:')));
      assert.match(message, /"\/nonexistent\/venv\/bin\/python" -m pip install \/path\/to\/annoscore/);
      assert.match(message, /not on PyPI/);
      assert.match(message, /annoscore\.server\.command/);
      const log = fake.logLines.join('\n');
      assert.match(log, /\/nonexistent\/venv\/bin\/annoscore {2}\[Python environment of \/nonexistent\/venv\/bin\/python/);
      assert.ok(log.includes(path.join(emptyBin, 'annoscore')), 'the PATH folder was tried');
      await waitFor('the warning in the status bar', () => statusItem().text.includes('server not running'));
      assert.match((statusItem().tooltip as MarkdownString).value, /annoscore was not found/);
    } finally {
      process.env.PATH = savedPath;
      fs.rmSync(emptyBin, { recursive: true, force: true });
      await extension.deactivate();
      context.subscriptions.forEach((d) => d.dispose());
    }
  });
});
