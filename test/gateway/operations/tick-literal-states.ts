/**
 * Child process of hold-tick-object-shape.test.ts, run with `--allow-natives-syntax --expose-gc`: warms
 * process.nextTick, lets every tick run, collects, ticks once more, and prints V8's states of the tick
 * literal's property definitions (`DefineKeyedOwnPropertyInLiteral MONOMORPHIC`, one line per property).
 * With `hold` as its argument it holds a tick object first (gateway/operations/hold-tick-object-shape.ts).
 */
import { holdTickObjectShape } from '../../../gateway/operations/hold-tick-object-shape.ts';

const noop = () => undefined;
const turn = () => new Promise((resolve) => setImmediate(resolve));
const collect = (globalThis as { gc?: () => void }).gc;
if (collect === undefined) throw new Error('run with --expose-gc');

if (process.argv[2] === 'hold' && !holdTickObjectShape()) throw new Error('no tick object held');
// Enough calls over enough turns for V8 to give nextTick its feedback and record the literal's maps.
for (let round = 0; round < 50; round++) {
  for (let call = 0; call < 20; call++) process.nextTick(noop);
  await turn();
}
// Idle: every tick has run, so only a held one keeps the literal's maps; V8 frees unused maps after a few collections.
await new Promise((resolve) => setTimeout(resolve, 10));
for (let round = 0; round < 8; round++) collect();
process.nextTick(noop);
await turn();
// %DebugPrint prints the function's feedback vector, slot by slot, to stdout.
// eslint-disable-next-line no-eval
eval('%DebugPrint(process.nextTick)');
