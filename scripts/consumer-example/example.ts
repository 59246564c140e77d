/**
 * The consumer example of docs/consumers.md: keyless documents fetched conditionally, a city's
 * programs with each cited URL and its verification warning, an empty result told apart from a failure,
 * and the whole change feed reconciled with the scoped program route. Server-side only (it holds a key):
 *
 *   HRA_API_KEY=<key> node --import tsx scripts/consumer-example/example.ts http://127.0.0.1:8080 chicago 2026-01-01
 */
import { createApiClient, citeWithWarning, describeList, type ApiClient } from './api-client.ts';

/** Runs the example's calls through `client`, saying each result on `say`; returns whether every call succeeded. */
export async function runExample(client: ApiClient, city: string, since: string, say: (line: string) => void): Promise<boolean> {
  let succeeded = true;
  const note = (ok: boolean, line: string) => {
    succeeded &&= ok;
    say(line);
  };

  // The ETag routes: the second fetch of the sample is a 304 that reuses the copy held.
  for (let round = 1; round <= 2; round += 1) {
    const sample = await client.getCacheable('/api/sample');
    note(sample.ok, sample.ok ? `sample of ${sample.data.city}: ${sample.data.count} programs${sample.fromCache ? ' (not modified: copy reused)' : ''}` : describeList('sample', sample, () => []));
  }

  const available = await client.listPrograms(city, { status: 'available' });
  note(available.ok, describeList(`available programs in ${city}`, available, (list) => list.programs));
  if (available.ok) for (const program of available.data.programs.slice(0, 3)) say(citeWithWarning(program));

  // A filter nothing matches is an empty collection: a result, not an error.
  const none = await client.listPrograms(city, { type: 'no-such-eligibility-type' });
  note(none.ok, describeList(`programs in ${city} for type no-such-eligibility-type`, none, (list) => list.programs));

  const feed = await client.allChangesSince(since, city);
  note(feed.ok, describeList(`changes in ${city} since ${since}${feed.ok ? ` (${feed.data.pages} page(s))` : ''}`, feed, (data) => data.changes));
  if (feed.ok) {
    const reconciled = await client.reconcileChanges(feed.data.changes);
    note(reconciled.ok, describeList('changes whose program the key still sees', reconciled, (kept) => kept));
    if (reconciled.ok) for (const { event, program } of reconciled.data) say(`  #${event.id} ${event.type}: ${program?.name ?? event.programName ?? '(city-level)'}`);
  }
  return succeeded;
}

if (import.meta.filename === process.argv[1]) {
  const [baseUrl = 'http://127.0.0.1:8080', city = 'chicago', since = '2026-01-01'] = process.argv.slice(2);
  const apiKey = process.env.HRA_API_KEY;
  if (apiKey === undefined) {
    console.error('example: set HRA_API_KEY to a key (npm start prints demo keys)');
    process.exit(2);
  }
  const client = createApiClient({ baseUrl, apiKey }, (retry) => console.error(`retrying after ${retry.status} ${retry.code}: waited ${retry.waitedMs} ms`));
  const ok = await runExample(client, city, since, (line) => console.log(line));
  process.exit(ok ? 0 : 1);
}
