/**
 * PDFs made by the tests themselves (never files of unknown origin), with pdf-lib: a text layer holding
 * given lines or runs placed one by one, pages drawn only as an image (a scan), a scan with an invisible OCR layer, lines under a white proof stamp, or a small file whose page takes pdf.js a long time
 * (a compressed content stream of millions of text operations), for time limits.
 */
import { deflateSync, crc32 } from 'node:zlib';
import {
  beginText, endText, PDFArray, PDFDocument, PDFNumber, PDFOperator, PDFOperatorNames, popGraphicsState, pushGraphicsState, setFillingRgbColor,
  setFontAndSize, setTextMatrix, setTextRenderingMode, StandardFonts, TextRenderingMode,
} from 'pdf-lib';

/** One run of Helvetica text at baseline y (from the bottom); without x it starts where the previous run ends. */
export interface TestPdfRun {
  text: string;
  x?: number;
  y: number;
  size: number;
}

/** What the PDF holds. */
export type TestPdfSpec =
  /** Each page's lines, drawn top down in Helvetica (WinAnsi: Latin-1 letters, ’ “ ” – — and $ are fine). */
  | { kind: 'text'; pages: string[][] }
  /**
   * One page of Helvetica runs, each at its own baseline y (from the bottom) and size: superscripts. A run
   * without x starts where the previous run ends.
   */
  | { kind: 'runs'; runs: TestPdfRun[] }
  /** One page drawn as a grey image and nothing else: no text layer. */
  | { kind: 'image-only' }
  /**
   * A scan with its OCR layer: one page drawn as a grey image, `lines` drawn over it top down in invisible
   * Helvetica (render mode 3), as OCR tools lay recognized text over the scan; `visible` lines (ordinary
   * text, drawn below them) when given.
   */
  | { kind: 'ocr-scan'; lines: string[]; visible?: string[] }
  /** One page whose content stream repeats a text operation `operations` times (deflated: a few KiB). */
  | { kind: 'slow'; operations: number }
  /**
   * `lines` as in `text`, and at the foot a white stamp drawn as the Federal Register's proof stamp is: one
   * TJ whose `stamp` pieces are a wide kern apart, which pdf.js gives as several items.
   */
  | { kind: 'stamped'; lines: string[]; stamp: string[] };

/** Returns the bytes of a PDF made to `spec`. */
export async function makeTestPdf(spec: TestPdfSpec): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  // Fixed dates and producer: the same spec gives the same bytes.
  doc.setCreationDate(new Date(0));
  doc.setModificationDate(new Date(0));
  doc.setProducer('home-repair-api tests');
  if (spec.kind === 'text') {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const lines of spec.pages) {
      const page = doc.addPage([612, 792]);
      lines.forEach((line, index) => page.drawText(line, { x: 54, y: 720 - index * 16, size: 12, font }));
    }
  } else if (spec.kind === 'runs') {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    let x = 54;
    for (const run of spec.runs) {
      x = run.x ?? x;
      page.drawText(run.text, { x, y: run.y, size: run.size, font });
      x += font.widthOfTextAtSize(run.text, run.size);
    }
  } else if (spec.kind === 'image-only') {
    const image = await doc.embedPng(greyPng(64, 64));
    doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  } else if (spec.kind === 'ocr-scan') {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const image = await doc.embedPng(greyPng(64, 64));
    const page = doc.addPage([612, 792]);
    page.drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    spec.visible?.forEach((line, index) => page.drawText(line, { x: 54, y: 200 - index * 16, size: 12, font }));
    page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
    spec.lines.forEach((line, index) => page.drawText(line, { x: 54, y: 720 - index * 16, size: 12, font }));
  } else if (spec.kind === 'stamped') {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    spec.lines.forEach((line, index) => page.drawText(line, { x: 54, y: 720 - index * 16, size: 12, font }));
    const pieces = PDFArray.withContext(doc.context);
    spec.stamp.forEach((piece, index) => {
      if (index > 0) pieces.push(PDFNumber.of(-1076.9));
      pieces.push(font.encodeText(piece));
    });
    page.pushOperators(
      pushGraphicsState(), beginText(), setFillingRgbColor(1, 1, 1), setFontAndSize(page.node.newFontDictionary('Stamp', font.ref), 6.5),
      setTextMatrix(1, 0, 0, 1, 25, 20), PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [pieces]), endText(), popGraphicsState(),
    );
  } else {
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    const key = page.node.newFontDictionary('Slow', font.ref);
    const content = `BT ${key.toString()} 12 Tf 54 720 Td ${'(x) Tj 0.01 0 Td '.repeat(spec.operations)}ET`;
    const stream = doc.context.flateStream(content);
    page.node.addContentStream(doc.context.register(stream));
  }
  return doc.save({ useObjectStreams: false });
}

/** A valid grayscale PNG of `width` x `height` mid-grey pixels. */
function greyPng(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  // Each row: filter byte 0, then the pixels.
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let row = 0; row < height; row++) rows[row * (width + 1)] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
