/** The project's Markdown docs read as headings, sections, code and links, for the tests that hold the docs to the code. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './run-hra.ts';

/** One Markdown heading: its file, level, text and the lines of its section (up to the next heading of the same or a higher level). */
export interface DocSection {
  file: string;
  level: number;
  heading: string;
  body: string;
}

/** One documentation file: its path from the project root and its text. */
export interface DocFile {
  file: string;
  text: string;
}

/** README.md, corpus/README.md and every docs/*.md: the documentation set of the project. */
export function readDocFiles(): DocFile[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`);
  return ['README.md', 'corpus/README.md', ...docs].map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
}

/** The lines of a Markdown text with whether each lies inside a fenced code block (fence lines count as inside). */
export function linesWithFences(text: string): Array<{ line: string; fenced: boolean }> {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return { line, fenced: true };
    }
    return { line, fenced };
  });
}

/** Every heading of a file with its section; `#` lines inside code blocks are not headings. */
export function sectionsOf(doc: DocFile): DocSection[] {
  const lines = linesWithFences(doc.text);
  const headings = lines.flatMap(({ line, fenced }, index) => {
    const match = fenced ? null : /^(#{1,6}) (.*)$/.exec(line);
    return match ? [{ index, level: match[1]!.length, heading: match[2]!.trim() }] : [];
  });
  return headings.map((heading, position) => {
    const next = headings.slice(position + 1).find((later) => later.level <= heading.level);
    const body = lines.slice(heading.index + 1, next?.index ?? lines.length).map(({ line }) => line).join('\n');
    return { file: doc.file, level: heading.level, heading: heading.heading, body };
  });
}

/** The code of a Markdown text: every inline code span and every line of a fenced block. */
export function codeOf(text: string): string[] {
  const lines = linesWithFences(text);
  const fencedLines = lines.filter(({ line, fenced }) => fenced && !/^\s*```/.test(line)).map(({ line }) => line);
  const prose = lines.filter(({ fenced }) => !fenced).map(({ line }) => line).join('\n');
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return [...spans, ...fencedLines];
}

/** The anchor GitHub gives a heading: lower case, punctuation but hyphens and underscores dropped, spaces to hyphens. */
export function headingAnchor(heading: string): string {
  return heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
}
