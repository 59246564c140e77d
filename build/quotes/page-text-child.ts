/**
 * The child process behind create-page-text-extractor.ts: extracts one page at a time with
 * extractPageText, reading PDFs on this same thread (read-pdf-pages.ts), since the whole process is what
 * the parent kills at its time and memory limits; and judges quotes against the text when asked to
 * (judge-page-text.ts), so a long text is never normalized by the parent.
 */
import { extractPageText } from './extract-page-text.ts';
import { judgePageText } from './judge-page-text.ts';
import type { PageTextReply, PageTextRequest } from './page-text-protocol.ts';
// Loaded before `ready`, so a child's first PDF does not pay for pdf.js (extractPageText loads it on first use).
import './read-pdf-pages.ts';

const send = (reply: PageTextReply) => process.send!(reply);
// The parent may go without killing this process (SIGKILL, a crash): the closed channel is the sign.
process.on('disconnect', () => process.exit(0));
// One page at a time, in order: the parent may hand over the next page while this one is read.
let queue = Promise.resolve();
process.on('message', (request: PageTextRequest) => {
  queue = queue.then(() => answer(request));
});

async function answer(request: PageTextRequest): Promise<void> {
  const { body, contentType, complete } = request.page;
  // The structured clone hands a Buffer back as a Buffer; a plain view keeps extractPageText's input as typed.
  const page = { body: new Uint8Array(body.buffer, body.byteOffset, body.byteLength), contentType, complete };
  try {
    const text = await extractPageText(page);
    send({ kind: 'answer', id: request.id, text: text.kind === 'text' && request.quotes !== undefined ? judgePageText(text, request.quotes) : text });
  } catch (error) {
    send({ kind: 'answer', id: request.id, text: { kind: 'inconclusive', format: 'other', reason: `page extraction failed (${(error as Error).message})`.toLowerCase() } });
  }
}
send({ kind: 'ready' });
