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
