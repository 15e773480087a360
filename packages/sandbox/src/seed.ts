/** The demo data of a fresh sandbox: a business account, a verified custom domain, links with clicks. */
import type { Store } from './store';

export const DEMO_ACCOUNT = { name: 'Demo Business', email: 'demo@example.com', plan: 'business' } as const;
export const DEMO_DOMAIN = 'go.example.org';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The seeded clicks cover the last four weeks (28 days, today included). */
export const SEEDED_CLICK_DAYS = 28;

// A spread of visitors so that every statistic has something to show.
const VISITORS = [
  { country: 'DE', device: 'desktop', browser: 'Chrome', referrer: 'www.google.com' },
  { country: 'DE', device: 'mobile', browser: 'Safari', referrer: 'direct' },
  { country: 'US', device: 'desktop', browser: 'Firefox', referrer: 'news.ycombinator.com' },
  { country: 'FR', device: 'tablet', browser: 'Safari', referrer: 'direct' },
  { country: 'unknown', device: 'bot', browser: 'Googlebot', referrer: 'direct' },
];

/** Creates the demo account and its data; returns the account id and its (only) key. */
export function seedDemo(store: Store, now: () => number, demoApiKey?: string): { accountId: string; apiKey: string } {
  const { account, apiKey } = store.createAccount(DEMO_ACCOUNT, demoApiKey);
  store.state.demoAccountId = account.id;
  store.addDomain(account.id, DEMO_DOMAIN, true);
  const links = [
    store.createLink(account.id, { targetUrl: 'https://example.org/spring-sale?utm_source=newsletter', slug: 'spring-sale', title: 'Spring sale' }),
    store.createLink(account.id, { targetUrl: 'https://example.org/docs/getting-started', slug: 'docs', title: 'Getting started', domain: DEMO_DOMAIN }),
    store.createLink(account.id, { targetUrl: 'https://example.org/pricing', title: 'Pricing' }),
  ];
  // Clicks on every one of the last four weeks (0 to 2 a day, some days none), so that "last week's report" and
  // the daily figures have something to show whatever the weekday of the first start.
  const today = now();
  links.forEach((link, index) => {
    let visitor = index;
    for (let day = 0; day < SEEDED_CLICK_DAYS; day++) {
      const clicks = (day + index) % 3;
      for (let i = 0; i < clicks; i++) {
        // In the small hours of that UTC day (today's never after now): each seeded day is one date, at any time of day.
        const dayStart = Math.floor((today - day * DAY_MS) / DAY_MS) * DAY_MS;
        const at = Math.min(dayStart + (i + 1) * HOUR_MS, today);
        store.recordClick({ linkId: link.id, at: new Date(at).toISOString(), ...VISITORS[visitor++ % VISITORS.length]! });
      }
    }
  });
  return { accountId: account.id, apiKey };
}
