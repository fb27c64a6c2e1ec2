/**
 * An unexpected exception inside an operation is a 5xx, whatever faults or
 * variants the server runs with: a crash must never pass for a success or a
 * correct rejection (a suite rule would otherwise read a bug as conformance).
 * The store is replaced by one that throws on every use, so each operation
 * throws from inside itself once its input is read.
 */
import { TARGET_TIMING } from '../../src/core/timing.ts';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { ApiKeys } from '../../src/reference-server/auth.ts';
import { FAULT_NAMES, type FaultName } from '../../src/reference-server/faults.ts';
import { createHttpServer } from '../../src/reference-server/http-server.ts';
import { PageTokens } from '../../src/reference-server/page-token.ts';
import type { Store } from '../../src/reference-server/store.ts';
import { VARIANT_NAMES, type VariantName } from '../../src/reference-server/variants.ts';

const ID = '7000000000000000001';
const RANGE = '2026-01-01/2026-01-31';

/** A valid request to every operation: what is refused before the store is reached is not a crash. */
const REQUESTS: Record<string, unknown> = {
  'resources.list': { kind_id: '1000000000000000001', pagination: { limit: 2, next_token: null } },
  'resources.list-roles': { resource_ids: [ID], role_ids: ['2000000000000000001'] },
  'resources.revoke-roles': { resource_ids: [ID], role_ids: ['2000000000000000001'], team_ids: '*' },
  'resources.show-teams': { resource_id: ID, date_range: RANGE },
  'resources.assign-team': {
    resource_id: ID,
    team_id: '3000000000000000001',
    head: false,
    date_range: RANGE,
    warning_aware: true,
  },
  'resources.show-activity-rates': { resource_id: ID, date_range: RANGE },
  'resources.assign-activity-rate': { resource_id: ID, date_range: RANGE, average_rate: 50, work_regime_id: null },
  'resources.unassign-activity-rate': { resource_id: ID, date_range: RANGE },
};

/** A store every use of which throws, as a bug deep in an operation would. */
const CRASHING_STORE = new Proxy(
  {},
  {
    get() {
      throw new Error('unexpected failure inside the operation');
    },
  },
) as Store;

const keys = new ApiKeys('crash-test-key', 'crash-test-restricted');

async function statusesWith(
  faults: readonly FaultName[],
  variants: readonly VariantName[],
): Promise<Record<string, number>> {
  const server = createHttpServer({
    store: CRASHING_STORE,
    tokens: new PageTokens(),
    timing: TARGET_TIMING,
    keys,
    faults: new Set(faults),
    variants: new Set(variants),
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const statuses: Record<string, number> = {};
  try {
    for (const [operation, body] of Object.entries(REQUESTS)) {
      const res = await request(`http://127.0.0.1:${port}/api/directory/${operation}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'service-version': '26.06.25',
          authorization: `Bearer ${keys.full}`,
        },
        body: JSON.stringify(body),
      });
      await res.body.dump();
      statuses[operation] = res.statusCode;
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return statuses;
}

const everyOperation5xx = (statuses: Record<string, number>) =>
  Object.entries(statuses).filter(([, status]) => status < 500 || status > 599);

describe('an exception inside an operation handler is answered 5xx', () => {
  test('without faults', async () => {
    expect(everyOperation5xx(await statusesWith([], []))).toEqual([]);
  });

  test.each(FAULT_NAMES)('with the fault %s', async (fault) => {
    expect(everyOperation5xx(await statusesWith([fault], []))).toEqual([]);
  });

  test('with every variant at once, and with every fault at once', async () => {
    expect(everyOperation5xx(await statusesWith([], VARIANT_NAMES))).toEqual([]);
    expect(everyOperation5xx(await statusesWith(FAULT_NAMES, VARIANT_NAMES))).toEqual([]);
  });
});
