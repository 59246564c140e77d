/**
 * Reads one PDF's text layer with pdf.js, page by page: the work itself, free of where it runs (the page-text
 * child process of create-page-text-extractor.ts, through extractPageText).
 */
import { fileURLToPath } from 'node:url';
import { dropHiddenPdfText } from './drop-hidden-pdf-text.ts';
import { readPdfTextVisibility, type HiddenRun, type PdfTextVisibility } from './find-hidden-pdf-text.ts';
import { joinPdfTextItems, type PdfTextItem } from './join-pdf-text-items.ts';
import { loadPdfjs } from './load-pdfjs.ts';
import { orderPdfTextColumns } from './order-pdf-text-columns.ts';
import { placeFormFieldValues, type PdfAnnotation } from './place-form-field-values.ts';

/** The text of each page, and which pages (0-based) are OCR layers over a scan; or why there is no text. */
export type PdfPagesAnswer = { ok: true; pages: string[]; ocrPages: number[] } | { ok: false; reason: string };

const pdfjs = await loadPdfjs();
// The predefined CMaps pdfjs-dist ships (cmaps/ beside build/ and legacy/), as pdf.js reads them in Node:
// a file path (it calls fs.readFile on base + name + '.bcmap'), ending in a slash.
const CMAP_DIRECTORY = fileURLToPath(new URL('../../cmaps/', import.meta.resolve('pdfjs-dist/legacy/build/pdf.mjs')));

/** A page with more characters of text than this is not searched for hidden text (its operator list is not read). */
export const HIDDEN_TEXT_MAX_CHARS = 200_000;

/** No code generation from the file, no fonts loaded, no network: only the text layer is wanted. */
const DOCUMENT_OPTIONS = {
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  disableAutoFetch: true,
  verbosity: 0,
  // Without the CMaps the text of a CID font with a predefined encoding (UniJIS-UCS2-H, or Identity-H
  // without a ToUnicode map) vanishes. Standard font data is left out: tried on real documents, it made
  // a real form's text worse.
  cMapUrl: CMAP_DIRECTORY,
  cMapPacked: true,
} as const;

/**
 * The text of each page of the PDF `data`, or why there is none (password, damage, a pdf.js failure).
 *
 * pdf.js decodes every image its operator list paints (a fifth of the CPU on real PDFs), though the hidden-
 * text rule needs only where an image lies, and no option keeps the paint operator without the decoding
 * (`maxImageSize` drops both). So the pages are read with images dropped (`maxImageSize: 0`), and a page's
 * operator list is read again with its images only where the first reading found text whose verdict rests on
 * them (PdfTextVisibility.restsOnImages): images only ever make text visible, so elsewhere both readings agree.
 */
export async function readPdfPages(data: Uint8Array): Promise<PdfPagesAnswer> {
  // pdf.js takes (detaches) the bytes it is given; the reading with images, if any page needs it, gets these.
  const copy = data.slice();
  const task = pdfjs.getDocument({ ...DOCUMENT_OPTIONS, data, maxImageSize: 0 });
  let withImages: ReturnType<typeof pdfjs.getDocument> | undefined;
  try {
    const document = await task.promise;
    const pages: string[] = [];
    const ocrPages: number[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      const items: PdfTextItem[] = content.items.flatMap((item) => ('str' in item ? [item] : []));
      // What the page draws where no one sees it (issue 40 item 7) is cut out before the lines are read; not
      // on a page of more text than any handout holds, whose operator list would cost its reading twice over.
      let hidden: HiddenRun[] = [];
      if (items.reduce((sum, item) => sum + item.str.length, 0) <= HIDDEN_TEXT_MAX_CHARS) {
        const view = page.view as [number, number, number, number];
        let visibility = await visibilityOf(page, view);
        if (visibility.restsOnImages) {
          withImages ??= pdfjs.getDocument({ ...DOCUMENT_OPTIONS, data: copy });
          const imaged = await (await withImages.promise).getPage(number);
          visibility = await visibilityOf(imaged, view);
          imaged.cleanup();
        }
        hidden = visibility.hidden;
        // Its quotes are matched with the OCR layer's tolerance (quote-occurs-in-ocr-layer.ts, issue 40 item 1).
        if (visibility.ocrLayer) ocrPages.push(number - 1);
      }
      // Filled form fields show their values over the page (issue 40 item 5), after what they cover is cut out.
      const annotations = (await page.getAnnotations({ intent: 'display' })) as PdfAnnotation[];
      pages.push(joinPdfTextItems(orderPdfTextColumns(placeFormFieldValues(dropHiddenPdfText(items, hidden), annotations))));
      page.cleanup();
    }
    return { ok: true, pages, ocrPages };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException') return { ok: false, reason: 'pdf is password-protected' };
    if (name === 'InvalidPDFException') return { ok: false, reason: 'pdf is damaged (invalid structure)' };
    return { ok: false, reason: `pdf could not be read (${error instanceof Error ? error.message : String(error)})`.toLowerCase() };
  } finally {
    await Promise.all([task.destroy(), withImages?.destroy()]);
  }
}

/** The hidden text of `page` (cropped to `view`) and whether it is an OCR layer, from its operator list. */
async function visibilityOf(page: Awaited<ReturnType<Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>['getPage']>>, view: [number, number, number, number]): Promise<PdfTextVisibility> {
  const operators = await page.getOperatorList();
  return readPdfTextVisibility(operators.fnArray, operators.argsArray, pdfjs.OPS, view);
}
