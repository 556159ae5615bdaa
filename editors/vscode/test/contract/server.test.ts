// Wire-contract tests: the real annoscore language server (`annoscore lsp`)
// started as a child process and driven over stdio with vscode-jsonrpc, the
// library vscode-languageclient is built on. They check what the extension
// relies on (method names and payloads of src/protocol.ts, the diagnostics'
// source and codes, the capabilities the client acts on), as VS Code's client
// would send it: UTF-16 positions, `workspace/configuration` answered with the
// `annoscore` section, the rescore command with the document's URI.
//
// The server: $ANNOSCORE_SERVER (a command line, split on spaces), else the
// repository's .venv/bin/annoscore (made by scripts/test), else
// `python3 -m annoscore lsp` in the repository. When it cannot be started the
// tests fail, unless ANNOSCORE_SKIP_WIRE=1 (then they are skipped, saying why).

import assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it, TestContext } from 'node:test';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';
import type { Diagnostic, InitializeResult, PublishDiagnosticsParams, TextDocumentSyncOptions } from 'vscode-languageserver-protocol';
import {
  DIAGNOSTIC_SOURCE,
  isReportResult,
  NEXT_REQUEST,
  NextParams,
  parseNextResult,
  LOW_CONFIDENCE_CODE,
  REPORT_REQUEST,
  RESCORE_COMMAND,
  SCORE_NOTIFICATION,
  SCORE_REQUEST,
  ScorePayload,
  scorePayloadProblems,
} from '../../src/protocol';
import { NAVIGATION_COMMANDS } from '../../src/navigation';
import { AnnoscoreSettings, isDiagnosticCode, normalizeSettings } from '../../src/settings';
import { scoredStatusText } from '../../src/statusView';
import { layoutTree } from '../../src/treeLayout';
import { checkTreePayload, SentenceTree, TREE_REQUEST } from '../../src/treePayload';
import { PACKAGE_ROOT } from '../support/paths';

const REPO_ROOT = path.resolve(PACKAGE_ROOT, '..', '..');
/** Every wait on the server is bounded, so a hang fails the test instead of blocking CI. */
const WAIT_MS = 20_000;
const PUBLISH_DIAGNOSTICS = 'textDocument/publishDiagnostics';
const INCREMENTAL = 2; // TextDocumentSyncKind.Incremental
const SHOW_MESSAGE_WARNING = 2; // MessageType.Warning (1 is Error)

// --- the documents -------------------------------------------------------------

/** CoNLL-U from rows written with single spaces between the ten columns. */
function conllu(text: string): string {
  return text.trim().split('\n').map((line) => (line.startsWith('#') ? line : line.trim().split(' ').join('\t'))).join('\n') + '\n\n';
}

// s2 has an emoji in FORM and LEMMA before HEAD: 2 UTF-16 units, 1 code
// point, 4 UTF-8 bytes each, so a HEAD range in any other unit than the
// negotiated UTF-16 is off.
const GOLD = conllu(`
# sent_id = s1
1 The the DET DT _ 2 det _ _
2 cat cat NOUN NN _ 3 nsubj _ _
3 sat sit VERB VBD _ 0 root _ _

# sent_id = s2
1 Look look VERB _ _ 0 root _ _
2 😀😀 😀😀 SYM _ _ 1 obj _ _
3 now now ADV _ _ 2 advmod _ _

# sent_id = s3
1 d d X _ _ 0 root _ _
2 e e X _ _ 1 dep _ _
`);

// s1: a low-confidence word (Conf=0.3: every predicted cell of it);
// s2: words 2 and 3 head each other (a cycle); s3: not parsed (all HEAD _).
const PRED = conllu(`
# sent_id = s1
1 The the DET DT _ 2 det _ _
2 cat cat NOUN NN _ 3 nsubj _ Conf=0.3
3 sat sit VERB VBD _ 0 root _ _

# sent_id = s2
1 Look look VERB _ _ 0 root _ _
2 😀😀 😀😀 SYM _ _ 3 obj _ _
3 now now ADV _ _ 2 advmod _ _

# sent_id = s3
1 d d X _ _ _ _ _ _
2 e e X _ _ _ _ _ _
`);

const PRED_NAME = 'x.conllu';
const GOLD_NAME = 'x.gold.conllu';
const HEAD_COLUMN = 6;

interface Span {
  line: number;
  start: number;
  end: number;
}

function lineOf(text: string, needle: string): number {
  const index = text.split('\n').indexOf(needle);
  assert.ok(index >= 0, `no line ${JSON.stringify(needle)} in the sample`);
  return index;
}

/** The range of a tab-separated cell, in UTF-16 code units (JavaScript string indices). */
function cell(text: string, line: number, column: number): Span {
  const row = text.split('\n')[line]!;
  const cells = row.split('\t');
  const start = cells.slice(0, column).reduce((sum, c) => sum + c.length + 1, 0);
  return { line, start, end: start + cells[column]!.length };
}

