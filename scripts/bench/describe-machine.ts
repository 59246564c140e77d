/** One line describing the machine a bench ran on: CPUs, memory, CPU model, kernel and Node. */
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, release, totalmem } from 'node:os';

/** `2 CPUs (Intel(R) Xeon(R) Processor), 23.5 GiB RAM, Linux 6.1, Node v20.20.2`. */
export function describeMachine(): string {
  let model = cpus()[0]?.model ?? 'unknown CPU';
  try {
    model = readFileSync('/proc/cpuinfo', 'utf8').match(/^model name\s*:\s*(.+)$/m)?.[1]?.trim() ?? model;
  } catch {
    // not Linux: keep os.cpus()
  }
  return `nproc ${availableParallelism()} (${model}), ${(totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, ${process.platform} ${release()}, Node ${process.version}`;
}
