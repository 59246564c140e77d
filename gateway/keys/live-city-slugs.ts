/**
 * The live city slugs of a built dataset snapshot, so `hra keys create` can refuse trial cities the
 * service does not serve. The key store itself knows no dataset; the CLI passes the slugs in.
 */
import { openSnapshot } from '../snapshot/open-snapshot.ts';

/**
 * Reads the cities of the snapshot at `datasetPath` (which holds only live cities), read-only through the
 * gateway's own opening code, so a file that is not a snapshot is refused as the gateway would refuse it.
 * Throws SnapshotRejectedError naming the file.
 */
export function readLiveCitySlugs(datasetPath: string): ReadonlySet<string> {
  const snapshot = openSnapshot(datasetPath);
  try {
    return new Set(snapshot.cities().map((city) => city.slug));
  } finally {
    snapshot.close();
  }
}
