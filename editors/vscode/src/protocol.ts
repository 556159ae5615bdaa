// The wire contract with the annoscore language server (`annoscore lsp`):
// custom method names and payload shapes. Plain TypeScript, no vscode import,
// so the unit tests and the wire-contract tests (test/contract) share it.

export const SCORE_NOTIFICATION = 'annoscore/score';
export const SCORE_REQUEST = 'annoscore/score';
export const REPORT_REQUEST = 'annoscore/report';
export const RESCORE_COMMAND = 'annoscore.rescore';
/** The server's command: [document URI, the other annotation's URI or null]. */
export const COMPARE_WITH_COMMAND = 'annoscore.compareWith';
export const DIAGNOSTIC_SOURCE = 'annoscore';
export const LOW_CONFIDENCE_CODE = 'low-confidence';

export type ScoreFormat = 'conllu' | 'space' | 'tsv' | 'labels';
export const SCORE_FORMATS: readonly ScoreFormat[] = ['conllu', 'space', 'tsv', 'labels'];

export interface MetricValue {
  precision: number;
  recall: number;
  f1: number;
}

export interface ScoreCounts {
  sentences: number;
  unparsed: number;
  refused: number;
  lowConfidence: number;
}

/**
 * Annotation progress (CoNLL-U): sentences with a HEAD in every word
 * (`annotated`) of all (`sentences`), and those carrying the marker comment
 * (`marked`; null when the workspace sets no `progressMarker`).
 */
export interface AnnotationProgress {
  sentences: number;
  annotated: number;
  marker: string | null;
  marked: number | null;
}

export interface ScorePayload {
  uri: string;
  format: ScoreFormat;
  /** URI of the gold file, or null when the document has no gold partner. */
  gold: string | null;
  /** Empty when there is no gold. Proportions in [0, 1]. */
  metrics: Record<string, MetricValue>;
  counts: ScoreCounts;
  /**
   * The version of the document the score was computed from (null when it is
   * not open in the editor). Not read by the extension yet; the wire-contract
   * tests use it to tell a rescored payload from an older one.
   */
  version?: number | null;
  /**
   * True when the gold is a declared test split (`[splits]` in the project
   * file): the server sends no figures then, and `message` says how the test
   * split is scored instead (issue 16).
   */
  testSplit?: boolean;
  /** One line the status bar shows instead of figures (with `testSplit`). */
  message?: string;
  /** CoNLL-U only; absent from servers older than issue 17. */
  progress?: AnnotationProgress;
  /** CoNLL-U compared with other annotations of the same text (issue 30): one entry each. */
  agreement?: AgreementEntry[];
}

/** One variable's live agreement: proportions, kappa and alpha null where undefined. */
export interface AgreementFigures {
  items: number;
  observed: number | null;
  kappa: number | null;
  alpha: number | null;
}

/** The live agreement with one other annotation (`agreement` in the score payload). */
export interface AgreementEntry {
  uri: string;
  /** How messages name it: its path in the workspace. */
  name: string;
  /** False when the file cannot be read (then nothing else is sent). */
  available: boolean;
  disagreements?: number;
  variables?: Record<string, AgreementFigures>;
  /** Words, UAS, LAS, CLAS: the F1 of one scored against the other. */
  attachment?: Record<string, number>;
}

export interface ScoreParams {
  uri: string;
}

export interface ReportParams {
  uri: string;
}

export interface ReportResult {
  uri: string;
  text: string;
}

