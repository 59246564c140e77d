/**
 * A schema's validator compiled the first time it is asked for, not when its module loads: compiling costs
 * tens of milliseconds each (ajv generates and evaluates code), and a module is often loaded by a command
 * that never validates with it (`hra --version` loaded every command's modules; BENCHMARKS.md "Start-up").
 */
import type { ValidateFunction } from 'ajv';
import { createAjv } from './create-ajv.ts';

/** Returns a function that compiles `schema` (with createAjv) on its first call and returns that validator ever after. */
export function compileOnFirstUse<T = unknown>(schema: object): () => ValidateFunction<T> {
  // The one validator of this schema, held by the closure: compiled once, never replaced.
  let validate: ValidateFunction<T> | undefined;
  return () => (validate ??= createAjv().compile<T>(schema));
}
