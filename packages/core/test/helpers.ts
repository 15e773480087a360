/** Shared fixtures for the core tests: a fake clock whose sleep advances time instantly. */
import type { Link, LinkCreated } from '../src/types';

export const BASE_URL = 'https://short.example.com';
export const API = `${BASE_URL}/api/v1`;
export const API_KEY = 'sk_live_TEST_SECRET_KEY_0123456789';

export interface FakeClock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Every sleep requested, in order. */
  sleeps: number[];
  advance(ms: number): void;
}

export function fakeClock(start = Date.parse('2026-03-01T09:30:00.000Z')): FakeClock {
  let current = start;
  const sleeps: number[] = [];
  return {
    now: () => current,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      current += ms;
    },
    sleeps,
    advance(ms: number) {
      current += ms;
    },
  };
}

export function link(overrides: Partial<Link> = {}): Link {
  return {
    id: '1042',
    slug: 'spring-sale',
    shortUrl: 'https://sho.rt/spring-sale',
    targetUrl: 'https://example.org/spring-sale',
    title: 'Spring sale',
    domain: null,
    active: true,
    blocked: false,
    hasPassword: false,
    clicks: 0,
    expiresAt: null,
    createdAt: '2026-03-01T09:30:00.000Z',
    ...overrides,
  };
}

export function created(overrides: Partial<LinkCreated> = {}): LinkCreated {
  const { blocked: _b, hasPassword: _h, expiresAt: _e, ...nine } = link(overrides as Partial<Link>);
  return nine;
}

export const RATE_HEADERS = { 'RateLimit-Limit': '120', 'RateLimit-Remaining': '119', 'RateLimit-Reset': '60' };

export function problem(status: number, title: string, detail: string, extra: Record<string, unknown> = {}) {
  return { type: `https://shortlink.example/docs/api/errors#${title.toLowerCase().replace(/\s+/g, '-')}`, title, status, detail, ...extra };
}
