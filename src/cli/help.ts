export const MAIN_HELP = `directory-conformance — conformance suite for the Directory Service interface

Usage:
  directory-conformance run [options]     run the rule catalogue against a server
  directory-conformance serve [options]   start the embedded reference server
  directory-conformance init --base-url URL --kinds ID,… --mutable ID,… --out FILE
                                          write a starting profile from a live target's reads
  directory-conformance rules [options]   list the rule catalogue
  directory-conformance compare OLD.json NEW.json   what newly fails between two runs
  directory-conformance merge A.json B.json… [--reports DIR]   one set of reports from shards
  directory-conformance expectations update --from results.json --file F
  directory-conformance restore reports/journal.jsonl   put back what an interrupted run changed
  directory-conformance judge FILE.har [--reports DIR]   judge recorded traffic (a run's, or any client's), sending nothing
  directory-conformance proxy --upstream URL [--port N]   a validating proxy: judge any client's traffic as it passes
  directory-conformance verify conformance-bundle.json --public-key PEM   check a signed run
  directory-conformance <command> --help  options of a command

Exit codes (run, merge, compare):
  0  conformant: no rule broken, and the coverage required was reached
  1  the server broke a rule (compare: a regression, or a coverage drop)
  2  usage or configuration error, or a target that cannot be reached or
     authenticated
  3  inconclusive: harness ERRORs, rules NOT-TESTED, coverage below the
     threshold (--min-coverage), a SKIP with --fail-on-skip, or an unusable
     target (most rules ended in ERROR)
`;

export const RUN_HELP = `directory-conformance run [options]

With no --base-url, starts the embedded reference server and runs against it.
Options may also come from a config file (--config FILE, or
directory-conformance.config.json in the working folder; schema:
fixtures/run-config.schema.json) and some from the environment. Precedence:
flags, then environment, then the config file, then the defaults.

  --config FILE              the run's options as JSON (paths in it are relative to it)

Target:
  --base-url URL             server to test (env DIRECTORY_BASE_URL)
  --api-key KEY              API key (env DIRECTORY_API_KEY; prefer the env var)
  --restricted-api-key KEY   a key with fewer permissions (env DIRECTORY_RESTRICTED_API_KEY)
  --profile FILE             target profile, required with --base-url (env DIRECTORY_PROFILE;
                             start one with \`directory-conformance init\`)
  --service-version V        Service-Version header (default 26.06.25; env DIRECTORY_SERVICE_VERSION)
  --header 'Name: value'     an extra header on every request (repeatable); a credential-like
                             one is shown as $DIRECTORY_HEADER_<NAME> in reports
  --proxy URL                HTTP proxy to the target (default: HTTPS_PROXY/HTTP_PROXY unless
                             NO_PROXY names the host; never for loopback)
  --ca-cert FILE             PEM CA certificates to trust besides Node's (env DIRECTORY_CA_CERT)

Safety:
  --allow-mutations          let mutating rules change the profile's mutableResources
                             (always on for the embedded server)
  --read-only                run only rules that do not change state
  --dry-run                  print the plan (rules, mutations, resources) and send nothing
  --concurrency N            rules run side by side (default 4)
  --rate auto|N              auto: pace to rate-limit headers and 429s (default against
                             --base-url); N requests per second; 0 no cap (embedded default)
  --max-requests N, --max-time D   stop after N requests or D (90s, 15m); the rest is NOT-TESTED
  --max-failures N           once N rules FAILed, no rule starts any more (exit 1)
  --timeout MS               deadline of one HTTP request (default 15000)
  --rule-timeout MS          deadline of one rule, its requests included (default 120000)
  --wait-lock                wait while another run here changes the same resources (default: exit 2)

Selection:
  --rule ID                  a rule id or a prefix: pagination, pagination.* (repeatable)
  --section S                a spec section such as 4.9 (repeatable)
  --level L                  MUST, INFERRED or OBSERVED
  --strict                   INFERRED departures fail the run too
  --shard i/n                the i-th of n shares of the rules and the mutable resources
                             (join the shards' results.json with \`merge\`)

Properties:
  --seed N                   fast-check seed (default: random, printed in the reports)
  --depth D                  quick, default (every pair of input classes) or deep (every
                             triple; env DIRECTORY_DEPTH)
  --num-runs N               runs of every property (default: each its own, see \`rules\`)
  --path P                   with --seed, the fast-check path of one counterexample to replay
  --replay-path P            with --path, a model-based counterexample's command sequence
  --max-commands N           longest sequence of a model-based property

Embedded server:
  --resources N              size of the generated directory (default 200)
  --fault NAME               start it with a named fault (repeatable)
  --variant NAME             start it with another conformant choice on an open point
                             (\`directory-conformance serve --list\` names both)

Gate:
  --min-coverage P           percent of the rules this target can serve that must reach a
                             verdict (default 100); below it the run is inconclusive (exit 3)
  --fail-on-skip             any SKIP makes the run inconclusive (exit 3)
  --expectations FILE        known failures (rule, reason, optional expiry): they do not fail
                             the run; new failures do

Output:
  --reports DIR              where the reports go (default reports): index.html, junit.xml,
                             results.json, summary.md, exchanges.har (and journal.jsonl)
  --history DIR              keep each run's results.json there (env DIRECTORY_HISTORY)
  --sign KEYFILE             also write a signed conformance-bundle.json (Ed25519 PEM;
                             env DIRECTORY_SIGN_KEY)
  --quiet                    no progress output
  --verbose                  a line per rule in a terminal too

Exit codes: 0 conformant with the coverage required; 1 the server broke a rule;
2 usage, configuration, unreachable or unauthenticated target; 3 inconclusive.
Each option at length: docs/profile-and-configuration.md.
`;

