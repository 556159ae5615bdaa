// What the status bar item shows (text and Markdown tooltip) for each state
// of the active document. No vscode import: the extension copies these
// strings onto a StatusBarItem, and the unit tests read them directly.

import { Figure, formatPercent, isSingleValued, mainFigures, orderedMetrics } from './metrics';
import { ScorePayload } from './protocol';

export type StatusState =
  /** The active editor is not a document annoscore scores. */
  | { kind: 'hidden' }
  /** The server could not be started (or stopped); `reason` is one line. */
  | { kind: 'serverNotRunning'; reason: string }
  /** An annoscore document whose first score has not arrived (or the server has none). */
  | { kind: 'waiting'; uri: string }
  | { kind: 'scored'; payload: ScorePayload };

export interface StatusView {
  visible: boolean;
  text: string;
  /** Markdown source for the tooltip. */
  tooltip: string;
  /** True when the item should stand out (warning background). */
  warning: boolean;
}

const ICON = '$(graph)';

export function statusView(state: StatusState): StatusView {
  switch (state.kind) {
    case 'hidden':
      return { visible: false, text: '', tooltip: '', warning: false };
    case 'serverNotRunning':
      return {
        visible: true,
        text: '$(warning) annoscore: server not running',
        tooltip: `**annoscore** server is not running: ${escapeMarkdown(state.reason)}\n\n` +
          'See the *annoscore* output channel, then run **annoscore: Restart Server**.',
        warning: true,
      };
    case 'waiting':
      return {
        visible: true,
        text: `${ICON} not scored yet`,
        tooltip: `**annoscore** has not scored ${escapeMarkdown(uriBaseName(state.uri))} yet. ` +
          'Files are scored when opened and saved (or as you type, with `annoscore.run` set to `onType`); ' +
          'run **annoscore: Rescore File** to score it now.',
        warning: false,
      };
    case 'scored':
      return {
        visible: true,
        text: scoredStatusText(state.payload),
        tooltip: scoreTooltip(state.payload),
        warning: false,
      };
  }
}

/**
 * "$(graph) LAS 87.35 UAS 90.12 | 1 unparsed, 5 low-conf | 39/40 annotated".
 * Counts of zero are left out, and the annotation progress once complete, so
 * that a clean file has a short item; the tooltip has them all. Against a
 * declared test split the server sends no figures but a message, shown in
 * their place ("test split: run annoscore evaluate --final").
 */
export function scoredStatusText(payload: ScorePayload): string {
  const figures = mainFigures(payload);
  const scorePart = payload.testSplit === true && payload.message !== undefined
    ? payload.message
    : payload.gold === null
      ? 'no gold'
      : figures.length > 0
        ? figures.map(formatFigure).join(' ')
        : 'no score';
  const groups = [problemCountParts(payload), progressParts(payload)].filter((parts) => parts.length > 0);
  const agreement = agreementText(payload);
  const first = agreement !== undefined && payload.gold === null && payload.testSplit !== true
    ? agreement
    : agreement !== undefined ? `${scorePart} | ${agreement}` : scorePart;
  return [`${ICON} ${first}`, ...groups.map((parts) => parts.join(', '))].join(' | ');
}

/**
 * The live agreement with the first other annotation: "agree bob/t.conllu LAS 88.65 κ UPOS 0.89 DEPREL 0.91"
 * (and "(+1)" for each further one); undefined when the document is compared with none.
 */
export function agreementText(payload: ScorePayload): string | undefined {
  const entries = payload.agreement;
  const first = entries?.[0];
  if (entries === undefined || first === undefined) return undefined;
  if (!first.available) return `agree: ${first.name} not found`;
  const parts = [`agree ${first.name}`];
  const las = first.attachment?.LAS;
  if (typeof las === 'number') parts.push(`LAS ${formatPercent(las)}`);
  const kappas = ['UPOS', 'DEPREL'].flatMap((name) => {
    const kappa = first.variables?.[name]?.kappa;
    return typeof kappa === 'number' ? [`${name} ${kappa.toFixed(2)}`] : [];
  });
  if (kappas.length > 0) parts.push(`κ ${kappas.join(' ')}`);
  if (entries.length > 1) parts.push(`(+${entries.length - 1})`);
  return parts.join(' ');
}

/** The tooltip's table of the agreement with each other annotation. */
function agreementLines(payload: ScorePayload): string[] {
  const entries = payload.agreement;
  if (entries === undefined || entries.length === 0) return [];
  const lines: string[] = [];
  const coefficient = (value: number | null | undefined) => (typeof value === 'number' ? value.toFixed(4) : 'n/a');
  for (const entry of entries) {
    if (!entry.available) {
      lines.push(`Agreement with ${escapeMarkdown(entry.name)}: the file cannot be read.`, '');
      continue;
    }
    lines.push(`**Agreement with ${escapeMarkdown(entry.name)}** · ${entry.disagreements ?? 0} cells differ`, '',
      '| Variable | Items | Observed | Cohen\'s κ | Krippendorff\'s α |', '|:--|--:|--:|--:|--:|');
    for (const [name, v] of Object.entries(entry.variables ?? {})) {
      lines.push(`| ${escapeMarkdown(name)} | ${v.items} | ${typeof v.observed === 'number' ? formatPercent(v.observed) : 'n/a'} | ` +
        `${coefficient(v.kappa)} | ${coefficient(v.alpha)} |`);
    }
    const attachment = entry.attachment ?? {};
    lines.push('', `Attachment (CoNLL 2018 F1, one against the other): ` +
      Object.entries(attachment).map(([name, f1]) => `${name} ${formatPercent(f1)}`).join(' · '), '');
  }
  return lines;
}

