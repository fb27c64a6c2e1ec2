import { confidenceOf, ONE_IN, repetitionsPerRun, type Repeats } from '../rules/one-in-n.ts';
import { describeRateTest } from '../rules/departure-rate.ts';
import { DEFAULT_PROPERTY_RUNS } from '../runner/run-rules.ts';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { Level } from '../core/types.ts';
import { loadCatalogue, selectRules } from '../runner/catalogue.ts';
import { checkSelection } from '../session/check-selection.ts';
import { MANIFEST_PATH, RULE_IDS_PATH, renderManifest, renderRuleIds } from '../rules/manifest.ts';
import { RUN_CONFIG_SCHEMA, RUN_CONFIG_SCHEMA_PATH, renderRunConfigSchema } from '../schemas/run-config.ts';
import { RESULTS_SCHEMA_PATH, renderResultsSchema } from '../schemas/results-schema.ts';
import { RULES_HELP } from './help.ts';
import { parseOptions } from './options.ts';
import { UsageError } from '../core/errors.ts';
import { packagePath } from '../core/package-root.ts';
import { renderCoverage } from '../rules/input-models/coverage.ts';
import { leftOutAtDepth, runsAtDepth } from '../rules/depth.ts';
import type { Depth } from '../core/types.ts';
import { loadProfile } from '../target/load-profile.ts';
import type { TargetProfile } from '../target/profile.ts';
import type { RuleGroup } from '../rules/types.ts';

/** Each model-based property's steps that interact, for a profile and a seed: what `rules --coverage` adds. */
export function renderInteraction(groups: readonly RuleGroup[], profile: TargetProfile, seed: number): string[] {
  return groups.flatMap((g) =>
    g.rules.flatMap((r) => {
      if (r.interaction === undefined) return [];
      const { steps, touching } = r.interaction(profile, seed);
      const share = steps === 0 ? 0 : Math.round((100 * touching) / steps);
      return [
        `${r.id}: ${touching}/${steps} drawn steps (${share}%) touch what an earlier step of their sequence touched (seed ${seed})`,
      ];
    }),
  );
}

const DEPTHS: readonly Depth[] = RUN_CONFIG_SCHEMA.properties.depth.enum;

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
    depth: { type: 'string' },
  });
  if (values.help) {
    out(RULES_HELP);
    return 0;
  }
  const depth = depthOf(values.depth);
  if (values.coverage) {
    // The input space of each operation with a model, pairwise, for this profile (the example one by default).
    const profile = await loadProfile(values.profile ?? packagePath('fixtures/example-profile.json'));
    const seed = values.seed === undefined ? 1 : Number(values.seed);
    if (!Number.isInteger(seed)) throw new UsageError(`--seed must be an integer, not ${values.seed}`);
    for (const line of renderCoverage(profile, seed, depth)) out(line);
    for (const line of renderInteraction(await loadCatalogue(), profile, seed)) out(line);
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
      const runs = runsAtDepth(r.runs ?? DEFAULT_PROPERTY_RUNS, depth, r);
      const flags = [
        r.concurrent ? 'concurrent' : '',
        r.kind === 'property'
          ? leftOutAtDepth(r, depth)
            ? `property:left out at --depth ${depth}`
            : `property:${runs} runs`
          : '',
        r.repeats ? describeRepeats(r.repeats, runs, depth) : '',
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

/**
 * How often a repeated rule sends its judged request, how sure that is to see
 * a departure one time in ten, and how its FAIL is confirmed: by the rate of
 * the departure over the confirming attempts (departure-rate.ts).
 */
export function describeRepeats(repeats: Repeats, runs: number, depth: Depth = 'default'): string {
  const each = repetitionsPerRun(repeats, runs, depth);
  const trials = each * repeats.judgedPerRun * runs;
  const sure = Math.floor(confidenceOf(trials) * 1000) / 10;
  return `repeats:${each}x, ${trials} judged, one-in-${ONE_IN} seen at ${sure}%; ${describeRateTest()}`;
}

/** `--depth` as the run takes it (the run configuration's own choices), `default` when it is not given. */
function depthOf(given: string | undefined): Depth {
  if (given === undefined) return 'default';
  const depth = DEPTHS.find((d) => d === given);
  if (depth === undefined) throw new UsageError(`--depth must be one of ${DEPTHS.join(', ')}, got ${given}`);
  return depth;
}
