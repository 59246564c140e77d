/**
 * The redirect chain the archive holds from one URL to another, as the run followed it: from the cited URL,
 * the latest archived response of each hop no later than the record's date is a redirect whose Location
 * names the next hop, up to MAX_REDIRECTS. Each hop is read through the checked reader, so its row is its
 * record's; a hop the archive lacks (never archived) ends the chain.
 */
import { MAX_REDIRECTS, REDIRECTS, resolveLocation } from '../links/check-link.ts';
import type { ArchiveIndex, ArchiveIndexRow } from './archive-index.ts';
import { warcHeader } from './parse-warc-member.ts';
import { readIndexedMember } from './read-archived-record.ts';

/**
 * The redirect records leading from `fromUrl` to `toUri` by responses dated no later than `notAfter` (none
 * when the two are the same URL), or undefined when the archive holds no such chain.
 */
export async function archivedRedirectChain(archiveDir: string, index: ArchiveIndex, fromUrl: string, toUri: string, notAfter: string): Promise<ArchiveIndexRow[] | undefined> {
  const hops: ArchiveIndexRow[] = [];
  let url = fromUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (url === toUri) return hops;
    const row = index.latestResponseOf(url, notAfter);
    if (row === undefined) return undefined;
    const member = await readIndexedMember(archiveDir, row);
    const location = warcHeader(member.httpHeaders, 'Location');
    if (member.httpStatus === undefined || !REDIRECTS.has(member.httpStatus) || location === undefined) return undefined;
    const next = resolveLocation(location, url);
    if (next === undefined) return undefined;
    hops.push(row);
    url = next;
  }
  return undefined;
}

/** True when the archive holds a redirect chain from `fromUrl` to `toUri` (see archivedRedirectChain). */
export async function archivedRedirectsReach(archiveDir: string, index: ArchiveIndex, fromUrl: string, toUri: string, notAfter: string): Promise<boolean> {
  return (await archivedRedirectChain(archiveDir, index, fromUrl, toUri, notAfter)) !== undefined;
}
