/**
 * The rehearsal's corpus: a copy of the demo corpus whose cited URLs are moved to made-up `.test` hosts
 * (`https://www.chicago.gov/x` becomes `http://www-chicago-gov.test/x`), so the loopback site can play every
 * page and no request could leave the machine. The copy's manifest is marked as rehearsal data. The demo
 * corpus itself is only read.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REHEARSAL_DATASET_PREFIX } from './rehearsal-marker.ts';

/** The files whose URLs are cited or name cited pages: the records and the evidence about them. */
const CITING_FILES = (corpus: string): string[] => [
  'national.ndjson',
  ...readdirSync(join(corpus, 'programs')).filter((name) => name.endsWith('.ndjson')).map((name) => `programs/${name}`),
  ...readdirSync(join(corpus, 'evidence')).filter((name) => name.endsWith('.ndjson')).map((name) => `evidence/${name}`),
];

const URL_IN_TEXT = /https?:\/\/([A-Za-z0-9.-]+)(?=[/"?#])/g;

/** The `.test` host a real host is played under. */
export function rehearsalHost(host: string): string {
  return `${host.toLowerCase().replace(/\./g, '-')}.test`;
}

/** What the copy moved. */
export interface RehearsalCorpus {
  dir: string;
  /** Each real host, by the `.test` host that plays it. */
  hosts: ReadonlyMap<string, string>;
}

/** Copies `demoCorpus` to `dir` with its cited URLs moved and its manifest marked. */
export function copyRehearsalCorpus(demoCorpus: string, dir: string): RehearsalCorpus {
  cpSync(demoCorpus, dir, { recursive: true });
  const hosts = new Map<string, string>();
  for (const file of CITING_FILES(dir)) {
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(URL_IN_TEXT, (_url, host: string) => {
      const played = rehearsalHost(host);
      hosts.set(played, host);
      return `http://${played}`;
    }));
  }
  const manifestFile = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { dataset: string; readiness: { commercialRelease: { note?: string } } };
  manifest.dataset = `${REHEARSAL_DATASET_PREFIX}${manifest.dataset}`;
  manifest.readiness.commercialRelease.note = 'Rehearsal data written by hra rehearse: the demo corpus with its cited URLs moved to made-up .test hosts and checked against a loopback site. Never to be served.';
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, hosts };
}
