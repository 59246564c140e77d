/**
 * A writer killed mid-run, in a process of its own (argv: archive folder, the pid its file is named for, the run's
 * ISO time, a URL, the page's text): it writes and indexes one exchange, prints `written`, and waits to be killed,
 * so its `.open` file and its indexed record stay as a SIGKILL leaves them, and its archive lock dies with it.
 */
import { openArchiveWriter } from '../../build/archive/open-archive-writer.ts';

const [archiveDir, pid, at, url, body] = process.argv.slice(2);
const date = new Date(at!);
const writer = await openArchiveWriter({ archiveDir: archiveDir!, now: () => date, pid: Number(pid), isProcessAlive: () => false });
await writer.writeExchange({
  targetUri: url!, date, ipAddress: '127.0.0.1',
  request: { method: 'GET', headers: [['User-Agent', 'hra-test']] },
  response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'text/html']], payload: Buffer.from(body!) },
});
process.stdout.write('written\n');
setInterval(() => undefined, 60_000);
