/**
 * JSON Schemas of the files the tool writes and reads back: results.json
 * (compare, merge, expectations update), the expectations file, the undo
 * journal and the lock files. A file read back is checked against its schema
 * and typed by it (the types come from the same definitions, see
 * from-schema.ts), never cast; a file that does not match is one line naming
 * the file and the JSON path of its first problem.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { closestName } from '../core/did-you-mean.ts';
import { UsageError } from '../core/errors.ts';
import { DEFINITIONS } from './definitions.ts';
import { isDateRange, isDuration, isLocalDate } from './formats.ts';
import type { FromSchema } from './from-schema.ts';
import { valueAt } from './index.ts';

const STRING = { type: 'string' } as const;
const NUMBER = { type: 'number' } as const;
const BOOLEAN = { type: 'boolean' } as const;
const STRINGS = { type: 'array', items: STRING } as const;
/** Any JSON value (what the records type as unknown). */
const ANY = {} as const;

const LEVEL = { enum: ['MUST', 'INFERRED', 'OBSERVED'] } as const;
const VERDICT = { enum: ['PASS', 'FAIL', 'ERROR', 'SKIP', 'OBSERVED', 'NOT-TESTED', 'FLAKY'] } as const;

/** What every exchange records, answered or not (src/core/exchange.ts). */
const EXCHANGE_RECORD = {
  operation: STRING,
  startedAt: STRING,
  request: { $ref: '#/definitions/RecordedRequest' },
  durationMs: NUMBER,
  attempts: NUMBER,
  queuedMs: NUMBER,
  retryWaitMs: NUMBER,
  earlierAttempts: {
    type: 'array',
    items: { type: 'object', properties: { status: NUMBER, error: STRING } },
  },
  shared: { const: true },
  rule: STRING,
  step: STRING,
  run: { type: 'integer', minimum: 1 },
} as const;

const EXCHANGE_REQUIRED = ['operation', 'request', 'durationMs', 'attempts'] as const;

const GATE_ENTRY = {
  type: 'object',
  required: ['rule', 'reason'],
  properties: { rule: STRING, reason: STRING, expires: STRING },
} as const;

/** One rule's result as results.json holds it; `RunRecord` and `ResultsFile` share it. */
const RUN_FIELDS = {
  tool: { type: 'object', required: ['name', 'version'], properties: { name: STRING, version: STRING } },
  target: {
    type: 'object',
    required: ['baseUrl', 'serviceVersion'],
    properties: { baseUrl: STRING, serviceVersion: STRING, profileName: STRING, replayArgs: STRING },
  },
  startedAt: STRING,
  results: { type: 'array', items: { $ref: '#/definitions/RuleResult' } },
} as const;

/** What a run records beside its results: its options, selection, gate and requests (results.json). */
const RECORD_FIELDS = {
  options: {
    type: 'object',
    required: ['seed', 'allowMutations'],
    properties: {
      numRuns: NUMBER,
      depth: { enum: ['quick', 'default', 'deep'] },
      maxCommands: NUMBER,
      seed: NUMBER,
      allowMutations: BOOLEAN,
      path: STRING,
      replayPath: STRING,
      strict: BOOLEAN,
      minCoverage: NUMBER,
      failOnSkip: BOOLEAN,
    },
  },
  finishedAt: STRING,
  selection: {
    type: 'object',
    required: ['catalogueSize'],
    properties: {
      rules: STRINGS,
      sections: STRINGS,
      levels: { type: 'array', items: LEVEL },
      shard: { type: 'object', required: ['index', 'count'], properties: { index: NUMBER, count: NUMBER } },
      catalogueSize: NUMBER,
    },
  },
  gate: {
    type: 'object',
    required: ['file', 'passed', 'knownFailures', 'unexpectedFailures', 'unexpectedPasses', 'expired'],
    properties: {
      file: STRING,
      passed: BOOLEAN,
      knownFailures: { type: 'array', items: GATE_ENTRY },
      unexpectedFailures: STRINGS,
      unexpectedPasses: STRINGS,
      expired: { type: 'array', items: GATE_ENTRY },
    },
  },
  requests: {
    type: 'object',
    required: ['total', 'budget'],
    properties: { total: NUMBER, budget: { type: ['number', 'null'] }, shared: NUMBER },
  },
  inputCoverage: {
    type: 'array',
    description:
      'Per operation with an input model, what its pairwise rule exercised of the pairs the target can serve.',
    items: { $ref: '#/definitions/InputCoverage' },
  },
} as const;