export const SERVE_HELP = `directory-conformance serve [options]

Starts the embedded reference server and prints its URL, API keys and the
target profile the suite needs.

  --port N          port (default 8080; 0 picks a free one)
  --host H          interface (default 127.0.0.1)
  --seed N          seed of the generated directory (default 1)
  --resources N     number of resources (default 200)
  --fault NAME      break one documented rule on purpose (repeatable)
  --variant NAME    take another conformant choice where the spec is open (repeatable)
  --profile-out F   also write the target profile (without keys) to this file
  --api-key K       a fixed API key instead of a random one
  --restricted-api-key K   a fixed restricted key
  --list            name every fault and variant, with the clause and what it does, and exit
`;

export const RULES_HELP = `directory-conformance rules [options]

Lists the rule catalogue: id, level, clause, and what the rule needs.

  --json              print the manifest as JSON
  --write-manifest    regenerate specs/manifest.json
  --rule/--section/--level   filter as with run
  --depth D           quick, default or deep: each property's runs at that depth
  --coverage          each operation's input model and the share of its pairs (triples
                      with --depth deep, classes with quick) a run covers, and each
                      model-based property's share of drawn steps that touch what an earlier
                      step of their sequence touched (for --profile FILE, default the
                      example profile, and --seed N, default 1)
`;

export const COMPARE_HELP = `directory-conformance compare OLD.json NEW.json [--reports DIR] [--allow-coverage-drop]

Compares two results.json files rule by rule: what newly fails (a regression),
what is no longer checked (a rule that reached a verdict before and is now
SKIP, NOT-TESTED or absent, or a lower coverage: a coverage regression), what
was fixed, new harness errors, and which observations changed. Writes
compare.html (linking both runs' reports when they sit beside their
results.json) and compare-junit.xml to DIR (default reports).

Exit 1 on a regression or a coverage regression, 0 otherwise;
--allow-coverage-drop reports a coverage regression without failing.

Two gates it serves:
  before a version upgrade: run with --service-version CURRENT, then with
    --service-version CANDIDATE against the same server, and compare;
  a regression run against staging: compare the last good run with today's.
`;

export const EXPECTATIONS_HELP = `directory-conformance expectations update --from results.json --file expectations.json

Writes the expectations file a target needs: every MUST rule that failed in the
run, keeping the reasons and expiry dates already in the file. Edit the reasons,
commit the file, and pass it to run --expectations.
`;

