/**
 * What a click records, without cookies: country, device class, browser and referrer host,
 * read from the request headers only.
 */
import Bowser from 'bowser';

/** Lower-case header names, as Node gives them. */
export type ClickHeaders = Record<string, string | string[] | undefined>;

function header(headers: ClickHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const DEVICE_CLASSES = new Set(['desktop', 'mobile', 'tablet', 'bot']);

/**
 * CF-IPCountry when present (XX = unknown and T1 = Tor are not countries), else the region of the
 * first Accept-Language tag that has one (de-CH → CH), else 'unknown'.
 */
export function countryOf(headers: ClickHeaders): string {
  const cf = header(headers, 'cf-ipcountry')?.trim().toUpperCase();
  if (cf && /^[A-Z]{2}$/.test(cf) && cf !== 'XX' && cf !== 'T1') return cf;
  for (const part of (header(headers, 'accept-language') ?? '').split(',')) {
    const tag = part.split(';')[0].trim();
    // language[-script]-REGION, e.g. de-DE, zh-Hant-TW; numeric regions (es-419) are not countries.
    const region = tag.split('-').slice(1).find((subtag) => /^[A-Za-z]{2}$/.test(subtag));
    if (region) return region.toUpperCase();
  }
  return 'unknown';
}

export function deviceAndBrowserOf(headers: ClickHeaders): { device: string; browser: string } {
  const userAgent = header(headers, 'user-agent')?.trim();
  if (!userAgent) return { device: 'unknown', browser: 'unknown' };
  const parsed = Bowser.parse(userAgent);
  const platform = parsed.platform.type ?? '';
  return {
    device: DEVICE_CLASSES.has(platform) ? platform : 'unknown',
    browser: parsed.browser.name || 'unknown',
  };
}

/**
 * The header a test sends to say "this visit is a scan of a printed QR code": the service labels such
 * visits in its referrer list (spec §2, topReferrers: "a label for direct/QR visits"); phones send no
 * Referer, so the sandbox needs to be told.
 */
export const SCAN_HEADER = 'x-sandbox-scan';
/** The referrer label of a QR scan. */
export const QR_REFERRER = 'qr';

/** The referrer's hostname, 'direct' without a referrer, 'unknown' when it is not a URL, 'qr' for a scan. */
export function referrerOf(headers: ClickHeaders): string {
  if (header(headers, SCAN_HEADER) !== undefined) return QR_REFERRER;
  const referer = header(headers, 'referer')?.trim();
  if (!referer) return 'direct';
  try {
    return new URL(referer).hostname.toLowerCase() || 'unknown';
  } catch {
    return 'unknown';
  }
}

export function describeClick(headers: ClickHeaders): { country: string; device: string; browser: string; referrer: string } {
  return { country: countryOf(headers), ...deviceAndBrowserOf(headers), referrer: referrerOf(headers) };
}