function wholeLine(text: string, line: number): Span {
  return { line, start: 0, end: text.split('\n')[line]!.length };
}

function spanOf(diagnostic: Diagnostic): Span {
  const { start, end } = diagnostic.range;
  assert.equal(start.line, end.line, `a diagnostic over several lines: ${JSON.stringify(diagnostic)}`);
  return { line: start.line, start: start.character, end: end.character };
}

function bySpan(a: Span, b: Span): number {
  return a.line - b.line || a.start - b.start || a.end - b.end;
}

function spansOf(diagnostics: readonly Diagnostic[], code: string): Span[] {
  return diagnostics.filter((d) => d.code === code).map(spanOf).sort(bySpan);
}

function messageOf(diagnostic: Diagnostic): string {
  const { message } = diagnostic;
  return typeof message === 'string' ? message : message.value;
}

function codesOf(diagnostics: readonly Diagnostic[]): Set<string> {
  return new Set(diagnostics.map((d) => String(d.code)));
}

const S2 = lineOf(PRED, '# sent_id = s2');
/** HEAD of word 2 of s2, the cell the didChange test mends (3 → 1, its gold head). */
const CYCLE_HEAD = cell(PRED, S2 + 2, HEAD_COLUMN);

// --- finding and starting the server ---------------------------------------------

interface ServerCommand {
  command: string[];
  origin: string;
}

function serverCommand(): ServerCommand {
  const configured = process.env.ANNOSCORE_SERVER?.trim();
  if (configured) {
    return { command: configured.split(/\s+/), origin: 'ANNOSCORE_SERVER' };
  }
  const venvServer = process.platform === 'win32'
    ? path.join(REPO_ROOT, '.venv', 'Scripts', 'annoscore.exe')
    : path.join(REPO_ROOT, '.venv', 'bin', 'annoscore');
  if (fs.existsSync(venvServer)) {
    return { command: [venvServer, 'lsp'], origin: 'the repository\'s .venv' };
  }
  return { command: ['python3', '-m', 'annoscore', 'lsp'], origin: 'no .venv in the repository and no ANNOSCORE_SERVER' };
}

/** The server could not be started at all (as opposed to misbehaving once started). */
class ServerUnavailable extends Error {}

/** Why the first start failed; later tests do not try again. Only ServerUnavailable may be skipped. */
let startFailure: Error | undefined;

interface Received {
  method: string;
  params: unknown;
}

