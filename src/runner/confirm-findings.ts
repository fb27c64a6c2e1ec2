/**
 * A departure a rule's shared step found from another rule's clause is
 * confirmed before that rule FAILs on it, as a rule's own FAIL is
 * (run-rules.ts). The read whose answer showed it is sent once more and the
 * new answer judged again by the owner's judges of one answer
 * (src/rules/judges); where that cannot be done (no such judge, an answer to
 * a change, a request made with another credential, a body cut for the
 * report, a next page asked for with a token an earlier answer gave) the
 * rule that found it is driven again and must find it again.
 * The departure repeats when it shows at the same place with the same
 * message (same-departure.ts): then the owner FAILs on it; when it does not,
 * the owner is FLAKY, never failed on it. A finding that neither way can
 * drive again (its finder cannot be driven again) stands unconfirmed.
 */
import type { DirectoryClient } from '../client/directory-client.ts';
import type { Exchange } from '../core/exchange.ts';
import type { Violation } from '../core/types.ts';
import { LIST_ANSWER_JUDGES } from '../rules/judges/list-answer.ts';
import {
  field,
  observedFromExchange,
  requestOf,
  type ExchangeJudge,
  type Observed,
  type SharedCheck,
} from '../rules/judges/observed.ts';
import { READ_ANSWER_JUDGES } from '../rules/judges/read-answers.ts';
import { OPERATION_REQUESTS, READ_OPERATIONS, type OperationName } from '../schemas/operations.ts';
import type { Finding, FindingCheck, Findings } from './findings.ts';
import { SENT_AGAIN, sameDeparture } from './same-departure.ts';

/** Judges of one answer to a read, each for the rule whose clause it holds. */
const ANSWER_JUDGES: readonly ExchangeJudge[] = [...READ_ANSWER_JUDGES, ...LIST_ANSWER_JUDGES];

/** The credential placeholder of the run's own key: requests made with it (or with none) can be sent again. */
const OWN_CREDENTIAL = 'Bearer $DIRECTORY_API_KEY';

/**
 * Checks every owner's findings: for each finding, the evidence exchange its
 * owner's judges still fail is sent again through the owner's client (one
 * that shares no answer) and judged. An owner is confirmed when one answer sent
 * again departs, not-repeated when every one sent again holds, unconfirmed
 * otherwise.
 */
export async function confirmFindings(
  findings: Findings,
  clientFor: (owner: string) => DirectoryClient,
  redrive: (finder: string) => Promise<Findings | undefined>,
  checksOf: (owner: string) => readonly SharedCheck[],
): Promise<Map<string, FindingCheck>> {
  const checks = new Map<string, FindingCheck>();
  /** A finder's findings when driven again, once per finder. */
  const redriven = new Map<string, Promise<Findings | undefined>>();
  for (const owner of findings.owners()) {
    const client = clientFor(owner);
    const judges = ANSWER_JUDGES.filter((j) => checksOf(owner).includes(j));
    const exchanges: Exchange[] = [];
    let confirmed = false;
    let unconfirmed = false;
    // One answer shared by several rules is one finding of each: it is sent again once.
    const tried = new Map<string, boolean>();
    for (const finding of findings.of(owner)) {
      let repeated = await sentAgainRepeats(finding, judges, client, tried, exchanges);
      if (repeated === undefined) {
        // No answer to send again: the rule that found it is driven again, and finds it again or not.
        let again = redriven.get(finding.foundBy);
        if (!again) {
          again = redrive(finding.foundBy);
          redriven.set(finding.foundBy, again);
        }
        const found = await again;
        if (found) {
          const same = found.of(owner).filter((f) => sameDeparture(finding.violations, f.violations));
          repeated = same.length > 0;
          for (const f of same) exchanges.push(...f.evidence);
        }
      }
      if (repeated === true) {
        confirmed = true;
        break;
      }
      if (repeated === undefined) unconfirmed = true;
    }
    checks.set(owner, { outcome: confirmed ? 'confirmed' : unconfirmed ? 'unconfirmed' : 'not-repeated', exchanges });
  }
  return checks;
}

/**
 * Whether the finding's departure repeats in the answer to its request sent
 * again: undefined when no evidence exchange shows it or it cannot be sent
 * again; a request already sent again answers as it did then.
 */
async function sentAgainRepeats(
  finding: Finding,
  judges: readonly ExchangeJudge[],
  client: DirectoryClient,
  tried: Map<string, boolean>,
  exchanges: Exchange[],
): Promise<boolean | undefined> {
  // The last one that shows it: a step judges an answer as it comes, so the departure ends the evidence.
  const shown = [...finding.evidence].reverse().find((e) => sameDeparture(finding.violations, departures(e, judges)));
  if (!shown) return undefined;
  // A request built from an earlier answer (the next_token it carries) holds what that answer said: sent again
  // alone, a token a middlebox spoiled would be refused again. The rule that found it is driven again instead.
  if (followsToken(shown)) return undefined;
  const request = `${shown.operation}\n${shown.request.body}`;
  const known = tried.get(request);
  if (known !== undefined) return known;
  const again = await sendAgain(client, shown);
  if (!again) return undefined;
  exchanges.push(again);
  // Judged under the first request's step name, so the same departure reads the same.
  const repeats = sameDeparture(departures(shown, judges), departures({ ...again, step: shown.step }, judges));
  tried.set(request, repeats);
  return repeats;
}

/**
 * The request of `exchange` sent once more, as it was, when that is safe and
 * faithful: a read, made with the run's own key or with none. Undefined when
 * it is not, or when no answer came.
 */
export async function sendAgain(client: DirectoryClient, exchange: Exchange): Promise<Exchange | undefined> {
  const operation = readOperation(exchange.operation);
  const credential = exchange.request.headers.authorization;
  if (operation === undefined || (credential !== undefined && credential !== OWN_CREDENTIAL)) return undefined;
  try {
    const res = await (credential === undefined ? client.derive({ credential: undefined }) : client).postRaw(
      operation,
      { text: exchange.request.body },
      { step: `${exchange.step ?? operation}${SENT_AGAIN}` },
    );
    return res.exchange;
  } catch {
    // No answer came: nothing is confirmed or refuted by it.
    return undefined;
  }
}

/** A list request that asks for a next page with a token an earlier answer gave. */
export function followsToken(exchange: Exchange): boolean {
  const pagination = field(requestOf(exchange), 'pagination');
  return (
    typeof pagination === 'object' &&
    pagination !== null &&
    'next_token' in pagination &&
    typeof pagination.next_token === 'string'
  );
}

/** What `judges` find in the answer of `exchange`, read whole. */
function departures(exchange: Exchange, judges: readonly ExchangeJudge[]): Violation[] {
  const observed = observedOf(exchange);
  if (!observed) return [];
  return judges.filter((j) => j.operation === observed.operation).flatMap((j) => j.judge(observed));
}

function observedOf(exchange: Exchange): Observed | undefined {
  // A cut body is not the answer: it is judged whole or not at all.
  return exchange.response && !exchange.response.truncated ? observedFromExchange(exchange) : undefined;
}

function readOperation(name: string): OperationName | undefined {
  return READ_OPERATIONS.has(name) && isOperation(name) ? name : undefined;
}

function isOperation(name: string): name is OperationName {
  return Object.hasOwn(OPERATION_REQUESTS, name);
}
