/** Turns an HTML page's bytes into text the way a browser picks the encoding (WHATWG encoding sniffing). */
import { isUtf8 } from 'node:buffer';
import { legacyHookDecode } from '@exodus/bytes/encoding.js';
import sniffHtmlEncoding from 'html-encoding-sniffer';

/**
 * Decodes `bytes` as an HTML document: a byte order mark wins, then the `charset` of the Content-Type
 * header, then a `<meta charset>` or `<meta http-equiv="Content-Type">` in the first 1024 bytes. Labels are
 * read per the Encoding Standard, so `iso-8859-1` and `latin1` decode as windows-1252 (0x92 is U+2019, not
 * a control). A page that declares nothing is UTF-8 when its bytes are valid UTF-8, else windows-1252 (the
 * HTML Standard's default for English locales): browsers' encoding detectors conclude the same, and
 * windows-1252 text with accents is practically never valid UTF-8. Bytes invalid in the chosen encoding
 * become U+FFFD, as in a browser.
 */
export function decodeHtml(bytes: Uint8Array, transportCharset: string | undefined): string {
  const encoding = sniffHtmlEncoding(bytes, {
    transportLayerEncodingLabel: transportCharset,
    defaultEncoding: isUtf8(bytes) ? 'UTF-8' : 'windows-1252',
  });
  // legacyHookDecode lets a BOM win again and strips it, which is the HTML Standard's "decode".
  return legacyHookDecode(bytes, encoding);
}
