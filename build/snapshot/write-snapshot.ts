/**
 * Writes a snapshot: every byte the gateway serves, precomputed, into one SQLite file. Same corpus, same
 * code, same bytes: no clock, random value or absolute path is written, rows go in a fixed order.
 */
import Database from 'better-sqlite3';
import { cityWithCountSchema, citySchema } from '../contract/city-schema.ts';
import { changeEventSchema } from '../contract/change-feed-schema.ts';
import { API_VERSION } from '../contract/api-version.ts';
import { exportRowSchemaDocument, programSchemaDocument } from '../contract/program-schema.ts';
import { envelopeLinks } from '../contract/envelope-links.ts';
import { programListBytes, SCOPE_SAMPLE } from '../contract/program-list-bytes.ts';
import { serializeThroughSchema } from '../contract/serialize-through-schema.ts';
import type { Corpus } from '../corpus/corpus-types.ts';
import { NATIONAL_SLUG } from '../contract/national-slug.ts';
import { recordKey } from '../derive/apply-corrections.ts';
import { composeHealth } from '../derive/compose-health.ts';
import { createRecordDeriver } from '../derive/derive-record.ts';
import { HealthTally } from '../derive/tally-health.ts';
import type { Revision } from '../contract/parse-revision.ts';
import type { RevisionDocument } from '../revision/compute-revision.ts';
import { liveCitySlugs } from '../revision/compute-revision.ts';
import { cityTaskInputs } from './city-tasks.ts';
import { defaultBuildWorkers, startCityTaskRunner, type CityTaskRunner } from './city-worker-pool.ts';
import { computeContentDigest } from './content-digest.ts';
import { serializeCity, type CollectionHead, type SerializedCity } from './serialize-city.ts';
import { changeDigestKey, digestBody, digestRows, ReadDigestsWriter } from './read-digests.ts';
import { strongEtagOfDigest } from './strong-etag.ts';
import { runBuildSteps, type BuildSteps } from './run-build-steps.ts';
import { createSnapshotIndexes, createSnapshotTables } from './create-snapshot-tables.ts';
import { DOCUMENT, SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, type MetaKey } from './snapshot-format.ts';

/** What a finished snapshot holds, for the build's summary line and its tests. */
export interface SnapshotSummary {
  cities: number;
  rows: number;
  licensedRows: number;
  withheldRows: number;
  changes: number;
  confidence: Record<string, number>;
  linkStatus: Record<string, number>;
}

/** Options of writeSnapshot. */
export interface WriteSnapshotOptions {
  /** Runs the per-city work; by default one started for this snapshot (city-worker-pool.ts) and closed after it. */
  runner?: CityTaskRunner;
}

/** Writes the snapshot of `corpus` at `revision` to `file`, which must not exist yet. */
export function writeSnapshot(
  corpus: Corpus,
  revision: { revision: Revision; document: RevisionDocument },
  file: string,
  onProgress: (message: string) => void = () => {},
  options: WriteSnapshotOptions = {},
): SnapshotSummary {
  return runBuildSteps(writeSnapshotSteps(corpus, revision, file, onProgress, options));
}

/**
 * writeSnapshot as steps that yield after each city (run-build-steps.ts), so an interrupted build can stop
 * between cities. The file is closed when the steps end, finished or not; removing it is the caller's job.
 */
export function* writeSnapshotSteps(
  corpus: Corpus,
  revision: { revision: Revision; document: RevisionDocument },
  file: string,
  onProgress: (message: string) => void = () => {},
  options: WriteSnapshotOptions = {},
): BuildSteps<SnapshotSummary> {
  const runner = options.runner ?? startCityTaskRunner(cityTaskInputs(corpus), corpus, defaultBuildWorkers(liveCitySlugs(corpus).length));
  const db = new Database(file);
  try {
    createSnapshotTables(db);
    // One transaction, opened by hand because it spans the steps (db.transaction() takes a synchronous function).
    db.exec('BEGIN');
    let summary: SnapshotSummary;
    try {
      summary = yield* writeSnapshotRows(db, corpus, revision, runner, onProgress);
      db.exec('COMMIT');
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
    }
    yield;
    createSnapshotIndexes(db);
    yield;
    db.prepare("INSERT INTO meta (key, value) VALUES ('content_digest', ?)").run(computeContentDigest(db));
    return summary;
  } finally {
    db.close();
    if (options.runner === undefined) runner.close();
  }
}

