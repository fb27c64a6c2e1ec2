/**
 * The factories spec files write rules with. A rule is plain data (id,
 * clause, sentence, level, what it mutates and needs) plus its check; the
 * check's context is narrowed by the needs it declares.
 */
import fc from 'fast-check';
import { HarnessError } from '../core/errors.ts';
import { enforce } from './assertions.ts';
import { ofLog, type Judge } from './judges/fold.ts';
import { isNoEvidence } from './judges/judgement.ts';
import { meetsNeeds, unmetNeed, type Need } from './needs.ts';
import { repetitionsPerRun, type Repeats } from './one-in-n.ts';
import type { BaseCheckContext, Judging, Rule, RuleDefinition, RuleGroupDefinition, RuleJudge } from './types.ts';

/**
 * `ctx.judged` for a driver: one run's requests, then the rule's judge over
 * them and only them (the engine folds them into it as they come). Their part
 * of the log is dropped once judged, whatever happened.
 */
function judging(ctx: BaseCheckContext, repeats: Repeats | undefined): Judging {
  return {
    async repeat(send) {
      const repetitions = repeats ? repetitionsPerRun(repeats, ctx.options.numRuns, ctx.options.depth) : 1;
      for (let i = 0; i < repetitions; i++) {
        await send(i);
        ctx.log.judgedSent();
      }
    },
    async judged(run) {
      ctx.log.startRun();
      try {
        await run();
        const judgement = ctx.log.endRun();
        // A run whose exchanges cannot show the clause is discarded, as fast-check discards a run that fails `fc.pre`.
        fc.pre(!isNoEvidence(judgement));
        enforce(judgement);
      } finally {
        ctx.log.dropRun();
      }
    },
  };
}

/** A judge as a spec file writes it (a function of the whole log, or a fold), as everything that judges uses it. */
function judgeOf(judge: RuleJudge | Judge): Judge {
  return typeof judge === 'function' ? ofLog(judge) : judge;
}

function make<N extends Need>(input: RuleDefinition<N>, kind: Rule['kind']): Rule {
  const needs: readonly N[] = input.needs ?? [];
  return {
    id: input.id,
    clause: input.clause,
    quotes: typeof input.quote === 'string' ? [input.quote] : [...input.quote],
    sentence: typeof input.quote === 'string' ? input.quote : input.quote.join(' … '),
    ...(input.open !== undefined ? { open: input.open } : {}),
    level: input.level,
    mutates: input.mutates ?? 'none',
    needs: [...needs],
    ...(input.judges ? { judges: input.judges } : {}),
    ...(input.runs !== undefined ? { runs: input.runs } : {}),
    ...(input.timing ? { timing: input.timing } : {}),
    ...(input.concurrent ? { concurrent: input.concurrent } : {}),
    ...(input.repeats ? { repeats: input.repeats } : {}),
    ...(input.interaction ? { interaction: input.interaction } : {}),
    kind,
    judge: judgeOf(input.judge),
    ...(input.explain ? { explain: input.explain } : {}),
    ...(input.checks ? { checks: input.checks } : {}),
    ...(input.traffic
      ? { traffic: typeof input.traffic === 'function' ? input.traffic(input.checks ?? []) : input.traffic }
      : {}),
    // The engine SKIPs a rule whose needs are unmet before it gets here; the test narrows the context.
    check: (ctx, env) => {
      if (meetsNeeds(ctx, needs, env)) {
        return input.drive({ ...ctx, ...judging(ctx, input.repeats) });
      }
      const reason = needs.map((need) => unmetNeed(need, env)).find((r) => r !== undefined);
      return Promise.reject(new HarnessError('DC_ERR_PRECONDITION', reason ?? 'a need of the rule is not provided'));
    },
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
