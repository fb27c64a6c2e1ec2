import type { RuleGroup } from './types.ts';

export interface ManifestEntry {
  id: string;
  clause: string;
  sentence: string;
  level: string;
  kind: string;
  mutates: string;
  needs: string[];
  section: string;
  file: string;
}

/** The committed manifest of the catalogue (specs/manifest.json): plain data, stable order. */
export function buildManifest(groups: readonly RuleGroup[]): { rules: ManifestEntry[] } {
  return {
    rules: groups.flatMap((g) =>
      g.rules.map((r) => ({
        id: r.id,
        clause: r.clause,
        sentence: r.sentence,
        level: r.level,
        kind: r.kind,
        mutates: r.mutates,
        needs: [...r.needs],
        section: g.section,
        file: g.file,
      })),
    ),
  };
}

export function renderManifest(groups: readonly RuleGroup[]): string {
  return `${JSON.stringify(buildManifest(groups), null, 2)}\n`;
}

export const MANIFEST_PATH = 'specs/manifest.json';
