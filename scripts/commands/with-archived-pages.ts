/** Opens a corpus's evidence archive and the quote check's extraction children for a command that reads archived pages. */
import type { ArchivedResponses } from '../../build/archive/open-archived-responses.ts';
import { defaultArchiveDir } from '../../build/archive/warc-archive-layout.ts';
import type { Corpus } from '../../build/corpus/corpus-types.ts';
import { createPageTextExtractor, type PageTextExtractor } from '../../build/quotes/create-page-text-extractor.ts';
import type { FetchedPage, PageText } from '../../build/quotes/extract-page-text.ts';
import { openArchiveOrFail } from './open-archive-or-fail.ts';
import { requireArchive } from './require-archive.ts';

/** The archive and the extraction children a worksheet command reads pages with. */
export interface PageSources {
  linkChecks: Corpus['linkChecks'];
  archive: ArchivedResponses;
  extractor: PageTextExtractor;
  extract: (page: FetchedPage) => Promise<PageText>;
}

/** Opens the archive and the quote check's extraction children (its limits) for `work`, and closes both after it. */
export async function withArchivedPages<T>(corpus: Corpus, archiveFlag: string | undefined, work: (sources: PageSources) => Promise<T>): Promise<T> {
  const archiveDir = archiveFlag ?? defaultArchiveDir(corpus.root);
  requireArchive(archiveDir);
  const archive = openArchiveOrFail(archiveDir);
  const extractor = createPageTextExtractor();
  try {
    return await work({ linkChecks: corpus.linkChecks, archive, extractor, extract: (page) => extractor.extract(page) });
  } finally {
    await extractor.close();
    archive.close();
  }
}
