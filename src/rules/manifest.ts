import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { clauseCoverage, type ClauseCoverage } from './clauses.ts';
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

export interface Manifest {
  rules: ManifestEntry[];
  /** Every clause of the spec and the rules that check it (or why none can). */
  clauses: ClauseCoverage[];
}

export const SPEC_PATH = fileURLToPath(new URL('../../docs/spec.md', import.meta.url));
export const MANIFEST_PATH = fileURLToPath(new URL('../../specs/manifest.json', import.meta.url));

/** The committed manifest of the catalogue (specs/manifest.json): plain data, stable order. */
export function buildManifest(groups: readonly RuleGroup[], specText = readFileSync(SPEC_PATH, 'utf8')): Manifest {
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
    clauses: clauseCoverage(
      specText,
      groups.flatMap((g) => g.rules),
    ),
  };
}

export function renderManifest(groups: readonly RuleGroup[]): string {
  return `${JSON.stringify(buildManifest(groups), null, 2)}\n`;
}
