import { InputError } from '@shortlink/core';
import { triggerByKey } from '@shortlink/core/operations';
import { operationBench } from './sandbox-run';

const newLink = triggerByKey('trigger.newLink');
const linkClicks = triggerByKey('trigger.linkClicks');
const bench = operationBench();

describe('trigger.newLink', () => {
  test('the first poll starts from now; the next one hands out the links made since, oldest first, as link records', async () => {
    const first = await bench.poll(newLink, {}, undefined);
    expect(first.records).toEqual([]);
    await bench.client.createLink({ targetUrl: 'https://example.org/n1' });
    await bench.client.createLink({ targetUrl: 'https://example.org/n2' });
    const second = await bench.poll(newLink, {}, JSON.parse(JSON.stringify(first.state)));
    expect(second.records.map((record) => record.targetUrl)).toEqual(['https://example.org/n1', 'https://example.org/n2']);
    expect(Object.keys(second.records[0]!)[0]).toBe('shortUrl');
    const third = await bench.poll(newLink, {}, second.state);
    expect(third.records).toEqual([]);
  });

  test('Created Since hands out older links on the first poll; Max Links per Poll caps them', async () => {
    const result = await bench.poll(newLink, { startFrom: 'since', since: '2000-01-01T00:00:00Z', maxLinks: 2 }, undefined);
    expect(result.records).toHaveLength(2);
    expect(result.complete).toBe(false);
  });

  test('bad options are refused by label', async () => {
    await expect(bench.poll(newLink, { maxLinks: '0' }, undefined)).rejects.toThrow(/"Max Links per Poll" must be a whole number from 1 to 10000/);
    await expect(bench.poll(newLink, { startFrom: 'since', since: 'yesterday' }, undefined)).rejects.toThrow(/^Created Since must be a date and time/);
  });
});

describe('trigger.linkClicks', () => {
  test('a milestone reached since the last poll', async () => {
    const link = await bench.client.createLink({ targetUrl: 'https://example.org/clicked', slug: 'clicked' });
    const values = { clicksMode: 'milestones', milestones: '1, 2', clicksScope: 'chosen', linkIds: link.id };
    const first = await bench.poll(linkClicks, values, undefined);
    expect(first.records).toEqual([]);
    await fetch(`${bench.sandbox.baseUrl}/clicked`, { redirect: 'manual' });
    const second = await bench.poll(linkClicks, values, first.state);
    expect(second.records).toEqual([expect.objectContaining({ id: link.id, milestone: 1, clicks: 1, clicksBefore: 0, newClicks: 1 })]);
  });

  test('no milestone, no chosen link, a bad mode: refused by label', async () => {
    await expect(bench.poll(linkClicks, { milestones: '' }, undefined)).rejects.toThrow(/at least one number in "Milestones"/);
    await expect(bench.poll(linkClicks, { clicksMode: 'newClicks', clicksScope: 'chosen' }, undefined)).rejects.toBeInstanceOf(InputError);
    await expect(bench.poll(linkClicks, { clicksMode: 'often' }, undefined)).rejects.toThrow(/"Fire On" must be one of/);
  });
});
