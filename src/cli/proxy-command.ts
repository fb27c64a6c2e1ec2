import { UsageError } from '../core/errors.ts';
import type { RunResult } from '../core/types.ts';
import { embeddedProfile } from '../reference-server/index.ts';
import { allRules, loadCatalogue, selectRules } from '../runner/catalogue.ts';
import { trafficRules } from '../runner/judge-untagged.ts';
import { checkSelection } from '../session/check-selection.ts';
import { startProxy, type ProxySession } from '../session/proxy-session.ts';
import { loadProfile } from '../target/load-profile.ts';
import { exitCodeOf } from './exit-codes.ts';
import { PROXY_HELP } from './help.ts';
import { listening, parseOptions, portOption, resourcesOf } from './options.ts';
import type { Output } from './run-command.ts';

const PROXY_OPTIONS = {
  upstream: { type: 'string' },
  port: { type: 'string' },
  annotate: { type: 'boolean' },
  profile: { type: 'string' },
  resources: { type: 'string' },
  rule: { type: 'string', multiple: true },
  section: { type: 'string', multiple: true },
  reports: { type: 'string' },
} as const;

/** Where the reports go without --reports: beside a run's, never over them. */
export const PROXY_REPORTS = 'reports/proxy';

/** The port without --port: the one beside serve's 8080. */
const DEFAULT_PORT = 8081;

/** How the command is told to write its reports (SIGUSR1) and to stop (SIGINT, SIGTERM). */
export interface ProxySignals {
  readonly stop: Promise<void>;
  /** Calls `write` each time the reports are asked for; returns how to stop listening. */
  onReportsAsked(write: () => void): () => void;
}

/** A run's counts in one line: what the reports just written say. */
function counts(run: RunResult): string {
  const v = run.summary.byVerdict;
  return (
    `${run.summary.total} rules: ${v.PASS} PASS, ${v.FAIL} FAIL, ${v.ERROR} ERROR, ${v.SKIP} not applicable ` +
    `(${run.summary.outcome})`
  );
}

/**
 * What SIGUSR1 calls: the reports of the traffic so far written, and one
 * line saying so; the session goes on.
 */
export function reportsAsked(session: Pick<ProxySession, 'writeReports'>, io: Output, dir: string): () => void {
  return () => {
    session.writeReports().then(
      (run) => io.out(`reports written to ${dir}: ${counts(run)}`),
      (e: unknown) => io.err(`the reports could not be written: ${e instanceof Error ? e.message : String(e)}`),
    );
  };
}

/**
 * `directory-conformance proxy --upstream URL`: a validating proxy on
 * loopback, judging any client's traffic as it passes (proxy-session.ts).
 * Exit as run's: 0 conformant, 1 a rule FAILed, 3 inconclusive, 2 usage.
 */
export async function proxyCommand(argv: string[], io: Output, signals: ProxySignals): Promise<number> {
  const { values, positionals } = parseOptions(argv, PROXY_OPTIONS, true);
  if (values.help) {
    io.out(PROXY_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`proxy takes no argument (${positionals[0]}): --upstream URL`);
  if (values.upstream === undefined) throw new UsageError('proxy needs --upstream URL: the server to forward to');
  const upstream = upstreamOf(values.upstream);
  const port = portOption(values.port, DEFAULT_PORT);
  const loaded = values.profile ? await loadProfile(values.profile) : embeddedProfile(resourcesOf(values.resources));
  // The restricted key, as run takes it: the profile's, or DIRECTORY_RESTRICTED_API_KEY. Requests that carry it
  // are the restricted caller's, whose reads are judged for redaction.
  const restrictedApiKey = loaded.restrictedApiKey ?? process.env.DIRECTORY_RESTRICTED_API_KEY;
  const profile = restrictedApiKey ? { ...loaded, restrictedApiKey } : loaded;
  const catalogue = await loadCatalogue();
  const selection = { rules: values.rule ?? [], sections: values.section ?? [] };
  checkSelection(catalogue, selection);
  const groups = selectRules(catalogue, selection);
  const judging = trafficRules(allRules(groups)).length;
  if (judging === 0)
    throw new UsageError('no rule of the selection can be judged from traffic (proxy --help names those that can)');
  const reports = values.reports ?? PROXY_REPORTS;
  const session = await listening('127.0.0.1', port, () =>
    startProxy({
      upstream,
      port,
      annotate: values.annotate === true,
      reports,
      profile,
      groups,
      selection: { ...selection, catalogueSize: allRules(catalogue).length },
      onViolation: (line) => io.out(line),
    }),
  );
  io.out(`proxying ${session.url} to ${upstream.origin}: ${judging} rules judge the traffic as it passes`);
  io.out(`kill -USR1 ${process.pid} writes the reports to ${reports}; Ctrl-C writes them and stops`);
  const stopListening = signals.onReportsAsked(reportsAsked(session, io, reports));
  await signals.stop;
  stopListening();
  const run = await session.close();
  io.out(counts(run));
  io.out(`reports in ${reports}`);
  return exitCodeOf(run.summary);
}

function upstreamOf(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--upstream must be a URL (http://host:port), not ${text}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--upstream must be an http or https URL, not ${text}`);
  return url;
}
