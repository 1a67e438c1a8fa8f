import type { SubmitJobRequest } from '../../../contract';
import { quote } from 'shell-quote';
import { replaceSensitiveValues } from '../../lib/sensitive';

export const REDACTED = '<redacted>';

/** The payload as it may be shown or copied: sensitive values replaced. */
export const redactedPayload = (payload: SubmitJobRequest) =>
  replaceSensitiveValues(payload, REDACTED);

/** A curl command for the payload: the key stays a variable, secrets stay redacted. */
export function curlCommand(payload: SubmitJobRequest, origin: string): string {
  return [
    'curl -X POST',
    quote([`${origin}/v1/client/job`]),
    `-H "Authorization: Bearer $JOBDECK_API_KEY"`,
    `-H 'Content-Type: application/json'`,
    '-d',
    quote([JSON.stringify(redactedPayload(payload))]),
  ].join(' \\\n  ');
}
