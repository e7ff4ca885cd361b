// The contact field rules (the Contact and ContactWrite schemas of schema/openapi.json, and
// docs/decisions/0020-contact-write-rules.md), as pure functions. Every write path (upsert, bulk import, PATCH,
// bulk-update) goes through prepareContactWrite and then applyContactWrite.
import { randomUUID } from 'node:crypto';
import { normalizePhone, phoneDigits } from '../../normalize/phone.js';
import { normalizeLocation, countryOf } from '../../normalize/location.js';
import { canonicalTimezone } from '../../normalize/timezone.js';
import { inferTimezone } from '../../normalize/infer-timezone.js';
import { normalizeLanguage } from '../../normalize/language.js';
import { splitFullName, joinFullName, fillMissingName } from '../../normalize/names.js';
import { buildDedupKey, type DedupKeyResult } from './dedup.rules.js';
import { customFieldsLimitProblem, MergedCustomFieldsOverLimit } from './custom-fields.rules.js';
import type { ContactStatus, ContactWrite, SourceKind } from './contacts.inputs.js';

/** A stored contact row (the Prisma Contact model). */
export interface ContactRow {
  id: string;
  accountId: string;
  firstName: string | null;
  lastName: string | null;
  fullName: string | null;
  phone: string | null;
  location: string | null;
  locationDefaulted: boolean;
  timezone: string | null;
  timezoneInferred: boolean;
  language: string | null;
  status: ContactStatus | null;
  sourceKind: SourceKind;
  externalId: string | null;
  customFields: Record<string, unknown> | null;
  priority: number;
  assignedWorkflowId: string | null;
  callCount: number;
  maxAttempts: number | null;
  lastCallAt: Date | null;
  nextCallAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  dedupKey: string;
  phoneDigits: string | null;
}

/** What the rules need to know about the Account. */
export interface AccountRules {
  id: string;
  defaultLocation: string | null;
  dedupFields: string[];
}

/**
 * A validated write with every value that does not depend on the stored contact already
 * normalized. JSON-safe, so a bulk import can be stored as-is in its durable batch.
 * A key is present only when the field was sent.
 */
export interface PreparedWrite {
  firstName?: string | null;
  lastName?: string | null;
  fullName?: string | null;
  /** E.164, or null to clear. */
  phone?: string | null;
  /** ISO code; null when sent as null, empty or unreadable (all three take the Account's default). */
  location?: string | null;
  /** A known IANA zone, or null to clear (then the zone is inferred). An unknown zone counts as not sent. */
  timezone?: string | null;
  /** One of the nine locales, or null. An unreadable value counts as not sent. */
  language?: string | null;
  status?: ContactStatus | null;
  sourceKind?: SourceKind;
  externalId?: string | null;
  customFields?: Record<string, unknown> | null;
  priority?: number;
  /** ISO string; honoured only when the write creates the contact. */
  createdAt?: string;
  /** The id a created contact gets (fixed here so its own-id external ID can key it). */
  newId: string;
  /** The dedup key this write matches on. */
  dedup: DedupKeyResult;
}

export type PrepareResult =
  | { ok: true; write: PreparedWrite }
  | { ok: false; reason: 'invalid_phone' | 'missing_dedup_field' | 'dedup_key_too_long' };

/** How a write treats an existing contact: import/upsert merges; PATCH and bulk-update set. */
export type WriteMode = 'import' | 'patch' | 'bulk-update';

const has = <T extends object>(obj: T, key: keyof T): boolean => Object.hasOwn(obj, key) && obj[key] !== undefined;

/**
 * Normalizes a parsed write. The phone's default country comes from the location sent with
 * it, else the Account's default location (a stored contact's location is not known yet:
 * the phone decides which contact is meant).
 */
