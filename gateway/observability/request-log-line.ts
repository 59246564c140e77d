/**
 * The one line per request (issue 7), written by hand in a fixed shape (issue 15). pino builds a line by
 * walking the object it is given (own keys, a stringifier lookup and a quoting pass per key and value)
 * after the caller spread the fields into it; this line has eight fields known in advance, so they are
 * concatenated in order. The bytes are pino's for the same fields: its level, time and bindings
 * (`pid`) are taken from the logger, strings are quoted as pino quotes them, and
 * test/gateway/observability/request-log-line.test.ts compares the two. No field can hold a key or a
 * header: the line has no field for either, which is also why pino's redaction paths never match it.
 */
import { pino } from 'pino';
import type { LicensedKey } from '../keys/key-lookup.ts';
import { takesBytesInPlace, type ByteBatchedStream } from './byte-batched-stream.ts';
import type { GatewayLogger } from './gateway-logger.ts';
import { MAX_MILLIS_BYTES, writeMillis } from './write-millis.ts';

/** What one request line records; `started` is the `performance.now()` of its arrival. */
export interface RequestLogFacts {
  requestId: string;
  method: string;
  /** The route template (the route table's template, with its `:city` as written), never the path: a path could carry anything. */
  route: string;
  status: number;
  started: number;
  /** The key that was admitted and metered, if any: its id and tier are logged, never the key. */
  key?: LicensedKey;
  /** Set by the fast path, so an operator comparing latencies can tell which path answered. */
  fastPath?: true;
}

/** Writes the request line of `facts` through `log`, at level info. */
export function logRequestLine(log: GatewayLogger, facts: RequestLogFacts): void {
  if (!log.isLevelEnabled('info')) return;
  const writer = writerOf(log);
  if (writer === undefined) {
    log.info(requestLogFields(facts), 'request');
    return;
  }
  const { key } = facts;
  if (writer.bytes !== undefined) {
    writeLineBytes(writer.bytes, facts);
    return;
  }
  // Six pieces, five of them made once (per millisecond, route, key or logger), rather than twenty-odd per line.
  writer.stream.write(
    `${writer.opening()}${quote(facts.requestId)}${middleOf(facts)}${number(durationMs(facts.started))}${key === undefined ? '' : keyFields(key)}${
      facts.fastPath === true ? writer.fastClosing : writer.closing
    }`,
  );
}

/**
 * The same line written as bytes straight into the destination's batch (byte-batched-stream.ts): the four
 * pieces made once are kept as bytes too, and only the request id and the duration are encoded per line.
 */
function writeLineBytes(bytes: ByteLineWriter, facts: RequestLogFacts): void {
  const { key } = facts;
  const { opening } = bytes;
  const middle = middleBytesOf(facts);
  const keyPart = key === undefined ? EMPTY : keyBytes(key);
  const closing = facts.fastPath === true ? bytes.fastClosing : bytes.closing;
  const { requestId } = facts;
  // The quoted id takes at most six bytes per UTF-16 unit (`\u0000`), plus its quotes; the duration is ASCII.
  const most = opening.most() + requestId.length * 6 + 2 + middle.length + MAX_MILLIS_BYTES + keyPart.length + closing.length;
  const { stream } = bytes;
  const target = stream.room(most);
  let at = stream.at;
  at += opening.write(target, at);
  at += writeQuoted(target, at, requestId);
  target.set(middle, at);
  at += middle.length;
  // As `durationMs` rounds it, written without the number's text (write-millis.ts).
  at += writeMillis(target, at, Math.round((performance.now() - facts.started) * 1000));
  if (keyPart.length > 0) {
    target.set(keyPart, at);
    at += keyPart.length;
  }
  target.set(closing, at);
  stream.commit(at + closing.length);
}

const EMPTY = Buffer.alloc(0);

/**
 * Writes `text` quoted as `quote` quotes it, at `at`, and returns the bytes written. A request id is
 * ASCII that needs no escape (spec 8's characters, or a UUID): that one is written in one pass, byte by
 * byte; anything else goes through `quote` and the UTF-8 encoder.
 */
function writeQuoted(target: Buffer, at: number, text: string): number {
  const length = text.length;
  if (length <= 100) {
    target[at] = 34;
    let i = 0;
    for (; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code < 32 || code > 0x7e || code === 34 || code === 92) break;
      target[at + 1 + i] = code;
    }
    if (i === length) {
      target[at + 1 + length] = 34;
      return length + 2;
    }
  }
  return target.write(quote(text), at, 'utf8');
}

// `,"method":…,"route":…,"status":…,"durationMs":` by route, method and status, as text and as bytes.
// Only GET and HEAD are remembered: route and status come from the gateway, but a refused method is the
// client's own word.
const middleOf = rememberedMiddles((text) => text);
const middleBytesOf = rememberedMiddles((text) => Buffer.from(text));

