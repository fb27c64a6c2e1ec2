/**
 * The factories spec files write rules with. A rule is plain data (id,
 * clause, sentence, level, what it mutates and needs) plus its check; the
 * check's context is narrowed by the needs it declares.
 */
import type { CheckContext, Need, Rule, RuleDefinition, RuleGroupDefinition } from './types.ts';

function make<N extends Need>(input: RuleDefinition<N>, kind: Rule['kind']): Rule {
  return {
    id: input.id,
    clause: input.clause,
    quotes: typeof input.quote === 'string' ? [input.quote] : [...input.quote],
    sentence: typeof input.quote === 'string' ? input.quote : input.quote.join(' … '),
    ...(input.open !== undefined ? { open: input.open } : {}),
    level: input.level,
    mutates: input.mutates ?? 'none',
    needs: [...(input.needs ?? [])],
    ...(input.judges ? { judges: input.judges } : {}),
    ...(input.runs !== undefined ? { runs: input.runs } : {}),
    kind,
    // The engine runs a check only once every declared need is met, and hands it a context with
    // everything any need provides: a superset of what CheckContext<N> promises.
    check: (ctx) => input.check(ctx as unknown as CheckContext<N>),
  };
}

/** An example rule: fixed exchanges against the target. */
export function rule<const N extends Need = never>(input: RuleDefinition<N>): Rule {
  return make(input, 'example');
}

/** A fast-check property run against the target (see check-property.ts). */
export function property<const N extends Need = never>(input: RuleDefinition<N>): Rule {
  return make(input, 'property');
}

/** A spec file's default export; the catalogue loader adds the file it came from. */
export function defineRuleGroup(group: RuleGroupDefinition): RuleGroupDefinition {
  const seen = new Set<string>();
  for (const r of group.rules) {
    if (seen.has(r.id)) throw new Error(`duplicate rule id ${r.id} in the group ${group.title}`);
    seen.add(r.id);
  }
  return group;
}
