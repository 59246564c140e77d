/**
 * What an element's declared style says about whether a browser shows it: its inline `style` attribute,
 * and the declarations the page's `<style>` rules give it (read-style-sheets.ts) beneath that.
 */

/** How an inline style affects the element's text. */
export interface InlineStyleEffect {
  /** The element and everything in it draws nothing (display none, or moved or clipped off-screen). */
  removed: boolean;
  /** `visibility` as declared (inherited by descendants, which may declare `visible` again); undefined when not declared. */
  visibility: 'visible' | 'hidden' | undefined;
  /** `display` declared with a value other than `none` (this outranks the `hidden` attribute, a user-agent style). */
  displayed: boolean;
}

/**
 * Offsets at least this far negative move a box off the page: the honeypot and "visually hidden" idioms
 * use -999px to -10000px (Mailchimp's signup form -5000px), while layouts nudge boxes by a few dozen.
 */
const OFF_SCREEN_PX = 999;

// Absolute lengths in CSS px; font-relative ones at the default 16px font; a viewport unit as 10px (a 1000px
// viewport, the narrowest desktop one), so `-100vw` counts as off-screen and `-50vw` does not.
const PX_PER_UNIT: Readonly<Record<string, number>> = {
  px: 1, em: 16, rem: 16, ex: 8, ch: 8, pt: 4 / 3, pc: 16, in: 96, cm: 96 / 2.54, mm: 96 / 25.4, q: 96 / 101.6,
  vw: 10, vh: 10, vmin: 10, vmax: 10,
};

/** Returns the effect of the inline style `style` (the attribute's value, unparsed). */
export function readInlineStyle(style: string): InlineStyleEffect {
  return styleEffect(readDeclarations(style));
}

/** The effect of declarations already read (property to lowercase value). */
export function styleEffect(declared: ReadonlyMap<string, string>): InlineStyleEffect {
  const display = declared.get('display');
  const visibility = declared.get('visibility');
  const position = declared.get('position');
  const positioned = position === 'absolute' || position === 'fixed' || position === 'relative';
  const offScreen = positioned && ['left', 'top'].some((side) => (lengthPx(declared.get(side)) ?? 0) <= -OFF_SCREEN_PX);
  const clipped = (position === 'absolute' || position === 'fixed') && clipsToNothing(declared.get('clip'));
  return {
    removed: display === 'none' || offScreen || clipped || collapsed(declared),
    visibility: visibility === 'hidden' || visibility === 'collapse' ? 'hidden' : visibility === 'visible' ? 'visible' : undefined,
    displayed: display !== undefined && display !== 'none',
  };
}

/**
 * The declarations, property to lowercase value; a later one replaces an earlier one unless only the
 * earlier is `!important`, as in a browser.
 */
export function readDeclarations(style: string): Map<string, string> {
  const found = new Map<string, { value: string; important: boolean }>();
  for (const part of style.replace(/\/\*[\s\S]*?\*\//g, '').split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const property = part.slice(0, colon).trim().toLowerCase();
    let value = part.slice(colon + 1).trim().toLowerCase();
    const important = /!\s*important$/.test(value);
    if (important) value = value.replace(/!\s*important$/, '').trim();
    if (property === '' || value === '') continue;
    const earlier = found.get(property);
    if (earlier?.important === true && !important) continue;
    found.set(property, { value, important });
  }
  return new Map([...found].map(([property, { value }]) => [property, value]));
}

/**
 * True for a box of at most 1px height or width whose overflow is hidden (a collapsed panel, a zero-size
 * honeypot): its content is cut away. Not when any padding is declared, since content can show in the
 * padding (the `height: 0; padding-bottom: 56%` aspect-ratio box).
 */
function collapsed(declared: ReadonlyMap<string, string>): boolean {
  const overflow = declared.get('overflow');
  if (overflow !== 'hidden' && overflow !== 'clip') return false;
  if ([...declared.keys()].some((property) => property.startsWith('padding'))) return false;
  return ['height', 'max-height', 'width', 'max-width'].some((property) => {
    const px = lengthPx(declared.get(property));
    return px !== undefined && px <= 1;
  });
}

/** A length in CSS px, or undefined for a percentage, `calc()`, `auto` or anything unreadable. */
function lengthPx(value: string | undefined): number | undefined {
  const match = value === undefined ? null : /^([+-]?(?:\d+\.?\d*|\.\d+))([a-z]*)$/.exec(value);
  if (match === null) return undefined;
  const number = Number(match[1]);
  if (match[2] === '') return number === 0 ? 0 : undefined;
  const scale = PX_PER_UNIT[match[2] as string];
  return scale === undefined ? undefined : number * scale;
}

/** True for `clip: rect(...)` leaving at most 1px by 1px (the "visually hidden" idiom: rect(0 0 0 0), rect(1px, 1px, 1px, 1px)). */
function clipsToNothing(clip: string | undefined): boolean {
  const match = clip === undefined ? null : /^rect\(([^)]*)\)$/.exec(clip);
  if (match === null) return false;
  const edges = (match[1] as string).split(/\s*,\s*|\s+/).map(lengthPx);
  if (edges.length !== 4 || edges.some((edge) => edge === undefined)) return false;
  const [top, right, bottom, left] = edges as [number, number, number, number];
  return right - left <= 1 && bottom - top <= 1;
}