export const INIT_HELP = `directory-conformance init --base-url URL --kinds ID,ID… --mutable ID,ID… --out FILE
    [--attributes NAME,NAME…] [--sample N] [--force] [--service-version V]
    [--header 'Name: value']… [--proxy URL] [--ca-cert FILE]

Writes a starting target profile from the documented reads of a live target.
You give what no read reveals: the address, the keys (DIRECTORY_API_KEY, and
DIRECTORY_RESTRICTED_API_KEY for the redaction rules), the kinds to test (the
first is the one the list and pagination rules walk), the sandbox resources the
suite may change (--mutable), and the attribute names your resources carry
(--attributes: keys inside attributes are not shown by the spec). The reads
give the rest: each sandbox resource's kind, the roles and teams seen, which
kind each role defines, the roles the restricted key cannot see, the fields it
gets redacted, the work regimes. Every value the reads could not settle is
named in one line with how to fill it. Only reads are sent; no key is written.

  --sample N     resources of each kind read at most (default 500)
  --force        replace FILE when it exists (default: exit 2)

Exit codes: 0 the profile is written, 2 usage, or a target that refuses a kind
or has none of a sandbox resource, or cannot be reached.
`;

export const RESTORE_HELP = `directory-conformance restore JOURNAL [--base-url URL] [--api-key KEY]
    [--header 'Name: value']… [--proxy URL] [--ca-cert FILE]

Puts back what an interrupted or crashed run changed on an external target,
from the write-ahead journal the run kept (reports/journal.jsonl): every
resource whose change the journal announced and never marked restored gets its
activity rates and team assignations back as they were, and is read again to
verify. Resources already as they were are left alone, so it is safe to run
twice. The base URL comes from the journal; the key from DIRECTORY_API_KEY.
Give the --header, --proxy and --ca-cert the run had (as for run, the proxy
defaults to HTTPS_PROXY/HTTP_PROXY unless NO_PROXY names the host, and the CA
file to DIRECTORY_CA_CERT).
It takes the lock a run takes on those resources of the target, and refuses
(exit 2) while a run still changes them.

What it cannot put back (docs/staging-safety.md): revoked roles (no documented
operation gives a role back), and the external_id of activity-rate contracts
(show-activity-rates does not show it).

Exit codes: 0 everything restorable is back, 1 something is not, 2 usage.
`;

/**
 * `serve --list`: every fault with the clause it breaks and what it does, and
 * every variant with the choice it makes (too long for --help: one per line).
 */
export function namesList(
  faults: Readonly<Record<string, { clause: string; description: string }>>,
  variants: Readonly<Record<string, string>>,
): string {
  return [
    `Faults (--fault NAME, the embedded server breaks one rule on purpose; ${Object.keys(faults).length}):`,
    ...Object.entries(faults).map(([name, f]) => `  ${name}  (${f.clause}) ${f.description}`),
    '',
    `Variants (--variant NAME, another conformant choice where the spec is open; ${Object.keys(variants).length}):`,
    ...Object.entries(variants).map(([name, what]) => `  ${name}  ${what}`),
  ].join('\n');
}

export const JUDGE_HELP = `directory-conformance judge FILE.har [--profile FILE] [--resources N]
    [--restricted-key-placeholder TEXT] [--rule ID]… [--section §N]… [--reports DIR] [--json]

Judges recorded traffic, sending no request.

A run's own HAR (reports/exchanges.har): every rule (a driver and a judge)
gets the exchanges the recording tags with it (_rule, _run) and says PASS,
FAIL or OBSERVED as it did live; NOT-APPLICABLE where the recording holds no
evidence of its clause (no exchange of the rule, or an answer cut in the
recording); NO-VERDICT where its answers said nothing of the clause (a 429,
a 5xx). Rules judged by when requests went and came (the concurrent ones)
are judged as far as the recording's times, to the millisecond, allow.

A HAR of any other client (no _rule, _step or _run): the rules traffic alone
can judge read it, under their catalogue ids: the shape of every 2xx answer
(pagination.envelope, pagination.limit-respected, list.resource-shape,
show-teams.response-shape, show-activity-rates.response-shape,
list-roles.plain-array, list-roles.association-shape,
revoke-roles.no-content, activity-rates.assign-no-content) and of every
assign-team warning (assign-team.warning-shape); the walks linked by
next_token (pagination.each-resource-once,
pagination.exact-multiple-empty-page), and a next page asked for with other
filters or orders than the request its token came from, which must be
refused with 422 (pagination.changed-filters-422,
pagination.changed-orders-422); a message on every 4xx
(errors.message-present); what each caller may view, where
--restricted-key-placeholder names what the recording's Authorization
header carries for the restricted key (its whole value, or the token after
"Bearer "; without it, the profile's restrictedApiKey): each read of
teams or rates with it shows the Redacted value in every field the
profile's restrictedRedactedFields names
(auth.restricted-fields-redacted), and every marker has its shape
(auth.redacted-marker-shape); and what list requests asked for (list.ids-filter,
list.attributes-returned, list.with-teams, list.with-relations,
list.total-count-of-filtered-set); one collection counted two ways, a
walk, a strict total_count or limit null, however far apart
(list.counts-agree); and what revocations did, wherever a
resource's roles are read alone before and after one
(revoke-roles.prop.pairwise-combinations, by §4.1's model); and what
assign-activity-rate, unassign-activity-rate and assign-team did, wherever a
resource's rates or teams are read before and after one
(activity-rates.prop.model-sequences, by the model of §4.2, §4.3 and §4.7,
each range's end day read both ways). Each says PASS, FAIL or NOT-APPLICABLE
(no evidence in the traffic), with the HAR entries it judged. Entries that
call no operation (POST .../api/directory/<operation>) are left out.

The reports are run's (results.json, index.html, junit.xml, summary.md, a
reproducer per FAIL), credentials replaced by placeholders, in --reports DIR
(default reports, or reports/judged when the HAR lies in reports: a run's
reports are there, and that folder is refused as DIR). NOT-APPLICABLE is
reported as a SKIP, NO-VERDICT as an ERROR.

The profile is the target's (--profile, as for run); without one, the
embedded reference server's (--resources N as the run had, default 200).
Exit 1 when a rule FAILs, 3 when no rule found evidence, 0 otherwise, 2 on
a usage error.
`;

