// html-encoding-sniffer 6 ships no types; its one export, as its README documents it.
declare module 'html-encoding-sniffer' {
  /** Returns the canonical name of the encoding the HTML Standard's sniffing algorithm picks for `bytes`. */
  export default function sniffHtmlEncoding(
    bytes: Uint8Array,
    options?: { xml?: boolean; transportLayerEncodingLabel?: string | undefined; defaultEncoding?: string },
  ): string;
}
