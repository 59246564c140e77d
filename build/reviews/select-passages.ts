/**
 * The passages of a page's visible text a reviewer is shown: a bounded, deterministic selection around the
 * dollar amounts the page states and the program's name, with the page's opening (its title and heading),
 * within a stated budget. Same text, name and budget: same passages. Versioned, since a review names the
 * prompt it was made with and the passages are part of it.
 */
import { findDollarAmounts } from '../quotes/find-dollar-amounts.ts';

/** The selection's version, part of the prompt's version. */
export const PASSAGES_VERSION = 'passages-1';

/** The budget, in tokens, of all passages together: what the prompt spends on page text. */
export const PASSAGE_BUDGET_TOKENS = 1500;

/** Characters counted per token: an English-text estimate, so the budget holds without a tokenizer. */
export const CHARS_PER_TOKEN = 4;

/** Characters taken on each side of an anchor (an amount or the name). */
export const PASSAGE_RADIUS_CHARS = 240;

/** Characters of the page's opening always offered: its title and main heading. */
export const OPENING_CHARS = 240;

/** The selection and what it left out. */
export interface SelectedPassages {
  passages: string[];
  /** Characters of all passages together, at most the budget's. */
  chars: number;
  /** Anchors whose passage did not fit the budget. */
  leftOut: number;
}

/**
 * Selects passages of `text` for the program named `programName`. Anchors are every occurrence of each
 * amount findDollarAmounts reads and of the name (case-insensitive); each takes PASSAGE_RADIUS_CHARS around
 * it, widened to whole words, and overlapping windows merge. Windows are taken in page order after the
 * opening until `budgetTokens * CHARS_PER_TOKEN` characters are spent; the one that crosses it is cut at a
 * word boundary, the rest left out and counted.
 */
export function selectPassages(text: string, programName: string, budgetTokens = PASSAGE_BUDGET_TOKENS): SelectedPassages {
  const budget = budgetTokens * CHARS_PER_TOKEN;
  const windows: Array<[number, number]> = [[0, Math.min(text.length, OPENING_CHARS)]];
  const anchors: Array<[number, number]> = [];
  for (const amount of findDollarAmounts(text)) {
    for (let at = text.indexOf(amount.text); at !== -1; at = text.indexOf(amount.text, at + amount.text.length)) anchors.push([at, at + amount.text.length]);
  }
  const name = programName.trim().toLowerCase();
  if (name.length > 0) {
    const lower = text.toLowerCase();
    // Lower-casing can change a string's length (rare letters); the name is then simply not anchored.
    if (lower.length === text.length) for (let at = lower.indexOf(name); at !== -1; at = lower.indexOf(name, at + name.length)) anchors.push([at, at + name.length]);
  }
  anchors.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [start, end] of anchors) windows.push([wordStart(text, start - PASSAGE_RADIUS_CHARS), wordEnd(text, end + PASSAGE_RADIUS_CHARS)]);
  windows.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of windows) {
    const last = merged.at(-1);
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  const passages: string[] = [];
  let chars = 0;
  let leftOut = 0;
  for (const [start, end] of merged) {
    const room = budget - chars;
    if (room <= 0) {
      leftOut += 1;
      continue;
    }
    const cut = end - start <= room ? end : cutAtWord(text, start, start + room);
    const passage = squeeze(text.slice(start, cut));
    if (cut < end) leftOut += 1;
    if (passage.length === 0) continue;
    passages.push(passage);
    chars += passage.length;
  }
  return { passages, chars, leftOut };
}

function isSpace(char: string | undefined): boolean {
  return char === undefined || /\s/.test(char);
}

/** The start of the word at `index` (clamped to the text). */
function wordStart(text: string, index: number): number {
  let at = Math.max(0, index);
  while (at > 0 && !isSpace(text[at - 1])) at -= 1;
  return at;
}

/** The end of the word at `index` (clamped to the text). */
function wordEnd(text: string, index: number): number {
  let at = Math.min(text.length, index);
  while (at < text.length && !isSpace(text[at])) at += 1;
  return at;
}

/** The last word boundary at or before `limit`, past `start`; `limit` itself when the window has none. */
function cutAtWord(text: string, start: number, limit: number): number {
  let at = limit;
  while (at > start && !isSpace(text[at])) at -= 1;
  return at > start ? at : limit;
}

/** Runs of white space as one space: the budget buys words, not layout. */
function squeeze(passage: string): string {
  return passage.replace(/\s+/g, ' ').trim();
}
