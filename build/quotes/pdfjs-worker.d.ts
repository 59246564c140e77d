/** pdfjs-dist ships no types for its worker bundle; load-pdfjs.ts imports it only for its side effect (globalThis.pdfjsWorker). */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
