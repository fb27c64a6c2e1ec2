/**
 * What the show operations must answer after writes (§4.2, §4.3, §4.4,
 * §4.5, §4.7), day by day: the model the model-based sequences replay over
 * their tagged steps (properties/model.properties.ts), the concurrent
 * properties hold each serial order to, and the write-effects judge holds
 * any traffic to (write-effects.ts). Where the spec leaves a choice open the
 * model holds nothing (a day it cannot know is left out; a range's end day
 * is read leniently), so a server that chooses otherwise is never failed for
 * it. Pure: tested on recorded answers, no network.
 */
import type { Violation } from '../../core/types.ts';
import type { ActivityRatePeriod, TeamAssignation } from '../../schemas/index.ts';
import { addDays, splitRange, type DateSpan } from '../dates.ts';
import { field, type Observed } from './observed.ts';

/** What the spec says the show operations must answer, day by day inside the window. */
export interface Model {
  /**
   * The rate a period must show on the day, or null when no period may cover
   * it; a day not in the map is open (§4.2 rule 1: assigning a rate may modify
   * other periods).
   */
  rates: Map<string, number | null>;
  /**
   * Assignations that must be shown on each of their days, with the regrouping
   * they were assigned with; others are open (§4.3: others may be extended or shortened).
   */
  teams: Array<{ teamId: string; head: boolean; days: string[]; regrouping?: string }>;
}

/** The days of a range the spec leaves no doubt about: whether its end day is included is not shown. */
export function certainDays(span: DateSpan): string[] {
  const days: string[] = [];
  for (let d = span.start; d < span.end; d = addDays(d, 1)) days.push(d);
  return days;
}

/** Inclusive of both ends, so a server whose ends are exclusive is not failed for it. */
export const mayCover = (range: string, day: string): boolean => {
  const s = splitRange(range);
  return s !== undefined && s.start <= day && day <= s.end;
};
/** Certainly covers: a day strictly before the end. */
export const surelyCovers = (range: string, day: string): boolean => {
  const s = splitRange(range);
  return s !== undefined && s.start <= day && day < s.end;
};

/**
 * The judge of one step: what show-activity-rates answered (`periods`) must
 * agree with the model. Pure: it is tested on recorded answers, no network.
 */
export function judgeRates(
  model: Pick<Model, 'rates'>,
  periods: readonly ActivityRatePeriod[],
  after: string,
): Violation[] {
  const violations: Violation[] = [];
  for (const [day, rate] of model.rates) {
    if (rate === null) {
      const covering = periods.filter((p) => surelyCovers(p.date_range, day));
      if (covering.length > 0) {
        violations.push({
          where: `show-activity-rates after ${after}: date_range on ${day}`,
          message: 'must show no period on a day whose rate was unassigned since',
          expected: '(no period)',
          actual: covering,
        });
      }
      // "Shown as an integer" is another rule's business: a rounded rate matches.
    } else if (!periods.some((p) => mayCover(p.date_range, day) && Math.abs(p.average_rate - rate) <= 0.5)) {
      violations.push({
        where: `show-activity-rates after ${after}: average_rate on ${day}`,
        message: 'must show a period with the rate assigned last over the day',
        expected: { average_rate: rate },
        actual: periods.filter((p) => mayCover(p.date_range, day)),
      });
    }
    // The first day that departs says it: the days after it usually repeat the same cause.
    if (violations.length > 0) return violations;
  }
  return violations;
}

/** The judge of one step for show-teams: every assignation the model holds is shown on each of its days. */
export function judgeTeams(
  model: Pick<Model, 'teams'>,
  assignations: readonly TeamAssignation[],
  after: string,
): Violation[] {
  for (const { teamId, head, days, regrouping } of model.teams) {
    const covering = (day: string): TeamAssignation[] =>
      assignations.filter((a) => a.team.id === teamId && a.head === head && mayCover(a.date_range, day));
    const missing = days.filter((day) => covering(day).length === 0);
    if (missing.length > 0) {
      return [
        {
          where: `show-teams after ${after}`,
          message: 'must show the assignation made last on each of its days',
          expected: { team: teamId, head, days: `${missing[0]} … ${missing.at(-1)}` },
          actual: assignations.filter((a) => a.team.id === teamId),
        },
      ];
    }
    // What the assignment sent comes back on its days; a redacted regrouping is another rule's business.
    const otherwise =
      regrouping === undefined
        ? []
        : days.filter((day) =>
            covering(day).every((a) => typeof a.regrouping === 'string' && a.regrouping !== regrouping),
          );
    if (otherwise.length > 0) {
      return [
        {
          where: `show-teams after ${after}: regrouping on ${otherwise[0]}`,
          message: 'must show the regrouping the assignment made last sent, on each of its days',
          expected: { team: teamId, head, regrouping, days: `${otherwise[0]} … ${otherwise.at(-1)}` },
          actual: covering(otherwise[0] ?? '').map((a) => ({ date_range: a.date_range, regrouping: a.regrouping })),
        },
      ];
    }
  }
  return [];
}

/**
 * What show-activity-rates shows over each day the model knows, in the
 * model's terms and with the judge's tolerance: the expected rate where a
 * period that may cover the day shows it, else the rate shown there (null: none).
 */
export function ratesShown(
  model: Pick<Model, 'rates'>,
  periods: readonly ActivityRatePeriod[],
): Record<string, number | null> {
  const shown: Record<string, number | null> = {};
  for (const [day, rate] of model.rates) {
    if (rate === null) shown[day] = periods.find((p) => surelyCovers(p.date_range, day))?.average_rate ?? null;
    else {
      const covering = periods.filter((p) => mayCover(p.date_range, day));
      shown[day] = covering.some((p) => Math.abs(p.average_rate - rate) <= 0.5)
        ? rate
        : (covering[0]?.average_rate ?? null);
    }
  }
  return shown;
}

/**
 * A write answered as done, applied to the model: `days` are the days of its
 * range as the caller reads them (undefined when it sent no range that reads
 * as one). An assignment makes every other day open (§4.2 rule 1: other
 * periods may change) and its own days hold its rate; an unassignment takes
 * the rate off its days and leaves the days around as they were (§4.7
 * unassigns "for a date range"); a team assignment leaves the model holding
 * only itself, when it must be done (§4.3: other assignations may be extended
 * or shortened; without warning_aware it may or may not be done).
 */
export function applyWrite(
  model: Model,
  o: Pick<Observed, 'operation' | 'request'>,
  days: readonly string[] | undefined,
): void {
  if (o.operation === 'resources.assign-activity-rate') {
    const rate = field(o.request, 'average_rate');
    model.rates.clear();
    if (typeof rate === 'number') for (const day of days ?? []) model.rates.set(day, rate);
  } else if (o.operation === 'resources.unassign-activity-rate') {
    if (days === undefined) model.rates.clear();
    for (const day of days ?? []) model.rates.set(day, null);
  } else if (o.operation === 'resources.assign-team') {
    const teamId = field(o.request, 'team_id');
    const head = field(o.request, 'head');
    const regrouping = field(o.request, 'regrouping');
    model.teams =
      field(o.request, 'warning_aware') === true && typeof teamId === 'string' && typeof head === 'boolean'
        ? [{ teamId, head, days: [...(days ?? [])], ...(typeof regrouping === 'string' ? { regrouping } : {}) }]
        : [];
  }
}
