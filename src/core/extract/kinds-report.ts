import { listKinds, type KindInfo } from '../facts/kinds.js';
import { resolveRegions, type RegionSettings } from '../regions.js';

/** `extract --kinds`: every kind with how its facts are checked, and the regions in force. */
export interface KindsReport {
  kinds: KindInfo[];
  regions: RegionSettings;
}

/** The kinds and the regions in force for a caller who names `region` (or not: see `resolveRegions`). */
export function kindsReport(options: { region?: string } = {}): KindsReport {
  return { kinds: listKinds(), regions: resolveRegions(options) };
}
