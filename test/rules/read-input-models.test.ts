/**
 * The input models of show-teams, list-roles and show-activity-rates are
 * their request schemas': every field is a factor or said not to vary, a
 * DateRange is where it lies against the data and where its ends fall, a
 * profile that cannot serve a class says why; the registry holds every
 * model, `rules --coverage` prints each, and a range drawn for a class is
 * of that class (or none is drawn).
 */
import { describe, expect, test } from 'vitest';
import { rulesCommand } from '../../src/cli/rules-command.ts';
import { DEFINITIONS } from '../../src/schemas/definitions.ts';
import { INPUT_MODELS } from '../../src/rules/input-models/index.ts';
import { drawCoveringArray } from '../../src/rules/input-models/coverage.ts';
import { drawRange, relationOf, RANGE_ENDS, RANGE_POSITIONS } from '../../src/rules/input-models/date-ranges.ts';
import { showTeamsInputModel } from '../../src/rules/input-models/show-teams.ts';
import { listRolesInputModel } from '../../src/rules/input-models/list-roles.ts';
import { showActivityRatesInputModel } from '../../src/rules/input-models/show-activity-rates.ts';
import { assignTeamInputModel, NAUGHTY } from '../../src/rules/input-models/assign-team.ts';
import { clockChangeDays } from '../../src/core/clock-changes.ts';
import { HELD_ON, ORDER, revokeRolesInputModel } from '../../src/rules/input-models/revoke-roles.ts';
import { NOT_SENT, OMITTED } from '../../src/rules/input-models/model.ts';
import { addDays, splitRange } from '../../src/rules/dates.ts';
import type { TargetProfile } from '../../src/target/profile.ts';
import { checkProfile } from '../../src/target/load-profile.ts';
import { dateClasses } from '../../src/rules/input-models/resources-list.ts';

const PROFILE: TargetProfile = {
  kinds: [{ id: '1', name: 'employee', supportsRoles: true }],
  roles: [{ id: '21' }, { id: '22' }, { id: '23' }],
  teams: [
    { id: '31', enabled: true },
    { id: '32', enabled: false },
  ],
  mutableResources: [],
};

const classesOf = (model: ReturnType<typeof showTeamsInputModel>): Record<string, readonly string[]> =>
  Object.fromEntries(model.factors.map((f) => [f.name, f.classes]));

