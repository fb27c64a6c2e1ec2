/**
 * resources.show-teams (§4.5) and resources.show-activity-rates (§4.4) as
 * typed steps. The shape of their answers (TEAMS_SHAPE, RATES_SHAPE) is the
 * business of the rules whose records name those checks, whichever rule
 * reads them.
 */
import type { DirectoryClient } from '../../client/directory-client.ts';
import type {
  ActivityRatePeriod,
  ShowActivityRatesRequest,
  ShowTeamsRequest,
  TeamAssignation,
} from '../../schemas/index.ts';
import { expectJson, expectSuccess, owned } from '../assertions.ts';
import { judgeRead } from './list.ts';
import type { BaseCheckContext } from '../types.ts';
import { RATES_SHAPE, TEAMS_SHAPE } from '../judges/read-answers.ts';

type StepContext = Pick<BaseCheckContext, 'ruleId' | 'client' | 'found' | 'ownerOf'>;
interface Options {
  step?: string;
  client?: DirectoryClient;
  /**
   * Send the read even when the same one was answered since the suite last
   * changed the resource (a deliberate second look); by default that answer
   * is shared (see PostOptions.shared).
   */
  fresh?: boolean;
}

/** Wide enough to hold every assignation and period a directory keeps. */
export const WIDE_RANGE = '1900-01-01/2199-12-31';

export async function showTeams(ctx: StepContext, body: ShowTeamsRequest, options: Options = {}) {
  const step = options.step ?? 'resources.show-teams';
  const res = await (options.client ?? ctx.client).post('resources.show-teams', body, {
    shared: options.fresh !== true,
    step,
  });
  owned(ctx, TEAMS_SHAPE, () => expectSuccess(res, { step, status: 200 }));
  judgeRead(ctx, res, step, body);
  return owned(ctx, TEAMS_SHAPE, () => expectJson(res, 'TeamAssignationList', { step }) satisfies TeamAssignation[]);
}

export async function showActivityRates(ctx: StepContext, body: ShowActivityRatesRequest, options: Options = {}) {
  const step = options.step ?? 'resources.show-activity-rates';
  const res = await (options.client ?? ctx.client).post('resources.show-activity-rates', body, {
    shared: options.fresh !== true,
    step,
  });
  owned(ctx, RATES_SHAPE, () => expectSuccess(res, { step, status: 200 }));
  judgeRead(ctx, res, step, body);
  return owned(
    ctx,
    RATES_SHAPE,
    () => expectJson(res, 'ActivityRatePeriodList', { step }) satisfies ActivityRatePeriod[],
  );
}