const SHARE = {
  type: 'object',
  required: ['exercised', 'servable'],
  properties: { exercised: NUMBER, servable: NUMBER },
} as const;

export const FILE_DEFINITIONS = {
  /** What a pairwise rule exercised of its operation's input model (src/rules/input-models/coverage.ts). */
  InputCoverage: {
    type: 'object',
    required: [
      'rule',
      'operation',
      'strength',
      'rows',
      'rowsJudged',
      'pairs',
      'byFactorPair',
      'factors',
      'fixed',
      'notServable',
    ],
    properties: {
      rule: STRING,
      operation: STRING,
      strength: { enum: [2, 3] },
      rows: NUMBER,
      rowsJudged: NUMBER,
      pairs: SHARE,
      byFactorPair: { type: 'object', additionalProperties: SHARE },
      factors: {
        type: 'array',
        items: { type: 'object', required: ['name', 'classes'], properties: { name: STRING, classes: STRINGS } },
      },
      fixed: {
        type: 'array',
        items: { type: 'object', required: ['field', 'why'], properties: { field: STRING, why: STRING } },
      },
      notServable: {
        type: 'array',
        items: {
          type: 'object',
          required: ['factor', 'class', 'why'],
          properties: { factor: STRING, class: STRING, why: STRING },
        },
      },
    },
  },
  Headers: { type: 'object', additionalProperties: STRING },
  RecordedRequest: {
    type: 'object',
    required: ['method', 'url', 'headers', 'body'],
    properties: { method: { const: 'POST' }, url: STRING, headers: { $ref: '#/definitions/Headers' }, body: STRING },
  },
  RecordedResponse: {
    type: 'object',
    required: ['status', 'headers', 'body', 'truncated'],
    properties: { status: NUMBER, headers: { $ref: '#/definitions/Headers' }, body: STRING, truncated: BOOLEAN },
  },
  AnsweredExchange: {
    description: 'an answered exchange has a response and no error',
    type: 'object',
    required: [...EXCHANGE_REQUIRED, 'response'],
    properties: { ...EXCHANGE_RECORD, response: { $ref: '#/definitions/RecordedResponse' } },
    not: { required: ['error'], properties: { error: ANY } },
  },
  FailedExchange: {
    description: 'an exchange without a response has an error',
    type: 'object',
    required: [...EXCHANGE_REQUIRED, 'error'],
    properties: {
      ...EXCHANGE_RECORD,
      error: { type: 'object', required: ['code', 'message'], properties: { code: STRING, message: STRING } },
    },
    not: { required: ['response'], properties: { response: ANY } },
  },
  /** Told apart by its response: only the branch it claims to be reports problems. */
  Exchange: {
    type: 'object',
    if: { required: ['response'], properties: { response: ANY } },
    then: { $ref: '#/definitions/AnsweredExchange' },
    else: { $ref: '#/definitions/FailedExchange' },
  },
  ReplayCheck: {
    oneOf: [
      {
        type: 'object',
        required: ['kind', 'exchange', 'resourceId', 'roleId', 'teams'],
        properties: {
          kind: { const: 'role-teams' },
          exchange: NUMBER,
          resourceId: STRING,
          roleId: STRING,
          teams: { anyOf: [{ const: '*' }, STRINGS, { type: 'null' }] },
        },
      },
      {
        type: 'object',
        required: ['kind', 'exchange', 'day', 'rate'],
        properties: {
          kind: { const: 'rate-on-day' },
          exchange: NUMBER,
          day: STRING,
          rate: { type: ['number', 'null'] },
        },
      },
      {
        type: 'object',
        required: ['kind', 'exchange', 'teamId', 'head', 'days'],
        properties: {
          kind: { const: 'team-on-days' },
          exchange: NUMBER,
          teamId: STRING,
          head: BOOLEAN,
          days: STRINGS,
          regrouping: STRING,
        },
      },
    ],
  },
  TraceStep: {
    type: 'object',
    required: ['command', 'exchanges'],
    properties: {
      command: STRING,
      exchanges: { type: 'array', items: { $ref: '#/definitions/Exchange' } },
      expected: ANY,
      shown: ANY,
      difference: { type: 'object', required: ['path'], properties: { path: STRING, expected: ANY, shown: ANY } },
      check: { $ref: '#/definitions/ReplayCheck' },
    },
  },
  RuleResult: {
    type: 'object',
    required: [
      'ruleId',
      'clause',
      'sentence',
      'section',
      'group',
      'level',
      'kind',
      'mutates',
      'verdict',
      'violations',
      'observations',
      'exchanges',
      'requestCount',
      'durationMs',
    ],
    properties: {
      ruleId: STRING,
      clause: STRING,
      sentence: STRING,
      section: STRING,
      group: STRING,
      level: LEVEL,
      kind: { enum: ['example', 'property'] },
      mutates: { enum: ['none', 'reversible', 'irreversible'] },
      verdict: VERDICT,
      reason: STRING,
      errorCode: STRING,
      blockedBy: STRING,
      skipCause: { enum: ['profile', 'options', 'precondition', 'blocked', 'resource'] },
      selected: { const: false },
      confirmed: { const: true },
      violations: {
        type: 'array',
        items: {
          type: 'object',
          required: ['where', 'message'],
          properties: { where: STRING, message: STRING, expected: ANY, actual: ANY, foundBy: STRING },
        },
      },
      observations: {
        type: 'array',
        items: { type: 'object', required: ['subject'], properties: { subject: STRING, value: ANY } },
      },
      exchanges: { type: 'array', items: { $ref: '#/definitions/Exchange' } },
      replay: {
        type: 'object',
        required: ['seed', 'numRuns'],
        properties: {
          seed: NUMBER,
          path: STRING,
          replayPath: STRING,
          counterexample: STRING,
          numShrinks: NUMBER,
          numRuns: NUMBER,
        },
      },
      trace: { type: 'array', items: { $ref: '#/definitions/TraceStep' } },
      requestCount: NUMBER,
      durationMs: NUMBER,
    },
  },
  /** What compare and `expectations update --from` read of a results.json. */
  ResultsFile: {
    type: 'object',
    required: ['schemaVersion', 'target', 'startedAt', 'results'],
    properties: { schemaVersion: { const: 1 }, ...RUN_FIELDS },
  },
  /** What merge reads of a shard's results.json: the whole run but its summary, which merge computes again. */
  RunRecord: {
    type: 'object',
    required: ['schemaVersion', 'tool', 'target', 'options', 'startedAt', 'finishedAt', 'results'],
    properties: { schemaVersion: { const: 1 }, ...RUN_FIELDS, ...RECORD_FIELDS },
  },
  /**
   * results.json as the tool writes it (`run`, `merge`, `runConformance`'s
   * reports and the history): published, closed, as fixtures/results.schema.json.
   */
  ResultsJson: {
    type: 'object',
    required: [
      'schemaVersion',
      'tool',
      'target',
      'options',
      'startedAt',
      'finishedAt',
      'summary',
      'requestsPerRule',
      'results',
    ],
    properties: {
      schemaVersion: { const: 1, description: 'Bumped when a field changes meaning or goes away.' },
      ...RUN_FIELDS,
      ...RECORD_FIELDS,
      summary: { $ref: '#/definitions/RunSummary' },
      interrupted: {
        type: 'object',
        required: ['signal'],
        properties: {
          signal: { type: 'string', description: "The signal that stopped the run: its verdict is not the target's." },
        },
      },
      requestsPerRule: { type: 'object', additionalProperties: NUMBER },
    },
  },
  /** The figures of a run (src/core/summarise.ts). */
  RunSummary: {
    type: 'object',
    required: [
      'total',
      'byVerdict',
      'score',
      'coverage',
      'ran',
      'servable',
      'servableCoverage',
      'requiredCoverage',
      'outcome',
      'inconclusive',
      'unusable',
      'inferred',
      'conformant',
    ],
    properties: {
      total: { type: 'number', description: 'Rules selected for this run: the figures are over them.' },
      byVerdict: {
        type: 'object',
        required: [...VERDICT.enum],
        properties: {
          PASS: NUMBER,
          FAIL: NUMBER,
          ERROR: NUMBER,
          SKIP: NUMBER,
          OBSERVED: NUMBER,
          'NOT-TESTED': NUMBER,
          FLAKY: NUMBER,
        },
      },
      score: { type: 'number', description: 'Share (0..1) of the MUST rules that reached a verdict and passed.' },
      coverage: { type: 'number', description: 'Share (0..1) of the selected rules that reached a verdict.' },
      ran: NUMBER,
      servable: { type: 'number', description: 'Selected rules the target and the options can serve.' },
      servableCoverage: { type: 'number', description: 'ran / servable: what --min-coverage is measured on.' },
      requiredCoverage: NUMBER,
      outcome: { enum: ['conformant', 'not-conformant', 'inconclusive'] },
      inconclusive: STRINGS,
      unusable: BOOLEAN,
      inferred: {
        type: 'object',
        required: ['judged', 'failed'],
        properties: { judged: NUMBER, failed: NUMBER },
      },
      conformant: BOOLEAN,
    },
  },
  /** Per-target known failures (src/gate/expectations.ts). */
  ExpectationsFile: {
    type: 'object',
    required: ['expectations'],
    properties: {
      target: STRING,
      expectations: {
        type: 'array',
        items: {
          type: 'object',
          required: ['rule', 'reason'],
          additionalProperties: false,
          properties: {
            rule: { type: 'string', minLength: 1 },
            reason: { type: 'string', format: 'not-blank' },
            expires: { type: 'string', format: 'local-date' },
          },
        },
      },
    },
  },
  /** A resource as the undo journal keeps it before a change (src/rules/steps/state.ts). */
  ResourceState: {
    type: 'object',
    required: ['resourceId'],
    properties: {
      resourceId: STRING,
      teams: { type: 'array', items: { $ref: '#/definitions/TeamAssignation' } },
      rates: { type: 'array', items: { $ref: '#/definitions/ActivityRatePeriod' } },
      roles: { type: 'array', items: { $ref: '#/definitions/RoleAssociation' } },
    },
  },
  /** One line of the undo journal (src/runner/undo-journal.ts). */
  JournalLine: {
    description: 'a journal line: run, changing, restored or irreversible',
    type: 'object',
    required: ['event'],
    properties: { event: STRING },
    discriminator: { propertyName: 'event' },
    oneOf: [
      {
        type: 'object',
        required: ['event', 'at', 'baseUrl', 'serviceVersion'],
        properties: { event: { const: 'run' }, at: STRING, baseUrl: STRING, serviceVersion: STRING },
      },
      {
        type: 'object',
        required: ['event', 'at', 'ruleId', 'resourceId', 'state', 'undo'],
        properties: {
          event: { const: 'changing' },
          at: STRING,
          ruleId: STRING,
          resourceId: STRING,
          state: { $ref: '#/definitions/ResourceState' },
          undo: { type: 'array', items: ANY },
        },
      },
      {
        type: 'object',
        required: ['event', 'at', 'ruleId', 'resourceId'],
        properties: { event: { const: 'restored' }, at: STRING, ruleId: STRING, resourceId: STRING },
      },
      {
        type: 'object',
        required: ['event', 'at', 'ruleId', 'resourceId'],
        properties: { event: { const: 'irreversible' }, at: STRING, ruleId: STRING, resourceId: STRING, state: ANY },
      },
    ],
  },
  /** A lock file of one resource of a target (src/session/target-lock.ts); `target` is absent in older ones. */
  LockHolder: {
    type: 'object',
    required: ['pid', 'since', 'resource', 'resources'],
    properties: {
      pid: { type: 'integer', minimum: 1 },
      since: STRING,
      target: STRING,
      resource: STRING,
      resources: STRINGS,
    },
  },
  /**
   * The recorded logs a rule's judge is tested on (src/mutation/judge-logs.ts):
   * the exchanges its driver made against the reference server, and against
   * each fault it must catch (or, for a fault only another rule's requests
   * show, that rule's exchanges: `foundBy` names it). A body is kept as text;
   * a judge reads it parsed.
   */
  JudgeLog: {
    type: 'object',
    required: ['rule', 'clean', 'faults'],
    additionalProperties: false,
    properties: {
      rule: STRING,
      clean: { $ref: '#/definitions/JudgedExchanges' },
      faults: { type: 'object', additionalProperties: { $ref: '#/definitions/JudgedExchanges' } },
      foundBy: { type: 'object', additionalProperties: STRING },
    },
  },
  /**
   * A HAR 1.2 file as `judge` reads it: only the fields it uses are
   * required; the suite's own HAR adds the rule, step and run of each entry.
   */
  HarFile: {
    type: 'object',
    required: ['log'],
    properties: {
      log: {
        type: 'object',
        required: ['entries'],
        // comment: how many later exchanges the recorder did not keep (merge adds them up).
        properties: { comment: STRING, entries: { type: 'array', items: { $ref: '#/definitions/HarEntry' } } },
      },
    },
  },
  HarEntry: {
    type: 'object',
    required: ['request', 'response'],
    properties: {
      startedDateTime: STRING,
      time: NUMBER,
      request: {
        type: 'object',
        required: ['url', 'headers'],
        properties: {
          // Another client's HAR holds other methods too (a browser's CORS preflight is an OPTIONS).
          method: STRING,
          url: STRING,
          headers: {
            type: 'array',
            items: { type: 'object', required: ['name', 'value'], properties: { name: STRING, value: STRING } },
          },
          postData: { type: 'object', properties: { text: STRING } },
        },
      },
      response: {
        type: 'object',
        required: ['status'],
        properties: { status: NUMBER, content: { type: 'object', properties: { text: STRING } } },
      },
      _rule: STRING,
      _step: STRING,
      _run: { type: 'integer', minimum: 1 },
      _shared: { const: true },
      _earlierStatuses: { type: 'array', items: NUMBER },
      _cut: { const: true },
    },
  },
  /** A signed run (`run --sign`, read back by `verify`): see src/session/bundle.ts. */
  ConformanceBundle: {
    type: 'object',
    required: ['format', 'suite', 'hashes', 'target', 'results', 'har', 'signature'],
    additionalProperties: false,
    properties: {
      format: { const: 'directory-conformance-bundle/1' },
      suite: {
        type: 'object',
        required: ['name', 'version'],
        additionalProperties: false,
        properties: { name: STRING, version: STRING },
      },
      hashes: {
        type: 'object',
        required: ['catalogue', 'spec'],
        additionalProperties: false,
        properties: { catalogue: STRING, spec: STRING },
      },
      target: {
        type: 'object',
        required: ['baseUrl', 'serviceVersion', 'profileHash', 'profile'],
        additionalProperties: false,
        // The profile is checked against its own schema (fixtures/target-profile.schema.json) once read.
        properties: { baseUrl: STRING, serviceVersion: STRING, profileHash: STRING, profile: ANY },
      },
      results: { $ref: '#/definitions/ResultsJson' },
      har: { $ref: '#/definitions/HarFile' },
      signature: {
        type: 'object',
        required: ['algorithm', 'publicKey', 'value'],
        additionalProperties: false,
        properties: { algorithm: { const: 'Ed25519' }, publicKey: STRING, value: STRING },
      },
    },
  },
  JudgedExchanges: {
    type: 'array',
    items: {
      type: 'object',
      // A request body that was not JSON (sent so on purpose) has no `request`: read back, it is undefined.
      required: ['operation', 'step', 'status', 'text', 'earlierStatuses', 'credential'],
      additionalProperties: false,
      properties: {
        operation: STRING,
        step: STRING,
        request: ANY,
        status: NUMBER,
        text: STRING,
        earlierStatuses: { type: 'array', items: NUMBER },
        credential: { enum: ['main', 'restricted', 'none', 'other'] },
        at: {
          type: 'object',
          required: ['sent', 'answered'],
          additionalProperties: false,
          properties: { sent: NUMBER, answered: NUMBER },
        },
      },
    },
  },
} as const;

