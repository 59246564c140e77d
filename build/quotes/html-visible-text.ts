/** The text of an HTML document as a person reads it in a browser, from a real HTML parser's tree. */
import { parse, type DefaultTreeAdapterTypes as Tree } from 'parse5';
import { readDeclarations, styleEffect, type InlineStyleEffect } from './read-inline-style.ts';
import { SCREEN_READER_CLASSES, StyleSheets } from './read-style-sheets.ts';

/** What the page shows, and whether it runs scripts (a short page that does may be a JavaScript shell). */
export interface HtmlVisibleText {
  /** Blocks on their own lines, runs of ASCII white space outside `<pre>` made one space, not yet normalized. */
  text: string;
  /** A `<script>` a browser would run: no `type`, a JavaScript type, or `module` (not JSON-LD data). */
  hasScript: boolean;
}

// The HTML Standard's JavaScript MIME type essences; a script of another type is a data block, not code.
const JAVASCRIPT_TYPES = new Set([
  '', 'module', 'application/ecmascript', 'application/javascript', 'application/x-ecmascript', 'application/x-javascript',
  'text/ecmascript', 'text/javascript', 'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2', 'text/javascript1.3',
  'text/javascript1.4', 'text/javascript1.5', 'text/jscript', 'text/livescript', 'text/x-ecmascript', 'text/x-javascript',
]);

function runsScript(node: Tree.ChildNode): boolean {
  if (!('tagName' in node) || node.tagName !== 'script') return false;
  const type = node.attrs.find((attr) => attr.name === 'type')?.value.trim().toLowerCase() ?? '';
  return JAVASCRIPT_TYPES.has(type);
}

/**
 * Elements whose content a reader does not see: code and styling, inert templates, fallbacks shown only
 * without scripting (a browser with scripting, which is what people use, hides `<noscript>`), and frames
 * and objects, whose markup content is a fallback too. `head` is left out except its `<title>` (shown in
 * the tab and in search results): everything else in it is metadata.
 */
const UNSEEN = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'head']);

/**
 * Elements whose edges break text (CSS display block, list-item, table parts; and inline blocks): any other
 * element (`b`, `a`, `span`, `img`, ...) does not, so `Up to <b>$10,000</b>` reads `Up to $10,000`.
 */
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'caption', 'center', 'dd', 'details', 'dialog', 'dir',
  'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'header', 'hgroup', 'hr', 'html', 'legend', 'li', 'main', 'menu', 'nav', 'ol', 'optgroup', 'option', 'p',
  'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'title', 'tr', 'ul',
  // Inline blocks: their text is a box of its own, never run together with the words beside it.
  'button', 'select', 'textarea',
]);

// The HTML Standard's ASCII white space, which CSS collapses outside `pre`; NBSP is not among it.
const COLLAPSIBLE = /[\t\n\f\r ]+/g;

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
// SVG children that are never drawn: a tooltip and descriptions for assistive technology.
const SVG_UNDRAWN = new Set(['title', 'desc', 'metadata']);

/** `visible`: the inherited CSS visibility (a hidden box still breaks lines, but draws no text). */
type Visit = { node: Tree.Node; leaving: boolean; pre: boolean; visible: boolean };

/**
 * True when a browser draws nothing of `element` or inside it: the `hidden` attribute (unless a declared
 * `display` overrides it, as author styles do; `hidden="until-found"` is shown by find-in-page, so it is
 * read), a declared style that removes it (styleEffect), and a `<dialog>` without `open` (shown only once
 * a script opens it).
 */
function isUndrawn(element: Tree.Element, style: InlineStyleEffect | undefined): boolean {
  if (style?.removed === true) return true;
  if (element.namespaceURI === SVG_NAMESPACE && SVG_UNDRAWN.has(element.tagName)) return true;
  if (element.tagName === 'dialog' && !element.attrs.some((attr) => attr.name === 'open')) return true;
  return element.attrs.some((attr) => attr.name === 'hidden' && attr.value.trim().toLowerCase() !== 'until-found') && style?.displayed !== true;
}

/** The text of every `<style>` element of the document, in document order. */
function styleSheetsOf(document: Tree.Document): string[] {
  const sheets: string[] = [];
  const stack: Tree.Node[] = [document];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!('childNodes' in node)) continue;
    if ('tagName' in node && node.tagName === 'style') {
      sheets.push(node.childNodes.map((child) => (child.nodeName === '#text' ? (child as Tree.TextNode).value : '')).join(''));
      continue;
    }
    for (let index = node.childNodes.length - 1; index >= 0; index--) stack.push(node.childNodes[index]!);
  }
  return sheets;
}

