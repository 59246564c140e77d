/**
 * The text a PDF page draws where no one can see it (issue 40 item 7), from pdf.js's operator list: text in
 * invisible render mode not over an image (an OCR layer over a scan is what a reader sees, so it stays),
 * text filled in the page colour (white) over nothing painted, text clipped away or off the page, and text
 * under an opaque rectangle painted after it (a white box, a form widget's background). The text state is
 * followed as the PDF operators move it (PDF 32000-1, 9.4), so each shown string has a place on the page.
 */

/** One shown string the page hides, where it starts (user space, as pdf.js's text items are placed). */
export interface HiddenRun {
  text: string;
  x: number;
  y: number;
  size: number;
  /** How far it runs along its baseline in user space (below 0 if it runs backwards): pdf.js may give one string as several items over it. */
  width: number;
  /** Its baseline's direction, a unit vector ([1, 0] for upright text). */
  direction: [number, number];
}

/** The operator codes this reader follows (pdf.js's OPS, passed in so this module loads without pdf.js). */
export interface PdfOps {
  save: number; restore: number; transform: number; beginText: number; setFont: number; moveText: number;
  setLeadingMoveText: number; setTextMatrix: number; nextLine: number; setCharSpacing: number; setWordSpacing: number;
  setHScale: number; setLeading: number; setTextRise: number; setTextRenderingMode: number; showText: number;
  showSpacedText: number; nextLineShowText: number; nextLineSetSpacingShowText: number; setFillRGBColor: number;
  setGState: number; constructPath: number; clip: number; eoClip: number; fill: number; eoFill: number;
  fillStroke: number; eoFillStroke: number; closeFillStroke: number; closeEOFillStroke: number;
  paintImageXObject: number; paintInlineImageXObject: number; paintImageXObjectRepeat: number; paintImageMaskXObject: number;
  paintFormXObjectBegin: number; paintFormXObjectEnd: number; beginAnnotation: number; endAnnotation: number; shadingFill: number;
}

type Matrix = [number, number, number, number, number, number];
type Box = [left: number, bottom: number, right: number, top: number];

interface Graphics {
  ctm: Matrix;
  fill: string;
  alpha: number;
  clip: Box;
  /** The clip is its box: every clipping path so far was a rectangle (a circle's box would overstate it). */
  clipIsBox: boolean;
  mode: number;
}

