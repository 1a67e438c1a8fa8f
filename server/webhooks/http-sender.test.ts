import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { hostPolicy } from './events';
import { signatureOf } from './http-sender';

describe('the webhook signature', () => {
  it('is what the Standard Webhooks reference library verifies', () => {
    const secret = `whsec_${Buffer.from('a-key-of-twenty-four-by').toString('base64')}`;
    const body = JSON.stringify({ type: 'job.failed', data: { note: 'ünïcode ✓' } });
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureOf(secret, 'msg_1', timestamp, body),
    };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_2' })).toThrow();
  });
});

describe('allowed_hosts', () => {
  it('allows any host when empty, else only the names and subdomains listed', () => {
    expect(hostPolicy([])('169.254.169.254')).toBe(true);
    const allows = hostPolicy(['hooks.example.com', '*.corp.example', '127.0.0.1']);
    expect(allows('hooks.example.com')).toBe(true);
    expect(allows('HOOKS.example.com')).toBe(true);
    expect(allows('a.b.corp.example')).toBe(true);
    expect(allows('127.0.0.1')).toBe(true);
    expect(allows('corp.example')).toBe(false);
    expect(allows('evilcorp.example')).toBe(false);
    expect(allows('hooks.example.com.evil.test')).toBe(false);
    expect(allows('169.254.169.254')).toBe(false);
  });
});
