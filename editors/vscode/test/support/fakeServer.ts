// A stand-in for `annoscore lsp` that speaks the contract, for the
// end-to-end test of the extension bundle. It is spawned with node by the
// extension's own client (as `annoscore.server.command`).

import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { ScorePayload } from '../../src/protocol';

const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
let rescored = 0;

function payloadFor(uri: string): ScorePayload {
  return {
    uri,
    format: 'conllu',
    gold: uri.replace(/\.conllu$/, '.gold.conllu'),
    metrics: {
      UAS: { precision: 0.9, recall: 0.9, f1: 0.9012 },
      LAS: { precision: 0.87, recall: 0.88, f1: 0.8735 },
    },
    counts: { sentences: 6, unparsed: 1, refused: rescored, lowConfidence: 2 },
  };
}

function lowConfidence(line: number, start: number, end: number): object {
  return {
    range: { start: { line, character: start }, end: { line, character: end } },
    severity: 3,
    source: 'annoscore',
    code: 'low-confidence',
    message: 'HEAD confidence 0.41 is below 0.8',
  };
}

connection.onRequest('initialize', () => ({
  capabilities: {
    textDocumentSync: 1,
    executeCommandProvider: { commands: ['annoscore.rescore'] },
  },
  serverInfo: { name: 'fake annoscore' },
}));

connection.onNotification('textDocument/didOpen', (params: { textDocument: { uri: string } }) => {
  const { uri } = params.textDocument;
  void connection.sendNotification('textDocument/publishDiagnostics', {
    uri,
    diagnostics: [lowConfidence(7, 30, 31), lowConfidence(2, 10, 15), { ...lowConfidence(4, 0, 1), code: 'cycle' }],
  });
  void connection.sendNotification('annoscore/score', payloadFor(uri));
  // A payload that breaks the contract: the extension must ignore it.
  void connection.sendNotification('annoscore/score', { uri, format: 'conllu', metrics: { LAS: { f1: 87 } } });
});

connection.onRequest('workspace/executeCommand', (params: { command: string; arguments?: unknown[] }) => {
  rescored += 1;
  const [uri] = params.arguments ?? [];
  if (typeof uri === 'string') {
    void connection.sendNotification('annoscore/score', payloadFor(uri));
  }
  return { command: params.command, arguments: params.arguments ?? [] };
});

connection.onRequest('annoscore/score', (params: { uri: string }) => payloadFor(params.uri));
connection.onRequest('annoscore/report', (params: { uri: string }) => ({ uri: params.uri, text: `REPORT for ${params.uri}\nLAS 87.35\n` }));
connection.onRequest('shutdown', () => null);
connection.onNotification('exit', () => process.exit(0));
connection.listen();
