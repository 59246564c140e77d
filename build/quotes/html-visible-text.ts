/** The text of an HTML document as a person reads it in a browser, from a real HTML parser's tree. */
import { parse, type DefaultTreeAdapterTypes as Tree } from 'parse5';

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

type Visit = { node: Tree.Node; leaving: boolean; pre: boolean };

/**
 * Returns the visible text of the HTML document `html`. Entities are decoded by the parser; elements with
 * the `hidden` attribute are left out like UNSEEN ones; `<br>` breaks a line. The tree is walked with an
 * explicit stack, so a page nested a hundred thousand levels deep cannot overflow the call stack.
 */
export function htmlVisibleText(html: string): HtmlVisibleText {
  const document = parse(html);
  const parts: string[] = [];
  let hasScript = false;
  let breakPending = false;
  const stack: Visit[] = [{ node: document, leaving: false, pre: false }];
  while (stack.length > 0) {
    const { node, leaving, pre } = stack.pop()!;
    if (node.nodeName === '#text') {
      const value = pre ? (node as Tree.TextNode).value : (node as Tree.TextNode).value.replace(COLLAPSIBLE, ' ');
      if (value.length === 0) continue;
      if (breakPending) parts.push('\n');
      breakPending = false;
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
    if ((UNSEEN.has(name) && name !== 'head') || ('attrs' in node && node.attrs.some((attr) => attr.name === 'hidden'))) continue;
    if (name === 'head') {
      // Only the title is read (on its own line); the rest of the head is skipped.
      const title = node.childNodes.find((child) => 'tagName' in child && child.tagName === 'title');
      if (title !== undefined) stack.push({ node: title, leaving: false, pre: false });
      hasScript ||= node.childNodes.some(runsScript);
      continue;
    }
    if (BLOCK.has(name)) breakPending = true;
    stack.push({ node, leaving: true, pre });
    const inPre = pre || name === 'pre' || name === 'textarea' || name === 'listing' || name === 'plaintext';
    for (let index = node.childNodes.length - 1; index >= 0; index--) stack.push({ node: node.childNodes[index]!, leaving: false, pre: inPre });
  }
  // Spaces beside a line break are not seen; blank lines between blocks carry nothing.
  const text = parts.join('').replace(/ *\n */g, '\n').replace(/\n{2,}/g, '\n').trim();
  return { text, hasScript };
}
