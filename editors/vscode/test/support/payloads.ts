// Score payloads as the server sends them, for the tests.

import { METRIC_ORDER, MetricValue, ScoreCounts, ScoreFormat, ScorePayload } from '../../src/protocol';

export function metric(precision: number, recall: number, f1: number): MetricValue {
  return { precision, recall, f1 };
}

export function single(value: number): MetricValue {
  return { precision: value, recall: value, f1: value };
}

export const NO_PROBLEMS: ScoreCounts = { sentences: 10, unparsed: 0, refused: 0, lowConfidence: 0 };

/** A payload with every metric of the format, each with distinct made-up values. */
export function fullPayload(format: ScoreFormat, overrides: Partial<ScorePayload> = {}): ScorePayload {
  const metrics: Record<string, MetricValue> = {};
  METRIC_ORDER[format].forEach((name, i) => {
    const base = 0.5 + i / 100;
    metrics[name] = format === 'labels' ? single(base) : metric(base, base + 0.001, base + 0.002);
  });
  return {
    uri: 'file:///work/pred.conllu',
    format,
    gold: 'file:///work/pred.gold.conllu',
    metrics,
    counts: { ...NO_PROBLEMS },
    ...overrides,
  };
}
