/** The rules `rules` of the catalogue against a reference server, at seed 1, mutations allowed. */
import type { RunResult } from '../../src/core/types.ts';
import type { ReferenceServer } from '../../src/reference-server/index.ts';
import { loadCatalogue, selectRules } from '../../src/runner/catalogue.ts';
import { DEFAULT_ENGINE_OPTIONS, runRules } from '../../src/runner/run-rules.ts';

export async function runRulesOn(server: ReferenceServer, rules: readonly string[]): Promise<RunResult> {
  return runRules(
    selectRules(await loadCatalogue(), { rules: [...rules] }),
    {
      baseUrl: server.url,
      serviceVersion: '26.06.25',
      apiKey: server.apiKey,
      profile: server.profile,
      timing: server.timing,
    },
    { ...DEFAULT_ENGINE_OPTIONS, seed: 1, allowMutations: true },
  );
}