type Definitions = typeof DEFINITIONS & typeof FILE_DEFINITIONS;

export type FileSchemaName = keyof typeof FILE_DEFINITIONS;

/** The TypeScript type of a value that matches the named file schema. */
export type FileType<N extends FileSchemaName> = FromSchema<(typeof FILE_DEFINITIONS)[N], Definitions>;

const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true, verbose: true, discriminator: true });
ajv.addFormat('local-date', { type: 'string', validate: isLocalDate });
ajv.addFormat('date-range', { type: 'string', validate: isDateRange });
ajv.addFormat('iso-duration', { type: 'string', validate: isDuration });
ajv.addFormat('not-blank', { type: 'string', validate: (s) => s.trim() !== '' });
ajv.addSchema({ $id: 'files', definitions: { ...DEFINITIONS, ...FILE_DEFINITIONS } });

const compiled = new Map<FileSchemaName, ValidateFunction>();

function validatorOf(name: FileSchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    fn = ajv.getSchema(`files#/definitions/${name}`);
    if (!fn) throw new Error(`unknown file schema ${name}`);
    compiled.set(name, fn);
  }
  return fn;
}

/** True when `value` matches the named file schema; narrows it to the schema's type. */
export function matchesFileSchema<N extends FileSchemaName>(name: N, value: unknown): value is FileType<N> {
  return validatorOf(name)(value);
}