/** Every table row and document of the snapshot, and its meta but the content digest, city by city. */
function* writeSnapshotRows(
  db: Database.Database,
  corpus: Corpus,
  { revision, document }: { revision: Revision; document: RevisionDocument },
  runner: CityTaskRunner,
  onProgress: (message: string) => void,
): BuildSteps<SnapshotSummary> {
  // What the gateway will check each read against (read-digests.ts), recorded as each row goes in.
  const digests = new ReadDigestsWriter();
  const insertDocument = db.prepare('INSERT INTO documents (name, body, etag) VALUES (?, ?, ?)');
  const putDocument = (name: string, body: string | Buffer) => {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const digest = digestBody(bytes);
    insertDocument.run(name, bytes, strongEtagOfDigest(digest));
    digests.add('document', name, digest);
  };
  const insertProgram = db.prepare('INSERT INTO programs (city, id, ord, facets, body_offset, body_length) VALUES (?, ?, ?, ?, ?, ?)');
  const insertWithheld = db.prepare('INSERT INTO withheld_programs (city, id, ord, policy, facets, body) VALUES (?, ?, ?, ?, ?, ?)');
  const insertCity = db.prepare('INSERT INTO cities (slug, ord, program_count, city_body, counts_body) VALUES (?, ?, ?, ?, ?)');
  const insertChange = db.prepare('INSERT INTO changes (id, city, detected_at, visible, body) VALUES (?, ?, ?, ?, ?)');
  const policyVersion = corpus.manifest.exclusionPolicyVersion;
  const publicBaseUrl = corpus.manifest.publicBaseUrl;
  const links = publicBaseUrl === undefined ? undefined : envelopeLinks(publicBaseUrl);
  const head: CollectionHead = { revision, exclusionPolicyVersion: policyVersion, links };
  const tally = new HealthTally();
  const withheld = new Set<string>();
  const servedCounts = new Map<string, number>();
  let sample = { bodies: [] as Buffer[], excluded: 0 };

  // The collection document holds the served records' bytes; `programs` rows say where (format 4).
  const storeCity = (city: SerializedCity) => {
    const collection = Buffer.from(city.collection.buffer, city.collection.byteOffset, city.collection.byteLength);
    for (const row of city.served) insertProgram.run(city.slug, row.id, row.ord, row.facets, row.offset, row.length);
    for (const row of city.withheld) {
      // Withheld rows go to their own table, so nothing the detail route reads holds them (spec 4.3).
      insertWithheld.run(city.slug, row.id, row.ord, row.policy, row.facets, row.body);
      withheld.add(recordKey(city.slug, row.id));
    }
    insertDocument.run(DOCUMENT.collection(city.slug), collection, city.etag);
    digests.add('document', DOCUMENT.collection(city.slug), city.digest);
    // The cells in the order and form the gateway reads them (served and withheld rows by ord).
    digests.add('served', city.slug, digestRows(city.served.map((row) => [row.id, row.facets, row.offset, row.length])));
    digests.add('withheld', city.slug, digestRows(city.withheld.map((row) => [row.id, row.policy, row.facets])));
    return { bodies: city.served.map((row) => collection.subarray(row.offset, row.offset + row.length)), excluded: city.withheld.length };
  };

  const slugs = liveCitySlugs(corpus);
  const started = Date.now();
  let reported = started;
  let index = 0;
  for (const result of runner.run(slugs.map((slug) => ({ kind: 'serialize', slug, head })))) {
    if (result.kind !== 'serialize') throw new Error(`build worker answered a ${result.kind} task to a serialize task`);
    const city = result.city;
    for (const record of city.tallied) tally.addCityRecord(city.slug, record);
    const collection = storeCity(city);
    servedCounts.set(city.slug, city.served.length);
    if (city.slug === corpus.manifest.sampleCity) sample = collection;
    index += 1;
    // At most one line a second: a small corpus builds silently, a large one shows how far it got.
    if (Date.now() - reported >= 1000) {
      reported = Date.now();
      onProgress(`snapshot: ${Math.floor((index / slugs.length) * 100)}% of cities written (${index}/${slugs.length}), ${tally.totalRows} rows, ${((reported - started) / 1000).toFixed(1)} s`);
    }
    yield;
  }
  const national = serializeCity(NATIONAL_SLUG, corpus.national, createRecordDeriver(corpus), head);
  for (const record of national.tallied) tally.addFederalRecord(record);
  storeCity(national);

  putDocument(DOCUMENT.sample, programListBytes(
    { city: corpus.manifest.sampleCity, datasetRevision: revision, excludedBySafetyPolicy: sample.excluded, exclusionPolicyVersion: policyVersion, links, sample: true, scope: SCOPE_SAMPLE },
    sample.bodies,
  ));

  const liveCities = corpus.cities.filter((city) => city.status === 'live').sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const cityBodies: string[] = [];
  const countBodies: string[] = [];
  let totalPrograms = 0;
  liveCities.forEach((city, ord) => {
    const programCount = servedCounts.get(city.slug) ?? 0;
    const cityBody = serializeThroughSchema(citySchema, city);
    const countsBody = serializeThroughSchema(cityWithCountSchema, { ...city, programCount });
    insertCity.run(city.slug, ord, programCount, Buffer.from(cityBody), Buffer.from(countsBody));
    digests.add('city', city.slug, digestRows([[city.slug, programCount, Buffer.from(cityBody), Buffer.from(countsBody)]]));
    cityBodies.push(cityBody);
    countBodies.push(countsBody);
    totalPrograms += programCount;
  });
  putDocument(DOCUMENT.cities, `{"cities":[${cityBodies.join(',')}],"count":${cityBodies.length},"datasetRevision":"${revision}"}`);
  putDocument(DOCUMENT.cityCounts, `{"cities":[${countBodies.join(',')}],"count":${countBodies.length},"datasetRevision":"${revision}","totalPrograms":${totalPrograms}}`);

  const liveSlugs = new Set(slugs);
  let changeCount = 0;
  for (const event of [...corpus.changes].sort((a, b) => a.id - b.id)) {
    // Change rows carry no scope field (spec 2.7): visibility is decided here, from the city and the record.
    const visible = liveSlugs.has(event.city) && (event.programId === undefined || !withheld.has(recordKey(event.city, event.programId)));
    const body = Buffer.from(serializeThroughSchema(changeEventSchema, event));
    insertChange.run(event.id, event.city, event.detectedAt, visible ? 1 : 0, body);
    digests.add('change', changeDigestKey(event.city, event.id), digestRows([[event.id, event.city, event.detectedAt, visible ? 1 : 0, body]]));
    changeCount += 1;
  }

  const health = composeHealth(corpus, revision, tally);
  putDocument(DOCUMENT.healthHead, health.head);
  putDocument(DOCUMENT.healthTail, health.tail);
  putDocument(DOCUMENT.programSchema, JSON.stringify(programSchemaDocument));
  putDocument(DOCUMENT.exportSchema, JSON.stringify(exportRowSchemaDocument));
  for (const [name, report] of Object.entries(corpus.reports)) putDocument(DOCUMENT.report(name), JSON.stringify(report));

  const aliases: Record<string, string> = Object.fromEntries(corpus.vocabularies.projectTypes.map((type) => [type, type]));
  for (const [alias, target] of Object.entries(corpus.vocabularies.projectAliases)) aliases[alias] = target;
  const meta: Record<Exclude<MetaKey, 'content_digest' | 'public_base_url'>, string> & { public_base_url?: string } = {
    format: SNAPSHOT_FORMAT,
    format_version: String(SNAPSHOT_FORMAT_VERSION),
    revision,
    api_version: API_VERSION,
    dataset: corpus.manifest.dataset,
    default_city: corpus.manifest.defaultCity,
    sample_city: corpus.manifest.sampleCity,
    exclusion_policy_version: String(policyVersion),
    as_of: corpus.manifest.asOf,
    revision_document: JSON.stringify(document),
    project_aliases: JSON.stringify(aliases),
    readiness_inputs: JSON.stringify(health.readinessInputs),
    ...(publicBaseUrl === undefined ? {} : { public_base_url: publicBaseUrl }),
  };
  const insertDigests = db.prepare('INSERT INTO read_digests (kind, keys, digests) VALUES (?, ?, ?)');
  for (const row of digests.rows()) insertDigests.run(row.kind, row.keys, row.digests);
  const insertMeta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  for (const [key, value] of Object.entries(meta)) insertMeta.run(key, value);

  return {
    cities: liveCities.length,
    rows: tally.totalRows,
    licensedRows: tally.licensedRows,
    withheldRows: tally.totalRows - tally.licensedRows,
    changes: changeCount,
    confidence: { ...tally.licensedConfidence },
    linkStatus: { ...tally.licensedLinkHealth },
  };
}

export { strongEtag } from './strong-etag.ts';
