/** The shape a replay reads an archived HTTP response in, whichever reader found it (index or file scan). */

/** One archived response: the final answer a verdict rests on, its payload as received on the wire. */
export interface ArchivedResponse {
  /** The WARC file holding the record, as messages name it. */
  file: string;
  /** The WARC-Record-ID of the response (or revisit) record, `<urn:uuid:…>`. */
  recordId: string;
  /** The record's WARC-Target-URI, as its own member gives it: the URL that gave this response. */
  targetUri: string;
  /** The record's WARC-Date (ISO 8601). */
  warcDate: string;
  status: number;
  /** HTTP response headers, lower-cased names (as undici delivered them to the run). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The HTTP entity body as received (content-encoding kept); for a revisit, the payload it repeats. */
  payload: Uint8Array;
  /** WARC-Truncated of the record holding the payload (`length` for a body read only in part), if any. */
  truncated?: string;
}
