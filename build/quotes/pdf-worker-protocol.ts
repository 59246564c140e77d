/** The messages between extract-pdf-text.ts and its worker thread (pdf-text-worker.ts). */

/** A worker's answer to one PDF: the text of each page, or why there is none. */
export type PdfWorkerAnswer = { ok: true; pages: string[] } | { ok: false; reason: string };