describe('the input models of the reads', () => {
  test('every field of each request schema is a factor or is said not to vary', () => {
    for (const [model, schema] of [
      [showTeamsInputModel(PROFILE), DEFINITIONS.ShowTeamsRequest],
      [listRolesInputModel(PROFILE), DEFINITIONS.ListRolesRequest],
      [showActivityRatesInputModel(PROFILE), DEFINITIONS.ShowActivityRatesRequest],
    ] as const) {
      const named = new Set([...model.factors.map((f) => f.name), ...model.fixed.map((f) => f.field)]);
      for (const field of Object.keys(schema.properties)) expect(named, `${model.operation} ${field}`).toContain(field);
    }
  });

  test('classes follow the schema: id lists, booleans, a DateRange as two factors', () => {
    expect(classesOf(showTeamsInputModel(PROFILE))).toEqual({
      team_ids: [OMITTED, 'one', 'several', 'not held', 'disabled'],
      head: [OMITTED, 'true', 'false'],
      date_range: [OMITTED, ...RANGE_POSITIONS],
      'date_range ends': [NOT_SENT, ...RANGE_ENDS],
    });
    // A hundred resources may be sent (the target lists them or the rows are not judged); the profile names
    // three roles and two teams, fewer than a hundred: those lists are never long.
    expect(classesOf(listRolesInputModel(PROFILE))).toEqual({
      resource_ids: [OMITTED, 'one', 'several', 'reversed', 'long'],
      role_ids: [OMITTED, 'one', 'several', 'reversed'],
    });
    expect(showTeamsInputModel(PROFILE).unservable).toEqual([
      { factor: 'team_ids', class: 'long', why: 'the target profile names 2 teams, fewer than 100' },
    ]);
    expect(showActivityRatesInputModel(PROFILE).fixed.map((f) => f.field)).toEqual([
      'resource_id',
      'date_range (wide)',
    ]);
  });

  test('a profile without a disabled team or a second role cannot serve those classes, and says why', () => {
    const bare: TargetProfile = { ...PROFILE, roles: [{ id: '21' }], teams: [{ id: '31', enabled: true }] };
    const teams = showTeamsInputModel(bare);
    expect(classesOf(teams).team_ids).toEqual([OMITTED, 'one', 'several', 'not held']);
    expect(teams.unservable).toEqual([
      { factor: 'team_ids', class: 'disabled', why: 'the target profile names no disabled team' },
      { factor: 'team_ids', class: 'long', why: 'the target profile names 1 team, fewer than 100' },
    ]);
    expect(classesOf(listRolesInputModel(bare)).role_ids).toEqual([OMITTED, 'one']);
  });

  test('a range and its ends are sent together or not at all', () => {
    const model = showActivityRatesInputModel(PROFILE);
    expect(model.allowed([OMITTED, NOT_SENT])).toBe(true);
    expect(model.allowed([OMITTED, "a year's end"])).toBe(false);
    expect(model.allowed(['inside one', NOT_SENT])).toBe(false);
    const array = drawCoveringArray(model, 1);
    for (const row of array?.rows ?? []) expect(model.allowed(row)).toBe(true);
  });

  test('the registry holds every model, and rules --coverage prints each', async () => {
    expect(Object.keys(INPUT_MODELS).sort()).toEqual([
      'resources.assign-activity-rate',
      'resources.assign-team',
      'resources.list',
      'resources.list-roles',
      'resources.revoke-roles',
      'resources.show-activity-rates',
      'resources.show-teams',
      'resources.unassign-activity-rate',
    ]);
    const lines: string[] = [];
    expect(await rulesCommand(['--coverage', '--seed', '1'], (l) => lines.push(l))).toBe(0);
    for (const operation of [
      'resources.show-teams',
      'resources.list-roles',
      'resources.show-activity-rates',
      'resources.assign-activity-rate',
      'resources.assign-team',
      'resources.unassign-activity-rate',
      'resources.revoke-roles',
    ]) {
      expect(lines.some((l) => new RegExp(`^${operation}: \\d+ factors, \\d+ rows .*\\(100%\\)`).test(l))).toBe(true);
    }
    expect(lines).toContain(
      "  factor team_ids: omitted, one, several, not held, disabled (from the target profile's resources, roles and teams)",
    );
    // Where the values real bugs need come from is said: the target's own data, the calendar, the public corpus.
    expect(lines.some((l) => l.includes('exactly one') && l.includes("the target's own periods or assignations"))).toBe(
      true,
    );
    expect(lines.some((l) => l.includes('a day clocks change') && l.includes('time-zone database'))).toBe(true);
    expect(lines.some((l) => l.includes('naughty strings') && l.includes('Big List of Naughty Strings 2.0.4'))).toBe(
      true,
    );
  });
});

describe('the input model of assign-team', () => {
  test('from its schema: text and warning_aware vary, every other field is held and says why', () => {
    const model = assignTeamInputModel(PROFILE);
    expect(classesOf(model)).toEqual({
      regrouping: [OMITTED, 'ascii', 'non-ascii', NAUGHTY],
      contract_number: [OMITTED, 'ascii', 'non-ascii', NAUGHTY],
      external_id: [OMITTED, 'ascii', 'non-ascii', NAUGHTY],
      warning_aware: [OMITTED, 'true', 'false'],
    });
    const named = new Set([...model.factors.map((f) => f.name), ...model.fixed.map((f) => f.field)]);
    expect([...named].sort()).toEqual(Object.keys(DEFINITIONS.AssignTeamRequest.properties).sort());
    // A side assignation could not be taken back: head false and head left out are named as not servable.
    expect(model.unservable.map((u) => `${u.factor} = ${u.class}`)).toEqual(['head = false', 'head = omitted']);
    const array = drawCoveringArray(model, 1);
    // Three text fields of four classes and warning_aware of three: 3 × 16 + 3 × 12 pairs.
    expect(array?.interactions.length).toBe(84);
  });
});

