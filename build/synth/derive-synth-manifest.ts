/** Derives the synthetic corpus's manifest from the template's. */
import type { Manifest } from '../corpus/corpus-types.ts';

/** What the synthetic manifest changes. */
export interface SynthManifestInputs {
  seed: number;
  scale: number;
  defaultCity: string;
  sampleCity: string;
  /** Synthetic live rows over template live rows: scales count thresholds. */
  rowRatio: number;
  /** Synthetic live cities over template live cities. */
  cityRatio: number;
}

/**
 * Copies the template's manifest, naming the dataset as synthetic, pointing the default and sample
 * cities at generated live cities, and scaling the thresholds that are counts (shares stay as they are).
 */
export function deriveSynthManifest(template: Manifest, inputs: SynthManifestInputs): Manifest {
  const thresholds = template.readiness.thresholds;
  return {
    ...template,
    dataset: `${template.dataset} (synthetic: seed ${inputs.seed}, scale ${inputs.scale})`,
    defaultCity: inputs.defaultCity,
    sampleCity: inputs.sampleCity,
    readiness: {
      ...template.readiness,
      thresholds: {
        ...thresholds,
        minLicensedPrograms: Math.round(thresholds.minLicensedPrograms * inputs.rowRatio),
        minCitiesCovered: Math.round(thresholds.minCitiesCovered * inputs.cityRatio),
      },
    },
  };
}
