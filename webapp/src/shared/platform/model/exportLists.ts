// The export dialog's port and SLIC choices from GET /api/v1/port/slic-info: a port by its
// code, the SLICs of the chosen port (or of every port), without duplicates.
import type { PortRecord } from '@/shared/platform/api/types';

export interface Option {
  value: string;
  label: string;
}

const live = <T extends { deleted?: boolean | number | null }>(items: readonly T[] | undefined) =>
  (items ?? []).filter((i) => !i.deleted);

export function portOptions(ports: readonly PortRecord[]): Option[] {
  const seen = new Set<string>();
  const out: Option[] = [];
  for (const p of live(ports)) {
    if (!p.portCode || seen.has(p.portCode)) continue;
    seen.add(p.portCode);
    out.push({
      value: p.portCode,
      label: p.portName ? `${p.portCode} · ${p.portName}` : p.portCode,
    });
  }
  return out;
}

/** Facility SLICs of `portCode` (all ports when null). */
export function slicOptions(ports: readonly PortRecord[], portCode: string | null): Option[] {
  const seen = new Set<string>();
  const out: Option[] = [];
  for (const p of live(ports)) {
    if (portCode !== null && p.portCode !== portCode) continue;
    for (const s of live(p.slicInfoList)) {
      if (!s.upsFacilitySlic || seen.has(s.upsFacilitySlic)) continue;
      seen.add(s.upsFacilitySlic);
      out.push({
        value: s.upsFacilitySlic,
        label: s.upsFacilityName
          ? `${s.upsFacilitySlic} · ${s.upsFacilityName}`
          : s.upsFacilitySlic,
      });
    }
  }
  return out;
}
