// Small DOM helpers. Text from the server or from users (names, messages) is
// only ever inserted with textContent, never as HTML.

/** Creates an element: el('div', {class: 'x', dataset: {cell: 3}}, 'text', child). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'style' && typeof value === 'object') Object.assign(node.style, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'text') node.textContent = value;
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node) node.appendChild(child);
    else node.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces all children of `node`. */
export function setChildren(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

export const $ = (selector, root = document) => root.querySelector(selector);

/** Copies text to the clipboard; falls back to selecting an input's text. */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (input) {
      input.focus();
      input.select();
      try {
        return document.execCommand('copy');
      } catch {
        return false;
      }
    }
    return false;
  }
}

/** A "copy" field: a read-only input with the text and a button. */
export function copyField(label, text, {testid} = {}) {
  const input = el('input', {type: 'text', readonly: true, class: 'copy-input', 'data-testid': testid});
  input.value = text;
  input.addEventListener('focus', () => input.select());
  const button = el('button', {type: 'button', class: 'btn small'}, 'Copy');
  button.addEventListener('click', async () => {
    const ok = await copyText(input.value, input);
    button.textContent = ok ? 'Copied' : 'Select + Ctrl-C';
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
  return el('label', {class: 'copy-field'}, el('span', {class: 'copy-label'}, label), el('span', {class: 'copy-row'}, input, button));
}

/** "3 min ago" for a time in seconds since 1970. */
export function ago(seconds) {
  if (!seconds) return '';
  const d = Math.max(0, Date.now() / 1000 - seconds);
  if (d < 60) return 'just now';
  if (d < 3600) return `${Math.floor(d / 60)} min ago`;
  if (d < 86400) return `${Math.floor(d / 3600)} h ago`;
  return new Date(seconds * 1000).toLocaleDateString();
}

/** m:ss, or m:ss.t under ten seconds. */
export function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) {
    const tenths = Math.floor(ms / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