function rememberedMiddles<T>(make: (text: string) => T): (facts: RequestLogFacts) => T {
  const byMethod = { GET: new Map<string, Map<number, T>>(), HEAD: new Map<string, Map<number, T>>() };
  return ({ method, route, status }) => {
    if (method !== 'GET' && method !== 'HEAD') return make(middleText(method, route, status));
    const byRoute = byMethod[method];
    let byStatus = byRoute.get(route);
    if (byStatus === undefined) {
      byStatus = new Map();
      byRoute.set(route, byStatus);
    }
    let middle = byStatus.get(status);
    if (middle === undefined) {
      middle = make(middleText(method, route, status));
      byStatus.set(status, middle);
    }
    return middle;
  };
}

function middleText(method: string, route: string, status: number): string {
  return `,"method":${quote(method)},"route":${quote(route)},"status":${number(status)},"durationMs":`;
}

// A key's fields, quoted once per key: the key stores hand out one key object per verdict, reused until
// the key's row changes (gateway/keys/judge-key-row.ts), and an object no longer held takes its text along.
const keyTexts = new WeakMap<LicensedKey, string>();

function keyFields(key: LicensedKey): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = `,"keyId":${quote(key.id)},"tier":${quote(key.tier)}`;
    keyTexts.set(key, text);
  }
  return text;
}

const keyByteTexts = new WeakMap<LicensedKey, Buffer>();

function keyBytes(key: LicensedKey): Buffer {
  let bytes = keyByteTexts.get(key);
  if (bytes === undefined) {
    bytes = Buffer.from(keyFields(key));
    keyByteTexts.set(key, bytes);
  }
  return bytes;
}

/** The same line as an object, for a logger this module cannot write for directly (and for tests). */
export function requestLogFields(facts: RequestLogFacts): Record<string, unknown> {
  const { key } = facts;
  return {
    requestId: facts.requestId,
    method: facts.method,
    route: facts.route,
    status: facts.status,
    durationMs: durationMs(facts.started),
    ...(key === undefined ? {} : { keyId: key.id, tier: key.tier }),
    ...(facts.fastPath === true ? { fastPath: true } : {}),
  };
}

