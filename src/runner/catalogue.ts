/**
 * The rule catalogue: every rule group under specs/ (example rules) and
 * properties/ (fast-check properties), found by file name, so adding a spec
 * file is all it takes to add its rules. Groups come in the order of the
 * spec's sections; each group's file is derived from where it was found.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Level } from '../core/types.ts';
import type { Rule, RuleGroup, RuleGroupDefinition } from '../rules/types.ts';
import { citedClauses } from '../rules/clauses.ts';

/** The folder that holds specs/ and properties/ (the repository, or the built package). */
export const CATALOGUE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Rule files: `*.spec.ts` in specs/, `*.properties.ts` in properties/ (`.js` once built). */
const RULE_FILES: ReadonlyArray<{ folder: string; pattern: RegExp }> = [
  { folder: 'specs', pattern: /^[^.]+\.spec\.(ts|js)$/ },
  { folder: 'properties', pattern: /^[^.]+\.properties\.(ts|js)$/ },
];

/** The rule files under `root`, as paths relative to it. */
export function ruleFiles(root: string = CATALOGUE_ROOT): string[] {
  return RULE_FILES.flatMap(({ folder, pattern }) => {
    let names: string[];
    try {
      names = readdirSync(join(root, folder));
    } catch {
      return [];
    }
    return names
      .filter((name) => pattern.test(name))
      .sort()
      .map((name) => `${folder}/${name}`);
  });
}

/** "§4.10" after "§4.9", "§5" after both; properties after the example rules of their section. */
function bySection(a: RuleGroup, b: RuleGroup): number {
  const parts = (g: RuleGroup): number[] => (/§([\d.]+)/.exec(g.section)?.[1] ?? '99').split('.').map(Number);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d;
  }
  const kind = (g: RuleGroup): number => (g.file.startsWith('properties/') ? 1 : 0);
  return kind(a) - kind(b) || a.file.localeCompare(b.file);
}

/** The source path a user edits, also when running from the built package (`dist/…/x.spec.js`). */
function sourcePath(root: string, file: string): string {
  const path = relative(CATALOGUE_ROOT, join(root, file)).split('\\').join('/');
  return path.replace(/^dist\//, '').replace(/\.js$/, '.ts');
}

/** What defineRuleGroup makes: a section, a title and rules, each with an id and a check. */
function isRuleGroup(value: unknown): value is RuleGroupDefinition {
  if (typeof value !== 'object' || value === null) return false;
  if (!('section' in value && 'title' in value && 'rules' in value)) return false;
  const { section, title, rules } = value;
  return (
    typeof section === 'string' &&
    typeof title === 'string' &&
    Array.isArray(rules) &&
    rules.every(
      (r: unknown) =>
        typeof r === 'object' &&
        r !== null &&
        'id' in r &&
        typeof r.id === 'string' &&
        'check' in r &&
        typeof r.check === 'function',
    )
  );
}

const loaded = new Map<string, Promise<RuleGroup[]>>();

/** Every rule group under `root`; loaded once per root. */
export function loadCatalogue(root: string = CATALOGUE_ROOT): Promise<RuleGroup[]> {
  let groups = loaded.get(root);
  if (!groups) {
    groups = Promise.all(
      ruleFiles(root).map(async (file) => {
        // The one import whose target is computed: the layers test knows it reaches specs/ and properties/.
        const module: unknown = await import(pathToFileURL(join(root, file)).href);
        const group = typeof module === 'object' && module !== null && 'default' in module ? module.default : undefined;
        if (!isRuleGroup(group)) throw new Error(`${file} has no default export made by defineRuleGroup`);
        return { ...group, file: sourcePath(root, file) };
      }),
    ).then((all) => all.sort(bySection));
    loaded.set(root, groups);
  }
  return groups;
}

export function allRules(groups: readonly RuleGroup[]): Rule[] {
  return groups.flatMap((g) => g.rules);
}

export interface Selection {
  /** Rule ids, or id prefixes ending in `*` (e.g. `pagination.*`). */
  rules?: string[];
  /** Spec sections, e.g. `§4.9` or `4.9`. */
  sections?: string[];
  levels?: Level[];
}

/** The groups, each cut down to the rules the selection keeps (empty groups dropped). */
/** A rule id against a `--rule` pattern: the id itself, a prefix ending in `*`, or a prefix of whole words (`pagination`). */
export function ruleIdMatches(id: string, pattern: string): boolean {
  if (pattern.endsWith('*')) return id.startsWith(pattern.slice(0, -1));
  return id === pattern || id.startsWith(pattern.endsWith('.') ? pattern : `${pattern}.`);
}

export function selectRules(groups: readonly RuleGroup[], selection: Selection): RuleGroup[] {
  const idMatches = (id: string): boolean =>
    !selection.rules?.length || selection.rules.some((pattern) => ruleIdMatches(id, pattern));
  const sections = selection.sections?.map((s) => (s.startsWith('§') ? s : `§${s}`));
  const sectionMatches = (r: Rule): boolean =>
    !sections?.length ||
    citedClauses(r.clause).some((c) => sections.some((s) => c === s || c.startsWith(`${s} `) || c.startsWith(`${s}.`)));
  return groups
    .map((g) => ({
      ...g,
      rules: g.rules.filter(
        (r) =>
          idMatches(r.id) && sectionMatches(r) && (!selection.levels?.length || selection.levels.includes(r.level)),
      ),
    }))
    .filter((g) => g.rules.length > 0);
}

/** Shard `index` of `count` (1-based), dealt rule by rule so each shard gets a share of every section. */
export function shardRules(groups: readonly RuleGroup[], index: number, count: number): RuleGroup[] {
  let position = 0;
  return groups
    .map((g) => ({ ...g, rules: g.rules.filter(() => position++ % count === index - 1) }))
    .filter((g) => g.rules.length > 0);
}
