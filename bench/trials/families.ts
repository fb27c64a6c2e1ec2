/**
 * The trial families of `npm run trials`: each tries one safety promise of the
 * docs many times with different seeds. A trial holds when the promise held;
 * it reached what it tries when the fault met what it aims at (see TrialOutcome).
 */
import { concurrentTrial } from './concurrent.ts';
import { corruptedAnswersTrial } from './corrupted-answers.ts';
import { droppedRestoreTrial } from './dropped-restores.ts';
import { encodingTrial } from './encodings.ts';
import { ANSWER_MODES, hostileAnswerTrial } from './hostile-answers.ts';
import type { TrialOutcome } from './harness.ts';
import { killTrial } from './kills.ts';
import { networkFaultTrial } from './network-faults.ts';
import { twoPartiesRevokingTrial } from './two-parties-revoking.ts';

export interface TrialFamily {
  /** The family's name in the trials table (a test checks the table names each). */
  name: string;
  /** What one trial does. */
  tries: string;
  /** What must be true after it. */
  holds: string;
  /** Trials of a full `npm run trials`, seeds 1 to runs. */
  runs: number;
  trial(seed: number, scratch: string): Promise<TrialOutcome>;
}

export const TRIAL_FAMILIES: readonly TrialFamily[] = [
  {
    name: 'kills and restores',
    tries: 'SIGKILL, SIGINT or SIGTERM to a run (a child process) while it changes activity rates',
    holds:
      'SIGINT/SIGTERM: exit 130/143, every change put back; SIGKILL: one `restore` puts all back, a second finds nothing, the next run takes over the locks; no lock file left',
    runs: 24,
    trial: killTrial,
  },
  {
    name: 'dropped restores',
    tries:
      'every 8th to 16th request of a restoration broken (redirect loop, cut JSON, reset) in a run of the reversible rules',
    holds: 'a restoration not verified stays pending in the journal; after one `restore` no resource differs',
    runs: 24,
    trial: droppedRestoreTrial,
  },
  {
    name: 'concurrent and aliased runs',
    tries:
      'two runs changing one server spelled `127.0.0.1` and `localhost` 50 to 500 ms apart, or two shards on one reports folder',
    holds: 'one refuses in one line (never telling to `restore` a live run), the other runs whole, no resource differs',
    runs: 16,
    trial: concurrentTrial,
  },
  {
    name: 'network faults',
    tries:
      'an HTML 502, a 503, a 504 and a reset on reads, a 429 on any request, at places the seed picks, in a full run with mutations',
    holds: "every verdict is the direct run's",
    runs: 20,
    trial: (seed) => networkFaultTrial(seed),
  },
  {
    name: 'corrupted answers',
    tries:
      'the whole catalogue with mutations through a middlebox that corrupts one answer in 30 at random (a value flipped, a field dropped, a status changed within its class), once per request',
    holds: 'no FAIL: every departure it caused is FLAKY once driven again, or broke nothing judged',
    runs: 20,
    trial: (seed) => corruptedAnswersTrial(seed),
  },
  {
    name: 'encodings of a key',
    tries:
      'keys of any printable characters echoed in drawn encodings (typed, JSON, percent three ways in either case, hex, base64, base64url at any offset) in headers, bodies, `Location`',
    holds: 'no form of either key in any report file or stream (scanned by decoding)',
    runs: 40,
    trial: encodingTrial,
  },
  {
    name: 'hostile answers',
    tries: `the read-only catalogue through a proxy that, on every 4th to 7th request, does one of: ${ANSWER_MODES.join(', ')}`,
    holds:
      'the run ends, reports valid, transport faults ERROR never FAIL, protocol departures FAIL their rule, no key in the results',
    runs: ANSWER_MODES.length * 3,
    trial: (seed) => hostileAnswerTrial(seed),
  },
  {
    name: 'two parties revoking',
    tries:
      'two runs of the revocation rules against one server at once, each with a lock folder of its own (two machines)',
    holds: 'no FAIL on either side: another party’s revocation is ERROR DC_ERR_FOREIGN_CHANGE, or FLAKY',
    runs: 8,
    trial: twoPartiesRevokingTrial,
  },
];
