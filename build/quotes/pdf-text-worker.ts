/**
 * The worker thread behind extract-pdf-text.ts: reads one PDF's text layer per message (read-pdf-pages.ts).
 * It runs in its own thread so that a PDF that never finishes or eats memory can be terminated without harm
 * to the run (pdf.js in Node runs its own "worker" on this same thread).
 */
import { parentPort } from 'node:worker_threads';
import { readPdfPages } from './read-pdf-pages.ts';

parentPort!.on('message', (message: { bytes: ArrayBuffer }) => {
  void readPdfPages(new Uint8Array(message.bytes)).then((answer) => parentPort!.postMessage(answer));
});
