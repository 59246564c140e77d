/** The text of an HTML document as a person reads it in a browser, from a real HTML parser's tree. */
import { defaultTreeAdapter, parse, type DefaultTreeAdapterTypes as Tree } from 'parse5';
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

/**
 * An element being read: its next child, and what its children inherit (`pre`: white space kept;
 * `visible`: the CSS visibility, since a hidden box still breaks lines but draws no text). One frame per
 * element, not one per child, so a page of a hundred thousand nodes allocates a fraction of the objects.
 */
type Frame = { children: Tree.ChildNode[]; next: number; pre: boolean; visible: boolean; block: boolean };

/** The attributes the reading asks about, found in one pass over the element's list. */
interface ReadAttributes {
  style: string | undefined;
  id: string | undefined;
  classes: string | undefined;
  /** The `hidden` attribute's value, undefined when absent. */
  hidden: string | undefined;
  open: boolean;
}

const NO_ATTRIBUTES: ReadAttributes = Object.freeze({ style: undefined, id: undefined, classes: undefined, hidden: undefined, open: false });

function readAttributes(attrs: readonly Tree.Element['attrs'][number][]): ReadAttributes {
  if (attrs.length === 0) return NO_ATTRIBUTES;
  const read: ReadAttributes = { style: undefined, id: undefined, classes: undefined, hidden: undefined, open: false };
  for (const attr of attrs) {
    switch (attr.name) {
      case 'style': read.style = attr.value; break;
      case 'id': read.id = attr.value; break;
      case 'class': read.classes = attr.value; break;
      case 'hidden': read.hidden = attr.value; break;
      case 'open': read.open = true; break;
    }
  }
  return read;
}

/**
 * True when a browser draws nothing of `element` or inside it: the `hidden` attribute (unless a declared
 * `display` overrides it, as author styles do; `hidden="until-found"` is shown by find-in-page, so it is
 * read), a declared style that removes it (styleEffect), and a `<dialog>` without `open` (shown only once
 * a script opens it).
 */
function isUndrawn(element: Tree.Element, attributes: ReadAttributes, style: InlineStyleEffect | undefined): boolean {
  if (style?.removed === true) return true;
  if (element.namespaceURI === SVG_NAMESPACE && SVG_UNDRAWN.has(element.tagName)) return true;
  if (element.tagName === 'dialog' && !attributes.open) return true;
  return attributes.hidden !== undefined && attributes.hidden.trim().toLowerCase() !== 'until-found' && style?.displayed !== true;
}

/**
 * The parser's own tree adapter, noting whether it made any `<style>` element: most pages have none, and
 * then the tree need not be walked a second time for their sheets.
 */
function adapterNotingStyles(): { adapter: typeof defaultTreeAdapter; madeStyle: () => boolean } {
  let made = false;
  const adapter: typeof defaultTreeAdapter = {
    ...defaultTreeAdapter,
    createElement(tagName, namespaceURI, attrs) {
      if (tagName === 'style') made = true;
      return defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
    },
  };
  return { adapter, madeStyle: () => made };
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

// A class list naming a screen-reader utility class (SCREEN_READER_CLASSES), tested without splitting the list.
const SCREEN_READER_CLASS = new RegExp(`(?:^|[\\t\\n\\f\\r ])(?:${[...SCREEN_READER_CLASSES].map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?=$|[\\t\\n\\f\\r ])`);

/** The declared style of an element: its `<style>` rules and utility classes, then its inline style on top. */
function declaredStyle(tagName: string, attributes: ReadAttributes, sheets: StyleSheets): InlineStyleEffect | undefined {
  const { style: inline, id, classes } = attributes;
  // Most elements of most pages meet no sheet and no utility class: their class list is never split.
  const ruledOut = sheets.size === 0 && (classes === undefined || !SCREEN_READER_CLASS.test(classes));
  const ruled = ruledOut ? undefined : sheets.declarationsFor({ tagName, id, classes: classes === undefined ? [] : classes.split(/[\t\n\f\r ]+/).filter((name) => name !== '') });
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
  const { adapter, madeStyle } = adapterNotingStyles();
  const document = parse(html, { treeAdapter: adapter });
  const sheets = new StyleSheets(madeStyle() ? styleSheetsOf(document) : []);
  const parts: string[] = [];
  let hasScript = false;
  let breakPending = false;
  // A <sup> was entered and no text has been read since.
  let supOpened = false;
  const stack: Frame[] = [{ children: document.childNodes, next: 0, pre: false, visible: true, block: false }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.children.length) {
      stack.pop();
      if (frame.block) breakPending = true;
      continue;
    }
    const node = frame.children[frame.next++]!;
    if (node.nodeName === '#text') {
      if (!frame.visible) continue;
      const raw = (node as Tree.TextNode).value;
      const value = frame.pre ? raw : raw.replace(COLLAPSIBLE, ' ');
      if (value.length === 0) continue;
      if (breakPending) parts.push('\n');
      else if (supOpened && /^[0-9]/.test(value) && /[0-9]$/.test(parts.at(-1) ?? '')) parts.push(' ');
      breakPending = false;
      supOpened = false;
      parts.push(value);
      continue;
    }
    // Comments and the doctype; `#` starts no element's name, and the test needs no lookup of a property.
    if (node.nodeName.charCodeAt(0) === 0x23) continue;
    const element = node as Tree.Element;
    const name = element.tagName;
    if (name === 'script') hasScript ||= runsScript(element);
    if (name === 'br') {
      parts.push('\n');
      breakPending = false;
      continue;
    }
    if (UNSEEN.has(name) && name !== 'head') continue;
    const attributes = readAttributes(element.attrs);
    const style = declaredStyle(name, attributes, sheets);
    if (isUndrawn(element, attributes, style)) continue;
    const shown = style?.visibility === undefined ? frame.visible : style.visibility === 'visible';
    if (name === 'head') {
      // Only the title is read (on its own line, shown whatever the head declares); the rest is skipped.
      const title = element.childNodes.find((child) => 'tagName' in child && child.tagName === 'title');
      if (title !== undefined) stack.push({ children: [title], next: 0, pre: false, visible: true, block: false });
      hasScript ||= element.childNodes.some(runsScript);
      continue;
    }
    const block = BLOCK.has(name);
    if (block) breakPending = true;
    if (name === 'sup') supOpened = true;
    const pre = frame.pre || name === 'pre' || name === 'textarea' || name === 'listing' || name === 'plaintext';
    stack.push({ children: element.childNodes, next: 0, pre, visible: shown, block });
  }
  // Spaces beside a line break are not seen; blank lines between blocks carry nothing.
  const text = parts.join('').replace(/ *\n */g, '\n').replace(/\n{2,}/g, '\n').trim();
  return { text, hasScript };
}
