import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  auditOperations,
  auditPageSchema,
  successEnvelope,
  type AuditAction,
} from '../../contract';
import { requestOperation } from './client';
import { auditKeys } from './keys';

/** What the audit page filters by; each one left out matches every event. */
export interface AuditFilter {
  action?: AuditAction;
  actor?: string;
  /** RFC 3339: events at or after. */
  since?: string;
  /** RFC 3339: events before. */
  until?: string;
  /** A page's next_cursor: older events than that page's. */
  cursor?: string;
}

export const AUDIT_PAGE_SIZE = 50;

function auditSearch(filter: AuditFilter): URLSearchParams {
  const params = new URLSearchParams({ limit: String(AUDIT_PAGE_SIZE) });
  for (const [name, value] of Object.entries(filter)) {
    if (typeof value === 'string' && value !== '') params.set(name, value);
  }
  return params;
}

/**
 * A page of the project's audit trail, newest first (extension, admins only). The page shown
 * stays while the next filter's or page's answer is under way.
 */
export const auditQuery = (filter: AuditFilter) =>
  queryOptions({
    queryKey: auditKeys.list(filter),
    queryFn: async () =>
      (
        await requestOperation(auditOperations.listAuditEvents, successEnvelope(auditPageSchema), {
          query: auditSearch(filter),
        })
      ).data,
    placeholderData: keepPreviousData,
    retry: false,
  });