export const PROXY_HELP = `directory-conformance proxy --upstream URL [--port N] [--annotate]
    [--profile FILE] [--resources N] [--rule ID]… [--section §N] [--reports DIR]

A validating proxy on loopback (127.0.0.1, --port N, default 8081; 0 for any
free port): point any client at it instead of the server at --upstream. Each
request is forwarded and each answer comes back as the server gave it, byte
for byte (status, headers, body, an encoded body still encoded); the proxy
never answers in the server's place: a server that cannot be reached or
breaks the connection has the client's connection reset, never a 502 of the
proxy's own. Credentials pass through as they came.

A copy of each exchange is judged as it passes, by the rules traffic alone
can judge (as judge judges another client's HAR: judge --help names them),
and each violation is printed as it is found, one line:
  VIOLATION <rule id> at <operation, exchange N: where>: <what it must do>
Answers are judged one by one, walks as next_token links them (a walk of
any length, walk after walk, for pagination.each-resource-once), every
revocation and roles read of the session into §4.1's model (of at most
10,000 resources), and the other rules' logs by stretches of traffic between
walks: memory stays bounded over a long session. Requests that carry the
restricted key (the profile's restrictedApiKey, or
DIRECTORY_RESTRICTED_API_KEY) are the restricted caller's: its reads are
judged for redaction.

--annotate adds a header to each answer of an operation,
Directory-Conformance-Violations: the rules its judging found broken, or
"none" (the answer is then held until it is judged).

The reports (results.json, index.html, junit.xml, summary.md, a reproducer
per FAIL, and exchanges.har: each rule's evidence and the latest exchanges),
credentials replaced by placeholders, are written to --reports DIR (default
reports/proxy) on SIGUSR1 (kill -USR1 <pid>; the proxy goes on) and on
SIGINT or SIGTERM, which stop it. The profile is the target's (--profile);
without one, the embedded reference server's (--resources N, default 200).
Exit as run's: 0 conformant, 1 a rule FAILed, 3 inconclusive (no rule found
evidence, or answers that said nothing), 2 on a usage error.
`;

export const VERIFY_HELP = `directory-conformance verify BUNDLE --public-key PEM [--badge FILE]

Checks a signed run (conformance-bundle.json, written by run --sign KEYFILE):
its signature, made by the private half of --public-key (an Ed25519 key in
PEM) over all the bundle holds; that it was judged with this suite's rule
catalogue and spec (their hashes); the target's profile against its hash;
the summary against the results; and every verdict that rests on a rule's
own evidence against the verdict its exchanges in the bundle give, judged
again with no request sent. A bundle whose verdicts do not follow from its
exchanges is refused, whoever signed it.

  --badge FILE    once verified, write an SVG badge ("Directory conformance
                  26.06.25 | 83/83": the rules that passed of those judged)

Exit 0 verified, 1 refused (each reason on a line), 2 a file that is not a
bundle or a key that is not an Ed25519 key.
`;