/** What is wrong with `value` as the named file, one entry per problem ("/path must …: value"); none when it matches. */
export function fileProblems(name: FileSchemaName, value: unknown): string[] {
  const fn = validatorOf(name);
  if (fn(value)) return [];
  return problemsOf(fn.errors ?? [], value);
}

/** ajv's errors about `value` as "/path must …: value", one per problem, an anyOf's said once. */
export function problemsOf(errors: readonly ErrorObject[], value: unknown): string[] {
  return misspeltFirst(fewestErrors(errors)).map((e) => describe(e, value));
}

/**
 * A misspelt field (`mutableResource`) is two errors to ajv: a field not
 * known, and the field meant missing. The misspelling is said, first; the
 * missing field it stands for is not said again.
 */
function misspeltFirst(errors: readonly ErrorObject[]): ErrorObject[] {
  const meant = new Map<ErrorObject, string>();
  for (const e of errors) {
    if (e.keyword !== 'additionalProperties') continue;
    const fields: unknown = isObject(e.parentSchema) ? e.parentSchema.properties : undefined;
    const near = isObject(fields) ? closestName(String(e.params.additionalProperty), Object.keys(fields)) : undefined;
    if (near) meant.set(e, near);
  }
  const stoodFor = (e: ErrorObject): boolean =>
    e.keyword === 'required' &&
    [...meant].some(([m, near]) => m.instancePath === e.instancePath && near === String(e.params.missingProperty));
  return [...meant.keys(), ...errors.filter((e) => !meant.has(e) && !stoodFor(e))];
}

