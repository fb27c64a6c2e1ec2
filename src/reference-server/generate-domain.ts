/**
 * A realistic directory, generated deterministically from a seed and a size.
 * Resources are built eagerly (they are what lists page through); the state
 * operations change (roles, team assignations, activity rates, relations) is
 * built per resource on first use, from the seed and the resource's index,
 * so a million-resource directory starts in seconds.
 */
// The English locale's own entry: the package's main entry loads every locale (a quarter of a
// second at start). Its instance is only a template: each domain gets a Faker of its own.
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import type { Faker } from '@faker-js/faker';
import { toDay } from './days.ts';
import type {
  Kind,
  Pattern,
  RatePeriod,
  Resource,
  ResourceDetails,
  Role,
  Sector,
  Team,
  TeamAssignation,
  WorkRegime,
} from './model.ts';

export interface Domain {
  seed: number;
  kinds: Kind[];
  roles: Role[];
  teams: Team[];
  workRegimes: WorkRegime[];
  sectors: Sector[];
  relationTypeIds: string[];
  instanceDefaults: { indemnityEnabled: boolean; compensationEnabled: boolean };
  resources: Resource[];
}

/** 19-digit snowflakes, so string order is numeric order. */
export function snowflake(space: number, n: number): string {
  return `${space}${String(n).padStart(18, '0')}`;
}

const KIND_SHARES: Array<{ name: string; share: number; supportsRoles: boolean }> = [
  { name: 'employee', share: 0.7, supportsRoles: true },
  { name: 'integration', share: 0.1, supportsRoles: true },
  { name: 'room', share: 0.1, supportsRoles: false },
  { name: 'vehicle', share: 0.1, supportsRoles: false },
];

const FakerClass = englishFaker.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;

/** A Faker of its own (never the shared instance), English, seeded. */
function seededFaker(seed: number): Faker {
  const faker = new FakerClass({ locale: englishFaker.rawDefinitions });
  faker.seed(seed);
  return faker;
}

/**
 * A small pool of family names, so the sort attribute has ties: keyset
 * pagination must break them by id, and the suite's checks see that.
 */
const FAMILY_NAME_POOL = 40;

export function generateDomain(seed: number, size: number): Domain {
  const faker = seededFaker(seed);
  const kinds: Kind[] = KIND_SHARES.map((k, i) => ({
    id: snowflake(1, i + 1),
    name: k.name,
    supportsRoles: k.supportsRoles,
  }));
  const roles: Role[] = [];
  kinds.forEach((k) => {
    if (!k.supportsRoles) return;
    const id = snowflake(2, roles.length + 1);
    k.definingRoleId = id;
    roles.push({ id, name: k.name, definesKindId: k.id });
  });
  for (const name of ['manager', 'planner', 'hr-admin', 'auditor', 'payroll']) {
    roles.push({
      id: snowflake(2, roles.length + 1),
      name,
      ...(name === 'hr-admin' ? { hiddenFromRestricted: true } : {}),
    });
  }
  const teams: Team[] = Array.from({ length: 10 }, (_, i) => ({
    id: snowflake(3, i + 1),
    name: `${faker.location.city()} ${faker.helpers.arrayElement(['Front desk', 'Kitchen', 'Logistics', 'Care', 'Support', 'Night shift'])}`,
    enabled: i < 8,
  }));
  const workRegimes: WorkRegime[] = [
    {
      id: snowflake(4, 1),
      label: { en: 'Full time', fr: 'Temps plein', de: 'Vollzeit' },
      weekly_worked_hours: 'PT40H',
      weekly_worked_days: 5,
    },
    {
      id: snowflake(4, 2),
      label: { en: 'Part time', fr: 'Temps partiel', de: 'Teilzeit' },
      weekly_worked_hours: 'PT24H',
      weekly_worked_days: 3,
    },
    {
      id: snowflake(4, 3),
      label: { en: 'Weekends', fr: 'Week-ends', de: 'Wochenenden' },
      weekly_worked_hours: 'PT16H30M',
      weekly_worked_days: 2,
    },
  ];
  const sectors: Sector[] = [
    { id: snowflake(5, 1), workRegimeId: cyclic(workRegimes, 0).id },
    { id: snowflake(5, 2), workRegimeId: cyclic(workRegimes, 1).id },
  ];
  const familyNames = Array.from({ length: FAMILY_NAME_POOL }, () => faker.person.lastName());
  const resources: Resource[] = [];
  let index = 0;
  KIND_SHARES.forEach((share, k) => {
    const count = Math.max(k < 2 ? 12 : 6, Math.round(size * share.share));
    const kind = cyclic(kinds, k);
    for (let i = 0; i < count; i++) resources.push(makeResource(faker, kind, index++, familyNames, sectors));
  });
  return {
    seed,
    kinds,
    roles,
    teams,
    workRegimes,
    sectors,
    relationTypeIds: [snowflake(6, 1), snowflake(6, 2)],
    instanceDefaults: { indemnityEnabled: true, compensationEnabled: false },
    resources,
  };
}

/** The item at `i`, counted round from the start again past the end; a list with no items has none. */
function cyclic<T>(items: readonly T[], i: number): T {
  const item = items[i % items.length];
  if (item === undefined) throw new Error(`no item ${i} in a list of ${items.length}`);
  return item;
}

