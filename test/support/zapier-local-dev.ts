/**
 * Every test's sandbox runs on loopback; the Zapier app accepts a Base URL on this machine only behind its
 * local-development switch (packages/zapier/src/baseUrl.ts). Child processes (the zip's handler) inherit it.
 * The Zapier tests that check the refusal unset it themselves.
 */
process.env.SHORTLINK_ZAPIER_LOCAL_DEV = 'true';