interface Shown extends HiddenRun {
  box: Box;
  /** Why it cannot be seen when drawn, or undefined; `covered` is decided once everything is drawn. */
  hidden: 'invisible' | 'page colour' | 'clipped' | undefined;
  order: number;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** A matrix pdf.js passes either as the six arguments or as one array-like of six (a Float32Array). */
function matrixOf(value: unknown): Matrix | undefined {
  const list = value as ArrayLike<unknown> | undefined;
  if (list === undefined || list === null) return undefined;
  const candidate = list.length === 1 ? (list[0] as ArrayLike<unknown>) : list;
  if (candidate === undefined || candidate === null || candidate.length !== 6) return undefined;
  const numbers = Array.from(candidate, Number);
  return numbers.every(Number.isFinite) ? (numbers as Matrix) : undefined;
}

function multiply(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

function apply(m: Matrix, x: number, y: number): [number, number] {
  return [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]];
}

function boxOf(m: Matrix, box: Box): Box {
  const corners = [apply(m, box[0], box[1]), apply(m, box[2], box[1]), apply(m, box[0], box[3]), apply(m, box[2], box[3])];
  return [Math.min(...corners.map((c) => c[0])), Math.min(...corners.map((c) => c[1])), Math.max(...corners.map((c) => c[0])), Math.max(...corners.map((c) => c[1]))];
}

function intersect(a: Box, b: Box): Box {
  return [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
}

function overlaps(a: Box, b: Box): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

/** `outer` holds `inner` but for a tolerance of a tenth of a point. */
function covers(outer: Box, inner: Box): boolean {
  return outer[0] <= inner[0] + 0.1 && outer[1] <= inner[1] + 0.1 && outer[2] >= inner[2] - 0.1 && outer[3] >= inner[3] - 0.1;
}

/** The box of a path that is one axis-aligned rectangle (moveTo, three lineTos, close), else undefined. */
function rectangleOf(data: ArrayLike<number>): Box | undefined {
  const points: Array<[number, number]> = [];
  for (let i = 0; i < data.length;) {
    const op = data[i]!;
    if (op === 0 || op === 1) {
      points.push([data[i + 1]!, data[i + 2]!]);
      i += 3;
    } else if (op === 4) {
      i += 1;
    } else {
      return undefined;
    }
  }
  if (points.length === 5 && points[4]![0] === points[0]![0] && points[4]![1] === points[0]![1]) points.pop();
  if (points.length !== 4) return undefined;
  const xs = new Set(points.map((p) => p[0]));
  const ys = new Set(points.map((p) => p[1]));
  if (xs.size > 2 || ys.size > 2) return undefined;
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/**
 * A page's text is an OCR layer (issue 40 item 1) when at least this share of the characters it shows are
 * invisible text over an image: a scan with its recognized text laid over it, which a reader sees as the
 * scan and which holds the recognizer's errors.
 */
export const OCR_LAYER_SHARE = 0.5;

/** What a page's operator list shows where no one sees it, and whether its text is an OCR layer over a scan. */
export interface PdfTextVisibility {
  hidden: HiddenRun[];
  /** At least OCR_LAYER_SHARE of the shown characters are invisible text over an image. */
  ocrLayer: boolean;
  /**
   * Some string is hidden for want of an image under it: invisible text (over an image it would be an OCR
   * layer) or text in the page colour (over an image it would show). Images only ever make text visible, so
   * a reading of the operators with the images left out (read-pdf-pages.ts) is exact where this is false.
   */
  restsOnImages: boolean;
}

/**
 * The strings the page's operator list `fnArray`/`argsArray` shows where they cannot be seen, on a page whose
 * visible area is `view` ([x0, y0, x1, y1], the crop box).
 */
export function findHiddenPdfText(fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>, ops: PdfOps, view: Box): HiddenRun[] {
  return readPdfTextVisibility(fnArray, argsArray, ops, view).hidden;
}

/** findHiddenPdfText's strings, and whether the page's text is an OCR layer (OCR_LAYER_SHARE), from one walk of the operators. */
export function readPdfTextVisibility(fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>, ops: PdfOps, view: Box): PdfTextVisibility {
  const shown: Shown[] = [];
  const opaque: Array<{ box: Box; order: number }> = [];
  const painted: Box[] = [];
  const images: Box[] = [];
  const stack: Graphics[] = [];
  let g: Graphics = { ctm: IDENTITY, fill: '#000000', alpha: 1, clip: view, clipIsBox: true, mode: 0 };
  let clipPending = false;
  let annotation: Box | undefined;
  let tm: Matrix = IDENTITY;
  let tlm: Matrix = IDENTITY;
  let size = 0;
  let charSpacing = 0;
  let wordSpacing = 0;
  let hScale = 1;
  let leading = 0;
  let rise = 0;
  let order = 0;

  const moveLine = (tx: number, ty: number) => {
    tlm = multiply([1, 0, 0, 1, tx, ty], tlm);
    tm = tlm;
  };
  const show = (glyphs: unknown) => {
    if (!Array.isArray(glyphs)) return;
    const start = multiply(multiply([size * hScale, 0, 0, size, 0, rise], tm), g.ctm);
    let text = '';
    let advance = 0;
    for (const glyph of glyphs) {
      if (typeof glyph === 'number') {
        advance -= (glyph / 1000) * size * hScale;
        continue;
      }
      const { unicode, width, isSpace } = glyph as { unicode?: string; width?: number; isSpace?: boolean };
      text += unicode ?? '';
      advance += (((width ?? 0) / 1000) * size + charSpacing + (isSpace === true ? wordSpacing : 0)) * hScale;
    }
    const end = multiply([1, 0, 0, 1, advance, 0], tm);
    if (text.trim().length > 0) {
      const [x, y] = apply(start, 0, 0);
      const length = advance / (size * hScale || 1);
      const box = boxOf(start, [0, -0.2, length, 0.8]);
      const scale = Math.hypot(start[0], start[1]);
      const width = length * scale;
      const direction: [number, number] = scale > 0 ? [start[0] / scale, start[1] / scale] : [1, 0];
      const invisible = g.mode === 3 || g.mode === 7;
      const fills = g.mode === 0 || g.mode === 2 || g.mode === 4 || g.mode === 6;
      const hidden = !overlaps(box, g.clip) ? 'clipped' : invisible ? 'invisible' : fills && g.fill === '#ffffff' && g.alpha > 0 ? 'page colour' : undefined;
      shown.push({ text, box, x, y, size: Math.hypot(start[2], start[3]), width, direction, hidden, order: order++ });
    }
    tm = end;
  };

  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]!;
    const args = (argsArray[i] ?? []) as unknown[];
    switch (fn) {
      case ops.save: stack.push({ ...g }); break;
      case ops.restore: g = stack.pop() ?? g; break;
      case ops.transform: g.ctm = multiply(matrixOf(args) ?? IDENTITY, g.ctm); break;
      case ops.paintFormXObjectBegin: {
        stack.push({ ...g });
        g.ctm = multiply(matrixOf(args[0]) ?? IDENTITY, g.ctm);
        const bbox = args[1] as ArrayLike<number> | null | undefined;
        if (bbox?.length === 4) g.clip = intersect(g.clip, boxOf(g.ctm, [bbox[0]!, bbox[1]!, bbox[2]!, bbox[3]!]));
        break;
      }
      case ops.paintFormXObjectEnd: g = stack.pop() ?? g; break;
      case ops.beginAnnotation: {
        stack.push({ ...g });
        // The appearance is drawn through its placement and its own matrix, inside the annotation's rectangle.
        const rect = args[1] as ArrayLike<number> | undefined;
        annotation = rect?.length === 4 ? [rect[0]!, rect[1]!, rect[2]!, rect[3]!] : undefined;
        g.ctm = multiply(multiply(matrixOf(args[3]) ?? IDENTITY, matrixOf(args[2]) ?? IDENTITY), g.ctm);
        break;
      }
      case ops.endAnnotation: g = stack.pop() ?? g; annotation = undefined; break;
      case ops.beginText: tm = IDENTITY; tlm = IDENTITY; break;
      case ops.setFont: size = Number(args[1]) || 0; break;
      case ops.setCharSpacing: charSpacing = Number(args[0]) || 0; break;
      case ops.setWordSpacing: wordSpacing = Number(args[0]) || 0; break;
      case ops.setHScale: hScale = (Number(args[0]) || 100) / 100; break;
      case ops.setLeading: leading = Number(args[0]) || 0; break;
      case ops.setTextRise: rise = Number(args[0]) || 0; break;
      case ops.setTextRenderingMode: g.mode = Number(args[0]) || 0; break;
      case ops.moveText: moveLine(Number(args[0]), Number(args[1])); break;
      case ops.setLeadingMoveText: leading = -Number(args[1]); moveLine(Number(args[0]), Number(args[1])); break;
      case ops.setTextMatrix: tlm = matrixOf(args) ?? IDENTITY; tm = tlm; break;
      case ops.nextLine: moveLine(0, -leading); break;
      case ops.showText: case ops.showSpacedText: show(args[0]); break;
      case ops.nextLineShowText: moveLine(0, -leading); show(args[0]); break;
      case ops.nextLineSetSpacingShowText: wordSpacing = Number(args[0]) || 0; charSpacing = Number(args[1]) || 0; moveLine(0, -leading); show(args[2]); break;
      case ops.setFillRGBColor: g.fill = typeof args[0] === 'string' ? args[0].toLowerCase() : g.fill; break;
      case ops.setGState: {
        for (const entry of (args[0] ?? []) as Array<[string, unknown]>) {
          if (!Array.isArray(entry)) continue;
          if (entry[0] === 'ca') g.alpha = Number(entry[1]);
          // A blend other than Normal (a highlight's Multiply) lets what is under it show through.
          if (entry[0] === 'BM' && !['normal', 'source-over', 'compatible'].includes(String(entry[1]).toLowerCase())) g.alpha = Math.min(g.alpha, 0.99);
        }
        break;
      }
      case ops.clip: case ops.eoClip: clipPending = true; break;
      case ops.constructPath: {
        const paint = Number(args[0]);
        // pdf.js leaves the path data or its bounds null for an empty path.
        const data = (args[1] as ArrayLike<number>[] | null | undefined)?.[0] ?? undefined;
        const bounds4 = args[2] as ArrayLike<number> | null | undefined;
        const minMax = bounds4 !== null && bounds4 !== undefined && bounds4.length >= 4 && Array.from(bounds4).every(Number.isFinite) ? bounds4 : undefined;
        if (clipPending && minMax !== undefined) {
          g.clip = intersect(g.clip, boxOf(g.ctm, [minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!]));
          g.clipIsBox &&= data !== undefined && rectangleOf(data) !== undefined && g.ctm[1] === 0 && g.ctm[2] === 0;
        }
        clipPending = false;
        const fills = [ops.fill, ops.eoFill, ops.fillStroke, ops.eoFillStroke, ops.closeFillStroke, ops.closeEOFillStroke].includes(paint);
        if (!fills || minMax === undefined) break;
        const bounds = intersect(boxOf(g.ctm, [minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!]), annotation ?? g.clip);
        if (g.fill !== '#ffffff') painted.push(bounds);
        const rectangle = data === undefined ? undefined : rectangleOf(data);
        if (g.alpha >= 1 && g.clipIsBox && rectangle !== undefined) opaque.push({ box: intersect(boxOf(g.ctm, rectangle), annotation ?? g.clip), order: order++ });
        break;
      }
      case ops.shadingFill: painted.push(g.clip); break;
      case ops.paintImageXObject: case ops.paintInlineImageXObject: case ops.paintImageXObjectRepeat: case ops.paintImageMaskXObject: {
        const box = intersect(boxOf(g.ctm, [0, 0, 1, 1]), g.clip);
        images.push(box);
        painted.push(box);
        break;
      }
      default: break;
    }
  }
  let shownChars = 0;
  let ocrChars = 0;
  let restsOnImages = false;
  const hidden = shown.filter((run) => {
    const chars = run.text.replace(/\s+/g, '').length;
    shownChars += chars;
    if (run.hidden === 'invisible') {
      const overImage = images.some((image) => overlaps(image, run.box));
      if (overImage) ocrChars += chars;
      restsOnImages ||= !overImage;
      return !overImage;
    }
    if (run.hidden === 'page colour') {
      const overPaint = painted.some((area) => overlaps(area, run.box));
      restsOnImages ||= !overPaint;
      return !overPaint;
    }
    if (run.hidden === 'clipped') return true;
    return opaque.some((area) => area.order > run.order && covers(area.box, run.box));
  }).map(({ text, x, y, size, width, direction }) => ({ text, x, y, size, width, direction }));
  return { hidden, ocrLayer: ocrChars > 0 && ocrChars >= shownChars * OCR_LAYER_SHARE, restsOnImages };
}
