/**
 * The sizes of the links bench's pages, measured on real documents, and a seeded generator of synthetic pages
 * that follow them: each URL gets a real page's size and first `</h1` offset (HTML) or a real PDF's size.
 */

/**
 * `[bytes, byte offset of the first </h1]` of 23 real HTML pages: 19 from mozilla/readability@ab4027a8
 * test/test-pages/<name>/source.html and 4 from mrkulas1/website-rebuild@6be5049a (a Habitat for Humanity
 * affiliate's program pages, includes inlined), as held in the real-document set of issue 31. That set's 13
 * hand-made edge pages (under 500 bytes each, written to exercise one matching hazard) are not pages a city
 * publishes, and are left out. Gzip shrinks these 23 to 0.159 of their bytes (0.180 the median page).
 */
export const HTML_PAGE_SHAPES: readonly (readonly [bytes: number, h1At: number])[] = [
  [12430, 5589], [12391, 5602], [13418, 5584], [12451, 5597], [264054, 90714], [154796, 34349], [336289, 82078],
  [173900, 112545], [267211, 144500], [350132, 22668], [143533, 32861], [150967, 77187], [383851, 32795],
  [564271, 375788], [299537, 120218], [772075, 182527], [411495, 38448], [223176, 18750], [33152, 10683],
  [212764, 40435], [92266, 30458], [33095, 1119], [1040479, 14162],
];

/**
 * Bytes of the 37 real PDFs of the same set: 11 of the same affiliate (forms, newsletters, press releases),
 * 21 from mozilla/pdf.js@0f26334f test/pdfs and 5 from py-pdf/sample-files@6921079e. Gzip shrinks them to
 * 0.912 of their bytes (images and fonts are compressed already).
 */
export const PDF_SIZES: readonly number[] = [
  292113, 219237, 378969, 1343895, 371273, 1173963, 1643019, 1226071, 2279696, 306085, 399052, 1039, 674629, 15779,
  68512, 189463, 137291, 150611, 33577, 149306, 118396, 242940, 58483, 60516, 119101, 52483, 80970, 207960, 546144,
  147420, 306416, 1016315, 12609, 16368, 80100, 78657, 24607,
];

/** A seeded generator (mulberry32): the same seed gives the same pages on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** A seed for `text` (FNV-1a), so each URL's page is its own and the same every week. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The real page whose size and h1 offset the page at `url` takes. */
export function htmlShapeFor(url: string): readonly [bytes: number, h1At: number] {
  return HTML_PAGE_SHAPES[Math.floor(seededRandom(seedOf(url))() * HTML_PAGE_SHAPES.length)]!;
}

/** The real PDF whose size the PDF at `url` takes. */
export function pdfSizeFor(url: string): number {
  return PDF_SIZES[Math.floor(seededRandom(seedOf(`pdf ${url}`))() * PDF_SIZES.length)]!;
}

// Text of made-up words from a small vocabulary, drawn skewed as words in prose are, between the markup pages
// repeat: it gzips to about the share the real pages do (the bench's test checks it), and never holds a digit,
// a quote mark or an h1.
const POOL_BYTES = 4 * 1024 * 1024;
const VOCABULARY = 300;
const MARKUP_SHARE = 0.5;
let pool: string | undefined;

function textPool(): string {
  if (pool !== undefined) return pool;
  const random = seededRandom(32);
  const letters = 'etaoinshrdlucmfwypvbgkjqxz';
  const vocabulary = Array.from({ length: VOCABULARY }, () => {
    let word = '';
    for (let length = 2 + Math.floor(random() * 8); word.length < length;) word += letters[Math.floor(random() ** 1.6 * letters.length)];
    return word;
  });
  const word = () => vocabulary[Math.floor(random() ** 3 * vocabulary.length)]!;
  // Prose between the markup real pages repeat (menus, links, classed blocks), which is what gzip feeds on.
  const markup = [
    () => `<li class="menu-item"><a href="/${word()}/${word()}" class="menu-link">${word()} ${word()}</a></li>\n`,
    () => `<div class="field field--name-${word()} field--type-text">`,
    () => '</div>\n',
    () => `<span class="${word()}">${word()}</span> `,
  ];
  const parts: string[] = [];
  let size = 0;
  while (size < POOL_BYTES) {
    const part = random() < MARKUP_SHARE ? markup[Math.floor(random() * markup.length)]!() : random() < 0.08 ? `${word()}.\n` : `${word()} `;
    parts.push(part);
    size += part.length;
  }
  pool = parts.join('');
  return pool;
}

/** `length` bytes of the pool's text from a place `random` picks. */
function filler(length: number, random: () => number): string {
  const text = textPool();
  let out = '';
  while (out.length < length) {
    const take = Math.min(length - out.length, text.length);
    const start = Math.floor(random() * (text.length - take + 1));
    out += wholeTags(text.slice(start, start + take));
  }
  return out;
}

/** `slice` with a tag cut at either end blanked, so no half tag swallows the h1 or the quotes after it. */
function wholeTags(slice: string): string {
  const firstClose = slice.indexOf('>');
  const firstOpen = slice.indexOf('<');
  const head = firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen) ? firstClose + 1 : 0;
  const lastOpen = slice.lastIndexOf('<');
  const tail = lastOpen > slice.lastIndexOf('>') ? lastOpen : slice.length;
  return ' '.repeat(head) + slice.slice(head, Math.max(head, tail)) + ' '.repeat(slice.length - Math.max(head, tail));
}

/** What a generated HTML page says: its title, its h1, and paragraphs placed right after the h1. */
export interface SyntheticHtml {
  title: string;
  heading: string;
  paragraphs?: readonly string[];
}

/**
 * The page at `url`: ASCII HTML of its shape's size (or what its parts need, if more), with its first `</h1`
 * at its shape's offset (or as soon after the title as the parts allow).
 */
export function syntheticHtml(url: string, page: SyntheticHtml): Buffer {
  const [bytes, h1At] = htmlShapeFor(url);
  const random = seededRandom(seedOf(`text ${url}`));
  const head = `<!doctype html><html><head><meta charset="utf-8"><title>${page.title}</title></head><body><div class="nav">`;
  const opening = `</div><h1>${page.heading}`;
  const middle = `</h1>${(page.paragraphs ?? []).map((text) => `<p>${text}</p>`).join('')}<div class="content">`;
  const end = '</div></body></html>';
  const before = filler(Math.max(0, h1At - head.length - opening.length), random);
  const after = filler(Math.max(0, bytes - head.length - before.length - opening.length - middle.length - end.length), random);
  return Buffer.from(`${head}${before}${opening}${middle}${after}${end}`, 'latin1');
}
