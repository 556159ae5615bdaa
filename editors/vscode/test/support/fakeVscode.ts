// Just enough of the `vscode` API to activate the extension bundle under
// node — with the real vscode-languageclient inside it — and to watch what
// it does: the status bar item, messages, registered commands, diagnostics,
// the selection. Anything not modelled here is a no-op that returns a
// disposable, so the language client's unused features register harmlessly.

/* eslint-disable @typescript-eslint/no-explicit-any */

type Listener<T> = (value: T) => unknown;

export class EventEmitter<T> {
  private listeners: Array<Listener<T>> = [];
  event = (listener: Listener<T>): Disposable => {
    this.listeners.push(listener);
    return new Disposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };
  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Disposable {
  constructor(private readonly onDispose: () => void = () => undefined) {}
  static from(...items: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => items.forEach((i) => i.dispose()));
  }
  dispose(): void {
    this.onDispose();
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static parse(value: string): Uri {
    const match = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (match === null) throw new Error(`bad uri ${value}`);
    return new Uri(match[1]!, match[2] ?? '', decodeURIComponent(match[3] ?? ''), decodeURIComponent(match[4] ?? ''), match[5] ?? '');
  }
  static file(fsPath: string): Uri {
    return new Uri('file', '', fsPath, '', '');
  }
  static from(parts: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(parts.scheme, parts.authority ?? '', parts.path ?? '', parts.query ?? '', parts.fragment ?? '');
  }
  get fsPath(): string {
    return this.path;
  }
  with(change: Partial<{ scheme: string; path: string; query: string }>): Uri {
    return new Uri(change.scheme ?? this.scheme, this.authority, change.path ?? this.path, change.query ?? this.query, this.fragment);
  }
  toString(): string {
    const path = this.path.split('/').map(encodeURIComponent).join('/');
    const authority = this.scheme === 'file' || this.authority !== '' ? `//${this.authority}` : '';
    return `${this.scheme}:${authority}${path}${this.query ? `?${encodeURIComponent(this.query)}` : ''}`;
  }
  toJSON(): unknown {
    return { scheme: this.scheme, path: this.path, query: this.query };
  }
}

export class Position {
  constructor(readonly line: number, readonly character: number) {}
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b as number) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : (b as Position);
  }
}

export class Selection extends Range {
  constructor(readonly anchor: Position, readonly active: Position) {
    super(anchor, active);
  }
}

export class Diagnostic {
  source?: string;
  code?: string | number | { value: string | number; target: Uri };
  constructor(readonly range: Range, readonly message: string, readonly severity: number = 0) {}
}

export class MarkdownString {
  constructor(public value = '') {}
}

export class ThemeColor {
  constructor(readonly id: string) {}
}

export class RelativePattern {
  constructor(readonly base: Uri, readonly pattern: string) {}
}

export class CancellationError extends Error {}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

/** A no-op that is callable, constructible and has any property (each a no-op too). */
function noop(): any {
  const target = function noopFunction(): void {};
  return new Proxy(target, {
    get: (_t, prop) => {
      if (prop === 'then' || prop === Symbol.iterator || prop === Symbol.toPrimitive) return undefined;
      if (prop === 'dispose') return () => undefined;
      return noop();
    },
    apply: () => new Disposable(),
    construct: () => noop(),
  });
}

/** Objects whose unknown members are no-ops. */
function withFallback<T extends object>(known: T): T {
  return new Proxy(known, {
    get: (target, prop, receiver) => (prop in target ? Reflect.get(target, prop, receiver) : noop()),
  });
}

export interface FakeDocument {
  uri: Uri;
  languageId: string;
  version: number;
  getText(): string;
  fileName: string;
  isUntitled: boolean;
  isClosed: boolean;
  lineCount: number;
  eol: number;
}

export function fakeDocument(uri: string, languageId: string, text: string): FakeDocument {
  const parsed = Uri.parse(uri);
  return {
    uri: parsed, languageId, version: 1, getText: () => text, fileName: parsed.fsPath,
    isUntitled: false, isClosed: false, lineCount: text.split('\n').length, eol: 1,
  };
}

export interface FakeEditor {
  document: FakeDocument;
  selection: Selection;
  revealRange(range: Range): void;
}

export interface StatusItemRecord {
  text: string;
  tooltip: MarkdownString | string | undefined;
  command: string | undefined;
  visible: boolean;
}

