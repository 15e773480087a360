/**
 * The link record every host shows: the twelve fields of a link (spec §3), the short URL first because it
 * is what people copy. Found, created or read, a link gives the same record, so a rerun gives the shape of
 * the first run.
 */
import type { Link } from '../types';
import type { OperationRecord } from './operation';

export const LINK_RECORD_FIELDS = [
  'shortUrl',
  'id',
  'targetUrl',
  'title',
  'slug',
  'domain',
  'clicks',
  'active',
  'blocked',
  'hasPassword',
  'expiresAt',
  'createdAt',
] as const;

export function linkRecord(link: Link): OperationRecord {
  const record: OperationRecord = {};
  for (const key of LINK_RECORD_FIELDS) record[key] = link[key] ?? null;
  return record;
}
