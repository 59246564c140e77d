/** Turns a page's bytes into text the way a browser picks the encoding (WHATWG encoding sniffing). */
import { isUtf8 } from 'node:buffer';
import { labelToName, legacyHookDecode } from '@exodus/bytes/encoding.js';
import sniffHtmlEncoding from 'html-encoding-sniffer';

/**
 * The decoded text, or why there is none: a label the Encoding Standard maps to its `replacement`
 * encoding (`iso-2022-kr`, `csiso2022kr`, `hz-gb-2312`, `iso-2022-cn`, ...), which decodes any bytes to
 * one U+FFFD, so a browser shows nothing of the page.
 */
export type DecodedText = { kind: 'text'; text: string } | { kind: 'unreadable'; reason: string };

/**
 * Decodes `bytes` as an HTML document: a byte order mark wins, then the `charset` of the Content-Type
 * header, then a `<meta charset>` or `<meta http-equiv="Content-Type">` in the first 1024 bytes. Labels are
 * read per the Encoding Standard, so `iso-8859-1` and `latin1` decode as windows-1252 (0x92 is U+2019, not
 * a control). A page that declares nothing is UTF-8 when its bytes are valid UTF-8, else windows-1252 (the
 * HTML Standard's default for English locales): browsers' encoding detectors conclude the same, and
 * windows-1252 text with accents is practically never valid UTF-8. Bytes invalid in the chosen encoding
 * become U+FFFD, as in a browser.
 */
export function decodeHtml(bytes: Uint8Array, transportCharset: string | undefined): DecodedText {
  const encoding = sniffHtmlEncoding(bytes, {
    transportLayerEncodingLabel: transportCharset,
    defaultEncoding: isUtf8(bytes) ? 'UTF-8' : 'windows-1252',
  });
  if (encoding === 'replacement') {
    const named = transportCharset !== undefined && labelToName(transportCharset) === 'replacement' ? `charset ${transportCharset}` : 'a <meta> charset';
    return { kind: 'unreadable', reason: `html declared in ${named}, which the Encoding Standard decodes as replacement (no text)` };
  }
  // legacyHookDecode lets a BOM win again and strips it, which is the HTML Standard's "decode".
  return { kind: 'text', text: legacyHookDecode(bytes, encoding) };
}

/** Decodes plain text: its BOM, else its `charset` when the Encoding Standard knows the label, else UTF-8. */
export function decodePlainText(bytes: Uint8Array, charset: string | undefined): DecodedText {
  const encoding = charset === undefined ? null : labelToName(charset);
  if (encoding === 'replacement') {
    return { kind: 'unreadable', reason: `text declared in charset ${charset}, which the Encoding Standard decodes as replacement (no text)` };
  }
  // A bogus label falls back like a missing one.
  return { kind: 'text', text: legacyHookDecode(bytes, encoding ?? 'utf-8') };
}
