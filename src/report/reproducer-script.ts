/**
 * reproduce/<rule-id>.sh: a standalone script (bash, curl, node) for one
 * FAIL. It sends the failing requests again to $DIRECTORY_BASE_URL with the
 * keys from the environment (never written in it), and judges the answers by
 * the condition the suite judged them by (reproducer-checks.ts), with the
 * judge it embeds (reproducer-judge.ts). Exit 0: the server now conforms;
 * 1: it still departs; 2: no answer could be judged (settings, curl, network);
 * 3: the script cannot tell: the target is not in the state the FAIL started
 * from (a revocation's roles, read first, before anything is changed; a
 * period to unassign; a warning), or the FAIL is of a kind the script does
 * not judge (a concurrent run whose departure shows only on days several of
 * its writes touch, evidence the transcript did not keep).
 */
import type { RuleResult, RunResult } from '../core/types.ts';
import { headerArguments, printfBinary } from './curl.ts';
import { replayCommand } from './describe-result.ts';
import { reproducerPlan, type ReproducerCheck, type ReproducerPlan } from './reproducer-checks.ts';
import { FOLLOW_TOKEN, REPRODUCER_JUDGE } from './reproducer-judge.ts';
import type { WalkFollowed } from './reproducer-walks.ts';
import { withoutToken } from './reproducer-tokens.ts';
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
    '# 3: cannot tell here (the target is not in the state the FAIL started from, or the FAIL is not judged here).',
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
      '# This FAIL is judged over answers this script does not judge (a concurrent run whose departure shows only',
      '# on days several of its writes touch, or evidence the transcript did not keep).',
      comment(`Run the rule again: ${replayCommand(r, run)}`),
      'echo "not judged here: run the rule again with directory-conformance (see the comment in this script)" >&2',
      'exit 3',
    );
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    '# The judge of the answers, as the suite judged them; judge CHECKS: its exit code (see above).',
    `IFS= read -r -d '' JUDGE <<'DIRECTORY_CONFORMANCE_JUDGE' || true\n${REPRODUCER_JUDGE}DIRECTORY_CONFORMANCE_JUDGE`,
    'judge() { node -e "$JUDGE" "$answers" "$1"; }',
  );
  const walks = plan.walks ?? [];
  if (requests.some((q) => q.tokenFrom !== undefined) || walks.length > 0)
    lines.push(
      "# follow N BODY [walk|ALTERATION]: BODY with the next_token request N's answer gave (this server's, as §4.9 says),",
      '# or exit 3; in a walk, nothing once the walk has ended (next_token null or data empty); with an ALTERATION,',
      '# the token altered as the run altered the one it was given (characters added, cut from its end, or one changed).',
      `IFS= read -r -d '' FOLLOW <<'DIRECTORY_CONFORMANCE_FOLLOW' || true\n${FOLLOW_TOKEN}DIRECTORY_CONFORMANCE_FOLLOW`,
      'follow() { node -e "$FOLLOW" "$answers" "$@"; }',
    );
  let i = 0;
  while (i < requests.length) {
    const branch = requests[i]?.branch;
    if (branch === undefined) {
      lines.push('', ...requestLines(requests, i, run));
      const walk = walks.find((w) => w.at === i + 1);
      const q = requests[i];
      if (walk && q) lines.push(...walkLines(q, walk, run));
      if (i === 0 && plan.startRoles !== undefined) {
        // Before anything changes the target: revocations cannot be undone, so none is sent from another state.
        const start: ReproducerCheck[] = [{ at: 1, kind: 'start-roles', recorded: plan.startRoles }];
        lines.push(
          '# The roles the run started from must be there still; otherwise nothing more is sent (exit 3).',
          `judge ${singleQuote(JSON.stringify(start))} || exit $?`,
        );
      }
      i += 1;
      continue;
    }
    // Requests the run sent at once, branch by branch: each branch in its order, the branches side by side.
    let end = i;
    while (requests[end]?.branch !== undefined) end += 1;
    lines.push('', ...atOnce(requests, i, end, run));
    i = end;
  }
  lines.push(
    '',
    '# The judged condition, as the suite judged it.',
    `judge ${singleQuote(JSON.stringify(plan.checks))}`,
  );
  return `${lines.join('\n')}\n`;
}

