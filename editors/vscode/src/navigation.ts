// Next/previous low-confidence cell: pure position arithmetic over the ranges
// of the active editor's diagnostics, unit-tested without VS Code. The
// extension passes vscode Ranges, which have this shape.

import { DIAGNOSTIC_SOURCE, LOW_CONFIDENCE_CODE, NextKind } from './protocol';

export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export type Direction = 'next' | 'previous';

/** The commands: [name, kind, direction]. package.json contributes the same names. */
export const NAVIGATION_COMMANDS: ReadonlyArray<readonly [string, NextKind, Direction]> = [
  ['annoscore.nextLowConfidence', 'low-confidence', 'next'],
  ['annoscore.previousLowConfidence', 'low-confidence', 'previous'],
  ['annoscore.nextRefused', 'refused', 'next'],
  ['annoscore.previousRefused', 'refused', 'previous'],
  ['annoscore.nextGoldDifference', 'gold-diff', 'next'],
  ['annoscore.previousGoldDifference', 'gold-diff', 'previous'],
  ['annoscore.nextUnparsed', 'unparsed', 'next'],
  ['annoscore.previousUnparsed', 'unparsed', 'previous'],
  ['annoscore.nextSegmentationMismatch', 'segmentation-mismatch', 'next'],
  ['annoscore.previousSegmentationMismatch', 'segmentation-mismatch', 'previous'],
  ['annoscore.nextValidationProblem', 'validation', 'next'],
  ['annoscore.previousValidationProblem', 'validation', 'previous'],
  ['annoscore.nextError', 'error', 'next'],
  ['annoscore.previousError', 'error', 'previous'],
  ['annoscore.nextDisagreement', 'disagreement', 'next'],
  ['annoscore.previousDisagreement', 'disagreement', 'previous'],
];


export function comparePositions(a: Position, b: Position): number {
  return a.line !== b.line ? a.line - b.line : a.character - b.character;
}

/**
 * The range to jump to from `from` (the start of the selection): for "next"
 * the first range starting after it, for "previous" the last range starting
 * before it, wrapping around the file. Ranges may come in any order; ranges
 * starting at the same place count once, so the cursor never gets stuck.
 */
export function findTarget<R extends Range>(ranges: readonly R[], from: Position, direction: Direction): R | undefined {
  if (ranges.length === 0) {
    return undefined;
  }
  const sorted = [...ranges].sort((a, b) => comparePositions(a.start, b.start));
  if (direction === 'next') {
    return sorted.find((r) => comparePositions(r.start, from) > 0) ?? sorted[0];
  }
  for (let i = sorted.length - 1; i >= 0; i--) {
    const range = sorted[i]!;
    if (comparePositions(range.start, from) < 0) {
      return range;
    }
  }
  return sorted[sorted.length - 1];
}

/** A diagnostic's code as a string; VS Code gives `string | number | {value, target}`. */
export function diagnosticCode(code: string | number | { value: string | number } | undefined): string | undefined {
  if (code === undefined) {
    return undefined;
  }
  return typeof code === 'object' ? String(code.value) : String(code);
}

export interface DiagnosticLike {
  source?: string;
  code?: string | number | { value: string | number };
}

export function isLowConfidence(diagnostic: DiagnosticLike): boolean {
  return diagnostic.source === DIAGNOSTIC_SOURCE && diagnosticCode(diagnostic.code) === LOW_CONFIDENCE_CODE;
}