/** The declared style of `element`: its `<style>` rules and utility classes, then its inline style on top. */
function declaredStyle(element: Tree.Element, sheets: StyleSheets): InlineStyleEffect | undefined {
  let inline: string | undefined;
  let id: string | undefined;
  let classes: string[] = [];
  for (const attr of element.attrs) {
    if (attr.name === 'style') inline = attr.value;
    else if (attr.name === 'id') id = attr.value;
    else if (attr.name === 'class') classes = attr.value.split(/[\t\n\f\r ]+/).filter((name) => name !== '');
  }
  const ruled = sheets.size > 0 || classes.some((name) => SCREEN_READER_CLASSES.has(name)) ? sheets.declarationsFor({ tagName: element.tagName, id, classes }) : undefined;
  if (ruled === undefined) return inline === undefined ? undefined : styleEffect(readDeclarations(inline));
  if (inline !== undefined) for (const [property, value] of readDeclarations(inline)) ruled.set(property, value);
  return styleEffect(ruled);
}

/**
 * Returns the visible text of the HTML document `html`. Entities are decoded by the parser; undrawn
 * elements (isUndrawn) are left out like UNSEEN ones, and so is text under an inline `visibility: hidden`
 * that no descendant's `visibility: visible` brings back; `<br>` breaks a line; a `<sup>` whose text
 * starts with a digit right after a digit (a footnote mark after an amount) is set apart by a space, so
 * `$25,000<sup>1</sup>` reads `$25,000 1` while `5<sup>th</sup>` stays `5th`. The tree is walked with an
 * explicit stack, so a page nested a hundred thousand levels deep cannot overflow the call stack.
 */
export function htmlVisibleText(html: string): HtmlVisibleText {
  const document = parse(html);
  const sheets = new StyleSheets(styleSheetsOf(document));
  const parts: string[] = [];
  let hasScript = false;
  let breakPending = false;
  // A <sup> was entered and no text has been read since.
  let supOpened = false;
  const stack: Visit[] = [{ node: document, leaving: false, pre: false, visible: true }];
  while (stack.length > 0) {
    const { node, leaving, pre, visible } = stack.pop()!;
    if (node.nodeName === '#text') {
      const value = pre ? (node as Tree.TextNode).value : (node as Tree.TextNode).value.replace(COLLAPSIBLE, ' ');
      if (value.length === 0 || !visible) continue;
      if (breakPending) parts.push('\n');
      else if (supOpened && /^[0-9]/.test(value) && /[0-9]$/.test(parts.at(-1) ?? '')) parts.push(' ');
      breakPending = false;
      supOpened = false;
      parts.push(value);
      continue;
    }
    if (!('childNodes' in node)) continue; // comments, doctype
    const name = 'tagName' in node ? node.tagName : '';
    if (leaving) {
      if (BLOCK.has(name)) breakPending = true;
      continue;
    }
    if (name === 'script') hasScript ||= runsScript(node as Tree.Element);
    if (name === 'br') {
      parts.push('\n');
      breakPending = false;
      continue;
    }
    if (UNSEEN.has(name) && name !== 'head') continue;
    let shown = visible;
    if ('attrs' in node) {
      const style = declaredStyle(node, sheets);
      if (isUndrawn(node, style)) continue;
      if (style?.visibility !== undefined) shown = style.visibility === 'visible';
    }
    if (name === 'head') {
      // Only the title is read (on its own line); the rest of the head is skipped.
      const title = node.childNodes.find((child) => 'tagName' in child && child.tagName === 'title');
      if (title !== undefined) stack.push({ node: title, leaving: false, pre: false, visible: true });
      hasScript ||= node.childNodes.some(runsScript);
      continue;
    }
    if (BLOCK.has(name)) breakPending = true;
    if (name === 'sup') supOpened = true;
    stack.push({ node, leaving: true, pre, visible: shown });
    const inPre = pre || name === 'pre' || name === 'textarea' || name === 'listing' || name === 'plaintext';
    for (let index = node.childNodes.length - 1; index >= 0; index--) stack.push({ node: node.childNodes[index]!, leaving: false, pre: inPre, visible: shown });
  }
  // Spaces beside a line break are not seen; blank lines between blocks carry nothing.
  const text = parts.join('').replace(/ *\n */g, '\n').replace(/\n{2,}/g, '\n').trim();
  return { text, hasScript };
}
