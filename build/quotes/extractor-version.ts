/**
 * The version of the quote judgement (page-text extraction and quote matching), written on every quote-check
 * line. Bump the number whenever a change to build/quotes can change a verdict; the pdf.js version is part of
 * it because its text layer is (a test holds it equal to the installed one). Replay re-judges archived pages
 * where the version differs (issue 32).
 */
export const EXTRACTOR_VERSION = '4+pdfjs-dist-5.4.449';
