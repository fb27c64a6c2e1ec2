import type { ActivityRatePeriod } from '../../src/schemas/index.ts';

/** An activity-rate period with only its range and rate of interest; the rest fixed. */
export function ratePeriod(range: string, rate: number): ActivityRatePeriod {
  return {
    average_rate: rate,
    date_range: range,
    activity_rate_patterns: [],
    work_regime: { id: '1', label: { en: '', fr: '', de: '' }, weekly_worked_hours: 'PT40H', weekly_worked_days: 5 },
    paid_hourly: false,
    apprentice: false,
    trainee: false,
    indemnity_enabled: true,
    compensation_enabled: false,
  };
}