describe('the input model of revoke-roles', () => {
  const kind = { id: '1', name: 'employee', supportsRoles: true, definingRoleId: '21' };
  const withResources = (n: number): TargetProfile => ({
    ...PROFILE,
    kinds: [kind],
    mutableResources: Array.from({ length: n }, (_, i) => ({ id: String(700 + i), kindId: '1' })),
  });

  test('from its schema: each list its shapes, the TeamList every form, and the scope it meets', () => {
    const model = revokeRolesInputModel(withResources(15));
    expect(classesOf(model)).toEqual({
      resource_ids: ['one', 'several'],
      role_ids: ['one', 'several', 'with the kind-defining role'],
      team_ids: [OMITTED, '*', 'one held', 'several held', 'every held', 'not held', 'held and not held', 'disabled'],
      [ORDER]: ['as read', 'reversed'],
      [HELD_ON]: ['*', 'an explicit list'],
    });
    // A hundred resources would be given up for good; the profile has too few roles and teams for long lists.
    expect(model.unservable.map((u) => `${u.factor} = ${u.class}`)).toEqual([
      'resource_ids = long',
      'role_ids = long',
      'team_ids = long',
    ]);
    const array = drawCoveringArray(model, 1);
    for (const row of array?.rows ?? []) expect(model.allowed(row)).toBe(true);
    // Removing a kind-defining role entirely is open: never drawn.
    const roles = model.factors.findIndex((f) => f.name === 'role_ids');
    const teams = model.factors.findIndex((f) => f.name === 'team_ids');
    expect(array?.rows.some((r) => r[roles] === 'with the kind-defining role' && r[teams] === OMITTED)).toBe(false);
  });

  test('a profile that can spare one resource and names one role sends one of each, in one order', () => {
    const bare: TargetProfile = {
      ...withResources(5),
      kinds: [{ ...kind, definingRoleId: undefined }],
      roles: [{ id: '22' }],
    };
    const model = revokeRolesInputModel(bare);
    expect(classesOf(model).resource_ids).toEqual(['one']);
    expect(classesOf(model).role_ids).toEqual(['one']);
    expect(classesOf(model)[ORDER]).toEqual(['as read']);
    for (const depth of ['quick', 'default', 'deep'] as const) expect(drawCoveringArray(model, 1, depth)).toBeDefined();
  });
});

