import { countryOf, deviceAndBrowserOf, referrerOf } from '../src/click-parsing';
import { computeStats } from '../src/stats';

test('country: CF-IPCountry first, then the Accept-Language region, else unknown', () => {
  expect(countryOf({ 'cf-ipcountry': 'ch', 'accept-language': 'de-DE' })).toBe('CH');
  expect(countryOf({ 'cf-ipcountry': 'XX', 'accept-language': 'de-AT,de;q=0.9' })).toBe('AT');
  expect(countryOf({ 'cf-ipcountry': 'T1' })).toBe('unknown');
  expect(countryOf({ 'accept-language': 'zh-Hant-TW,zh;q=0.8' })).toBe('TW');
  expect(countryOf({ 'accept-language': 'en, fr-FR;q=0.5' })).toBe('FR');
  expect(countryOf({ 'accept-language': 'es-419' })).toBe('unknown');
  expect(countryOf({})).toBe('unknown');
});

test('device class and browser from the User-Agent', () => {
  expect(deviceAndBrowserOf({ 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15' })).toEqual({ device: 'desktop', browser: 'Safari' });
  expect(deviceAndBrowserOf({ 'user-agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36' })).toEqual({ device: 'mobile', browser: 'Chrome' });
  expect(deviceAndBrowserOf({ 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }).device).toBe('bot');
  expect(deviceAndBrowserOf({})).toEqual({ device: 'unknown', browser: 'unknown' });
});

test('referrer hostname, direct without one, unknown when unreadable', () => {
  expect(referrerOf({ referer: 'https://News.ycombinator.com/item?id=1' })).toBe('news.ycombinator.com');
  expect(referrerOf({})).toBe('direct');
  expect(referrerOf({ referer: 'not a url' })).toBe('unknown');
  // A scan of a printed QR code (the test's header): the service's label for QR visits, whatever the Referer.
  expect(referrerOf({ 'x-sandbox-scan': '1', referer: 'https://example.org/' })).toBe('qr');
});

test('stats: days ascending, top lists by clicks then label', () => {
  const click = (at: string, country: string) => ({ linkId: '1', at, country, device: 'desktop', browser: 'Chrome', referrer: 'direct' });
  const stats = computeStats('1', [click('2026-03-02T01:00:00.000Z', 'US'), click('2026-03-01T23:59:59.999Z', 'DE'), click('2026-03-02T05:00:00.000Z', 'AT'), click('2026-03-03T00:00:00.000Z', 'US')]);
  expect(stats.clicksByDay).toEqual([
    { date: '2026-03-01', clicks: 1 },
    { date: '2026-03-02', clicks: 2 },
    { date: '2026-03-03', clicks: 1 },
  ]);
  expect(stats.topCountries).toEqual([
    { label: 'US', clicks: 2 },
    { label: 'AT', clicks: 1 },
    { label: 'DE', clicks: 1 },
  ]);
});
