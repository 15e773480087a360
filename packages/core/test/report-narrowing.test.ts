/** A report refused for its size says how to narrow it in the words of the selection the user made. */
import { narrowingAdvice } from '../src/operations/reports/collect-report';

test('All Links is told to pick a campaign, a domain, a date range or links, not to add a Source to a campaign it has none of', () => {
  const advice = narrowingAdvice({ kind: 'all' });
  expect(advice).not.toMatch(/Source or Medium/);
  expect(advice).toMatch(/one campaign.*domain.*date range.*choose the links/);
});

test('each other selection gets its own way to narrow', () => {
  expect(narrowingAdvice({ kind: 'campaign', campaign: 'spring' })).toMatch(/add a Source or Medium to the campaign/);
  expect(narrowingAdvice({ kind: 'created', range: { from: '2026-01-01', to: '2026-01-31' } as never })).toMatch(/shorter "Created" range/);
  expect(narrowingAdvice({ kind: 'chosen', links: ['1'] })).toBe('Narrow it: choose fewer links.');
  expect(narrowingAdvice({ kind: 'domain', domain: null })).not.toMatch(/Source or Medium/);
});