describe('ranges drawn around the data', () => {
  const SPANS = [
    { start: '2018-01-01', end: '2023-12-31' },
    { start: '2024-01-01', end: '2030-12-31' },
  ];

  test('each class the data gives is drawn, of its class, and the same classes give the same range', () => {
    for (const position of RANGE_POSITIONS) {
      for (const ends of RANGE_ENDS) {
        const range = drawRange(SPANS, position, ends);
        // Past 2038 lies beyond every span of the data: no range whose end falls inside a span ends there, and
        // none is faked.
        if (ends === 'past 2038-01-19' && (position === 'inside one' || position === 'across a start')) {
          expect(range).toBeUndefined();
          continue;
        }
        // Exactly one span of the data: only the classes its own ends are (each runs from a year's first day
        // to a year's last), never a range beside it.
        if (position === 'exactly one') {
          const own = ends === "a month's first and last day" || ends === "a year's end";
          expect(range, `${position}, ${ends}`).toBe(own ? '2018-01-01/2023-12-31' : undefined);
          continue;
        }
        expect(range, `${position}, ${ends}`).toBeDefined();
        expect(drawRange(SPANS, position, ends)).toBe(range);
        const span = splitRange(range ?? '');
        expect(span && span.start <= span.end).toBe(true);
        if (!span) continue;
        if (ends === '29 February') expect(`${span.start} ${span.end}`).toContain('-02-29');
        if (ends === "a year's end") expect(span.end.endsWith('-12-31')).toBe(true);
        if (ends === 'past 2038-01-19') expect(span.end >= '2038-01-20').toBe(true);
        if (ends === 'a day clocks change') {
          const changes = clockChangeDays([Number(span.start.slice(0, 4)), Number(span.end.slice(0, 4))]);
          expect(changes.includes(span.start) || changes.includes(span.end), `${span.start}/${span.end}`).toBe(true);
        }
        if (ends === "a month's first and last day") {
          expect(span.start.endsWith('-01')).toBe(true);
          expect(addDays(span.end, 1).endsWith('-01')).toBe(true);
        }
        if (position === 'inside one') expect(SPANS.some((p) => p.start < span.start && span.end < p.end)).toBe(true);
        if (position === 'adjacent') {
          expect(SPANS.some((p) => span.start === addDays(p.end, 1) || span.end === addDays(p.start, -1))).toBe(true);
        }
      }
    }
  });

  test('no data, no range', () => {
    expect(drawRange([], 'inside one', 'ordinary days')).toBeUndefined();
  });

  test('how a record lies against a range', () => {
    const range = { start: '2020-01-10', end: '2020-01-20' };
    const cases: Array<[string, string, string]> = [
      ['2020-01-01', '2020-01-05', 'disjoint'],
      ['2020-01-12', '2020-01-15', 'inside'],
      ['2020-01-01', '2020-01-10', 'touching the start'],
      ['2020-01-20', '2020-01-30', 'touching the end'],
      ['2020-01-01', '2020-01-30', 'covering it'],
      ['2020-01-01', '2020-01-15', 'across its start'],
      ['2020-01-15', '2020-01-30', 'across its end'],
    ];
    for (const [start, end, relation] of cases)
      expect(relationOf({ start, end }, range), `${start}/${end}`).toBe(relation);
  });
});

test('every factor of every operation says where its classes come from', () => {
  for (const [operation, model] of Object.entries(INPUT_MODELS)) {
    const built = model?.(PROFILE);
    for (const f of built?.factors ?? []) expect(built?.sources[f.name], `${operation} ${f.name}`).toMatch(/\S/);
  }
});

describe("the profile's time zones", () => {
  const SPANS = [
    { start: '2018-01-01', end: '2023-12-31' },
    { start: '2024-01-01', end: '2030-12-31' },
  ];

  test("a range ending on a day clocks change ends on one of the profile's zones, not of the default ones", () => {
    const sydney = clockChangeDays([2018, 2019, 2020, 2021, 2022, 2023, 2024], ['Australia/Sydney']);
    const range = drawRange(SPANS, 'inside one', 'a day clocks change', { zones: ['Australia/Sydney'] });
    const span = splitRange(range ?? '');
    expect(span && (sydney.includes(span.start) || sydney.includes(span.end)), range).toBe(true);
    // Sydney's clocks change in April and October, Europe's and North America's in March and November.
    expect(span && [span.start, span.end].some((d) => /-(04|10)-/.test(d))).toBe(true);
  });

  test("list's at_date of that class is the first day the profile's zones change clocks in 2024", () => {
    expect(dateClasses(['Australia/Sydney'])['a day clocks change']).toBe(
      clockChangeDays([2024], ['Australia/Sydney'])[0],
    );
    // A zone whose clocks never change gives the default zones' day: the class is still a day clocks change.
    expect(dateClasses(['Asia/Kolkata'])['a day clocks change']).toBe(clockChangeDays([2024])[0]);
  });

  test('a profile naming a zone the time-zone database does not know is a profile error, said in one line', () => {
    expect(() => checkProfile({ ...PROFILE, timeZones: ['Europe/Paris', 'Mars/Olympus_Mons'] }, 'the profile')).toThrow(
      /timeZones\[1\] "Mars\/Olympus_Mons" is not a time zone/,
    );
    expect(checkProfile({ ...PROFILE, timeZones: ['Australia/Sydney'] }, 'the profile').timeZones).toEqual([
      'Australia/Sydney',
    ]);
  });
});
