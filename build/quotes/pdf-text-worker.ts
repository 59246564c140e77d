/**
 * The worker thread behind extract-pdf-text.ts: reads one PDF's text layer per message with pdf.js. It runs
 * in its own thread so that a PDF that never finishes or eats memory can be terminated without harm to the
 * run (pdf.js in Node runs its own "worker" on this same thread).
 */
import { parentPort } from 'node:worker_threads';
import { joinPdfTextItems } from './join-pdf-text-items.ts';
import type { PdfWorkerAnswer } from './pdf-worker-protocol.ts';

const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');

async function readPdf(data: Uint8Array): Promise<PdfWorkerAnswer> {
  const task = pdfjs.getDocument({
    data,
    // No code generation from the file, no fonts loaded, no network: only the text layer is wanted.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    disableAutoFetch: true,
    verbosity: 0,
  });
  try {
    const document = await task.promise;
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      pages.push(joinPdfTextItems(content.items.flatMap((item) => ('str' in item ? [item] : []))));
      page.cleanup();
    }
    return { ok: true, pages };
  } catch (error) {
    const name = error instanceof Error ? error.name : '';
    if (name === 'PasswordException') return { ok: false, reason: 'pdf is password-protected' };
    if (name === 'InvalidPDFException') return { ok: false, reason: 'pdf is damaged (invalid structure)' };
    return { ok: false, reason: `pdf could not be read (${error instanceof Error ? error.message : String(error)})`.toLowerCase() };
  } finally {
    await task.destroy();
  }
}

parentPort!.on('message', (message: { bytes: ArrayBuffer }) => {
  void readPdf(new Uint8Array(message.bytes)).then((answer) => parentPort!.postMessage(answer));
});
