/**
 * The cursor secrets one gateway holds: it signs with the preferred one and accepts every held one, so a
 * secret adopted later (the one shared through Redis, once Redis answers) does not void the cursors issued
 * before it.
 */
import { cursorKey, type CursorKey } from './change-cursor.ts';

/** Secrets kept at most: each adoption is a rare event (a start, a Redis emptied), so a few cover them all. */
export const MAX_HELD_CURSOR_SECRETS = 8;

/** Options of a `CursorKeyring`. */
export interface CursorKeyringOptions {
  /** Hears each cursor signed under a secret this gateway does not hold (the caller logs it, throttled). */
  readonly onUnknownSecret?: (secretId: string, held: readonly string[]) => void;
}

/** The secrets that sign and verify change-feed cursors on one gateway. */
export class CursorKeyring {
  // Preferred first; oldest last, dropped past MAX_HELD_CURSOR_SECRETS.
  #keys: readonly CursorKey[];
  readonly #onUnknownSecret: CursorKeyringOptions['onUnknownSecret'];
  readonly #onAdopt: Array<() => void> = [];

  /** A keyring holding `secret` alone. */
  constructor(secret: Buffer, options: CursorKeyringOptions = {}) {
    this.#keys = [cursorKey(secret)];
    this.#onUnknownSecret = options.onUnknownSecret;
  }

  /** The key new cursors are signed with. */
  get signing(): CursorKey {
    return this.#keys[0] as CursorKey;
  }

  /** Every key a cursor is accepted under, the signing one first. */
  get held(): readonly CursorKey[] {
    return this.#keys;
  }

  /** Makes `secret` the signing one, keeping the others accepted; true when the signing key changed. */
  adopt(secret: Buffer): boolean {
    const key = cursorKey(secret);
    if (key.id === this.signing.id) return false;
    this.#keys = [key, ...this.#keys.filter((held) => held.id !== key.id)].slice(0, MAX_HELD_CURSOR_SECRETS);
    for (const listener of this.#onAdopt) listener();
    return true;
  }

  /** Registers what must forget cursors signed before an adoption (a cache of pages holding them). */
  onAdopt(listener: () => void): void {
    this.#onAdopt.push(listener);
  }

  /** Reports a cursor signed under `secretId`, a secret this keyring does not hold. */
  noteUnknownSecret(secretId: string): void {
    this.#onUnknownSecret?.(secretId, this.#keys.map((key) => key.id));
  }
}
