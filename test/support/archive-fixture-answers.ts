/**
 * Archives, with the archive's own writer, what the loopback fixture answers for the URLs a `links check`
 * run just checked, and stamps that run's evidence lines with their records (`warcRecordId`,
 * `payloadSha256`), as the run does when it archives: each URL is asked again with GET through the fixture
 * proxy, redirects followed hop by hop, every hop archived, and the lines name the final hop's response.
 * A URL whose answer does not arrive whole within the deadline is left unarchived, as a line without the
 * fields reads.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProxyAgent, request } from 'undici';
import { openArchiveWriter, type ArchiveHeader, type ArchivedExchange } from '../../build/archive/open-archive-writer.ts';
import { EXTRACTOR_VERSION } from '../../build/quotes/extractor-version.ts';

const rowsOf = (file: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);

/** Archives the answers for the URLs of the lines dated `checkedAt` and stamps those lines; returns how many URLs were archived. */
export async function archiveFixtureAnswers(corpus: string, archive: string, proxyUrl: string, checkedAt: string, timeoutMs = 1500): Promise<number> {
  const linkFile = join(corpus, 'evidence/link-checks.ndjson');
  const quoteFile = join(corpus, 'evidence/quote-checks.ndjson');
  const links = rowsOf(linkFile);
  const quotes = rowsOf(quoteFile);
  const urls = [...new Set([...links, ...quotes].filter((row) => row.checkedAt === checkedAt).map((row) => String(row.url)))];
  const agent = new ProxyAgent({ uri: proxyUrl });
  const writer = await openArchiveWriter({ archiveDir: archive });
  const finals = new Map<string, ArchivedExchange>();
  try {
    for (const url of urls) {
      let current = url;
      for (let hop = 0; hop < 10; hop += 1) {
        const answer = await fetchWhole(current, agent, timeoutMs);
        if (answer === undefined) break;
        const archived = await writer.writeExchange({
          targetUri: current, date: new Date(`${checkedAt}T06:00:00Z`), ipAddress: '127.0.0.1',
          request: { method: 'GET', headers: [] },
          response: { status: answer.status, headers: answer.headers, payload: answer.body },
        });
        const location = answer.headers.find(([name]) => name.toLowerCase() === 'location')?.[1];
        if (answer.status >= 300 && answer.status < 400 && location !== undefined) {
          current = new URL(location, current).href;
          continue;
        }
        finals.set(url, archived);
        break;
      }
    }
  } finally {
    await writer.close();
    await agent.close();
  }
  const stamp = (row: Record<string, unknown>, quote: boolean) => {
    const archived = row.checkedAt === checkedAt ? finals.get(String(row.url)) : undefined;
    if (archived === undefined) return row;
    return { ...row, warcRecordId: archived.responseRecordId, payloadSha256: archived.payloadSha256, ...(quote ? { extractor: EXTRACTOR_VERSION } : {}) };
  };
  writeFileSync(linkFile, links.map((row) => `${JSON.stringify(stamp(row, false))}\n`).join(''));
  writeFileSync(quoteFile, quotes.map((row) => `${JSON.stringify(stamp(row, true))}\n`).join(''));
  return finals.size;
}

/** The answer with its body as received (content-encoding kept), or undefined when it does not end in time. */
async function fetchWhole(url: string, agent: ProxyAgent, timeoutMs: number): Promise<{ status: number; headers: ArchiveHeader[]; body: Uint8Array } | undefined> {
  try {
    const response = await request(url, { dispatcher: agent, method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs, signal: AbortSignal.timeout(timeoutMs) });
    const body = new Uint8Array(await response.body.arrayBuffer());
    const headers: ArchiveHeader[] = Object.entries(response.headers).flatMap(([name, value]) =>
      (value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((one) => [name, one] as const)));
    return { status: response.statusCode, headers, body };
  } catch {
    return undefined;
  }
}