/** Metric names in the order the server's report prints them, per format. */
export const METRIC_ORDER: Readonly<Record<ScoreFormat, readonly string[]>> = {
  conllu: [
    'Tokens', 'Sentences', 'Words', 'UPOS', 'XPOS', 'UFeats', 'AllTags', 'Lemmas',
    'UAS', 'LAS', 'CLAS', 'MLAS', 'BLEX', 'ELAS', 'EULAS',
  ],
  space: ['Word', 'Boundary', 'TaggedWord'],
  tsv: ['Word', 'Boundary', 'TaggedWord'],
  labels: ['Accuracy', 'MacroRecall', 'MacroF1'],
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isProportion(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/**
 * Checks an incoming `annoscore/score` payload. The status bar trusts what
 * this returns, so a server bug shows up as one logged line instead of
 * "NaN" in the status bar. Returns the problems found (empty when valid).
 */
export function scorePayloadProblems(value: unknown): string[] {
  if (!isRecord(value)) {
    return ['payload is not an object'];
  }
  const problems: string[] = [];
  if (typeof value.uri !== 'string' || value.uri === '') {
    problems.push('uri is not a non-empty string');
  }
  if (!SCORE_FORMATS.includes(value.format as ScoreFormat)) {
    problems.push(`format ${JSON.stringify(value.format)} is not one of ${SCORE_FORMATS.join(', ')}`);
  }
  if (value.gold !== null && typeof value.gold !== 'string') {
    problems.push('gold is neither a string nor null');
  }
  if (!isRecord(value.metrics)) {
    problems.push('metrics is not an object');
  } else {
    for (const [name, metric] of Object.entries(value.metrics)) {
      if (!isRecord(metric)) {
        problems.push(`metrics.${name} is not an object`);
        continue;
      }
      for (const field of ['precision', 'recall', 'f1'] as const) {
        if (!isProportion(metric[field])) {
          problems.push(`metrics.${name}.${field} is not a number in [0, 1]`);
        }
      }
    }
  }
  if (!isRecord(value.counts)) {
    problems.push('counts is not an object');
  } else {
    for (const field of ['sentences', 'unparsed', 'refused', 'lowConfidence'] as const) {
      if (!isCount(value.counts[field])) {
        problems.push(`counts.${field} is not a non-negative integer`);
      }
    }
  }
  if (value.testSplit !== undefined && typeof value.testSplit !== 'boolean') {
    problems.push('testSplit is not a boolean');
  }
  if (value.message !== undefined && value.message !== null && typeof value.message !== 'string') {
    problems.push('message is not a string');
  }
  if (value.testSplit === true && (typeof value.message !== 'string' || value.message.trim() === '')) {
    problems.push('testSplit without a message to show');
  }
  if (value.agreement !== undefined && (!Array.isArray(value.agreement) ||
      !value.agreement.every((entry) => isRecord(entry) && typeof entry.name === 'string' && typeof entry.available === 'boolean'))) {
    problems.push('agreement is not a list of {name, available, …}');
  }
  if (value.progress !== undefined && value.progress !== null) {
    problems.push(...progressProblems(value.progress));
  }
  return problems;
}

function progressProblems(progress: unknown): string[] {
  if (!isRecord(progress)) {
    return ['progress is not an object'];
  }
  const problems: string[] = [];
  for (const field of ['sentences', 'annotated'] as const) {
    if (!isCount(progress[field])) {
      problems.push(`progress.${field} is not a non-negative integer`);
    }
  }
  if (progress.marked !== null && !isCount(progress.marked)) {
    problems.push('progress.marked is neither a non-negative integer nor null');
  }
  if (progress.marker !== null && progress.marker !== undefined && typeof progress.marker !== 'string') {
    problems.push('progress.marker is neither a string nor null');
  }
  const sentences = progress.sentences as number;
  if (isCount(progress.annotated) && isCount(sentences) && progress.annotated > sentences) {
    problems.push('progress.annotated is more than progress.sentences');
  }
  if (isCount(progress.marked) && isCount(sentences) && progress.marked > sentences) {
    problems.push('progress.marked is more than progress.sentences');
  }
  return problems;
}

export function isScorePayload(value: unknown): value is ScorePayload {
  return scorePayloadProblems(value).length === 0;
}

export function isReportResult(value: unknown): value is ReportResult {
  return isRecord(value) && typeof value.uri === 'string' && typeof value.text === 'string';
}

// --- annoscore/next: the next place of a kind, from the engine's own results ---

export const NEXT_REQUEST = 'annoscore/next';

/** The kinds the editor's navigation commands ask for (the server knows a few more). */
export type NextKind =
  'low-confidence' | 'refused' | 'unparsed' | 'gold-diff' | 'segmentation-mismatch' | 'validation' | 'error' | 'disagreement';

export interface NextParams {
  uri: string;
  position: { line: number; character: number };
  kind: NextKind;
  direction: 'next' | 'previous';
}

export interface PlainRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/** Found: where to go. Not found: the server's sentence saying there is none further (it never wraps). */
export type NextResult =
  | { found: true; range: PlainRange; message: string | null }
  | { found: false; message: string };

function isPosition(value: unknown): value is { line: number; character: number } {
  return isRecord(value) && isCount(value.line) && isCount(value.character);
}

/** The answer as the commands use it, or undefined when it breaks the contract. */
export function parseNextResult(value: unknown): NextResult | undefined {
  if (!isRecord(value) || typeof value.found !== 'boolean') {
    return undefined;
  }
  const message = typeof value.message === 'string' ? value.message : null;
  if (!value.found) {
    return { found: false, message: message ?? 'no further one' };
  }
  const range = value.range;
  if (!isRecord(range) || !isPosition(range.start) || !isPosition(range.end)) {
    return undefined;
  }
  return { found: true, range: { start: range.start, end: range.end }, message };
}
