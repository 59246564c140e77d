/**
 * A fast-check arbitrary of JSON texts that JSON.parse accepts, each with an independent verdict on whether
 * RFC 8785 can canonicalize it: texts with duplicate keys (also spelled with escapes), lone surrogates,
 * numbers beyond the double range and deep nesting are generated often, beside well-formed ones.
 */
import fc from 'fast-check';

/** A generated JSON text and the verdict the generator knows about it. */
export interface JsonTextModel {
  text: string;
  /** No duplicate key, no lone surrogate, every number a finite double. */
  canonical: boolean;
  /** Arrays and objects nested in the value: 0 for a scalar, 1 for `[]`. */
  depth: number;
}

// The oracle's own test, written apart from the code under test.
const isLoneSurrogateAt = (text: string, index: number): boolean => {
  const unit = text.charCodeAt(index);
  if (unit >= 0xd800 && unit <= 0xdbff) {
    const next = text.charCodeAt(index + 1);
    return !(next >= 0xdc00 && next <= 0xdfff);
  }
  if (unit >= 0xdc00 && unit <= 0xdfff) {
    const previous = index > 0 ? text.charCodeAt(index - 1) : 0;
    return !(previous >= 0xd800 && previous <= 0xdbff);
  }
  return false;
};
const isWellFormed = (text: string): boolean => [...Array(text.length).keys()].every((index) => !isLoneSurrogateAt(text, index));

interface StringModel {
  text: string;
  decoded: string;
}

const hex = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/** One piece of a JSON string: raw text, a JSON escape, or a \u escape of any code unit (surrogates included). */
const stringPiece = (alphabet: readonly string[]): fc.Arbitrary<StringModel> => fc.oneof(
  fc.constantFrom(...alphabet).map((character) => ({ text: character, decoded: character })),
  fc.constantFrom(['\\"', '"'], ['\\\\', '\\'], ['\\n', '\n'], ['\\/', '/']).map(([text, decoded]) => ({ text: text ?? '', decoded: decoded ?? '' })),
  fc.oneof(
    fc.integer({ min: 0x20, max: 0x7e }),
    fc.constant(0x3a),
    fc.integer({ min: 0xd800, max: 0xdfff }),
    fc.integer({ min: 0, max: 0xffff }),
  ).chain((unit) => fc.boolean().map((upper) => {
    const escape = hex(unit);
    return { text: upper ? escape.toUpperCase().replace('\\U', '\\u') : escape, decoded: String.fromCharCode(unit) };
  })),
  // A surrogate pair written as two escapes: one well-formed character.
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((point) => {
    const pair = String.fromCodePoint(point);
    return { text: hex(pair.charCodeAt(0)) + hex(pair.charCodeAt(1)), decoded: pair };
  }),
);

const stringModel = (alphabet: readonly string[], maxLength: number): fc.Arbitrary<StringModel> =>
  fc.array(stringPiece(alphabet), { maxLength }).map((pieces) => ({
    text: `"${pieces.map((piece) => piece.text).join('')}"`,
    decoded: pieces.map((piece) => piece.decoded).join(''),
  }));

const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.integer().map(String),
  fc.tuple(fc.constantFrom('', '-'), fc.integer({ min: 1, max: 9 }), fc.constantFrom('e', 'E', 'e+', 'E-', 'e-'), fc.integer({ min: 290, max: 1000 }))
    .map(([sign, digit, marker, exponent]) => `${sign}${digit}${marker}${exponent}`),
  fc.integer({ min: 300, max: 320 }).map((length) => `9${'9'.repeat(length)}`),
);

const space = fc.constantFrom('', ' ', '\t');

/** JSON texts on one line, each with its verdict; most nest a few levels, some nest around the limit of 64. */
export const jsonTextModel: fc.Arbitrary<JsonTextModel> = fc.letrec<{ value: JsonTextModel; nested: JsonTextModel }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('null', 'true', 'false').map((text) => ({ text, canonical: true, depth: 0 })),
    numberText.map((text) => ({ text, canonical: Number.isFinite(Number(text)), depth: 0 })),
    stringModel(['a', ':', ' ', 'é', '😀', '{', ','], 6).map((string) => ({ text: string.text, canonical: isWellFormed(string.decoded), depth: 0 })),
    fc.array(fc.tuple(space, tie('value')), { maxLength: 4 }).map((members) => ({
      text: `[${members.map(([gap, member]) => gap + member.text).join(',')}]`,
      canonical: members.every(([, member]) => member.canonical),
      depth: 1 + Math.max(0, ...members.map(([, member]) => member.depth)),
    })),
    // Keys from a tiny alphabet, so duplicates (also one spelled `\u0061`, the other `a`) are frequent.
    fc.array(fc.tuple(stringModel(['a', 'b', ':'], 2), space, tie('value')), { maxLength: 4 }).map((members) => {
      const keys = members.map(([key]) => key.decoded);
      return {
        text: `{${members.map(([key, gap, member]) => `${gap}${key.text}${gap}:${gap}${member.text}`).join(',')}}`,
        canonical: new Set(keys).size === keys.length && keys.every(isWellFormed) && members.every(([, , member]) => member.canonical),
        depth: 1 + Math.max(0, ...members.map(([, , member]) => member.depth)),
      };
    }),
    tie('nested'),
  ),
  // Deep nesting around the limit of 64 levels, which the canonical encoder's recursion needs.
  nested: fc.tuple(fc.integer({ min: 58, max: 66 }), fc.constantFrom('null', '1', '{}')).map(([levels, inner]) => ({
    text: `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`,
    canonical: true,
    depth: levels + (inner === '{}' ? 1 : 0),
  })),
})).value;
