/**
 * The cache keys of the program bodies (`revision NUL city`, `revision NUL city NUL id`), made once per
 * revision and city (or record) rather than concatenated, flattened and hashed afresh at every request:
 * the same city's key is then one Map read of a string whose hash is already known.
 */

/** Makes the cache key of a city, or of a record of a city, in a revision. */
export interface RevisionKeys {
  city(revision: string, city: string): string;
  record(revision: string, city: string, programId: string): string;
}

/**
 * Remembers the keys of the last revision asked, up to `maxKeys` of each kind (then it starts over: a
 * client walking every record costs a concatenation per request, as before). A different revision starts
 * over too, so a key always names the revision it is asked for.
 */
export function createRevisionKeys(maxKeys = 8_192): RevisionKeys {
  let revision: string | undefined;
  let cities = new Map<string, string>();
  let records = new Map<string, Map<string, string>>();
  let recordCount = 0;
  const forRevision = (asked: string) => {
    if (asked === revision) return;
    revision = asked;
    cities = new Map();
    records = new Map();
    recordCount = 0;
  };
  return {
    city(asked, city) {
      forRevision(asked);
      let key = cities.get(city);
      if (key === undefined) {
        if (cities.size >= maxKeys) cities.clear();
        key = `${asked}\u0000${city}`;
        cities.set(city, key);
      }
      return key;
    },
    record(asked, city, programId) {
      forRevision(asked);
      let ofCity = records.get(city);
      if (ofCity === undefined) {
        ofCity = new Map();
        records.set(city, ofCity);
      }
      let key = ofCity.get(programId);
      if (key === undefined) {
        if (recordCount >= maxKeys) {
          records.clear();
          recordCount = 0;
          ofCity = new Map();
          records.set(city, ofCity);
        }
        key = `${asked}\u0000${city}\u0000${programId}`;
        ofCity.set(programId, key);
        recordCount += 1;
      }
      return key;
    },
  };
}