function makeResource(faker: Faker, kind: Kind, index: number, familyNames: string[], sectors: Sector[]): Resource {
  const id = snowflake(7, index + 1);
  const sectorId = cyclic(sectors, index).id;
  if (kind.name === 'employee' || kind.name === 'integration') {
    const first =
      kind.name === 'employee'
        ? faker.person.firstName()
        : faker.helpers.arrayElement(['Payroll', 'Badge', 'HR', 'Planning', 'Access']);
    const last =
      kind.name === 'employee'
        ? cyclic(familyNames, faker.number.int(familyNames.length - 1))
        : `Sync ${faker.string.alphanumeric(4).toUpperCase()}`;
    return {
      id,
      kindId: kind.id,
      index,
      label: `${first} ${last}`,
      shortLabel: `${first[0]}. ${last}`,
      sortLabel: `${last}, ${first}`,
      pictureUrl: `https://pictures.example.invalid/${id}.png`,
      sectorId,
      attributes: {
        first_name: first,
        last_name: last,
        email: `${first}.${last}.${index}@example.invalid`.toLowerCase().replace(/[^a-z0-9.@]/g, ''),
        employee_number: `E${String(index + 1).padStart(7, '0')}`,
      },
    };
  }
  const name =
    kind.name === 'room'
      ? `Room ${faker.location.buildingNumber()}`
      : `${faker.vehicle.manufacturer()} ${faker.vehicle.model()}`;
  return {
    id,
    kindId: kind.id,
    index,
    label: name,
    shortLabel: name.slice(0, 12),
    sortLabel: name,
    pictureUrl: `https://pictures.example.invalid/${id}.png`,
    sectorId,
    attributes: { last_name: name, code: `${kind.name.toUpperCase()}-${index}` },
  };
}

/** The changeable state of one resource, derived from the seed and its index. */
export function generateDetails(domain: Domain, resource: Resource): ResourceDetails {
  const faker = seededFaker(domain.seed * 100_003 + resource.index);
  const kind = domain.kinds.find((k) => k.id === resource.kindId);
  if (kind === undefined) throw new Error(`resource ${resource.id} is of kind ${resource.kindId}, not in the domain`);
  const enabled = domain.teams.filter((t) => t.enabled);
  const pickTeams = (n: number): string[] => faker.helpers.arrayElements(enabled, n).map((t) => t.id);
  const details: ResourceDetails = { roles: [], teams: [], rates: [], relations: [] };

  if (kind.supportsRoles) {
    if (kind.definingRoleId === undefined) throw new Error(`kind ${kind.id} supports roles but no role defines it`);
    details.roles.push({ roleId: kind.definingRoleId, teams: faker.datatype.boolean() ? '*' : pickTeams(3) });
    const others = faker.helpers.shuffle(domain.roles.filter((r) => !r.definesKindId));
    // Every role-supporting resource holds roles on '*' and on an explicit list, so revocation rules find their cases.
    details.roles.push({ roleId: cyclic(others, 0).id, teams: '*' });
    details.roles.push({ roleId: cyclic(others, 1).id, teams: '*' });
    details.roles.push({ roleId: cyclic(others, 2).id, teams: pickTeams(faker.number.int({ min: 2, max: 4 })) });
    if (faker.datatype.boolean()) details.roles.push({ roleId: cyclic(others, 3).id, teams: pickTeams(2) });
  }

  const head = faker.helpers.arrayElement(enabled);
  details.teams.push(assignation(faker, head.id, true, '2019-01-01', '2027-12-31'));
  for (const teamId of pickTeams(faker.number.int({ min: 1, max: 2 })).filter((t) => t !== head.id)) {
    details.teams.push(assignation(faker, teamId, false, '2021-03-01', '2026-08-31'));
  }

  if (kind.supportsRoles) {
    const regime = cyclic(domain.workRegimes, resource.index);
    const first = faker.helpers.arrayElement([60, 80, 100]);
    const second = faker.helpers.arrayElement([50, 70, 90, 100]);
    details.rates.push(rate(domain, regime.id, first, '2018-01-01', '2023-12-31', `C-${resource.id}-1`));
    details.rates.push(rate(domain, regime.id, second, '2024-01-01', '2030-12-31', `C-${resource.id}-2`));
    details.relations.push({
      relation_type_id: cyclic(domain.relationTypeIds, 0),
      related_to: cyclic(domain.resources, resource.index + 1).id,
      related_by: [cyclic(domain.resources, resource.index + 2).id],
    });
  }
  return details;
}

function assignation(faker: Faker, teamId: string, head: boolean, start: string, end: string): TeamAssignation {
  return {
    teamId,
    head,
    span: { start: toDay(start), end: toDay(end) },
    regrouping: faker.helpers.arrayElement(['North', 'South', 'Central']),
    contractNumber: `K-${faker.string.numeric(6)}`,
    externalId: `X-${faker.string.alphanumeric(10)}`,
  };
}

/** `rate` on the first `workedDays` days of the week (Monday first), 0 on the others. */
export function evenPattern(rate: number, workedDays: number): Pattern {
  const day = (i: number): number => (i < workedDays ? rate : 0);
  return {
    monday: day(0),
    tuesday: day(1),
    wednesday: day(2),
    thursday: day(3),
    friday: day(4),
    saturday: day(5),
    sunday: day(6),
  };
}

function rate(
  domain: Domain,
  workRegimeId: string,
  averageRate: number,
  start: string,
  end: string,
  externalId: string,
): RatePeriod {
  const regime = domain.workRegimes.find((w) => w.id === workRegimeId);
  if (regime === undefined) throw new Error(`work regime ${workRegimeId} is not in the domain`);
  return {
    span: { start: toDay(start), end: toDay(end) },
    averageRate,
    patterns: [evenPattern(averageRate, regime.weekly_worked_days)],
    workRegimeId,
    paidHourly: false,
    apprentice: false,
    trainee: false,
    indemnityEnabled: domain.instanceDefaults.indemnityEnabled,
    compensationEnabled: domain.instanceDefaults.compensationEnabled,
    externalId,
  };
}