/** Milliseconds since `started`, to the microsecond. */
function durationMs(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/** What a line is assembled from, read once per logger from pino's documented `pino.symbols`. */
interface LineWriter {
  /**
   * What every line starts with up to the request id's value: `{"level":30` (pino's info), pino's time
   * (`,"time":"…"`), the logger's bindings (`,"pid":…` for the gateway logger, and a child's own, if
   * any), `,"requestId":`.
   */
  opening: () => string;
  /** `,"msg":"request"`, `}` and the line end; `fastClosing` with `,"fastPath":true` before it. */
  closing: string;
  fastClosing: string;
  stream: { write(line: string): unknown };
  /** Present when the destination takes a line's bytes in place (byte-batched-stream.ts). */
  bytes?: ByteLineWriter;
}

/** The pieces made once, as UTF-8 bytes, and the destination they are written into. */
interface ByteLineWriter {
  opening: OpeningBytes;
  closing: Buffer;
  fastClosing: Buffer;
  stream: Pick<ByteBatchedStream, 'room' | 'at' | 'commit'>;
}

/** The opening written as bytes: `most()` bounds what the `write` right after it (same turn) writes. */
interface OpeningBytes {
  most(): number;
  /** Writes the opening at `at`; returns the bytes written. */
  write(target: Buffer, at: number): number;
}

// Present in pino 10 though its type declarations omit it.
const MSG_PREFIX = (pino.symbols as { msgPrefixSym?: symbol }).msgPrefixSym;

const writers = new WeakMap<GatewayLogger, LineWriter | null>();

/**
 * The writer of `log`, or undefined when pino would shape the line otherwise than plain concatenation:
 * a mixin, a log or message hook, serializers or stringifiers for our fields, a message key other than
 * `msg`, a nested key, or a destination that wants each line's metadata. The gateway logger has none.
 */
function writerOf(log: GatewayLogger): LineWriter | undefined {
  let writer = writers.get(log);
  if (writer === undefined) {
    writer = inspect(log);
    writers.set(log, writer);
  }
  return writer ?? undefined;
}

function inspect(log: GatewayLogger): LineWriter | null {
  const symbols = pino.symbols;
  const internals = log as unknown as Record<symbol, unknown>;
  const stream = internals[symbols.streamSym] as (LineWriter['stream'] & Record<symbol, unknown>) | undefined;
  const levels = internals[symbols.lsCacheSym] as Record<number, string> | undefined;
  const serializers = (internals[symbols.serializersSym] ?? {}) as Record<string, unknown>;
  const stringifiers = (internals[symbols.stringifiersSym] ?? {}) as Record<string | symbol, unknown>;
  const hooks = (internals[symbols.hooksSym] ?? {}) as Record<string, unknown>;
  const formatters = (internals[symbols.formattersSym] ?? {}) as Record<string, unknown>;
  const head = levels?.[log.levels.values.info ?? 30];
  const time = internals[symbols.timeSym];
  const bindings = internals[symbols.chindingsSym];
  const end = internals[symbols.endSym];
  const fields = ['requestId', 'method', 'route', 'status', 'durationMs', 'keyId', 'tier', 'fastPath', 'msg'];
  const plain =
    stream !== undefined && typeof stream.write === 'function' && stream[symbols.needsMetadataGsym] !== true &&
    typeof head === 'string' && typeof time === 'function' && typeof bindings === 'string' && typeof end === 'string' &&
    internals[symbols.mixinSym] === undefined && internals[symbols.messageKeySym] === 'msg' && !internals[symbols.nestedKeySym] &&
    (MSG_PREFIX === undefined || !internals[MSG_PREFIX]) && hooks.logMethod === undefined && hooks.streamWrite === undefined && formatters.log === undefined &&
    stringifiers[symbols.wildcardFirstSym] === undefined && fields.every((field) => serializers[field] === undefined && stringifiers[field] === undefined);
  if (!plain) return null;
  const closing = `,"msg":"request"${end}`;
  const fastClosing = `,"fastPath":true${closing}`;
  const opening = time === pino.stdTimeFunctions.isoTime
    ? openingOncePerMillisecond(head, bindings)
    : () => `${head}${(time as () => string)()}${bindings},"requestId":`;
  const writer: LineWriter = { opening, closing, fastClosing, stream };
  if (takesBytesInPlace(stream)) {
    const openingBytes = time === pino.stdTimeFunctions.isoTime ? isoOpeningBytes(head, bindings) : bytesOncePerText(opening);
    writer.bytes = { opening: openingBytes, closing: Buffer.from(closing), fastClosing: Buffer.from(fastClosing), stream };
  }
  return writer;
}

/** `text()` as bytes, encoded again only when the text changes (a logger with its own time function). */
function bytesOncePerText(text: () => string): OpeningBytes {
  let last = '';
  let bytes = EMPTY;
  return {
    most() {
      const now = text();
      if (now !== last) {
        last = now;
        bytes = Buffer.from(now);
      }
      return bytes.length;
    },
    // The bytes `most` just read: the clock may have moved on since, and the bound must hold for what is written.
    write(target, at) {
      target.set(bytes, at);
      return bytes.length;
    },
  };
}

/**
 * The opening with pino's ISO time as bytes, without a Date, an ISO string or an encoding per line: the
 * text up to the time's `.` is made once per second, and each line writes the clock's three millisecond
 * digits, then `Z"`, the bindings and `,"requestId":`, made once. Made once per millisecond, as before, it
 * was remade every few lines at the bench's rates (issue 43). The same bytes as `new Date(now).toISOString()` at any
 * time (test/gateway/observability/request-log-line.test.ts walks the clock across seconds and years).
 */
function isoOpeningBytes(head: string, bindings: string): OpeningBytes {
  let second = Number.NaN;
  let before = EMPTY;
  const after = Buffer.from(`Z"${bindings},"requestId":`);
  // The longest ISO time (`+275760-09-13T00:00:00.000Z`, the last a Date holds) has 27 characters, all ASCII.
  const most = Buffer.byteLength(`${head},"time":"`) + 27 + 1 + after.length;
  return {
    most: () => most,
    write(target, at) {
      const now = Date.now();
      const whole = Math.floor(now / 1000);
      if (whole !== second) {
        second = whole;
        const iso = new Date(whole * 1000).toISOString();
        // Everything but the `000Z` of the whole second: the three digits are each line's own.
        before = Buffer.from(`${head},"time":"${iso.slice(0, -4)}`);
      }
      const millis = now - whole * 1000;
      target.set(before, at);
      let end = at + before.length;
      target[end++] = 48 + Math.floor(millis / 100);
      target[end++] = 48 + (Math.floor(millis / 10) % 10);
      target[end++] = 48 + (millis % 10);
      target.set(after, end);
      return end + after.length - at;
    },
  };
}

/** The opening with pino's ISO time, made once per millisecond rather than once per line: the same text. */
function openingOncePerMillisecond(head: string, bindings: string): () => string {
  let at = Number.NaN;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      text = `${head},"time":"${new Date(now).toISOString()}"${bindings},"requestId":`;
    }
    return text;
  };
}

// pino 10 quotes strings with JSON.stringify from Node 25 on, and by hand before it (see `quote`).
const STRINGIFY_ONLY = Number(process.versions.node.split('.')[0]) >= 25;

/**
 * A JSON string as pino 10 quotes one before Node 25: `"` and `\` escaped in place when the string is at
 * most 100 characters and has no control character, else `JSON.stringify`. The two differ only on a
 * lone surrogate, which pino leaves raw (and the UTF-8 encoder turns into U+FFFD); so does this.
 */
function quote(text: string): string {
  if (STRINGIFY_ONLY) return JSON.stringify(text);
  const length = text.length;
  if (length > 100) return JSON.stringify(text);
  let plain = true;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32) return JSON.stringify(text);
    if (code === 34 || code === 92) plain = false;
  }
  return plain ? `"${text}"` : `"${text.replace(/["\\]/g, '\\$&')}"`;
}

/** A number as pino writes one: its shortest text, `null` when not finite. */
function number(value: number): string {
  return Number.isFinite(value) ? String(value) : 'null';
}
