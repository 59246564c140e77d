/** Reads corpus files into parsed values with their line numbers, reporting unreadable input as problems. */
import { readFileSync } from 'node:fs';
import { findNodeAtLocation, parseTree, type ParseError, printParseErrorCode } from 'jsonc-parser';
import type { CorpusProblem } from './corpus-problem.ts';
import { fromInstancePath } from './json-path.ts';

/** One NDJSON line, parsed. */
export interface ParsedLine {
  value: unknown;
  line: number;
}

/** A parsed JSON document that can say on which line a JSON path begins. */
export interface ParsedDocument {
  value: unknown;
  lineOf(instancePath: string): number;
}

/**
 * Parses an NDJSON file: one JSON value per line. A blank line, a line that is not JSON, or a value
 * that is not an object is a problem on that line; the other lines are still returned.
 */
export function readNdjson(absolutePath: string, file: string, problems: CorpusProblem[]): ParsedLine[] {
  const text = readText(absolutePath, file, problems);
  if (text === undefined) return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const parsed: ParsedLine[] = [];
  lines.forEach((raw, index) => {
    const line = index + 1;
    const source = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (source.trim() === '') {
      problems.push({ file, line, path: '$', message: 'blank line (NDJSON holds one JSON object per line)' });
      return;
    }
    try {
      const value: unknown = JSON.parse(source);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problems.push({ file, line, path: '$', message: 'must be a JSON object' });
        return;
      }
      parsed.push({ value, line });
    } catch (error) {
      problems.push({ file, line, path: '$', message: `not valid JSON (${(error as Error).message})` });
    }
  });
  return parsed;
}

/** Parses a JSON document, keeping a syntax tree so schema failures can name their line. */
export function readJsonDocument(absolutePath: string, file: string, problems: CorpusProblem[]): ParsedDocument | undefined {
  const text = readText(absolutePath, file, problems);
  if (text === undefined) return undefined;
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const firstError = errors[0];
  if (firstError || !tree) {
    const line = firstError ? lineAt(text, firstError.offset) : 1;
    const reason = firstError ? printParseErrorCode(firstError.error) : 'empty document';
    problems.push({ file, line, path: '$', message: `not valid JSON (${reason})` });
    return undefined;
  }
  return {
    value: JSON.parse(text) as unknown,
    lineOf(instancePath) {
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

function readText(absolutePath: string, file: string, problems: CorpusProblem[]): string | undefined {
  try {
    return readFileSync(absolutePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message = code === 'ENOENT' ? 'file is missing' : `cannot be read (${code ?? (error as Error).message})`;
    problems.push({ file, line: 0, path: '$', message });
    return undefined;
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}
