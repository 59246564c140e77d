/** The resident memory of a process by its id, as Linux reports it in /proc/<pid>/status. */
import { readFileSync } from 'node:fs';

/**
 * Resident bytes of process `pid` (VmRSS: its heap, native buffers and code alike), or undefined when it
 * is gone or the system has no /proc.
 */
export function readProcessRss(pid: number): number | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return undefined;
  }
  const match = /^VmRSS:\s*(\d+)\s*kB/m.exec(status);
  return match === null ? undefined : Number(match[1]) * 1024;
}
