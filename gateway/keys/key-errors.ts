/**
 * The errors the key store throws. None of them carries a secret or a digest. The CLI turns the
 * last three into a one-line `CliFailure`; the gateway maps `KeyStoreUnavailableError` to 503.
 */

/**
 * The key store cannot be opened, read or trusted (missing file, locked past the busy timeout, corrupt
 * row, newer schema). Access fails closed: the gateway answers 503 and never serves unvalidated data.
 */
export class KeyStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KeyStoreUnavailableError';
  }
}

/** The store opened without `create` does not exist: only `hra keys create` (and the quick start) may create one. */
export class KeyStoreMissingError extends KeyStoreUnavailableError {
  readonly path: string;

  constructor(path: string) {
    super(`key store ${path} does not exist`);
    this.name = 'KeyStoreMissingError';
    this.path = path;
  }
}

/** A key request breaks the key policy (tier, trial cities, lifetime, label); nothing was written. */
export class KeyPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyPolicyError';
  }
}

/** No key has the given id. */
export class UnknownKeyIdError extends Error {
  readonly id: string;

  constructor(id: string) {
    super(`no key with id ${JSON.stringify(id)}`);
    this.name = 'UnknownKeyIdError';
    this.id = id;
  }
}

/** The key exists but its state forbids the operation (for example rotating a revoked key). */
export class KeyStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyStateError';
  }
}

/** Wraps a driver failure as `KeyStoreUnavailableError`, keeping the key store's own errors as they are. */
export function toKeyStoreError(error: unknown, doing: string): Error {
  if (
    error instanceof KeyStoreUnavailableError ||
    error instanceof KeyPolicyError ||
    error instanceof UnknownKeyIdError ||
    error instanceof KeyStateError
  ) {
    return error;
  }
  const message = error instanceof Error ? error.message : String(error);
  return new KeyStoreUnavailableError(`key store unavailable while ${doing}: ${message}`, { cause: error });
}
