// Which figures to show for a score payload, in which order, and how to
// print them. No vscode import: unit-tested under node.

import { METRIC_ORDER, MetricValue, ScoreFormat, ScorePayload } from './protocol';

export interface Figure {
  name: string;
  /** The F1 (for single-valued metrics: the value), a proportion in [0, 1]. */
  value: number;
}

/**
 * The figures an annotator watches while editing: attachment scores for a
 * treebank, word F1 for segmentation, accuracy for labels. LAS comes first
 * because it is the figure parsers are ranked by.
 */
export const MAIN_METRICS: Readonly<Record<ScoreFormat, readonly string[]>> = {
  conllu: ['LAS', 'UAS'],
  space: ['Word'],
  tsv: ['Word'],
  labels: ['Accuracy'],
};

/** Labels' metrics are single-valued: the server sends P = R = F1 = value. */
export function isSingleValued(format: ScoreFormat): boolean {
  return format === 'labels';
}

export function mainFigures(payload: ScorePayload): Figure[] {
  const figures: Figure[] = [];
  for (const name of MAIN_METRICS[payload.format]) {
    const metric = payload.metrics[name];
    if (metric !== undefined) {
      figures.push({ name, value: metric.f1 });
    }
  }
  return figures;
}

/**
 * All metrics of the payload: the known ones in the report's order, then any
 * others the server added (per-class entries, say) in the order it sent them.
 */
export function orderedMetrics(payload: ScorePayload): Array<[string, MetricValue]> {
  const known = METRIC_ORDER[payload.format];
  const present = Object.entries(payload.metrics);
  const inKnownOrder = known.flatMap((name): Array<[string, MetricValue]> => {
    const metric = payload.metrics[name];
    return metric === undefined ? [] : [[name, metric]];
  });
  const others = present.filter(([name]) => !known.includes(name));
  return [...inKnownOrder, ...others];
}

/** A proportion as a percentage with two decimals, as the official scorer prints it. */
export function formatPercent(proportion: number): string {
  return (proportion * 100).toFixed(2);
}