/**
 * The value, typed by its schema; otherwise a usage error (exit 2) in one
 * line: the file, then its first problem's JSON path and what it must be
 * (and how many more there are).
 */
export function checkedFile<N extends FileSchemaName>(name: N, value: unknown, file: string): FileType<N> {
  if (matchesFileSchema(name, value)) return value;
  throw new UsageError(oneLine(file, fileProblems(name, value)), { seeHelp: false });
}

/** `file: first problem (and N more: …)`, one line. */
export function oneLine(file: string, problems: readonly string[]): string {
  const [first = 'does not match its schema', ...rest] = problems;
  const more =
    rest.length === 0
      ? ''
      : ` (and ${rest.length} more: ${rest.slice(0, 3).join('; ')}${rest.length > 3 ? '; …' : ''})`;
  return `${file}: ${first}${more}`.replace(/[\r\n]+/g, ' ');
}

/**
 * An anyOf that failed says so once, at its own path, instead of every
 * branch's complaints (unions told apart by a field use if/then/else or a
 * discriminator instead, so only the branch the value claims reports).
 */
function fewestErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const anyOf = errors.filter((e) => e.keyword === 'anyOf');
  // "must match the then schema": the branch's own errors say what.
  return errors.filter((e) => {
    if (e.keyword === 'if') return false;
    if (e.keyword === 'anyOf') return !anyOf.some((o) => o !== e && e.instancePath.startsWith(`${o.instancePath}/`));
    return !anyOf.some((o) => e.instancePath === o.instancePath || e.instancePath.startsWith(`${o.instancePath}/`));
  });
}

