import { confidenceOf, ONE_IN, repetitionsPerRun, type Repeats } from '../rules/one-in-n.ts';
import { DEFAULT_PROPERTY_RUNS } from '../runner/run-rules.ts';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Level } from '../core/types.ts';
import { loadCatalogue, selectRules } from '../runner/catalogue.ts';
import { checkSelection } from '../session/check-selection.ts';
import { MANIFEST_PATH, RULE_IDS_PATH, renderManifest, renderRuleIds } from '../rules/manifest.ts';
import { RUN_CONFIG_SCHEMA_PATH, renderRunConfigSchema } from '../schemas/run-config.ts';
import { RESULTS_SCHEMA_PATH, renderResultsSchema } from '../schemas/results-schema.ts';
import { RULES_HELP } from './help.ts';
import { parseOptions } from './options.ts';
import { UsageError } from '../core/errors.ts';
import { packagePath } from '../core/package-root.ts';
import { renderCoverage } from '../rules/input-models/coverage.ts';
import { loadProfile } from '../target/load-profile.ts';

export async function rulesCommand(argv: string[], out: (line: string) => void): Promise<number> {
  const { values } = parseOptions(argv, {
    json: { type: 'boolean' },
    'write-manifest': { type: 'boolean' },
    rule: { type: 'string', multiple: true },
    section: { type: 'string', multiple: true },
    level: { type: 'string', multiple: true },
    coverage: { type: 'boolean' },
    profile: { type: 'string' },
    seed: { type: 'string' },
  });
  if (values.help) {
    out(RULES_HELP);
    return 0;
  }
  if (values.coverage) {
    // The input space of each operation with a model, pairwise, for this profile (the example one by default).
    const profile = await loadProfile(values.profile ?? packagePath('fixtures/example-profile.json'));
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, not ${values.seed}`);
    for (const line of renderCoverage(profile, seed)) out(line);
    return 0;
  }
  const catalogue = await loadCatalogue();
  if (values['write-manifest']) {
    // The manifest and the rule ids are committed files of a clone; an installed package has no sources to match.
    if (!existsSync(RULE_IDS_PATH))
      throw new UsageError(
        '--write-manifest regenerates the files of a clone (no src/ here): `rules --json` prints it',
      );
    await writeFile(MANIFEST_PATH, renderManifest(catalogue));
    await writeFile(RULE_IDS_PATH, renderRuleIds(catalogue));
    await writeFile(RUN_CONFIG_SCHEMA_PATH, renderRunConfigSchema());
    await writeFile(RESULTS_SCHEMA_PATH, renderResultsSchema());
    out(`wrote ${MANIFEST_PATH}, ${RULE_IDS_PATH}, ${RUN_CONFIG_SCHEMA_PATH} and ${RESULTS_SCHEMA_PATH}`);
    return 0;
  }
  checkSelection(catalogue, { rules: values.rule ?? [], sections: values.section ?? [] });
  const groups = selectRules(catalogue, {
    rules: values.rule ?? [],
    sections: values.section ?? [],
    levels: (values.level ?? []) as Level[],
  });
  if (values.json) {
    out(renderManifest(groups).trimEnd());
    return 0;
  }
  for (const g of groups) {
    // The source file is worth naming only where it is (a clone); the package ships compiled rules.
    const file = existsSync(packagePath(g.file)) ? `  (${g.file})` : '';
    out(`${g.section} ${g.title}${file}`);
    for (const r of g.rules) {
      const flags = [
        r.kind === 'property' ? `property:${r.runs ?? DEFAULT_PROPERTY_RUNS} runs` : '',
        r.repeats ? describeRepeats(r.repeats, r.runs ?? DEFAULT_PROPERTY_RUNS) : '',
        r.mutates !== 'none' ? `mutates:${r.mutates}` : '',
        r.needs.length ? `needs:${r.needs.join(',')}` : '',
      ]
        .filter(Boolean)
        .join(' ');
      out(`  ${r.level.padEnd(8)} ${r.id.padEnd(48)} ${r.clause}${flags ? `  [${flags}]` : ''}`);
    }
  }
  return 0;
}

/** How often a repeated rule sends its judged request, and how sure that is to see a departure one time in ten. */
export function describeRepeats(repeats: Repeats, runs: number): string {
  const each = repetitionsPerRun(repeats, runs);
  const trials = each * repeats.judgedPerRun * runs;
  const sure = Math.floor(confidenceOf(trials) * 1000) / 10;
  return `repeats:${each}x, ${trials} judged, one-in-${ONE_IN} seen at ${sure}%`;
}
