// A reader's view of a ledger: GitHub-flavoured Markdown rendered with raw HTML passed
// through (micromark + GFM, with GitHub's tag filter), then parsed as a browser parses it
// (parse5, the WHATWG HTML parser). What a reader sees is the text outside comments,
// attribute values, <template> and the closed part of <details>; what a reader takes for a
// gate is a task item.
import { micromark } from 'micromark';
import { gfm, gfmHtml } from 'micromark-extension-gfm';
import { parse } from 'parse5';

interface Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  content?: Node;
  parentNode?: Node | null;
}

export interface RenderedTask {
  /** Visible text of the task item, whitespace collapsed. */
  text: string;
  /**
   * The same text as lines (soft line breaks and block boundaries kept, blanks trimmed, empty
   * lines dropped): where a reader could take a line's start for an attribute name.
   */
  lines: string[];
  checked: boolean;
  /** A top-level list item (not inside another list item, a quote or any other element). */
  topLevel: boolean;
  /** Inside a <details> element (collapsed unless opened). */
  collapsed: boolean;
}

export interface Rendered {
  html: string;
  /** All visible text, whitespace collapsed. */
  text: string;
  tasks: RenderedTask[];
}

export function renderHtml(markdown: string): string {
  return micromark(markdown, { allowDangerousHtml: true, extensions: [gfm()], htmlExtensions: [gfmHtml()] });
}

const HIDDEN_ELEMENTS = new Set(['template', 'script', 'style', 'head', 'title', 'textarea', 'noscript', 'iframe', 'noembed', 'noframes', 'xmp', 'select']);

function visibleText(node: Node, out: string[]): void {
  if (node.nodeName === '#text') {
    out.push(node.value ?? '');
    return;
  }
  if (node.nodeName === '#comment') return;
  if (node.tagName && HIDDEN_ELEMENTS.has(node.tagName)) return;
  if (node.attrs?.some((a) => a.name === 'hidden')) return;
  // A closed <details> shows its <summary> only.
  if (node.tagName === 'details' && !node.attrs?.some((a) => a.name === 'open')) {
    for (const c of node.childNodes ?? []) if (c.tagName === 'summary') visibleText(c, out);
    return;
  }
  if (node.tagName === 'br' || node.tagName === 'p' || node.tagName === 'li' || node.tagName === 'pre' || node.tagName === 'code') out.push(' ');
  for (const c of node.childNodes ?? []) visibleText(c, out);
  if (node.tagName === 'p' || node.tagName === 'li') out.push(' ');
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

// Elements that start a new line on the page.
const BLOCK_ELEMENTS = new Set(['p', 'li', 'br', 'pre', 'blockquote', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div', 'table', 'tr', 'hr', 'summary']);

/** Visible text with a line break wherever the page starts a new line. */
function visibleLines(node: Node, out: string[]): void {
  if (node.nodeName === '#text') {
    out.push(node.value ?? '');
    return;
  }
  if (node.nodeName === '#comment') return;
  if (node.tagName && HIDDEN_ELEMENTS.has(node.tagName)) return;
  if (node.attrs?.some((a) => a.name === 'hidden')) return;
  if (node.tagName === 'details' && !node.attrs?.some((a) => a.name === 'open')) {
    for (const c of node.childNodes ?? []) if (c.tagName === 'summary') visibleLines(c, out);
    return;
  }
  const block = node.tagName !== undefined && BLOCK_ELEMENTS.has(node.tagName);
  if (block) out.push('\n');
  for (const c of node.childNodes ?? []) visibleLines(c, out);
  if (block) out.push('\n');
}

export function render(markdown: string): Rendered {
  const html = renderHtml(markdown);
  const doc = parse(html) as unknown as Node;
  const tasks: RenderedTask[] = [];
  const walk = (node: Node, ancestors: Node[]) => {
    if (node.tagName === 'input' && node.attrs?.some((a) => a.name === 'type' && a.value === 'checkbox')) {
      const li = [...ancestors].reverse().find((a) => a.tagName === 'li');
      if (li) {
        const liIndex = ancestors.indexOf(li);
        const outer = ancestors.slice(0, liIndex);
        const out: string[] = [];
        visibleText(li, out);
        const byLine: string[] = [];
        visibleLines(li, byLine);
        tasks.push({
          text: collapse(out.join('')),
          lines: byLine.join('').split('\n').map((l) => l.replace(/[ \t]+/g, ' ').trim()).filter((l) => l !== ''),
          checked: node.attrs.some((a) => a.name === 'checked'),
          topLevel: outer.every((a) => ['#document', 'html', 'body', 'ul', 'ol'].includes(a.tagName ?? a.nodeName)) && outer.filter((a) => a.tagName === 'ul' || a.tagName === 'ol').length === 1,
          collapsed: ancestors.some((a) => a.tagName === 'details' && !a.attrs?.some((x) => x.name === 'open')),
        });
      }
    }
    if (node.nodeName === '#comment' || (node.tagName && HIDDEN_ELEMENTS.has(node.tagName)) || node.attrs?.some((a) => a.name === 'hidden')) {
      // A checkbox there is not seen; record nothing inside.
      return;
    }
    for (const c of node.childNodes ?? []) walk(c, [...ancestors, node]);
  };
  walk(doc, []);
  const out: string[] = [];
  visibleText(doc, out);
  return { html, text: collapse(out.join('')), tasks };
}

/** The visible text inside every <del> (strikethrough) of the page, one string per element. */
export function struckText(markdown: string): string[] {
  const out: string[] = [];
  const walk = (node: Node, inDel: boolean, acc: string[] | null) => {
    if (node.nodeName === '#text') {
      acc?.push(node.value ?? '');
      return;
    }
    if (node.tagName === 'del') {
      const mine: string[] = [];
      for (const c of node.childNodes ?? []) walk(c, true, mine);
      out.push(mine.join('').replace(/\s+/g, ' ').trim());
      acc?.push(mine.join(''));
      return;
    }
    for (const c of node.childNodes ?? []) walk(c, inDel, acc);
    if (node.content) walk(node.content, inDel, acc);
  };
  walk(parse(renderHtml(markdown)) as unknown as Node, false, null);
  return out;
}