/** The fake API plus handles for the test to drive and observe it. */
export function createFakeVscode(options: { settings: Record<string, unknown>; documents: FakeDocument[] }) {
  const diagnostics = new Map<string, Diagnostic[]>();
  const commandHandlers = new Map<string, (...args: any[]) => any>();
  const messages: string[] = [];
  const logLines: string[] = [];
  const statusItems: StatusItemRecord[] = [];
  const contexts = new Map<string, unknown>();
  const activeEditorChanged = new EventEmitter<FakeEditor | undefined>();
  const openedDocuments: FakeDocument[] = [];
  const providers = new Map<string, { provideTextDocumentContent(uri: Uri): Promise<string> | string }>();
  let activeTextEditor: FakeEditor | undefined;

  const logChannel = (): any => {
    const record = (level: string) => (message: string) => void logLines.push(`${level} ${message}`);
    return withFallback({
      name: 'annoscore', logLevel: 2, onDidChangeLogLevel: new EventEmitter<number>().event,
      trace: record('trace'), debug: record('debug'), info: record('info'), warn: record('warn'), error: record('error'),
      append: record('append'), appendLine: record('line'), replace: record('replace'),
      show: () => undefined, hide: () => undefined, clear: () => undefined, dispose: () => undefined,
    });
  };

  function matchScore(selector: any, document: FakeDocument): number {
    const filters = Array.isArray(selector) ? selector : [selector];
    return filters.some((f: any) => (typeof f === 'string' ? f === document.languageId : f.language === document.languageId)) ? 10 : 0;
  }

  const vscode = withFallback({
    version: '1.91.0',
    env: withFallback({ appName: 'fake vscode', language: 'en', machineId: 'test', sessionId: 'test', uriScheme: 'vscode' }),
    EventEmitter, Disposable, Uri, Position, Range, Selection, Diagnostic, MarkdownString, ThemeColor,
    RelativePattern, CancellationError, CancellationTokenSource,
    DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    TextEditorRevealType: { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 },
    LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    workspace: withFallback({
      workspaceFolders: undefined,
      isTrusted: true,
      textDocuments: options.documents,
      notebookDocuments: [],
      getConfiguration: (section?: string) => ({
        get: (key: string, fallback?: unknown) => {
          const id = section ? `${section}.${key}` : key;
          return id in options.settings ? options.settings[id] : fallback;
        },
        has: () => false,
        inspect: () => undefined,
        update: async () => undefined,
      }),
      getWorkspaceFolder: () => undefined,
      registerTextDocumentContentProvider: (scheme: string, provider: any) => {
        providers.set(scheme, provider);
        return new Disposable();
      },
      openTextDocument: async (uri: Uri) => {
        const provider = providers.get(uri.scheme);
        const text = provider ? await provider.provideTextDocumentContent(uri) : '';
        const document = fakeDocument(uri.toString(), 'plaintext', text);
        openedDocuments.push(document);
        return document;
      },
    }),
    window: withFallback({
      get activeTextEditor() {
        return activeTextEditor;
      },
      visibleTextEditors: [],
      tabGroups: withFallback({ all: [], onDidChangeTabs: new EventEmitter<unknown>().event }),
      onDidChangeActiveTextEditor: activeEditorChanged.event,
      createOutputChannel: () => logChannel(),
      createStatusBarItem: () => {
        const record: StatusItemRecord = { text: '', tooltip: undefined, command: undefined, visible: false };
        statusItems.push(record);
        return withFallback({
          set text(value: string) { record.text = value; },
          get text() { return record.text; },
          set tooltip(value: MarkdownString | string | undefined) { record.tooltip = value; },
          set command(value: string | undefined) { record.command = value; },
          show: () => { record.visible = true; },
          hide: () => { record.visible = false; },
          dispose: () => undefined,
        });
      },
      showErrorMessage: async (message: string) => { messages.push(`error: ${message}`); return undefined; },
      showWarningMessage: async (message: string) => { messages.push(`warning: ${message}`); return undefined; },
      showInformationMessage: async (message: string) => { messages.push(`info: ${message}`); return undefined; },
      setStatusBarMessage: (message: string) => { messages.push(`status: ${message}`); return new Disposable(); },
      showTextDocument: async (document: FakeDocument) => document,
    }),
    languages: withFallback({
      match: matchScore,
      getDiagnostics: (uri: Uri) => diagnostics.get(uri.toString()) ?? [],
      createDiagnosticCollection: () => withFallback({
        set: (uri: Uri, list: Diagnostic[] | undefined) => void diagnostics.set(uri.toString(), list ?? []),
        delete: (uri: Uri) => void diagnostics.delete(uri.toString()),
        clear: () => diagnostics.clear(),
        dispose: () => undefined,
      }),
    }),
    commands: withFallback({
      registerCommand: (id: string, handler: (...args: any[]) => any) => {
        if (commandHandlers.has(id)) throw new Error(`command '${id}' already exists`);
        commandHandlers.set(id, handler);
        return new Disposable(() => commandHandlers.delete(id));
      },
      executeCommand: async (id: string, ...args: any[]) => {
        if (id === 'setContext') {
          contexts.set(args[0], args[1]);
          return undefined;
        }
        const handler = commandHandlers.get(id);
        if (!handler) throw new Error(`command '${id}' not found`);
        return handler(...args);
      },
    }),
    extensions: withFallback({ getExtension: () => undefined, all: [] }),
  });

  return {
    vscode,
    diagnostics,
    commandHandlers,
    messages,
    logLines,
    statusItems,
    contexts,
    openedDocuments,
    setActiveEditor(document: FakeDocument | undefined): FakeEditor | undefined {
      activeTextEditor = document === undefined ? undefined : {
        document,
        selection: new Selection(new Position(0, 0), new Position(0, 0)),
        revealRange: () => undefined,
      };
      activeEditorChanged.fire(activeTextEditor);
      return activeTextEditor;
    },
  };
}
