// Starting, restarting and stopping the language client, and the requests
// the commands make. Finding the server and the document selector are
// decided by the plain modules; this file only applies them.

import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { buildDocumentSelector, DocumentFilter } from './documentSelector';
import {
  isReportResult,
  isScorePayload,
  NEXT_REQUEST,
  NextParams,
  NextResult,
  parseNextResult,
  REPORT_REQUEST,
  RESCORE_COMMAND,
  SCORE_NOTIFICATION,
  SCORE_REQUEST,
  ScorePayload,
  scorePayloadProblems,
} from './protocol';
import { EDIT_COMMAND, EditArguments } from './editing';
import { selectedInterpreter } from './pythonEnvironment';
import { checkTreePayload, TREE_REQUEST, TreeCheck } from './treePayload';
import {
  currentOs,
  describeTried,
  findServerCommand,
  isExecutableFile,
  notFoundMessage,
  ServerCommand,
  serverCandidates,
} from './serverCommand';
import { AnnoscoreSettings, isClientSetting, normalizeSettings, RawSettings } from './settings';
import { ScoreStatusBar } from './statusBar';

const CLIENT_ID = 'annoscore';
const CLIENT_NAME = 'annoscore';
const RUNNING_CONTEXT_KEY = 'annoscore.serverRunning';
const OPEN_SETTING = 'Open Setting';
const SHOW_LOG = 'Show Log';
const RETRY = 'Retry';

export function readRawSettings(): RawSettings {
  const config = vscode.workspace.getConfiguration('annoscore');
  return {
    threshold: config.get('threshold'),
    run: config.get('run'),
    severities: config.get('severities'),
    goldDiff: config.get('goldDiff'),
    sentences: config.get('sentences'),
    maxDiagnostics: config.get('maxDiagnostics'),
    maxDiagnosticsPerDocument: config.get('maxDiagnosticsPerDocument'),
    files: { segmentation: config.get('files.segmentation'), labels: config.get('files.labels') },
    validation: {
      level: config.get('validation.level'), lang: config.get('validation.lang'),
      dataDir: config.get('validation.dataDir'), exclude: config.get('validation.exclude'),
    },
    server: { command: config.get('server.command') },
    allowOutsideProject: config.get('allowOutsideProject'),
    maxFileSize: config.get('maxFileSize'),
  };
}

/** The protocol-form filters as vscode filters, to test documents with languages.match. */
function toVscodeSelector(filters: readonly DocumentFilter[]): vscode.DocumentFilter[] {
  return filters.map((filter) => {
    const { pattern } = filter;
    const vscodePattern = pattern === undefined || typeof pattern === 'string'
      ? pattern
      : new vscode.RelativePattern(vscode.Uri.parse(pattern.baseUri), pattern.pattern);
    return { language: filter.language, scheme: filter.scheme, pattern: vscodePattern };
  });
}