const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  'local-date': 'must be a real date (YYYY-MM-DD)',
  'not-blank': 'must not be blank',
};

function describe(e: ErrorObject, root: unknown): string {
  const path = e.instancePath || '/';
  const said: unknown = e.parentSchema?.description;
  const why = typeof said === 'string' ? ` (${said})` : '';
  switch (e.keyword) {
    case 'required':
      return `${path} must have "${String(e.params.missingProperty)}"${why}`;
    case 'not': {
      const forbidden: unknown = isObject(e.schema) ? e.schema.required : undefined;
      const names = Array.isArray(forbidden) ? forbidden.map((n) => `"${String(n)}"`).join(', ') : 'this';
      return `${path} must not have ${names}${why}`;
    }
    case 'discriminator':
      return `${e.instancePath}/${String(e.params.tag)} must name ${typeof said === 'string' ? said : 'one of its forms'}${shown(e.params.tagValue)}`;
    case 'const':
      return `${path} must be ${JSON.stringify(e.params.allowedValue)}${shown(valueAt(root, e.instancePath))}`;
    case 'enum': {
      const allowed: unknown = e.params.allowedValues;
      const list = Array.isArray(allowed) ? allowed.map(String).join(', ') : 'its allowed values';
      return `${path} must be one of ${list}${shown(valueAt(root, e.instancePath))}`;
    }
    case 'additionalProperties': {
      const extra = String(e.params.additionalProperty);
      const fields: unknown = isObject(e.parentSchema) ? e.parentSchema.properties : undefined;
      const near = isObject(fields) ? closestName(extra, Object.keys(fields)) : undefined;
      return `${path} must not have "${extra}" (not a known field${near ? `; did you mean "${near}"?` : ''})`;
    }
    case 'anyOf':
      return `${path} must be ${typeof said === 'string' ? said : 'one of its forms'}${shown(valueAt(root, e.instancePath))}`;
    case 'format': {
      const message = FORMAT_MESSAGES[String(e.params.format)] ?? e.message ?? 'must match its format';
      return `${path} ${message}${shown(valueAt(root, e.instancePath))}`;
    }
    default:
      return `${path} ${e.message ?? 'must match the schema'}${shown(valueAt(root, e.instancePath))}`;
  }
}

/** The offending value after a colon, when it is short and plain; nothing for objects and arrays. */
function shown(value: unknown): string {
  if (typeof value === 'string')
    return `: ${value === '' || /^\s|\s$/.test(value) ? JSON.stringify(value) : clip(value)}`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return `: ${String(value)}`;
  return '';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
