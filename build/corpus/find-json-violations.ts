/**
 * The full scan of a JSON text for what RFC 8785 (JCS) cannot canonicalize, located by line and JSON path.
 * parseStrictJson runs it only when its cheap check cannot vouch for a text, so it may be slow.
 */
import { visit, type JSONPath } from 'jsonc-parser';
import { formatJsonPath } from './json-path.ts';

/**
 * The deepest nesting of arrays and objects a corpus value may have (the row or document itself is level 1).
 * The canonical encoder recurses once per level, so without a bound a deep enough value would overflow the
 * stack in `digest` after passing `validate`.
 */
export const MAX_JSON_DEPTH = 64;

/** One thing in a JSON text that has no RFC 8785 form. */
export interface JsonViolation {
  /** 0-based line within the scanned text. */
  line: number;
  path: string;
  message: string;
}

/** A surrogate code unit that is not half of a pair: not Unicode, so it has no UTF-8 encoding to hash. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

class NestingLimit extends Error {}

/**
 * Lists, in text order, what RFC 8785 section 3.1 (I-JSON input) forbids: every duplicate key, lone surrogate
 * in a key or string, and number beyond the IEEE 754 double range; and the first value nested deeper than
 * MAX_JSON_DEPTH. The text must be one JSON value that JSON.parse accepts.
 */
export function findJsonViolations(text: string): JsonViolation[] {
  const violations: JsonViolation[] = [];
  // One entry per open array or object; an object's entry records the keys seen so far in it.
  const open: Array<Set<string> | undefined> = [];
  const enter = (keys: Set<string> | undefined, line: number, pathOf: () => JSONPath) => {
    if (open.length === MAX_JSON_DEPTH) {
      violations.push({ line, path: formatJsonPath(pathOf()), message: `nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` });
      throw new NestingLimit();
    }
    open.push(keys);
  };
  const leave = () => {
    open.pop();
  };
  try {
    visit(text, {
      onObjectBegin: (_offset, _length, line, _column, pathOf) => enter(new Set(), line, pathOf),
      onArrayBegin: (_offset, _length, line, _column, pathOf) => enter(undefined, line, pathOf),
      onObjectEnd: leave,
      onArrayEnd: leave,
      onObjectProperty(name, _offset, _length, line, _column, pathOf) {
        const path = formatJsonPath([...pathOf(), name]);
        const lone = LONE_SURROGATE.exec(name);
        if (lone) violations.push({ line, path, message: `key holds a lone surrogate ${escapeUnit(lone[0])} (not Unicode text)` });
        const keys = open.at(-1);
        if (keys?.has(name)) violations.push({ line, path, message: `duplicate key ${JSON.stringify(name)} (keys must be unique within an object)` });
        keys?.add(name);
      },
      onLiteralValue(value: unknown, offset, length, line, _column, pathOf) {
        if (typeof value === 'number' && !Number.isFinite(value)) {
          const written = text.slice(offset, offset + Math.min(length, 40)) + (length > 40 ? '…' : '');
          violations.push({ line, path: formatJsonPath(pathOf()), message: `number ${written} is beyond the range of an IEEE 754 double (it would read as infinite)` });
        } else if (typeof value === 'string') {
          const lone = LONE_SURROGATE.exec(value);
          if (lone) violations.push({ line, path: formatJsonPath(pathOf()), message: `string holds a lone surrogate ${escapeUnit(lone[0])} (not Unicode text)` });
        }
      },
    }, { disallowComments: true, allowTrailingComma: false });
  } catch (error) {
    if (!(error instanceof NestingLimit)) throw error;
  }
  return violations;
}

function escapeUnit(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
