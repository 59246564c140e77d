/**
 * The lookup answer for a stored row (or for no row), shared by every key store: a corrupt row is a store
 * failure, so access fails closed (503) rather than guessing what the row meant.
 */
import { KeyStoreUnavailableError } from './key-errors.ts';
import { classifyKeyRow, type KeyLookupResult, type KeyRowForVerdict } from './key-lookup.ts';

/** Judges `row` at `now`; `null` is a well-formed key the store does not hold. Throws `KeyStoreUnavailableError` for a corrupt row. */
export function judgeKeyRow(row: KeyRowForVerdict | null, now: Date): KeyLookupResult {
  if (row === null) return { kind: 'unknown' };
  const verdict = classifyKeyRow(row, now);
  if (verdict.kind === 'corrupt') {
    throw new KeyStoreUnavailableError(`key store row ${verdict.id} is corrupt: ${verdict.reason}`);
  }
  return verdict;
}

/**
 * A row as a key cache holds it, with its valid verdict once it has one. A valid verdict depends on the
 * clock only through the expiry (classifyKeyRow: a revoked or corrupt row is never valid, and the trial
 * policy compares the row's own dates), so it holds until `validUntilMs`. It lives and dies with its row
 * in the cache: whatever drops the row (a commit, a reopened file, a newer version) drops the verdict.
 */
export interface JudgedKeyRow {
  /** null: a well-formed key the store does not hold. */
  readonly row: KeyRowForVerdict | null;
  valid: { readonly result: KeyLookupResult; readonly validUntilMs: number } | undefined;
}

/**
 * judgeKeyRow for a cached row, judged once and reused until the key expires: no dates parsed and no key
 * object made per request, and no clock read for a key that never expires. Anything but a valid verdict
 * is judged again at every lookup, so a clock moved back finds the key as a fresh judgement would.
 */
export function judgeKeyRowOnce(cached: JudgedKeyRow, now: () => Date): KeyLookupResult {
  const { valid } = cached;
  if (valid !== undefined && (valid.validUntilMs === Infinity || now().getTime() < valid.validUntilMs)) return valid.result;
  const result = judgeKeyRow(cached.row, now());
  cached.valid = result.kind === 'valid' ? { result, validUntilMs: result.key.expiresAt === null ? Infinity : Date.parse(result.key.expiresAt) } : undefined;
  return result;
}
