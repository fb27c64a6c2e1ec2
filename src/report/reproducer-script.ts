/**
 * reproduce/<rule-id>.sh: a standalone script (bash, curl, node) for one
 * FAIL. It sends the failing requests again to $DIRECTORY_BASE_URL with the
 * keys from the environment (never written in it), and judges the answers by
 * the condition the suite judged them by (reproducer-checks.ts), with the
 * judge it embeds (reproducer-judge.ts). Exit 0: the server now conforms;
 * 1: it still departs; 2: no answer could be judged (settings, curl, network);
 * 3: this FAIL is judged over more than one answer and the script cannot say.
 */
import type { RuleResult, RunResult } from '../core/types.ts';
import { headerArguments, printfBinary } from './curl.ts';
import { replayCommand } from './describe-result.ts';
import { reproducerPlan } from './reproducer-checks.ts';
import { REPRODUCER_JUDGE } from './reproducer-judge.ts';
import { singleQuote } from './shell-quote.ts';

const KEYS = ['DIRECTORY_API_KEY', 'DIRECTORY_RESTRICTED_API_KEY'] as const;

/** One line of a comment: no line break of server text may end the comment. */
function comment(text: string): string {
  return `# ${text.replace(/[\r\n]+/g, ' ')}`;
}

/** The recorded URL with the run's base URL replaced by the variable, so the script reaches any server. */
function urlArgument(url: string, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return url.startsWith(base) ? `"$DIRECTORY_BASE_URL"${singleQuote(url.slice(base.length))}` : singleQuote(url);
}

function preamble(r: RuleResult, run: Pick<RunResult, 'target'>, keys: readonly string[]): string[] {
  const v = r.violations[0];
  return [
    '#!/usr/bin/env bash',
    comment(`Reproduces the FAIL of ${r.ruleId} (${r.clause}, ${r.level}) found on ${run.target.baseUrl}.`),
    ...(v ? [comment(`${v.where}: ${v.message}`)] : []),
    comment(`Usage: DIRECTORY_BASE_URL=https://… ${keys.map((k) => `${k}=…`).join(' ')} bash reproduce/${r.ruleId}.sh`),
    '# Exit 0: the server now answers as the spec says. 1: it still departs. 2: no answer could be judged.',
    ...(r.mutates === 'none'
      ? []
      : [
          comment(
            `The requests change state on the target (${r.mutates} changes), as the rule's did; nothing is put back.`,
          ),
        ]),
    'set -u',
    `: "\${DIRECTORY_BASE_URL:?set DIRECTORY_BASE_URL to the base URL of the server}"`,
    ...keys.map((k) => `: "\${${k}:?set ${k}}"`),
    'command -v curl >/dev/null || { echo "curl is needed" >&2; exit 2; }',
    'command -v node >/dev/null || { echo "node is needed" >&2; exit 2; }',
    'answers=$(mktemp -d) || exit 2',
    'trap \'rm -rf "$answers"\' EXIT',
    '# send N ARGS…: one request; its status and body are kept as $answers/N.status and $answers/N.body.',
    'send() {',
    '  local n=$1; shift',
    '  curl -sS --max-time 120 -o "$answers/$n.body" -w \'%{http_code}\' "$@" >"$answers/$n.status" || { echo "request $n: no answer" >&2; exit 2; }',
    '}',
  ];
}

/** The script of one FAIL. */
export function reproducerScript(r: RuleResult, run: Pick<RunResult, 'target' | 'options'>): string {
  const plan = reproducerPlan(r);
  const requests = plan?.requests ?? [];
  const text = requests.map((q) => JSON.stringify(q.exchange.request.headers)).join('');
  const keys = KEYS.filter((k) => text.includes(`$${k}`));
  const lines = preamble(r, run, plan ? keys : []);
  if (!plan) {
    lines.push(
      '# This FAIL is judged over more than one answer (a walk, or answers compared): no one answer says it.',
      comment(`Run the rule again: ${replayCommand(r, run)}`),
      'echo "not judged here: run the rule again with directory-conformance (see the comment in this script)" >&2',
      'exit 3',
    );
    return `${lines.join('\n')}\n`;
  }
  requests.forEach(({ label, exchange }, i) => {
    const n = i + 1;
    const { request } = exchange;
    const head = [
      `send ${n} -X ${request.method} ${urlArgument(request.url, run.target.baseUrl)}`,
      ...headerArguments(request),
    ];
    lines.push('', comment(`${n}. ${label}`));
    if (request.body.includes('\0')) {
      lines.push(`printf '%b' ${singleQuote(printfBinary(request.body))} >"$answers/${n}.request"`);
      lines.push([...head, `--data-binary @"$answers/${n}.request"`].join(' \\\n  '));
    } else lines.push([...head, `--data-raw ${singleQuote(request.body)}`].join(' \\\n  '));
  });
  lines.push(
    '',
    '# The judged condition, as the suite judged it.',
    `IFS= read -r -d '' JUDGE <<'DIRECTORY_CONFORMANCE_JUDGE' || true\n${REPRODUCER_JUDGE}DIRECTORY_CONFORMANCE_JUDGE`,
    `node -e "$JUDGE" "$answers" ${singleQuote(JSON.stringify(plan.checks))}`,
  );
  return `${lines.join('\n')}\n`;
}
