import { UsageError } from '../core/errors.ts';
import type { RunResult } from '../core/types.ts';
import { loadCatalogue } from '../runner/catalogue.ts';
import type { RunConfig } from '../schemas/run-config.ts';
import { loadSigningKey } from '../session/bundle.ts';
import {
  artifactLinks,
  conductRun,
  engineOptionsOf,
  journalPathOf,
  openTarget,
  resolveExpectations,
  selectForRun,
} from '../session/run-session.ts';

/** `runConformance` once its options are resolved (the vitest helper resolves them with the environment too). */
export async function runConfigured(config: RunConfig, interrupt?: AbortSignal): Promise<RunResult> {
  const catalogue = await loadCatalogue();
  const { groups, selection } = selectForRun(catalogue, config);
  const expectations =
    config.expectations !== undefined ? await resolveExpectations(config.expectations, catalogue) : undefined;
  if (config.sign !== undefined && config.reports === undefined)
    throw new UsageError('sign writes conformance-bundle.json beside the reports: give reports a folder too');
  const signingKey = config.sign !== undefined ? await loadSigningKey(config.sign) : undefined;
  const opened = await openTarget(config);
  try {
    const journalPath = journalPathOf(config);
    const outcome = await conductRun(
      groups,
      opened.target,
      { ...engineOptionsOf(config), interrupt },
      {
        selection,
        reportsDir: config.reports,
        journalPath,
        expectations,
        waitLock: config.waitLock,
        links: artifactLinks(process.env),
        ...(config.history !== undefined ? { historyDir: config.history } : {}),
        ...(signingKey ? { signingKey } : {}),
      },
    );
    if (!outcome.ok) throw new UsageError(`cannot run: ${outcome.reason}`);
    for (const warning of outcome.history?.warnings ?? []) process.emitWarning(warning);
    return outcome.run;
  } finally {
    await opened.close();
  }
}
