/**
 * The rules of a page's `<style>` blocks that decide whether an element is drawn (issue 40 item 7): a class,
 * id or element selector setting `display: none`, `visibility: hidden`, or moving or clipping the element
 * away, as the inline style reader understands them (read-inline-style.ts). Only what is certain to apply
 * on a desktop screen is read: rules inside an at-rule (`@media`, `@supports`, ...) and selectors with
 * combinators, pseudo-classes or attribute tests are skipped, so a rule that may not apply never hides text.
 */
import { readDeclarations } from './read-inline-style.ts';

/** The parts of an element a compound selector tests. */
export interface StyledElement {
  tagName: string;
  id: string | undefined;
  classes: readonly string[];
}

interface Rule {
  tag: string | undefined;
  id: string | undefined;
  classes: string[];
  /** (ids, classes, elements) as one number: ids * 10^6 + classes * 10^3 + elements. */
  specificity: number;
  order: number;
  declarations: Map<string, string>;
}

/**
 * The screen-reader-only and off-screen utility classes of common frameworks (Bootstrap, WordPress, Drupal,
 * HTML5 Boilerplate, Tailwind): their rules live in style sheets this check does not fetch, and they always
 * take the element off the screen.
 */
export const SCREEN_READER_CLASSES: ReadonlySet<string> = new Set([
  'sr-only', 'visually-hidden', 'visuallyhidden', 'screen-reader-text', 'screen-reader-only', 'element-invisible', 'offscreen', 'hidden-visually',
]);
const OFF_SCREEN: ReadonlyMap<string, string> = new Map([['position', 'absolute'], ['clip', 'rect(0 0 0 0)']]);

/** Properties a rule may set that decide drawing (padding: a box cut to 0 height may still show its padding); others are dropped. */
const DRAWING = ['display', 'visibility', 'position', 'left', 'top', 'clip', 'overflow', 'height', 'max-height', 'width', 'max-width'];

/**
 * Distinct selectors kept per id, first class or element name: an element is tested against at most this many
 * rules per key, so a hostile sheet cannot make reading a page quadratic. Further selectors are not read.
 */
const MAX_RULES_PER_KEY = 64;

const COMPOUND = /^([a-z][a-z0-9-]*|\*)?((?:[.#][_a-zA-Z0-9-]+)*)$/;

/** The page's rules, ready to give each element the drawing declarations they set on it. */
export class StyleSheets {
  private readonly byClass = new Map<string, Rule[]>();
  private readonly byId = new Map<string, Rule[]>();
  private readonly byTag = new Map<string, Rule[]>();
  readonly size: number;

  constructor(sheets: readonly string[]) {
    let order = 0;
    const bySignature = new Map<string, Rule>();
    for (const sheet of sheets) {
      for (const { selectors, body } of topLevelRules(sheet)) {
        const declarations = readDeclarations(body);
        for (const property of [...declarations.keys()]) if (!DRAWING.includes(property) && !property.startsWith('padding')) declarations.delete(property);
        if (declarations.size === 0) continue;
        for (const selector of selectors.split(',')) {
          const rule = parseCompound(selector.trim(), order++, declarations);
          if (rule === undefined) continue;
          // One rule per selector, later declarations over earlier: a sheet repeating a selector costs no more.
          const signature = `${rule.tag ?? '*'}#${rule.id ?? ''}.${[...rule.classes].sort().join('.')}`;
          const same = bySignature.get(signature);
          if (same !== undefined) {
            for (const [property, value] of declarations) same.declarations.set(property, value);
            same.order = rule.order;
            continue;
          }
          const [index, key] = rule.id !== undefined ? [this.byId, rule.id] : rule.classes.length > 0 ? [this.byClass, rule.classes[0]!] : [this.byTag, rule.tag ?? '*'];
          const rules = index.get(key) ?? [];
          if (rules.length >= MAX_RULES_PER_KEY) continue;
          rule.declarations = new Map(declarations);
          rules.push(rule);
          index.set(key, rules);
          bySignature.set(signature, rule);
        }
      }
    }
    this.size = order;
  }

  /**
   * The drawing declarations the rules and the utility classes set on `element`, in cascade order (higher
   * specificity, then later, wins), or undefined when none do; the inline style goes on top of these.
   */
  declarationsFor(element: StyledElement): Map<string, string> | undefined {
    const matched: Rule[] = [];
    const consider = (rules: Rule[] | undefined) => {
      for (const rule of rules ?? []) if (matches(rule, element) && !matched.includes(rule)) matched.push(rule);
    };
    if (element.id !== undefined) consider(this.byId.get(element.id));
    for (const name of element.classes) consider(this.byClass.get(name));
    consider(this.byTag.get(element.tagName));
    consider(this.byTag.get('*'));
    const screenReaderOnly = element.classes.some((name) => SCREEN_READER_CLASSES.has(name));
    if (matched.length === 0 && !screenReaderOnly) return undefined;
    const declared = new Map<string, string>(screenReaderOnly ? OFF_SCREEN : []);
    matched.sort((a, b) => a.specificity - b.specificity || a.order - b.order);
    for (const rule of matched) for (const [property, value] of rule.declarations) declared.set(property, value);
    if (screenReaderOnly && !declared.has('clip')) declared.set('clip', 'rect(0 0 0 0)');
    return declared;
  }
}

function matches(rule: Rule, element: StyledElement): boolean {
  if (rule.tag !== undefined && rule.tag !== '*' && rule.tag !== element.tagName) return false;
  if (rule.id !== undefined && rule.id !== element.id) return false;
  return rule.classes.every((name) => element.classes.includes(name));
}

function parseCompound(selector: string, order: number, declarations: Map<string, string>): Rule | undefined {
  const match = COMPOUND.exec(selector);
  if (match === null || selector === '') return undefined;
  const tag = match[1]?.toLowerCase();
  const parts = match[2]!.match(/[.#][_a-zA-Z0-9-]+/g) ?? [];
  const ids = parts.filter((part) => part.startsWith('#')).map((part) => part.slice(1));
  if (ids.length > 1) return undefined;
  const classes = parts.filter((part) => part.startsWith('.')).map((part) => part.slice(1));
  const elements = tag === undefined || tag === '*' ? 0 : 1;
  return { tag, id: ids[0], classes, specificity: ids.length * 1e6 + classes.length * 1e3 + elements, order, declarations };
}

/** The style sheet's rules outside any at-rule: selector list and declaration block, comments removed. */
function* topLevelRules(sheet: string): Generator<{ selectors: string; body: string }> {
  const css = sheet.replace(/\/\*[\s\S]*?\*\//g, '');
  let depth = 0;
  let preludeStart = 0;
  let bodyStart = 0;
  let prelude = '';
  for (let i = 0; i < css.length; i++) {
    const char = css[i];
    if (char === '"' || char === "'") {
      const end = css.indexOf(char, i + 1);
      i = end === -1 ? css.length : end;
    } else if (char === '{') {
      if (depth === 0) {
        prelude = css.slice(preludeStart, i).trim();
        bodyStart = i + 1;
      }
      depth += 1;
    } else if (char === '}') {
      if (depth === 0) continue;
      depth -= 1;
      if (depth === 0) {
        if (!prelude.startsWith('@')) yield { selectors: prelude, body: css.slice(bodyStart, i) };
        preludeStart = i + 1;
      }
    } else if (char === ';' && depth === 0) {
      // A statement at-rule (`@import ...;`, `@charset ...;`) ends here.
      preludeStart = i + 1;
    }
  }
}