function tail(text: string, lines = 15): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function delay(ms: number): { promise: Promise<void>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/**
 * One server process and a client connection to it, in a fresh temporary
 * workspace. Records every notification and request the server sends, and
 * answers the requests as VS Code's client does.
 */
class Session {
  readonly notifications: Received[] = [];
  readonly serverRequests: Received[] = [];
  /** What `workspace/configuration` answers for the `annoscore` section. */
  configuration: AnnoscoreSettings = normalizeSettings({}).settings;
  initializeResult: InitializeResult | undefined;
  stderr = '';
  exitStatus: { code: number | null; signal: NodeJS.Signals | null; error?: Error } | undefined;
  readonly exited: Promise<void>;
  private readonly waiters = new Set<() => void>();

  private constructor(
    readonly workspace: string,
    readonly command: ServerCommand,
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
  ) {
    this.exited = new Promise((resolve) => {
      // 'close' rather than 'exit': by then stderr is read to the end, for the messages.
      child.once('close', (code, signal) => {
        this.exitStatus ??= { code, signal };
        resolve();
        this.changed();
      });
      child.once('error', (error) => {
        this.exitStatus ??= { code: null, signal: null, error };
        resolve();
        this.changed();
      });
    });
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    child.stdin!.on('error', () => undefined); // EPIPE after the server died: reported by `exited`
    connection.onNotification((method, params) => {
      this.notifications.push({ method, params });
      this.changed();
    });
    connection.onRequest((method, params) => {
      this.serverRequests.push({ method, params });
      this.changed();
      if (method === 'workspace/configuration') {
        const items = (params as { items?: Array<{ section?: string }> } | undefined)?.items ?? [];
        return items.map((item) => (item.section === 'annoscore' ? structuredClone(this.configuration) : null));
      }
      // client/registerCapability, window/workDoneProgress/create, ...
      return null;
    });
    connection.onError(() => undefined);
    connection.onClose(() => this.changed());
    connection.listen();
  }

  /** `projectFiles`: more files of the workspace (annoscore.toml ...), written before the server starts. */
  static async start(projectFiles: Record<string, string> = {}): Promise<Session> {
    const command = serverCommand();
    const [executable, ...args] = command.command as [string, ...string[]];
    const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'annoscore-wire-')));
    // Written before the server watches the folder: written later, they would reach its file
    // watcher as changes and cause a rescore at a moment no test can predict.
    fs.writeFileSync(path.join(workspace, GOLD_NAME), GOLD, 'utf8');
    fs.writeFileSync(path.join(workspace, PRED_NAME), PRED, 'utf8');
    for (const [name, text] of Object.entries(projectFiles)) fs.writeFileSync(path.join(workspace, name), text, 'utf8');
    const child = spawn(executable, args, { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: process.env });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const session = new Session(workspace, command, child, connection);
    try {
      session.initializeResult = await session.initialize();
    } catch (error) {
      await session.dispose();
      throw error;
    }
    return session;
  }

  get workspaceUri(): string {
    return pathToFileURL(this.workspace).href;
  }

  describeCommand(): string {
    return `${JSON.stringify(this.command.command)} (${this.command.origin}, cwd ${REPO_ROOT})`;
  }

  /** `initialize` as vscode-languageclient 11 sends it (the parts the server looks at), then `initialized`. */
  private async initialize(): Promise<InitializeResult> {
    const params = {
      processId: process.pid,
      clientInfo: { name: 'annoscore wire-contract tests' },
      locale: 'en',
      rootPath: this.workspace,
      rootUri: this.workspaceUri,
      workspaceFolders: [{ uri: this.workspaceUri, name: 'ws' }],
      // What ServerController passes: the normalized settings, the server's fallback.
      initializationOptions: normalizeSettings({}).settings,
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeConfiguration: { dynamicRegistration: true },
          didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
          executeCommand: { dynamicRegistration: true },
        },
        textDocument: {
          synchronization: { dynamicRegistration: true, willSave: true, willSaveWaitUntil: true, didSave: true },
          publishDiagnostics: {
            relatedInformation: true,
            versionSupport: false,
            tagSupport: { valueSet: [1, 2] },
            codeDescriptionSupport: true,
            dataSupport: true,
          },
        },
        window: { workDoneProgress: true, showMessage: { messageActionItem: { additionalPropertiesSupport: true } } },
      },
      trace: 'off',
    };
    const timeout = delay(WAIT_MS);
    let result: InitializeResult;
    try {
      result = await Promise.race([
        this.connection.sendRequest<InitializeResult>('initialize', params),
        this.exited.then(() => {
          const status = this.exitStatus!;
          const how = status.error !== undefined
            ? status.error.message
            : `it exited with ${status.code !== null ? `code ${status.code}` : `signal ${status.signal}`}`;
          throw new ServerUnavailable(
            `The annoscore language server could not be started with ${this.describeCommand()}: ${how}.` +
            (this.stderr.trim() !== '' ? `\nIts stderr ends with:\n${tail(this.stderr)}` : '') +
            '\nRun `bash scripts/test` (it makes .venv with the server), or set ANNOSCORE_SERVER to a command that ' +
            'starts it (e.g. "/path/to/venv/bin/python -m annoscore lsp"), or set ANNOSCORE_SKIP_WIRE=1 to skip ' +
            'these tests.');
        }),
        timeout.promise.then(() => {
          throw new Error(`The server started with ${this.describeCommand()} did not answer initialize within ` +
            `${WAIT_MS} ms.\nstderr:\n${tail(this.stderr)}`);
        }),
      ]);
    } finally {
      timeout.cancel();
    }
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  private changed(): void {
    for (const waiter of [...this.waiters]) {
      waiter();
    }
  }

  /** Resolves with probe's first non-undefined value, re-checked on every message; fails after WAIT_MS or when the server exits. */
  waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = WAIT_MS): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (error: Error | undefined, value?: T): void => {
        this.waiters.delete(check);
        clearTimeout(timer);
        if (error !== undefined) {
          reject(error);
        } else {
          resolve(value as T);
        }
      };
      const check = (): void => {
        let value: T | undefined;
        try {
          value = probe();
        } catch (error) {
          finish(error as Error);
          return;
        }
        if (value !== undefined) {
          finish(undefined, value);
        } else if (this.exitStatus !== undefined) {
          finish(new Error(`the server exited (${JSON.stringify(this.exitStatus)}) while waiting for ${what}.\n` +
            `stderr:\n${tail(this.stderr)}`));
        }
      };
      timer = setTimeout(() => {
        const seen = this.notifications.slice(-10).map((n) => n.method).join(', ') || 'none';
        finish(new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last notifications: ${seen}).\n` +
          `stderr:\n${tail(this.stderr)}`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }

  /** The first notification `method` from index `from` on that `accept` takes. */
  nextNotification<P>(method: string, from: number, accept: (params: P) => boolean, what: string): Promise<P> {
    return this.waitFor(what, () => {
      for (const n of this.notifications.slice(from)) {
        if (n.method === method && accept(n.params as P)) {
          return n.params as P;
        }
      }
      return undefined;
    });
  }

  nextDiagnostics(uri: string, from: number): Promise<PublishDiagnosticsParams> {
    return this.nextNotification<PublishDiagnosticsParams>(PUBLISH_DIAGNOSTICS, from, (p) => p.uri === uri,
      `${PUBLISH_DIAGNOSTICS} for ${uri}`);
  }

  nextScore(uri: string, from: number): Promise<ScorePayload> {
    return this.nextNotification<ScorePayload>(SCORE_NOTIFICATION, from, (p) => p?.uri === uri,
      `the ${SCORE_NOTIFICATION} notification for ${uri}`);
  }

  /** A request to the server, failing after timeoutMs. */
  async request<R>(method: string, params: unknown, timeoutMs = WAIT_MS): Promise<R> {
    const timeout = delay(timeoutMs);
    try {
      return await Promise.race([
        this.connection.sendRequest<R>(method, params),
        timeout.promise.then((): never => {
          throw new Error(`no answer to ${method} within ${timeoutMs} ms.\nstderr:\n${tail(this.stderr)}`);
        }),
      ]);
    } finally {
      timeout.cancel();
    }
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  /** Messages the server showed the user as warnings or errors (invalid settings, for one). */
  warningsShown(): string[] {
    return this.notifications
      .filter((n) => n.method === 'window/showMessage')
      .map((n) => n.params as { type: number; message: string })
      .filter((p) => p.type <= SHOW_MESSAGE_WARNING)
      .map((p) => p.message);
  }

  /** Opens the prediction (written with its gold by `start`), waits for its first diagnostics and score. */
  async openPrediction(): Promise<OpenedPrediction> {
    const predPath = path.join(this.workspace, PRED_NAME);
    const goldPath = path.join(this.workspace, GOLD_NAME);
    const uri = pathToFileURL(predPath).href;
    const from = this.notifications.length;
    await this.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'conllu', version: 1, text: PRED } });
    const published = await this.nextDiagnostics(uri, from);
    const score = await this.nextScore(uri, from);
    return { uri, goldUri: pathToFileURL(goldPath).href, diagnostics: published.diagnostics, score };
  }

  /** Ends the server (shutdown and exit when it still runs, then kill) and removes the workspace. */
  async dispose(): Promise<void> {
    if (this.exitStatus === undefined) {
      try {
        await this.request('shutdown', null, 5000);
        await this.notify('exit', null);
      } catch {
        // ended below
      }
      const grace = delay(5000);
      await Promise.race([this.exited, grace.promise]);
      grace.cancel();
      if (this.exitStatus === undefined) {
        this.child.kill('SIGKILL');
        await this.exited;
      }
    }
    this.connection.dispose();
    fs.rmSync(this.workspace, { recursive: true, force: true });
  }
}

interface OpenedPrediction {
  uri: string;
  goldUri: string;
  diagnostics: Diagnostic[];
  score: ScorePayload;
}

/**
 * Runs `body` against a fresh server. When no server can be started the test
 * fails with how to get one, or is skipped with ANNOSCORE_SKIP_WIRE=1.
 */
async function withServer(t: TestContext, body: (session: Session) => Promise<void>,
  projectFiles: Record<string, string> = {}): Promise<void> {
  if (startFailure === undefined) {
    let session: Session;
    try {
      session = await Session.start(projectFiles);
    } catch (error) {
      startFailure = error instanceof Error ? error : new Error(String(error));
      return withServer(t, body, projectFiles);
    }
    try {
      await body(session);
    } finally {
      await session.dispose();
    }
    return;
  }
  if (startFailure instanceof ServerUnavailable && process.env.ANNOSCORE_SKIP_WIRE === '1') {
    t.skip(`ANNOSCORE_SKIP_WIRE=1: ${startFailure.message.split('\n')[0]}`);
    return;
  }
  throw startFailure;
}

function assertScorePayload(payload: ScorePayload, uri: string, goldUri: string): void {
  assert.deepEqual(scorePayloadProblems(payload), [], 'the payload passes the extension\'s own check');
  assert.equal(payload.uri, uri);
  assert.equal(payload.format, 'conllu');
  assert.equal(payload.gold, goldUri);
  for (const name of ['LAS', 'UAS']) {
    const metric = payload.metrics[name];
    assert.ok(metric !== undefined, `metrics.${name}`);
    for (const field of ['precision', 'recall', 'f1'] as const) {
      const value = metric[field];
      assert.ok(typeof value === 'number' && value >= 0 && value <= 1, `metrics.${name}.${field} = ${value}`);
    }
  }
  for (const field of ['sentences', 'unparsed', 'refused', 'lowConfidence'] as const) {
    assert.equal(typeof payload.counts[field], 'number', `counts.${field}`);
  }
  assert.equal(typeof payload.version, 'number', 'version');
}

// --- the tests -------------------------------------------------------------------

describe('the annoscore language server over stdio (wire contract)', { timeout: 180_000 }, () => {
  it('initialize: annoscore.rescore as a command, incremental sync with save, UTF-16 positions; then pulls its settings', async (t) => {
    await withServer(t, async (session) => {
      const { capabilities } = session.initializeResult!;
      // vscode-languageclient registers the VS Code command annoscore.rescore from this list.
      assert.ok(capabilities.executeCommandProvider?.commands.includes(RESCORE_COMMAND),
        `executeCommandProvider.commands: ${JSON.stringify(capabilities.executeCommandProvider)}`);
      const sync = capabilities.textDocumentSync;
      const syncOptions: TextDocumentSyncOptions = typeof sync === 'number' ? { openClose: true, change: sync } : sync ?? {};
      assert.equal(syncOptions.change, INCREMENTAL, `textDocumentSync: ${JSON.stringify(sync)}`);
      assert.equal(syncOptions.openClose, true, 'didOpen/didClose wanted');
      assert.ok(syncOptions.save !== undefined && syncOptions.save !== false, 'didSave wanted (run: onSave)');
      // The client offers only UTF-16, as vscode-languageclient does.
      assert.equal(capabilities.positionEncoding, 'utf-16');

      const pull = await session.waitFor('a workspace/configuration request',
        () => session.serverRequests.find((r) => r.method === 'workspace/configuration'));
      assert.deepEqual((pull.params as { items: Array<{ section?: string }> }).items.map((i) => i.section), ['annoscore']);
    });
  });

  it('didOpen: diagnostics from annoscore on the right cells, and an annoscore/score the status bar shows', async (t) => {
    await withServer(t, async (session) => {
      const { uri, goldUri, diagnostics, score } = await session.openPrediction();

      assert.ok(diagnostics.length > 0);
      for (const diagnostic of diagnostics) {
        assert.equal(diagnostic.source, DIAGNOSTIC_SOURCE, JSON.stringify(diagnostic));
        assert.ok(typeof diagnostic.code === 'string' && isDiagnosticCode(diagnostic.code),
          `code ${JSON.stringify(diagnostic.code)} is one the extension knows`);
      }
      const codes = codesOf(diagnostics);
      for (const code of ['cycle', LOW_CONFIDENCE_CODE, 'unparsed']) {
        assert.ok(codes.has(code), `a ${code} diagnostic among ${[...codes].join(', ')}`);
      }

      // The cycle: the HEAD cells of words 2 and 3 of s2, in UTF-16 units (the emoji count 2 each).
      assert.deepEqual(spansOf(diagnostics, 'cycle'), [CYCLE_HEAD, cell(PRED, S2 + 3, HEAD_COLUMN)]);
      assert.deepEqual(CYCLE_HEAD, { line: S2 + 2, start: 20, end: 21 }); // 16 in code points, 28 in UTF-8 bytes
      // Not parsed: s3, marked on its first word's line.
      const s3 = lineOf(PRED, '# sent_id = s3');
      assert.deepEqual(spansOf(diagnostics, 'unparsed'), [wholeLine(PRED, s3 + 1)]);
      // Conf=0.3 on "cat": one diagnostic for the word, from its first low cell (LEMMA) to its last (DEPREL).
      const catLine = lineOf(PRED, '# sent_id = s1') + 2;
      const low = spansOf(diagnostics, LOW_CONFIDENCE_CODE);
      assert.deepEqual(low, [{ line: catLine, start: cell(PRED, catLine, 2).start, end: cell(PRED, catLine, 7).end }]);

      assertScorePayload(score, uri, goldUri);
      assert.equal(score.version, 1);
      assert.deepEqual(
        { sentences: score.counts.sentences, unparsed: score.counts.unparsed, refused: score.counts.refused },
        { sentences: 3, unparsed: 1, refused: 1 });
      assert.equal(score.counts.lowConfidence, 6, 'lowConfidence counts cells: Conf=0.3 is all six predicted cells of "cat"');
      assert.ok(score.metrics.LAS!.f1 < 1 && score.metrics.LAS!.f1 > 0);
      assert.ok(score.metrics.UAS!.f1 >= score.metrics.LAS!.f1);
      // What the status bar item reads for it.
      // s3 has no HEADs: 2 of the 3 sentences are annotated.
      assert.deepEqual(score.progress && { sentences: score.progress.sentences, annotated: score.progress.annotated },
        { sentences: 3, annotated: 2 });
      assert.match(scoredStatusText(score), /^\$\(graph\) LAS \d+\.\d\d UAS \d+\.\d\d \| 1 unparsed, 1 refused, \d+ low-conf \| 2\/3 annotated$/);
      assert.deepEqual(session.warningsShown(), [], 'the settings the extension sends are all accepted');
    });
  });

  it('against a gold declared a test split ([splits] in annoscore.toml): no figures, the message the status bar shows instead', async (t) => {
    await withServer(t, async (session) => {
      const { uri, diagnostics, score } = await session.openPrediction();
      assert.deepEqual(scorePayloadProblems(score), [], 'the payload passes the extension\'s own check');
      assert.equal(score.uri, uri);
      assert.equal(score.testSplit, true);
      assert.equal(score.gold, null);
      assert.deepEqual(score.metrics, {});
      assert.equal(typeof score.message, 'string');
      assert.match(score.message!, /annoscore evaluate --final/);
      // The gold-free problems stay: the cycle is refused, s3 unparsed.
      assert.deepEqual({ unparsed: score.counts.unparsed, refused: score.counts.refused }, { unparsed: 1, refused: 1 });
      assert.ok(codesOf(diagnostics).has('cycle'));
      assert.equal(scoredStatusText(score), `$(graph) ${score.message} | 1 unparsed, 1 refused, 6 low-conf | 2/3 annotated`);
      const report = await session.request<unknown>(REPORT_REQUEST, { uri });
      assert.ok(isReportResult(report));
      assert.match(report.text, /--final/);
      assert.doesNotMatch(report.text, /LAS/);
    }, { 'annoscore.toml': `[splits]\ntest = ["${GOLD_NAME}"]\n` });
  });

  it('the annoscore/score and annoscore/report requests answer for the open document', async (t) => {
    await withServer(t, async (session) => {
      const { uri, goldUri, score } = await session.openPrediction();
      const answer = await session.request<ScorePayload>(SCORE_REQUEST, { uri });
      assertScorePayload(answer, uri, goldUri);
      assert.deepEqual(answer, score, 'the request answers the payload last notified');

      const report = await session.request<unknown>(REPORT_REQUEST, { uri });
      assert.ok(isReportResult(report), `{uri, text}: ${JSON.stringify(report)}`);
      assert.equal(report.uri, uri);
      assert.ok(report.text.trim().length > 0, 'a non-empty report');
      assert.match(report.text, /LAS/);
    });
  });

  it('annoscore/tree answers what the tree view draws: words on their lines, gold aligned with its differences, problems', async (t) => {
    await withServer(t, async (session) => {
      const { uri } = await session.openPrediction();
      const treeAt = async (line: number, character = 0): Promise<SentenceTree | null> => {
        const check = checkTreePayload(await session.request<unknown>(TREE_REQUEST, { uri, position: { line, character } }));
        assert.deepEqual(check.problems, [], `the answer at line ${line} follows the contract`);
        return check.tree;
      };
      // s2, asked from a token line: words 2 and 3 head each other, gold has 2 on 1.
      const s2 = (await treeAt(S2 + 2, 5))!;
      assert.equal(s2.sentId, 's2');
      assert.deepEqual([s2.line, s2.endLine], [S2, S2 + 3]);
      assert.deepEqual(s2.words.map((w) => [w.form, w.head, w.line]), [['Look', 0, S2 + 1], ['😀😀', 3, S2 + 2], ['now', 2, S2 + 3]]);
      assert.deepEqual(s2.refused, ['cycle']);
      assert.ok(s2.words[1]!.problems.includes('cycle') && s2.words[2]!.problems.includes('cycle'));
      assert.deepEqual(s2.gold!.map((g) => g?.head), [0, 1, 2], 'gold heads in the prediction\'s numbering');
      const layout = layoutTree(s2);
      assert.equal(layout.arcs.length, 3, 'one arc per word');
      assert.deepEqual(layout.words.map((w) => w.difference), [null, 'head', null]);
      assert.deepEqual(layout.goldArcs.map((a) => [a.dependent, a.head]), [[1, 0]]);
      // s1 from its comment line: as gold, with its low-confidence word marked.
      const s1 = (await treeAt(lineOf(PRED, '# sent_id = s1')))!;
      assert.equal(s1.sentId, 's1');
      assert.ok(s1.words[1]!.problems.includes(LOW_CONFIDENCE_CODE));
      assert.ok(layoutTree(s1).words.every((w) => w.difference === null && !w.unaligned));
      // s3 is not parsed: no arcs; a blank line has no sentence.
      const s3 = (await treeAt(lineOf(PRED, '# sent_id = s3') + 1))!;
      assert.equal(s3.unparsed, true);
      assert.equal(layoutTree(s3).arcs.length, 0);
      assert.equal(await treeAt(S2 - 1), null);
    });
  });

  it('annoscore/next answers what the navigation commands select, and says when there is no further one', async (t) => {
    await withServer(t, async (session) => {
      const { uri } = await session.openPrediction();
      const next = async (kind: NextParams['kind'], line: number, direction: NextParams['direction'] = 'next', character = 0) => {
        const answer = await session.request<unknown>(NEXT_REQUEST, { uri, position: { line, character }, kind, direction });
        const result = parseNextResult(answer);
        assert.ok(result !== undefined, `the answer follows the contract: ${JSON.stringify(answer)}`);
        return result;
      };
      const refused = await next('refused', 0);
      assert.ok(refused.found && refused.range.start.line > S2 && refused.range.start.line <= S2 + 3, JSON.stringify(refused));
      // Asked again from the place found (as the command does, from the selection's start): none further.
      const none = refused.found ? await next('refused', refused.range.start.line, 'next', refused.range.start.character) : refused;
      assert.equal(none.found, false, 'no wrapping to the top');
      assert.match(none.message!, /no further/);
      const unparsed = await next('unparsed', 0);
      assert.ok(unparsed.found && unparsed.range.start.line === lineOf(PRED, '# sent_id = s3') + 1, JSON.stringify(unparsed));
      const back = await next('low-confidence', PRED.split('\n').length - 1, 'previous');
      assert.ok(back.found && back.range.start.line === lineOf(PRED, '# sent_id = s1') + 2, JSON.stringify(back));
      const diff = await next('gold-diff', 0);
      assert.ok(diff.found && diff.range.start.line === CYCLE_HEAD.line, JSON.stringify(diff));
      assert.deepEqual([diff.range.start.character, diff.range.end.character], [CYCLE_HEAD.start, CYCLE_HEAD.end], 'the HEAD cell, in UTF-16');
      // Every kind a command sends is one the server knows: a place, or a message saying why none.
      for (const [command, kind, direction] of NAVIGATION_COMMANDS) {
        const answer = await next(kind, direction === 'next' ? 0 : PRED.split('\n').length - 1, direction);
        assert.ok(answer.found || (answer.message ?? '').length > 0, `${command}: ${JSON.stringify(answer)}`);
      }
      // The first error is the UD validator's: s1 has no # text (reported on its first word line),
      // which is also the first validation problem; after it, one in s2 (no # text either, the cycle).
      const error = await next('error', 0);
      assert.ok(error.found && error.range.start.line === lineOf(PRED, '# sent_id = s1') + 1 &&
        /# text/.test(error.message ?? ''), `the first error is s1's missing text: ${JSON.stringify(error)}`);
      const validation = await next('validation', 0);
      assert.ok(validation.found, JSON.stringify(validation));
      assert.deepEqual(validation.range, error.range);
      const inS2 = await next('error', S2);
      assert.ok(inS2.found && inS2.range.start.line > S2 && inS2.range.start.line <= S2 + 3, JSON.stringify(inS2));
    });
  });

  it('workspace/executeCommand annoscore.rescore with the URI (as the extension sends it) sends a new score', async (t) => {
    await withServer(t, async (session) => {
      const { uri, goldUri, score } = await session.openPrediction();
      const from = session.notifications.length;
      // serverController's middleware: the palette's argument-less command gets the active file's URI.
      await session.request('workspace/executeCommand', { command: RESCORE_COMMAND, arguments: [uri] });
      const rescored = await session.nextScore(uri, from);
      assertScorePayload(rescored, uri, goldUri);
      assert.deepEqual(rescored, score, 'nothing changed, so the same score');
      await session.nextDiagnostics(uri, from);
    });
  });

  it('an incremental didChange mending the cycle, then didSave: diagnostics without the cycle and a score of the new version', async (t) => {
    await withServer(t, async (session) => {
      const { uri, goldUri, diagnostics: before, score: scoreBefore } = await session.openPrediction();
      const from = session.notifications.length;
      // Word 2 of s2 gets its gold head, 1 (was 3): the cycle is gone.
      await session.notify('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [{
          range: { start: { line: CYCLE_HEAD.line, character: CYCLE_HEAD.start }, end: { line: CYCLE_HEAD.line, character: CYCLE_HEAD.end } },
          text: '1',
        }],
      });
      await session.notify('textDocument/didSave', { textDocument: { uri } });

      const published = await session.nextDiagnostics(uri, from);
      const after = published.diagnostics;
      assert.ok(!codesOf(after).has('cycle'), `no cycle left: ${JSON.stringify(after)}`);
      // Everything else of annoscore's own stays where it was (the edit kept the line's length).
      const key = (d: Diagnostic): string => `${String(d.code)} ${JSON.stringify(spanOf(d))}`;
      const validators = (d: Diagnostic): boolean =>
        typeof d.data === 'object' && d.data !== null && 'test_id' in d.data;
      const own = (ds: Diagnostic[]): string[] => ds.filter((d) => !validators(d)).map(key).sort();
      assert.deepEqual(own(after), own(before).filter((k) => !k.startsWith('cycle ')));
      // The UD validator's: the same, and now that s2 is a tree it checks its metadata too (no # text).
      // (The validator reports it on the sentence's first word line.)
      const found = (ds: Diagnostic[]): string[] => ds.filter(validators).map(key).sort();
      const added = found(after).filter((k) => !found(before).includes(k));
      assert.deepEqual(added.map((k) => [k.split(' ')[0], JSON.parse(k.slice(k.indexOf(' ') + 1)).line]),
        [['missing-text', S2 + 1]]);
      assert.ok(found(before).filter((k) => !k.startsWith('cycle ')).every((k) => found(after).includes(k)));

      const score = await session.nextScore(uri, from);
      assertScorePayload(score, uri, goldUri);
      assert.equal(score.version, 2, 'the score says which version it is for');
      assert.equal(score.counts.refused, 0);
      assert.ok(score.metrics.LAS!.f1 > scoreBefore.metrics.LAS!.f1, 'the mended head counts');
    });
  });

  it('didChangeConfiguration with settings null (what the extension sends): pulls again, applies sentences and maxDiagnostics', async (t) => {
    await withServer(t, async (session) => {
      const { uri, goldUri, score: scoreBefore } = await session.openPrediction();
      const pulls = session.serverRequests.length;
      const from = session.notifications.length;
      session.configuration = { ...session.configuration, sentences: 'annotated', maxDiagnostics: 1 };
      await session.notify('workspace/didChangeConfiguration', { settings: null });

      await session.waitFor('workspace/configuration pulled again',
        () => session.serverRequests.slice(pulls).find((r) => r.method === 'workspace/configuration'));
      const published = await session.nextDiagnostics(uri, from);
      const score = await session.nextScore(uri, from);
      assertScorePayload(score, uri, goldUri);
      // annotated: the unparsed s3 is left out of the score.
      assert.ok(score.metrics.LAS!.recall > scoreBefore.metrics.LAS!.recall,
        `LAS recall ${scoreBefore.metrics.LAS!.recall} -> ${score.metrics.LAS!.recall}`);
      // maxDiagnostics 1: the first cycle cell, then one summary of the rest.
      const cycles = published.diagnostics.filter((d) => d.code === 'cycle');
      assert.equal(cycles.length, 2, JSON.stringify(cycles));
      assert.deepEqual(spanOf(cycles[0]!), CYCLE_HEAD);
      assert.match(messageOf(cycles[1]!), /maxDiagnostics/);
      assert.deepEqual(session.warningsShown(), []);
    });
  });

  it('maxDiagnosticsPerDocument, pulled again: at most that many diagnostics, summaries included, errors first', async (t) => {
    await withServer(t, async (session) => {
      const { uri, diagnostics: folded } = await session.openPrediction();
      // Each finding on its own (s3's HEAD findings are folded under its unparsed diagnostic by default).
      const unfolding = session.notifications.length;
      session.configuration = { ...session.configuration, foldUnparsedFindings: false };
      await session.notify('workspace/didChangeConfiguration', { settings: null });
      const everything = (await session.nextDiagnostics(uri, unfolding)).diagnostics;
      assert.ok(everything.length > folded.length, `${folded.length} folded, ${everything.length} each`);
      const limit = 7; // (the prediction has 9 diagnostics of 6 kinds: summaries and the best-ranked)
      assert.ok(everything.length > limit, `${everything.length} diagnostics to cut`);
      const from = session.notifications.length;
      session.configuration = { ...session.configuration, maxDiagnosticsPerDocument: limit };
      await session.notify('workspace/didChangeConfiguration', { settings: null });
      const published = (await session.nextDiagnostics(uri, from)).diagnostics;
      assert.equal(published.length, limit, JSON.stringify(published));
      // (low-confidence: "N more cells below the confidence threshold … are not shown")
      const summaries = published.filter((d) => /^\d+ more .* are not shown \(/.test(messageOf(d)));
      assert.ok(summaries.length >= 1 && summaries.length < limit, JSON.stringify(summaries));
      assert.ok(summaries.every((d) => new RegExp(`at most ${limit} diagnostics per document; see annoscore.maxDiagnosticsPerDocument`).test(messageOf(d))));
      // Of the rest, the best-ranked: no error left out while a less severe one is shown.
      const shown = published.filter((d) => !summaries.includes(d));
      const worst = Math.max(...shown.map((d) => d.severity ?? 1));
      const best = Math.min(...everything.filter((d) => !shown.some((s) => JSON.stringify(s) === JSON.stringify(d)))
        .map((d) => d.severity ?? 1));
      assert.ok(best >= worst, `left out severity ${best}, shown ${worst}`);
      assert.deepEqual(session.warningsShown(), []);
    });
  });

  it('shutdown and exit end the process with exit code 0', async (t) => {
    await withServer(t, async (session) => {
      await session.openPrediction(); // with a document open and its folder watched
      const result = await session.request<unknown>('shutdown', null);
      assert.equal(result, null);
      await session.notify('exit', null);
      await session.waitFor('the server process to exit', () => session.exitStatus);
      assert.deepEqual({ code: session.exitStatus!.code, signal: session.exitStatus!.signal }, { code: 0, signal: null });
    });
  });
});