export class ServerController implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private settings: AnnoscoreSettings = normalizeSettings({}).settings;
  private selector: vscode.DocumentFilter[] = [];
  /** Setting problems already shown, so a warning is not repeated on every change. */
  private readonly shownProblems = new Set<string>();
  private readonly loggedPayloadProblems = new Set<string>();
  /** Serializes start/stop so that quick setting changes cannot start two clients. */
  private lifecycle: Promise<void> = Promise.resolve();

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly statusBar: ScoreStatusBar,
    private readonly onScore: (payload: ScorePayload) => void,
  ) {
    this.refreshSettings();
  }

  get usesAutomaticCommand(): boolean {
    return this.settings.server.command.length === 0;
  }

  isAnnoscoreDocument(document: vscode.TextDocument): boolean {
    return vscode.languages.match(this.selector, document) > 0;
  }

  isRunning(): boolean {
    return this.client?.state === State.Running;
  }

  /** Re-reads the settings and the document selector; warns once about bad values. */
  refreshSettings(): void {
    const { settings, problems } = normalizeSettings(readRawSettings());
    this.settings = settings;
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
    this.selector = toVscodeSelector(buildDocumentSelector(settings.files, folders));
    for (const problem of problems) {
      const text = `${problem.setting} ${problem.message}`;
      this.log.warn(`Setting: ${text}`);
      // The server reports its own settings; the extension only speaks for the ones it uses.
      if (isClientSetting(problem.setting) && !this.shownProblems.has(text)) {
        this.shownProblems.add(text);
        void vscode.window.showWarningMessage(`annoscore: ${text}`);
      }
    }
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  restart(): Promise<void> {
    return this.enqueue(async () => {
      await this.doStop();
      await this.doStart();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.lifecycle = this.lifecycle.then(step, step).catch((error: unknown) => {
      this.log.error(`annoscore client: ${String(error)}`);
    });
    return this.lifecycle;
  }

  private async doStart(): Promise<void> {
    this.refreshSettings();
    if (!vscode.workspace.isTrusted) {
      this.log.info('Workspace not trusted: the server is not started (it would run a program chosen by the workspace).');
      this.setServerProblem('this workspace is not trusted');
      return;
    }
    const command = await this.resolveCommand();
    if (command.kind === 'notFound') {
      this.setServerProblem('annoscore was not found');
      return;
    }
    const [executable, ...args] = command.command as [string, ...string[]];
    const serverOptions: ServerOptions = { command: executable, args };
    const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
    const clientOptions: LanguageClientOptions = {
      documentSelector: buildDocumentSelector(this.settings.files, folders),
      outputChannel: this.log,
      // The server pulls its settings (workspace/configuration); these are its fallback.
      initializationOptions: this.settings,
      middleware: {
        // `annoscore.rescore` from the palette or a key binding has no argument: rescore the active file.
        executeCommand: (name, args, next) => {
          const activeUri = this.statusBar.activeUri;
          return name === RESCORE_COMMAND && args.length === 0 && activeUri !== undefined
            ? next(name, [activeUri])
            : next(name, args);
        },
      },
    };
    const client = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
    client.onNotification(SCORE_NOTIFICATION, (params: unknown) => this.receiveScore(params));
    client.onDidChangeState(({ newState }) => {
      const running = newState === State.Running;
      void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, running);
      if (running) {
        this.setServerProblem(undefined);
      } else if (newState === State.Stopped && this.client === client) {
        this.setServerProblem('the server stopped');
      }
    });
    this.client = client;
    this.log.info(`Starting the server: ${JSON.stringify(command.command)}`);
    try {
      await client.start();
    } catch (error) {
      this.client = undefined;
      const reason = error instanceof Error ? error.message : String(error);
      this.log.error(`The server did not start: ${reason}`);
      this.setServerProblem(`it did not start (${reason})`);
      const hint = command.kind === 'configured'
        ? `Check "annoscore.server.command" (${JSON.stringify(command.command)}).`
        : 'Check that "annoscore lsp" runs in that environment.';
      void this.offerFixes(`annoscore: the server did not start: ${reason}. ${hint}`);
    }
  }

  private async doStop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    if (client !== undefined && client.isRunning()) {
      await client.stop(2000);
    }
  }

  private async resolveCommand(): Promise<ServerCommand> {
    if (!this.usesAutomaticCommand) {
      return findServerCommand(this.settings.server.command, [], () => false);
    }
    const os = currentOs();
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const interpreter = await selectedInterpreter(resource, os, this.log);
    const candidates = serverCandidates({
      interpreterPath: interpreter?.path,
      interpreterOrigin: interpreter?.origin,
      pathEnv: process.env.PATH,
      os,
    });
    const command = findServerCommand([], candidates, (p) => isExecutableFile(p, os));
    if (command.kind === 'found') {
      this.log.info(`Found the server at ${command.candidate.path} (${command.candidate.origin}).`);
    } else if (command.kind === 'notFound') {
      this.log.error(['The annoscore server was not found. Tried:', ...describeTried(command.tried)].join('\n'));
      void this.offerFixes(notFoundMessage(interpreter?.path));
    }
    return command;
  }

  private async offerFixes(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(message, OPEN_SETTING, RETRY, SHOW_LOG);
    if (choice === OPEN_SETTING) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'annoscore.server.command');
    } else if (choice === RETRY) {
      await this.restart();
    } else if (choice === SHOW_LOG) {
      this.log.show();
    }
  }

  private setServerProblem(problem: string | undefined): void {
    this.statusBar.setServerProblem(problem);
    if (problem !== undefined) {
      void vscode.commands.executeCommand('setContext', RUNNING_CONTEXT_KEY, false);
    }
  }

  private receiveScore(params: unknown): void {
    if (!isScorePayload(params)) {
      const problems = scorePayloadProblems(params).join('; ');
      if (!this.loggedPayloadProblems.has(problems)) {
        this.loggedPayloadProblems.add(problems);
        this.log.error(`Ignored an ${SCORE_NOTIFICATION} notification that breaks the contract: ${problems}`);
      }
      return;
    }
    this.onScore(params);
  }

  /** The settings the server reads changed: tell it to pull them again. */
  notifyConfigurationChanged(): void {
    if (this.client !== undefined && this.isRunning()) {
      void this.client.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
    }
  }

  /** The score of a document the status bar has none for yet (opened before the last notification). */
  async requestScore(uri: string): Promise<ScorePayload | undefined> {
    if (this.client === undefined || !this.isRunning()) {
      return undefined;
    }
    try {
      const result: unknown = await this.client.sendRequest(SCORE_REQUEST, { uri });
      return isScorePayload(result) ? result : undefined;
    } catch (error) {
      this.log.warn(`${SCORE_REQUEST} request failed: ${String(error)}`);
      return undefined;
    }
  }

  async requestReport(uri: string): Promise<string | undefined> {
    if (this.client === undefined || !this.isRunning()) {
      return undefined;
    }
    try {
      const result: unknown = await this.client.sendRequest(REPORT_REQUEST, { uri });
      if (result === null) {
        return undefined;
      }
      if (!isReportResult(result)) {
        this.log.error(`${REPORT_REQUEST} returned something that is not {uri, text}: ${JSON.stringify(result)}`);
        return undefined;
      }
      return result.text;
    } catch (error) {
      this.log.error(`${REPORT_REQUEST} request failed: ${String(error)}`);
      return undefined;
    }
  }

  /**
   * The sentence at a position (`annoscore/tree`), checked; undefined when
   * the server cannot answer (not running, or an error, logged once per kind).
   */
  async requestTree(uri: string, position: { line: number; character: number }): Promise<TreeCheck | undefined> {
    if (this.client === undefined || !this.isRunning()) {
      return undefined;
    }
    try {
      const check = checkTreePayload(await this.client.sendRequest(TREE_REQUEST, { uri, position }));
      if (check.problems.length > 0) {
        this.logOnce(`${TREE_REQUEST} answered something that breaks the contract: ${check.problems.slice(0, 5).join('; ')}`);
      }
      return check;
    } catch (error) {
      this.logOnce(`${TREE_REQUEST} request failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** The next place of a kind (`annoscore/next`); undefined when the server cannot answer. */
  async requestNext(params: NextParams): Promise<NextResult | undefined> {
    if (this.client === undefined || !this.isRunning()) {
      return undefined;
    }
    try {
      const answer: unknown = await this.client.sendRequest(NEXT_REQUEST, params);
      const result = parseNextResult(answer);
      if (result === undefined) {
        this.logOnce(`${NEXT_REQUEST} answered something that breaks the contract: ${JSON.stringify(answer).slice(0, 200)}`);
      }
      return result;
    } catch (error) {
      this.logOnce(`${NEXT_REQUEST} request failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /**
   * Asks the server's `annoscore.edit` (workspace/executeCommand) for the
   * edit of one operation: the raw answer for parseEditAnswer, or an Error
   * whose message says why there is none (not running, refused arguments).
   */
  async requestEdit(args: EditArguments): Promise<unknown> {
    if (this.client === undefined || !this.isRunning()) {
      return new Error('the annoscore server is not running');
    }
    try {
      return await this.client.sendRequest(ExecuteCommandRequest.type, { command: EDIT_COMMAND, arguments: [args] });
    } catch (error) {
      this.log.warn(`${EDIT_COMMAND} failed: ${error instanceof Error ? error.message : String(error)}`);
      return new Error(error instanceof Error ? error.message : String(error));
    }
  }

  private logOnce(problem: string): void {
    if (!this.loggedPayloadProblems.has(problem)) {
      this.loggedPayloadProblems.add(problem);
      this.log.error(problem);
    }
  }

  dispose(): void {
    void this.stop();
  }
}
