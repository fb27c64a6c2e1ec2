/**
 * Hostile answers: the read-only catalogue through a proxy that misbehaves in
 * one way (the mode by the seed, every n-th request by the seed): hangs,
 * resets, dribbles, bodies of 50 MB, HTML, a wrong content type, page tokens
 * that cycle or never end, a key refused halfway, redirects, credentials
 * echoed back. The run ends, its reports are valid, a transport fault is an
 * ERROR and never a FAIL, a protocol departure FAILs the rule it breaks, and
 * no echoed key reaches the results.
 */
import type { RunResult } from '../../src/core/types.ts';
import { startHostileProxy, type HostileMode } from '../../src/hostile-server/hostile-proxy.ts';
import { startReferenceServer } from '../../src/reference-server/index.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderJson } from '../../src/report/json.ts';
import { renderJUnit } from '../../src/report/junit.ts';
import { loadCatalogue } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';
import { keyLeaks } from '../../test/helpers/key-leaks.ts';
import { xmlProblems } from '../../test/helpers/xml.ts';
import { between, random, type TrialOutcome } from './harness.ts';

const TRANSPORT = ['hang', 'reset', 'dribble', 'huge-body'] as const;

/** The modes tried, in turn by the seed (break-restores and echo-encodings are trials of their own). */
export const ANSWER_MODES = [
  'wrong-content-type',
  'hang',
  'html',
  'reset',
  'cycling-token',
  'dribble',
  'endless-pagination',
  'huge-body',
  'unauthorized-halfway',
  'redirect',
  'echo-credentials',
] as const satisfies readonly HostileMode[];

const isTransport = (mode: HostileMode): boolean => TRANSPORT.some((m) => m === mode);

/** What must be true of the run through `mode`: problems, and whether the mode met the run at all. */
function judge(mode: HostileMode, run: RunResult): { problems: string[]; reached: boolean } {
  const fails = run.results.filter((r) => r.verdict === 'FAIL');
  const errors = run.results.filter((r) => r.verdict === 'ERROR');
  const codes = new Set(run.results.map((r) => r.errorCode));
  const problems: string[] = [];
  const noFail = (): void => {
    if (fails.length > 0) problems.push(`FAIL: ${fails.map((r) => r.ruleId).join(', ')}`);
  };
  switch (mode) {
    case 'hang':
    case 'reset':
    case 'dribble':
    case 'huge-body':
      noFail();
      return {
        problems,
        reached: ['DC_ERR_TIMEOUT', 'DC_ERR_NETWORK', 'DC_ERR_BODY_TOO_LARGE'].some((c) => codes.has(c)),
      };
    case 'wrong-content-type':
      noFail();
      if (errors.length > 0) problems.push(`ERROR: ${errors.map((r) => r.ruleId).join(', ')}`);
      return { problems, reached: true };
    case 'html':
      if (fails.length === 0) problems.push('no rule FAILed on HTML answers');
      return { problems, reached: fails.length > 0 };
    case 'cycling-token':
    case 'endless-pagination': {
      const once = run.results.find((r) => r.ruleId === 'pagination.each-resource-once');
      if (once?.verdict !== 'FAIL') problems.push(`pagination.each-resource-once is ${once?.verdict ?? 'absent'}`);
      return { problems, reached: once?.verdict === 'FAIL' };
    }
    case 'unauthorized-halfway': {
      const wrong = fails.filter((r) => !r.ruleId.startsWith('auth.'));
      if (wrong.length > 0) problems.push(`FAIL: ${wrong.map((r) => r.ruleId).join(', ')}`);
      return { problems, reached: codes.has('DC_ERR_UNAUTHENTICATED') };
    }
    case 'redirect':
      noFail();
      return { problems, reached: codes.has('DC_ERR_REDIRECT') };
    case 'echo-credentials':
      noFail();
      // The echoed headers reached the transcripts (as placeholders): the leak scan looked where a key would be.
      return { problems, reached: renderJson(run).includes('x-echo-authorization') };
    default:
      noFail();
      return { problems, reached: true };
  }
}

export async function hostileAnswerTrial(seed: number): Promise<TrialOutcome> {
  const mode = ANSWER_MODES[(seed - 1) % ANSWER_MODES.length] ?? 'html';
  const next = random(seed);
  const every = between(next, 4, 7);
  const upstream = await startReferenceServer({ seed, resources: 80 });
  const proxy = await startHostileProxy({ mode, upstream: upstream.url, every, after: between(next, 40, 80) });
  try {
    const transport = isTransport(mode);
    const run = await runRules(
      await loadCatalogue(),
      { baseUrl: proxy.url, serviceVersion: '26.06.25', apiKey: upstream.apiKey, profile: upstream.profile },
      {
        ...DEFAULT_ENGINE_OPTIONS,
        allowMutations: false,
        numRuns: 3,
        seed,
        requestTimeoutMs: transport ? 400 : 10_000,
        ruleTimeoutMs: transport ? 8_000 : 60_000,
        concurrency: 4,
      },
    );
    const { problems, reached } = judge(mode, run);
    const junit = xmlProblems(renderJUnit(run));
    if (junit.length > 0) problems.push(`junit.xml: ${junit[0] ?? ''}`);
    if (!/<\/html>\s*$/.test(renderHtml(run))) problems.push('index.html is cut');
    const leaks = [renderJson(run), renderJUnit(run), renderHtml(run)].flatMap((text) =>
      keyLeaks(text, upstream.apiKey),
    );
    if (leaks.length > 0) problems.push(`the key leaked: ${leaks[0] ?? ''}`);
    const v = run.summary.byVerdict;
    return {
      held: problems.length === 0,
      reached,
      detail: `${mode} every ${every}th: ${v.PASS} PASS, ${v.FAIL} FAIL, ${v.ERROR} ERROR${
        problems.length > 0 ? `: ${problems.join('; ')}` : ''
      }`,
    };
  } finally {
    await proxy.close();
    await upstream.close();
  }
}
