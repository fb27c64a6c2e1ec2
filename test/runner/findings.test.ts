/**
 * How findings become verdicts, on results alone (no network): the owner
 * FAILs with them whatever it ended with; its own violations come first; an
 * OBSERVED owner only records them; "blocked by" names only a rule that FAILed.
 */
import { describe, expect, test } from 'vitest';
import type { RuleResult } from '../../src/core/types.ts';
import { chargeFindings, Findings } from '../../src/runner/findings.ts';

function result(ruleId: string, extra: Partial<RuleResult> = {}): RuleResult {
  return {
    ruleId,
    clause: '§4.9',
    sentence: 's',
    section: '§4.9',
    group: 'g',
    level: 'MUST',
    kind: 'example',
    mutates: 'none',
    verdict: 'PASS',
    violations: [],
    observations: [],
    exchanges: [],
    requestCount: 1,
    durationMs: 1,
    ...extra,
  };
}

const departure = { where: 'limit 2, page 2', message: 'must not repeat a resource' };
const none = () => undefined;

describe('chargeFindings', () => {
  test('no finding: the results as they were', () => {
    const results = [result('a'), result('b', { verdict: 'SKIP', skipCause: 'profile' })];
    expect(chargeFindings(results, new Findings(), none)).toEqual(results);
  });

  test('a PASS, a SKIP and an ERROR owner each FAIL with the finding, saying who saw it', () => {
    for (const own of [
      { verdict: 'PASS' as const },
      { verdict: 'SKIP' as const, skipCause: 'precondition' as const, reason: 'thin data' },
      { verdict: 'ERROR' as const, errorCode: 'DC_ERR_TIMEOUT', reason: 'slow' },
    ]) {
      const findings = new Findings();
      findings.add('owner', 'walker', [departure], []);
      const [charged] = chargeFindings([result('owner', own)], findings, none);
      expect(charged).toMatchObject({ verdict: 'FAIL', violations: [{ ...departure, foundBy: 'walker' }] });
      expect(charged?.errorCode).toBeUndefined();
      expect(charged?.skipCause).toBeUndefined();
      expect(charged?.reason).toMatch(/showed in the requests of walker/);
    }
  });

  test('a FAIL keeps its own violations first and its own reason', () => {
    const findings = new Findings();
    findings.add('owner', 'walker', [departure], []);
    const own = { where: 'own', message: 'must hold' };
    const [charged] = chargeFindings([result('owner', { verdict: 'FAIL', violations: [own] })], findings, none);
    expect(charged?.violations).toEqual([own, { ...departure, foundBy: 'walker' }]);
    expect(charged?.reason).toBeUndefined();
  });

  test('an OBSERVED owner records the finding and never fails', () => {
    const findings = new Findings();
    findings.add('owner', 'walker', [departure], []);
    const results = [
      result('owner', { level: 'OBSERVED', verdict: 'OBSERVED' }),
      result('walker', { verdict: 'SKIP', skipCause: 'blocked', blockedBy: 'owner', reason: 'blocked by owner: …' }),
    ];
    const [owner, walker] = chargeFindings(results, findings, none);
    expect(owner).toMatchObject({ verdict: 'OBSERVED', observations: [{ subject: departure.where }] });
    // Blocked by a rule that did not FAIL is never said.
    expect(walker?.blockedBy).toBeUndefined();
    expect(walker).toMatchObject({ verdict: 'SKIP', skipCause: 'precondition' });
  });

  test('findings per owner are bounded, and keep the last exchanges of the finder as evidence', () => {
    const findings = new Findings();
    const transcript = Array.from({ length: 10 }, (_, i) => ({
      operation: 'resources.list',
      request: { method: 'POST' as const, url: 'u', headers: {}, body: String(i) },
      response: { status: 200, headers: {}, body: '{}', truncated: false },
      durationMs: 1,
      attempts: 1,
    }));
    for (let i = 0; i < 100; i++) findings.add('owner', 'walker', [departure], transcript);
    expect(findings.of('owner')).toHaveLength(20);
    expect(findings.of('owner')[0]?.evidence.map((e) => e.request.body)).toEqual(['7', '8', '9']);
  });
});
