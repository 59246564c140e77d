/**
 * Reads corpus files into parsed values with their line numbers, reporting unreadable input, and input the
 * revision could not hash reproducibly (parseStrictJson), as problems.
 */
import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser';
import type { CorpusProblem } from './corpus-problem.ts';
import { decodeCorpusText, type DecodedText } from './decode-corpus-text.ts';
import { fromInstancePath } from './json-path.ts';
import { parseStrictJson } from './parse-strict-json.ts';
import { readCorpusBytes } from './read-corpus-bytes.ts';

/** One NDJSON line, parsed. */
export interface ParsedLine {
  value: unknown;
  line: number;
  /**
   * False when the line parsed but has no RFC 8785 form (a duplicate key, a lone surrogate, ...). That is
   * already reported; the value serves only to know which ids and slugs exist, so one fault does not cascade.
   */
  canonical: boolean;
}

/** A parsed JSON document that can say on which line a JSON path begins. */
export interface ParsedDocument {
  value: unknown;
  lineOf(instancePath: string): number;
}

/**
 * Parses an NDJSON file of the corpus folder `root` (read by readCorpusBytes): one JSON value per line. A blank line, a line that is not UTF-8 or not JSON, or a
 * value that is not an object is a problem on that line; the other lines are still returned, those the
 * revision could not hash (a duplicate key, ...) with their problems reported and `canonical: false`.
 */
export function readNdjson(absolutePath: string, root: string, file: string, problems: CorpusProblem[]): ParsedLine[] {
  const parsed: ParsedLine[] = [];
  visitNdjson(absolutePath, root, file, problems, (value, line, canonical) => parsed.push({ value, line, canonical }));
  return parsed;
}

/** Receives one parsed NDJSON line (see ParsedLine for `canonical`). */
export type NdjsonVisitor = (value: object, line: number, canonical: boolean) => void;

/**
 * readNdjson without the list: each line is handed to `visit` as it is parsed, and no object per line is
 * made. For files whose rows are checked and dropped (the program files): V8 learns from the evidence
 * files, whose rows all live on, to allocate a line's wrapper straight in the old generation (allocation-site
 * pretenuring), and a wrapper there keeps its row alive through every young collection, so at ten times the
 * published scale every program row was promoted and the heap reached 614 MB before a full collection found
 * 220 MB live (BENCHMARKS.md, "Link check at ten times the scale").
 */
export function visitNdjson(absolutePath: string, root: string, file: string, problems: CorpusProblem[], visit: NdjsonVisitor): void {
  const decoded = readText(absolutePath, root, file, problems);
  if (decoded === undefined) return;
  const lines = decoded.text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (let index = 0; index < lines.length; index += 1) {
    const line = index + 1;
    const raw = lines[index] as string;
    const source = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (decoded.invalidLines.has(line)) {
      // Already reported. Read as decoded (invalid bytes as U+FFFD) it still names its id or slug, so the
      // fault does not cascade into "no program" problems elsewhere.
      const { value } = parseStrictJson(source);
      if (isJsonObject(value)) visit(value, line, false);
      continue;
    }
    if (source.trim() === '') {
      problems.push({ file, line, path: '$', message: 'blank line (NDJSON holds one JSON object per line)' });
      continue;
    }
    const { value, violations } = parseStrictJson(source);
    if (value !== undefined && !isJsonObject(value)) {
      problems.push({ file, line, path: '$', message: 'must be a JSON object' });
      continue;
    }
    for (const violation of violations) problems.push({ file, line, path: violation.path, message: violation.message });
    if (value !== undefined) visit(value, line, violations.length === 0);
  }
}

/** Parses a JSON document; its syntax tree, built only when a schema failure needs a line, locates paths. */
export function readJsonDocument(absolutePath: string, root: string, file: string, problems: CorpusProblem[]): ParsedDocument | undefined {
  const decoded = readText(absolutePath, root, file, problems);
  if (decoded === undefined || decoded.invalidLines.size > 0) return undefined;
  const { text } = decoded;
  const { value, violations } = parseStrictJson(text);
  for (const violation of violations) problems.push({ file, line: violation.line + 1, path: violation.path, message: violation.message });
  if (violations.length > 0) return undefined;
  let tree: Node | undefined;
  return {
    value,
    lineOf(instancePath) {
      // The nesting bound parseStrictJson enforced keeps jsonc-parser's recursive parser within the stack.
      tree ??= parseTree(text, [], { allowTrailingComma: false, disallowComments: true });
      if (!tree) return 1;
      // Walk up to the nearest existing node: a missing property is reported where its parent begins.
      const keys = fromInstancePath(instancePath);
      for (let depth = keys.length; depth >= 0; depth -= 1) {
        const node = findNodeAtLocation(tree, keys.slice(0, depth));
        if (node) return lineAt(text, node.parent?.type === 'property' ? node.parent.offset : node.offset);
      }
      return 1;
    },
  };
}

function isJsonObject(value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function readText(absolutePath: string, root: string, file: string, problems: CorpusProblem[]): DecodedText | undefined {
  const bytes = readCorpusBytes(absolutePath, root, file, problems);
  return bytes === undefined ? undefined : decodeCorpusText(bytes, file, problems);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}
