// The tree view's webview page and the messages between it and the
// extension. Pure (no vscode import): the unit tests check the page's
// Content-Security-Policy and the message checks.
//
// The page is a shell: a toolbar (copy / save the SVG), a summary line and a
// horizontally scrolling box that the script (media/treeView.js) fills with
// the SVG the extension sends. The policy allows nothing remote: no network,
// no images, fonts or frames; only the page's own stylesheet and that one
// script, by nonce. The theme's colours reach the SVG through the
// `--annoscore-*` variables mapped here from VS Code's `--vscode-*` ones.

import { TREE_CSS } from './treeSvg';

/** Extension → page. */
export type ToPage =
  /** A new tree: replaces what is shown (one render). */
  | { type: 'tree'; svg: string; summary: string; cursorLine: number | null }
  /** Nothing to draw, and why (also one render). */
  | { type: 'empty'; message: string }
  /** The cursor moved within the shown sentence: mark its word, no render. */
  | { type: 'cursor'; line: number | null };

/** Page → extension. */
export type FromPage =
  | { type: 'ready' }
  | { type: 'hover'; line: number | null }
  | { type: 'reveal'; line: number }
  | { type: 'copy' }
  | { type: 'save' };

function isLineOrNull(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isInteger(value) && value >= 0);
}

/** The page's message if it is one the extension understands, else undefined. */
export function parsePageMessage(value: unknown): FromPage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const message = value as Record<string, unknown>;
  switch (message.type) {
    case 'ready':
    case 'copy':
    case 'save':
      return { type: message.type };
    case 'hover':
      return isLineOrNull(message.line) ? { type: 'hover', line: message.line } : undefined;
    case 'reveal':
      return typeof message.line === 'number' && isLineOrNull(message.line) ? { type: 'reveal', line: message.line } : undefined;
    default:
      return undefined;
  }
}

const THEME_CSS = `
:root {
  --annoscore-font: var(--vscode-editor-font-family, monospace);
  --annoscore-foreground: var(--vscode-editor-foreground, #1f2328);
  --annoscore-background: var(--vscode-editor-background, #ffffff);
  --annoscore-arc: var(--vscode-editorLineNumber-activeForeground, var(--vscode-editor-foreground, #57606a));
  --annoscore-muted: var(--vscode-descriptionForeground, #656d76);
  --annoscore-wrong: var(--vscode-errorForeground, #cf222e);
  --annoscore-gold: var(--vscode-testing-iconPassed, #1a7f37);
  --annoscore-nonprojective: var(--vscode-charts-purple, #8250df);
  --annoscore-error: var(--vscode-editorError-foreground, #cf222e);
  --annoscore-warning: var(--vscode-editorWarning-foreground, #bf8700);
  --annoscore-information: var(--vscode-editorInfo-foreground, #0969da);
  --annoscore-hover: var(--vscode-editor-rangeHighlightBackground, rgba(9, 105, 218, 0.12));
  --annoscore-cursor: var(--vscode-focusBorder, #0969da);
}
body { margin: 0; padding: 0 12px 12px; background: var(--annoscore-background); color: var(--annoscore-foreground);
  font-family: var(--vscode-font-family, sans-serif); font-size: var(--vscode-font-size, 13px); }
.toolbar { position: sticky; top: 0; display: flex; gap: 8px; align-items: center; padding: 8px 0;
  background: var(--annoscore-background); z-index: 1; }
.toolbar button { font: inherit; color: var(--vscode-button-secondaryForeground, inherit);
  background: var(--vscode-button-secondaryBackground, #e7e7e7); border: 1px solid var(--vscode-button-border, transparent);
  border-radius: 2px; padding: 2px 10px; cursor: pointer; }
.toolbar button:hover { background: var(--vscode-button-secondaryHoverBackground, #dcdcdc); }
.toolbar button:disabled { opacity: 0.5; cursor: default; }
#summary { color: var(--annoscore-muted); }
#tree { overflow-x: auto; overflow-y: hidden; padding-bottom: 4px; }
#tree svg { display: block; }
#message { color: var(--annoscore-muted); padding: 16px 0; }
.legend { color: var(--annoscore-muted); font-size: 90%; margin-top: 6px; }
.legend .wrong { color: var(--annoscore-wrong); }
.legend .gold { color: var(--annoscore-gold); }
.legend .nonprojective { color: var(--annoscore-nonprojective); }
`;

export interface PageParts {
  /** A fresh random string per page: the only script and style allowed carry it. */
  nonce: string;
  /** The webview URI of media/treeView.js. */
  scriptUri: string;
}

export function contentSecurityPolicy(parts: PageParts): string {
  return [
    "default-src 'none'",
    `style-src 'nonce-${parts.nonce}'`,
    `script-src 'nonce-${parts.nonce}'`,
    "img-src 'none'",
    "font-src 'none'",
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function attribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function treePage(parts: PageParts): string {
  const nonce = attribute(parts.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attribute(contentSecurityPolicy(parts))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>annoscore tree</title>
<style nonce="${nonce}">${THEME_CSS}${TREE_CSS}</style>
</head>
<body data-renders="0">
<div class="toolbar">
<button id="copy" type="button" disabled title="Copy the tree as SVG to the clipboard">Copy SVG</button>
<button id="save" type="button" disabled title="Save the tree as an SVG file">Save SVG…</button>
<span id="summary"></span>
</div>
<div id="tree"></div>
<div id="message">Put the cursor in a CoNLL-U sentence.</div>
<div class="legend">Arcs run from the head down to the dependent. <span class="wrong">Red</span>: the HEAD (or the relation) differs from gold, whose arc is drawn <span class="gold">dashed below the words</span>; <span class="nonprojective">dashed purple</span> (red when wrong): non-projective. A dot on a word: a problem in its cells (hover for the codes). Click a word to go to its line.</div>
<script nonce="${nonce}" src="${attribute(parts.scriptUri)}"></script>
</body>
</html>`;
}