/** "39/40 annotated" while some sentence lacks a HEAD; "12/40 marked" once some carry the marker comment. */
function progressParts(payload: ScorePayload): string[] {
  const progress = payload.progress;
  if (progress === undefined || progress === null || progress.sentences === 0) return [];
  const parts: string[] = [];
  if (progress.annotated < progress.sentences) parts.push(`${progress.annotated}/${progress.sentences} annotated`);
  if (progress.marked !== null && progress.marked > 0) parts.push(`${progress.marked}/${progress.sentences} marked`);
  return parts;
}

function formatFigure(figure: Figure): string {
  return `${figure.name} ${formatPercent(figure.value)}`;
}

function problemCountParts(payload: ScorePayload): string[] {
  const { unparsed, refused, lowConfidence } = payload.counts;
  const parts: string[] = [];
  if (unparsed > 0) parts.push(`${unparsed} unparsed`);
  if (refused > 0) parts.push(`${refused} refused`);
  if (lowConfidence > 0) parts.push(`${lowConfidence} low-conf`);
  return parts;
}

/** The tooltip: which files are compared, the full metric table, all counts. */
export function scoreTooltip(payload: ScorePayload): string {
  const name = escapeMarkdown(uriBaseName(payload.uri));
  const lines: string[] = [];
  if (payload.testSplit === true) {
    lines.push(`**annoscore** · ${name} · its gold is a declared test split`, '');
    lines.push('No live score against a test split, nor diagnostics against its gold (the gold-free ones stay): ' +
      `\`${(payload.message ?? '').replace(/`/g, '')}\``, '');
  } else if (payload.gold === null) {
    lines.push(`**annoscore** · ${name} · no gold`, '');
    lines.push(noGoldHint(payload.uri), '');
  } else {
    lines.push(`**annoscore** · ${name} against ${escapeMarkdown(uriBaseName(payload.gold))}`, '');
    lines.push(...metricTable(payload), '');
  }
  lines.push(...agreementLines(payload));
  const { sentences, unparsed, refused, lowConfidence } = payload.counts;
  lines.push(
    `Sentences: ${sentences} · unparsed: ${unparsed} · ` +
    `refused by the official scorer: ${refused} · low confidence: ${lowConfidence}`,
    '',
    ...progressLines(payload),
    'Click for the full report.',
  );
  return lines.join('\n');
}

function progressLines(payload: ScorePayload): string[] {
  const progress = payload.progress;
  if (progress === undefined || progress === null) return [];
  const share = (k: number) => progress.sentences > 0 ? ` (${formatPercent(k / progress.sentences)}%)` : '';
  const lines = [`Annotation progress: ${progress.annotated} of ${progress.sentences} sentences${share(progress.annotated)} ` +
    'with a HEAD in every word'];
  if (progress.marker !== null && progress.marked !== null) {
    lines[0] += ` · ${progress.marked}${share(progress.marked)} marked \`# ${progress.marker.replace(/`/g, '')}\``;
  }
  return [...lines, ''];
}

function metricTable(payload: ScorePayload): string[] {
  const metrics = orderedMetrics(payload);
  if (metrics.length === 0) {
    return ['No metrics for this file yet.'];
  }
  if (isSingleValued(payload.format)) {
    return [
      '| Metric | Value |',
      '|:--|--:|',
      ...metrics.map(([name, m]) => `| ${escapeMarkdown(name)} | ${formatPercent(m.f1)} |`),
    ];
  }
  return [
    '| Metric | Precision | Recall | F1 |',
    '|:--|--:|--:|--:|',
    ...metrics.map(([name, m]) =>
      `| ${escapeMarkdown(name)} | ${formatPercent(m.precision)} | ${formatPercent(m.recall)} | ${formatPercent(m.f1)} |`),
  ];
}

/** How pairing with gold works, named for this file so it can be followed as is. */
export function noGoldHint(uri: string): string {
  const base = uriBaseName(uri);
  const dot = base.lastIndexOf('.');
  const goldName = dot > 0 ? `${base.slice(0, dot)}.gold${base.slice(dot)}` : `${base}.gold`;
  return `No gold file is paired with it: put ${escapeMarkdown(goldName)} beside it, ` +
    'or pair it in annoscore.toml (`[[pair]]` with `files` and `gold`).';
}

/** The last path segment of a URI, percent-decoded ("a%20b.conllu" → "a b.conllu"). */
export function uriBaseName(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/^[A-Za-z][\w+.-]*:/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Escapes text so that Markdown shows it literally (file names with _ or |). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (c) => `\\${c}`);
}