/** curl's arguments of request `i` of the plan (its number is i + 1), and a line that writes a binary body first. */
function curlArguments(q: ReproducerPlan['requests'][number], n: number, run: Pick<RunResult, 'target'>) {
  const { request } = q.exchange;
  const body = q.body ?? request.body;
  const head = [`-X ${request.method} ${urlArgument(request.url, run.target.baseUrl)}`, ...headerArguments(request)];
  if (q.tokenFrom !== undefined)
    return {
      before: [
        [
          `follow ${q.tokenFrom} ${singleQuote(withoutToken(body))}`,
          ...(q.alter ? [singleQuote(JSON.stringify(q.alter))] : []),
          `>"$answers/${n}.request" || exit $?`,
        ].join(' '),
      ],
      args: [...head, `--data-binary @"$answers/${n}.request"`],
    };
  return body.includes('\0')
    ? {
        before: [`printf '%b' ${singleQuote(printfBinary(body))} >"$answers/${n}.request"`],
        args: [...head, `--data-binary @"$answers/${n}.request"`],
      }
    : { before: [], args: [...head, `--data-raw ${singleQuote(body)}`] };
}

/** The lines that send request `i` of the plan (its number is i + 1). */
function requestLines(requests: ReproducerPlan['requests'], i: number, run: Pick<RunResult, 'target'>): string[] {
  const q = requests[i];
  if (!q) return [];
  const n = i + 1;
  const { before, args } = curlArguments(q, n, run);
  return [comment(`${n}. ${q.label}`), ...before, [`send ${n} ${args[0] ?? ''}`, ...args.slice(1)].join(' \\\n  ')];
}

/**
 * Requests `from` to `to` (excluded), which the run sent at once. One request
 * per branch: one curl sends them all in parallel (-Z), so they reach the
 * server within a moment of each other, as in the run, where a departure
 * such as a lost update shows; several per branch: each branch in its order
 * in the background, the branches side by side.
 */
function atOnce(
  requests: ReproducerPlan['requests'],
  from: number,
  to: number,
  run: Pick<RunResult, 'target'>,
): string[] {
  const group = requests.slice(from, to);
  const branches = [...new Set(group.map((q) => q.branch))];
  const lines = [comment(`${from + 1}-${to}: sent at once, as in the run (each branch in its order).`)];
  if (branches.length === group.length) {
    const transfers = group.map((q, k) => {
      const n = from + k + 1;
      const { before, args } = curlArguments(q, n, run);
      lines.push(comment(`${n}. ${q.label}`), ...before);
      return [`-o "$answers/${n}.body" -w '${n} %{http_code}\\n'`, ...args].join(' \\\n  ');
    });
    lines.push(
      `curl -sS -Z --parallel-immediate --max-time 120 ${transfers.join(' \\\n  --next --max-time 120 ')} \\\n  >"$answers/at-once" || { echo "requests ${from + 1}-${to}: no answer" >&2; exit 2; }`,
      `while read -r n code; do printf '%s' "$code" >"$answers/$n.status"; done <"$answers/at-once"`,
    );
    return lines;
  }
  branches.forEach((b, k) => {
    const mine = group.flatMap((q, at) => (q.branch === b ? [from + at] : []));
    lines.push('{', ...mine.flatMap((at) => requestLines(requests, at, run).map((l) => `  ${l}`)), `} & branch${k}=$!`);
  });
  lines.push(branches.map((_, k) => `wait "$branch${k}" || exit $?`).join('; '));
  return lines;
}

/**
 * The walk from request `walk.at`: its next pages, each that request again
 * with the next_token the page before gave, taken from the live answer
 * (never the run's: a token is the server's own), until the walk ends
 * (§4.9 rule 3) or `walk.pages` pages, so that it never loops forever. Page
 * k is kept as answer `<at>.<k>`; the judge reads how many pages there were
 * from $answers/<at>.pages.
 */
function walkLines(
  first: ReproducerPlan['requests'][number],
  walk: WalkFollowed,
  run: Pick<RunResult, 'target'>,
): string[] {
  const { request } = first.exchange;
  const body = first.body ?? request.body;
  const at = walk.at;
  const args = [
    `-X ${request.method} ${urlArgument(request.url, run.target.baseUrl)}`,
    ...headerArguments(request),
    `--data-binary @"$answers/${at}.$pages.request"`,
  ];
  return [
    comment(
      `The walk from request ${at}: each next page sends it again with the next_token the page before gave (${walk.pages} pages at most).`,
    ),
    `pages=1 last=${at}`,
    `while [ "$pages" -lt ${walk.pages} ]; do`,
    `  next=$(follow "$last" ${singleQuote(body)} walk) || exit $?`,
    '  [ -n "$next" ] || break',
    '  pages=$((pages + 1))',
    `  printf '%s' "$next" >"$answers/${at}.$pages.request"`,
    `  ${[`send "${at}.$pages" ${args[0] ?? ''}`, ...args.slice(1)].join(' \\\n    ')}`,
    `  last=${at}.$pages`,
    'done',
    `printf '%s' "$pages" >"$answers/${at}.pages"`,
  ];
}