export function prepareContactWrite(
  write: ContactWrite,
  account: AccountRules,
  options: { keyFields?: readonly string[] | null } = {},
): PrepareResult {
  const out: PreparedWrite = { newId: randomUUID(), dedup: { ok: false, reason: 'missing_dedup_field' } };
  for (const key of ['firstName', 'lastName', 'fullName', 'status', 'sourceKind', 'priority'] as const) {
    if (has(write, key)) (out as unknown as Record<string, unknown>)[key] = write[key];
  }
  // Trailing spaces never distinguish external IDs (lookups ignore them too).
  if (has(write, 'externalId')) out.externalId = write.externalId?.replace(/ +$/, '') || null;
  if (has(write, 'location'))
    out.location = write.location
      ? normalizeLocation(write.location, account.defaultLocation ? countryOf(account.defaultLocation) : null)
      : null;
  if (has(write, 'phone')) {
    const phone = write.phone ?? '';
    if (phone.trim() === '') out.phone = null;
    else {
      const locationForCountry = out.location ?? account.defaultLocation;
      const parsed = normalizePhone(phone, locationForCountry ? countryOf(locationForCountry) : null);
      if (!parsed.ok) return { ok: false, reason: 'invalid_phone' };
      out.phone = parsed.e164;
    }
  }
  if (has(write, 'timezone')) {
    if (write.timezone === null || write.timezone === undefined) out.timezone = null;
    else {
      const zone = canonicalTimezone(write.timezone);
      if (zone) out.timezone = zone;
    }
  }
  if (has(write, 'language')) {
    if (write.language === null || write.language === undefined) out.language = null;
    else {
      const locale = normalizeLanguage(write.language);
      if (locale) out.language = locale;
    }
  }
  if (has(write, 'customFields')) out.customFields = write.customFields ?? null;
  if (write.createdAt) out.createdAt = write.createdAt.toISOString();

  // keyFields null: the write targets a known contact (PATCH, bulk-update), whose key is
  // rebuilt from the resulting row instead.
  if (options.keyFields === null) {
    out.dedup = { ok: true, key: '' };
    return { ok: true, write: out };
  }
  out.dedup = buildDedupKey(options.keyFields ?? account.dedupFields, {
    phone: out.phone,
    sourceKind: out.sourceKind ?? 'api',
    // externalId null (or omitted) gives a new contact its own id as external ID.
    externalId: out.externalId ?? out.newId,
    customFields: out.customFields,
  });
  if (!out.dedup.ok) return { ok: false, reason: out.dedup.reason };
  return { ok: true, write: out };
}

export interface ApplyOptions {
  account: AccountRules;
  mode: WriteMode;
  /** True when the resulting phone is on the Account's block list. */
  phoneBlocked: boolean;
  now: Date;
}

/** Applies a prepared write to the stored contact (or to nothing: a new contact). */
export function applyContactWrite(stored: ContactRow | null, write: PreparedWrite, options: ApplyOptions): ContactRow {
  const { account, mode, now } = options;
  const isNew = stored === null;
  const base: ContactRow = stored ?? {
    id: write.newId,
    accountId: account.id,
    firstName: null,
    lastName: null,
    fullName: null,
    phone: null,
    location: null,
    locationDefaulted: false,
    timezone: null,
    timezoneInferred: false,
    language: null,
    status: null,
    sourceKind: write.sourceKind ?? 'api',
    externalId: null,
    customFields: null,
    priority: 0,
    assignedWorkflowId: null,
    callCount: 0,
    maxAttempts: null,
    lastCallAt: null,
    nextCallAt: null,
    createdAt: write.createdAt ? new Date(write.createdAt) : now,
    updatedAt: now,
    dedupKey: '',
    phoneDigits: null,
  };
  const next: ContactRow = { ...base, updatedAt: now };

  applyNames(next, write, isNew);

  if (has(write, 'phone')) next.phone = write.phone ?? null;
  next.phoneDigits = next.phone ? phoneDigits(next.phone) : null;

  applyLocation(next, write, stored, account);
  applyTimezone(next, write, stored);

  if (has(write, 'language')) {
    // An import matching an existing contact sets the language only when it has none.
    const setsLanguage = isNew || mode !== 'import' || next.language === null;
    if (setsLanguage) next.language = write.language ?? (mode === 'import' ? next.language : null);
  }

  next.status = nextStatus(stored, write, options);

  if (write.sourceKind !== undefined) next.sourceKind = write.sourceKind;
  if (write.externalId) next.externalId = write.externalId;
  else if (isNew) next.externalId = next.id;
  // externalId null on an existing contact keeps the stored external ID.

  if (has(write, 'customFields'))
    next.customFields = mergeCustomFields(next.customFields, write.customFields ?? null, mode);
  if (write.priority !== undefined) next.priority = write.priority;
  return next;
}

