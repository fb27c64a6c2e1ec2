/** fast-check generators for the spec's types: valid ones beside the invalid ones. */
export { snowflake, type SnowflakeConstraints } from './snowflake.ts';
export { localDate, type LocalDateConstraints } from './localDate.ts';
export { impossibleLocalDate } from './impossibleLocalDate.ts';
export { malformedLocalDate } from './malformedLocalDate.ts';
export { dateRange, type DateRangeConstraints } from './dateRange.ts';
export { reversedDateRange } from './reversedDateRange.ts';
export { malformedDateRange } from './malformedDateRange.ts';
export { teamList, type TeamListConstraints } from './teamList.ts';
export { invalidTeamList, invalidTeamListsOfEachKind } from './invalidTeamList.ts';
export {
  activityRatePattern,
  activityRatePatterns,
  type ActivityRatePatternConstraints,
  type Pattern,
} from './activityRatePattern.ts';
export { paginationLimit, invalidPaginationLimit, type PaginationLimitConstraints } from './paginationLimit.ts';
export { listQuery, listQueryChange, type ListQuery, type ListQueryConstraints } from './listQuery.ts';
export { tamperedToken } from './tamperedToken.ts';
export {
  coveringArray,
  type CoveringArray,
  type CoveringArrayConstraints,
  type CoveringFactor,
  type Interaction,
} from './coveringArray.ts';
