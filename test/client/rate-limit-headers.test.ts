import { describe, expect, test } from 'vitest';
import { parseRetryAfter, readRateLimitHeaders } from '../../src/client/rate-limit-headers.ts';

const NOW = Date.parse('2026-06-25T12:00:00Z');

describe('Retry-After', () => {
  test('seconds, fractions of a second and HTTP dates', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter('0.25', NOW)).toBe(250);
    expect(parseRetryAfter('Thu, 25 Jun 2026 12:00:05 GMT', NOW)).toBe(5000);
    expect(parseRetryAfter('Thu, 25 Jun 2026 11:00:00 GMT', NOW)).toBe(0);
  });

  test('absent or unreadable is undefined', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-1', NOW)).toBeUndefined();
  });
});

describe('rate-limit headers', () => {
  test('the structured form of the IETF draft: RateLimit and RateLimit-Policy', () => {
    expect(
      readRateLimitHeaders({ ratelimit: '"default";r=50;t=30', 'ratelimit-policy': '"default";q=100;w=60' }, NOW),
    ).toEqual({ remaining: 50, resetSeconds: 30, limit: 100, sustainedPerSecond: 100 / 60 });
  });

  test('with several policies the tightest remaining binds and the slowest rate is kept', () => {
    const hint = readRateLimitHeaders(
      {
        ratelimit: '"burst";r=80;t=1, "day";r=7;t=3600',
        'ratelimit-policy': '"burst";q=100;w=1, "day";q=1000;w=86400',
      },
      NOW,
    );
    expect(hint.remaining).toBe(7);
    expect(hint.resetSeconds).toBe(3600);
    expect(hint.limit).toBe(1000);
    expect(hint.sustainedPerSecond).toBeCloseTo(1000 / 86400);
  });

  test('the draft-07 form: RateLimit: limit=, remaining=, reset= and a numeric policy', () => {
    expect(
      readRateLimitHeaders({ ratelimit: 'limit=100, remaining=4, reset=12', 'ratelimit-policy': '100;w=60' }, NOW),
    ).toEqual({ remaining: 4, limit: 100, resetSeconds: 12, sustainedPerSecond: 100 / 60 });
  });

  test('the older separate fields: RateLimit-Limit, -Remaining, -Reset', () => {
    expect(
      readRateLimitHeaders(
        { 'ratelimit-limit': '500, 500;w=125', 'ratelimit-remaining': '20', 'ratelimit-reset': '5' },
        NOW,
      ),
    ).toEqual({ remaining: 20, limit: 500, resetSeconds: 5 });
  });

  test('X-RateLimit-*: a reset in seconds from now, or a Unix time in seconds or milliseconds', () => {
    const base = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' };
    expect(readRateLimitHeaders({ ...base, 'x-ratelimit-reset': '30' }, NOW).resetSeconds).toBe(30);
    expect(readRateLimitHeaders({ ...base, 'x-ratelimit-reset': String(NOW / 1000 + 45) }, NOW).resetSeconds).toBe(45);
    expect(readRateLimitHeaders({ ...base, 'x-ratelimit-reset': String(NOW + 2000) }, NOW).resetSeconds).toBe(2);
    expect(readRateLimitHeaders(base, NOW)).toEqual({ remaining: 0, limit: 60 });
  });

  test('Retry-After travels with the rest', () => {
    expect(readRateLimitHeaders({ 'retry-after': '1', 'x-ratelimit-remaining': '0' }, NOW)).toEqual({
      retryAfterMs: 1000,
      remaining: 0,
    });
  });

  test('nothing, or nonsense, says nothing', () => {
    expect(readRateLimitHeaders({}, NOW)).toEqual({});
    expect(
      readRateLimitHeaders(
        { ratelimit: 'lots', 'ratelimit-policy': 'q=;w=', 'x-ratelimit-remaining': 'many', 'retry-after': 'later' },
        NOW,
      ),
    ).toEqual({});
  });
});