function applyNames(next: ContactRow, write: PreparedWrite, isNew: boolean): void {
  const sentFirst = has(write, 'firstName');
  const sentLast = has(write, 'lastName');
  if (sentFirst) next.firstName = emptyToNull(write.firstName);
  if (sentLast) next.lastName = emptyToNull(write.lastName);
  const fullName = has(write, 'fullName') ? emptyToNull(write.fullName) : undefined;
  if (fullName) {
    if (!sentFirst && !sentLast) {
      // Sent alone: split into first and last, dropping titles, middle names and suffixes.
      Object.assign(next, splitFullName(fullName));
    } else if (sentFirst !== sentLast || (sentFirst && !next.firstName) || (sentLast && !next.lastName)) {
      // Sent with only one of them: it fills the other.
      const filled = fillMissingName(fullName, { firstName: next.firstName, lastName: next.lastName });
      if (!next.firstName) next.firstName = filled.firstName;
      if (!next.lastName) next.lastName = filled.lastName;
    }
    next.fullName = fullName;
  } else if (fullName === null || sentFirst || sentLast || isNew) {
    // No full name sent (or sent empty): built from the resulting first and last names.
    next.fullName = joinFullName(next.firstName, next.lastName);
  }
}

function applyLocation(next: ContactRow, write: PreparedWrite, stored: ContactRow | null, account: AccountRules): void {
  let given: string | null;
  if (has(write, 'location')) given = write.location ?? null;
  else if (stored && !stored.locationDefaulted) given = stored.location;
  else given = null;
  // A contact without a location of its own follows the Account's current default.
  if (given) {
    next.location = given;
    next.locationDefaulted = false;
  } else {
    next.location = account.defaultLocation ?? null;
    next.locationDefaulted = next.location !== null;
  }
}

function applyTimezone(next: ContactRow, write: PreparedWrite, stored: ContactRow | null): void {
  if (has(write, 'timezone') && write.timezone) {
    next.timezone = write.timezone;
    next.timezoneInferred = false;
    return;
  }
  const keepsExplicit =
    !has(write, 'timezone') && stored !== null && stored.timezone !== null && !stored.timezoneInferred;
  if (keepsExplicit) return;
  // Inferred again on every write, from the resulting location and phone.
  next.timezone = inferTimezone(next.location, next.phone);
  next.timezoneInferred = next.timezone !== null;
}

function nextStatus(stored: ContactRow | null, write: PreparedWrite, options: ApplyOptions): ContactStatus | null {
  if (options.phoneBlocked) return 'dnc';
  if (stored === null) return has(write, 'status') ? (write.status ?? null) : 'not_assigned';
  // An existing contact keeps its status when status is omitted or null.
  return write.status ?? stored.status;
}

/**
 * Merges custom fields: keys sent replace, keys not sent keep their value, a key sent as
 * null is removed. `customFields: null` changes nothing on import and removes every custom
 * field on PATCH and bulk-update. Throws MergedCustomFieldsOverLimit when the result would
 * pass the limits of custom-fields.rules.ts.
 */
export function mergeCustomFields(
  stored: Record<string, unknown> | null,
  sent: Record<string, unknown> | null,
  mode: WriteMode,
): Record<string, unknown> | null {
  if (sent === null) return mode === 'import' ? stored : null;
  const merged: Record<string, unknown> = { ...(stored ?? {}) };
  for (const [key, value] of Object.entries(sent)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  // What was sent was checked against the limits; only keys kept from the stored object can pass them.
  if (stored !== null && Object.keys(stored).some((key) => !Object.hasOwn(sent, key))) {
    const problem = customFieldsLimitProblem(merged);
    if (problem) throw new MergedCustomFieldsOverLimit(problem);
  }
  return merged;
}

function emptyToNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** The response fields of a contact, in the order the API lists them (the OpenAPI Contact schema, error bodies, CSV). */
export const CONTACT_RESPONSE_FIELDS = [
  'id',
  'accountId',
  'firstName',
  'lastName',
  'fullName',
  'phone',
  'location',
  'locationDefaulted',
  'timezone',
  'timezoneInferred',
  'language',
  'status',
  'sourceKind',
  'externalId',
  'customFields',
  'priority',
  'assignedWorkflowId',
  'callCount',
  'maxAttempts',
  'lastCallAt',
  'nextCallAt',
  'createdAt',
  'updatedAt',
] as const;

/** A stored row as the API shows it: only the response fields, timestamps as ISO strings. */
export function toContactResponse(row: ContactRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of CONTACT_RESPONSE_FIELDS) {
    const value = row[field];
    out[field] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}
