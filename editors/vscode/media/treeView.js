// @ts-check
// The tree view's page script (runs in the webview, sandboxed by the page's
// Content-Security-Policy; see src/treePage.ts for the messages).
// It only shows what the extension sends and reports what the user does:
// - "tree" replaces the SVG in one step (no blank frame between two trees)
//   and counts one render in <body data-renders>; "empty" shows a message;
// - "cursor" marks the word on the cursor's line (no render) and scrolls it
//   into view when it is outside;
// - hovering a word (or an arc) sends its line, clicking sends "reveal";
// - the buttons ask the extension to copy or save the SVG.
(function () {
  // eslint-disable-next-line no-undef
  const vscode = acquireVsCodeApi();
  const tree = /** @type {HTMLElement} */ (document.getElementById('tree'));
  const summary = /** @type {HTMLElement} */ (document.getElementById('summary'));
  const message = /** @type {HTMLElement} */ (document.getElementById('message'));
  const copy = /** @type {HTMLButtonElement} */ (document.getElementById('copy'));
  const save = /** @type {HTMLButtonElement} */ (document.getElementById('save'));
  let renders = 0;
  /** @type {number | null} */
  let hoveredLine = null;

  function countRender() {
    renders += 1;
    document.body.dataset.renders = String(renders);
  }

  /** @param {number | null} line */
  function markCursor(line) {
    for (const word of tree.querySelectorAll('.word.cursor')) word.classList.remove('cursor');
    if (line === null) return;
    const word = tree.querySelector(`.word[data-line="${line}"]`);
    if (word === null) return;
    word.classList.add('cursor');
    const box = word.getBoundingClientRect();
    const view = tree.getBoundingClientRect();
    if (box.left < view.left || box.right > view.right) {
      tree.scrollLeft += box.left - view.left - view.width / 2 + box.width / 2;
    }
  }

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (data.type === 'tree') {
      const scrolled = tree.scrollLeft;
      tree.innerHTML = data.svg;
      summary.textContent = data.summary;
      message.hidden = true;
      copy.disabled = false;
      save.disabled = false;
      hoveredLine = null;
      tree.scrollLeft = scrolled;
      countRender();
      markCursor(data.cursorLine);
    } else if (data.type === 'empty') {
      tree.innerHTML = '';
      summary.textContent = '';
      message.textContent = data.message;
      message.hidden = false;
      copy.disabled = true;
      save.disabled = true;
      countRender();
    } else if (data.type === 'cursor') {
      markCursor(data.line);
    }
  });

  /** @param {EventTarget | null} target */
  function lineOf(target) {
    const element = target instanceof Element ? target.closest('[data-line]') : null;
    return element === null ? null : Number(element.getAttribute('data-line'));
  }

  tree.addEventListener('mouseover', (event) => {
    const line = lineOf(event.target);
    if (line !== hoveredLine) {
      hoveredLine = line;
      vscode.postMessage({ type: 'hover', line });
    }
  });
  tree.addEventListener('mouseleave', () => {
    hoveredLine = null;
    vscode.postMessage({ type: 'hover', line: null });
  });
  tree.addEventListener('click', (event) => {
    const line = lineOf(event.target);
    if (line !== null) vscode.postMessage({ type: 'reveal', line });
  });
  copy.addEventListener('click', () => vscode.postMessage({ type: 'copy' }));
  save.addEventListener('click', () => vscode.postMessage({ type: 'save' }));
  vscode.postMessage({ type: 'ready' });
})();
