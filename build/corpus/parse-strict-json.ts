/**
 * Parses one corpus JSON text and refuses what the revision cannot hash reproducibly. JSON.parse builds the
 * value (it is fast, but keeps the last of duplicate keys and accepts lone surrogates and 1E400); a cheap
 * check of that value vouches for almost every text, and only the rest get the full scan that names the fault.
 */
import { visit } from 'jsonc-parser';
import { findJsonViolations, LONE_SURROGATE, MAX_JSON_DEPTH, type JsonViolation } from './find-json-violations.ts';

/** A parsed text: its value (undefined when it is not JSON at all) and what keeps it from being canonical. */
export interface StrictJson {
  value: unknown;
  violations: JsonViolation[];
}

// A count the cheap check cannot vouch for; the full scan decides.
const UNSURE = -1;

/**
 * Parses `text` as one JSON value; any violation means the value must not be used as it stands. The text must
 * come from strict UTF-8 decoding (decodeCorpusText), which cannot yield a surrogate outside an escape.
 */
export function parseStrictJson(text: string): StrictJson {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const at = firstSyntaxError(text);
    return { value: undefined, violations: [{ line: at.line, path: '$', message: `not valid JSON (${describeSyntaxError((error as Error).message, at.character)})` }] };
  }
  // Every ':' outside a string separates one member, so when the text holds exactly as many ':' as the
  // parsed value has members plus ':' inside its keys and strings, no member was lost to a duplicate key.
  // Only a \u escape can make a decoded string differ from its text: an escaped ':' would break the count,
  // and only an escape can produce a lone surrogate (the text itself was decoded as strict UTF-8).
  const escaped = text.includes('\\u');
  if (!(escaped && /\\u003a/i.test(text))) {
    const expected = countMembersAndColons(value, escaped, 1);
    if (expected !== UNSURE && expected === countColons(text)) return { value, violations: [] };
  }
  return { value, violations: findJsonViolations(text) };
}

function countMembersAndColons(value: unknown, escaped: boolean, depth: number): number {
  if (typeof value === 'string') return countStringColons(value, escaped);
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : UNSURE;
  if (value === null || typeof value !== 'object') return 0;
  if (depth > MAX_JSON_DEPTH) return UNSURE;
  let count = 0;
  if (Array.isArray(value)) {
    for (const member of value) {
      const inner = countMembersAndColons(member, escaped, depth + 1);
      if (inner === UNSURE) return UNSURE;
      count += inner;
    }
    return count;
  }
  const object = value as Record<string, unknown>;
  for (const key in object) {
    const inKey = countStringColons(key, escaped);
    const inner = countMembersAndColons(object[key], escaped, depth + 1);
    if (inKey === UNSURE || inner === UNSURE) return UNSURE;
    count += 1 + inKey + inner;
  }
  return count;
}

function countStringColons(text: string, escaped: boolean): number {
  if (escaped && LONE_SURROGATE.test(text)) return UNSURE;
  return countColons(text);
}

function countColons(text: string): number {
  let count = 0;
  for (let index = text.indexOf(':'); index !== -1; index = text.indexOf(':', index + 1)) count += 1;
  return count;
}

/** The 0-based line of the first syntax error jsonc-parser finds, or 0 when it finds none before giving up. */
function firstSyntaxError(text: string): { line: number; character: number } {
  const at = { line: 0, character: 0 };
  try {
    visit(text, {
      onError(_error, _offset, _length, startLine, startCharacter) {
        at.line = startLine;
        at.character = startCharacter;
        throw new Error('stop at the first syntax error');
      },
    }, { disallowComments: true, allowTrailingComma: false });
  } catch {
    // Stopped at the first error, or nested too deep for its recursive parser: the place found so far stands.
  }
  return at;
}

const INVISIBLE = /^[\u0000-\u001f\u007f-\u00a0\u00ad\u2000-\u200f\u2028-\u202f\u2060-\u206f\ufeff]$/u;

/**
 * V8's message without the file's text: "Unexpected token 'r', "root:x:0:0"... is not valid JSON" quotes the
 * bytes around the fault, which for a file that is not JSON at all (a symlinked /etc/passwd) would print its
 * content. The character is named only when it is invisible (a stray U+FEFF, U+200B), by its code point.
 */
export function describeSyntaxError(message: string, character: number): string {
  const token = /^Unexpected token '(.+?)', /su.exec(message);
  if (token === null) return message.replace(/, ".*" is not valid JSON$/su, '');
  const code = token[1]!.codePointAt(0)!;
  const named = INVISIBLE.test(token[1]!) ? ` U+${code.toString(16).toUpperCase().padStart(4, '0')}` : '';
  return `unexpected character${named} at column ${character + 1}`;
}
