import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../../test/support/webhook-receiver';
import { hostPolicy, isInternalAddress } from './address-policy';
import { httpWebhookSender, signatureOf } from './http-sender';

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
  it('allows, when empty, any host but internal addresses', () => {
    const { allowsHost, allowsAddress } = hostPolicy([]);
    expect(allowsHost('hooks.example.com')).toBe(true);
    expect(allowsHost('93.184.216.34')).toBe(true);
    for (const internal of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '[::1]',
      '[fd00::1]',
      '[fe80::1]',
      '[::ffff:127.0.0.1]',
    ]) {
      expect(allowsHost(internal), internal).toBe(false);
      expect(isInternalAddress(internal), internal).toBe(true);
    }
    expect(allowsAddress('127.0.0.1')).toBe(false);
    expect(allowsAddress('2606:4700::1111')).toBe(true);
  });

  it('allows only the names and subdomains listed, at any address, when some are', () => {
    const { allowsHost, allowsAddress } = hostPolicy([
      'hooks.example.com',
      '*.corp.example',
      '::1',
    ]);
    expect(allowsHost('hooks.example.com')).toBe(true);
    expect(allowsHost('HOOKS.example.com.')).toBe(true);
    expect(allowsHost('a.b.corp.example')).toBe(true);
    expect(allowsHost('[::1]')).toBe(true);
    expect(allowsHost('corp.example')).toBe(false);
    expect(allowsHost('evilcorp.example')).toBe(false);
    expect(allowsHost('hooks.example.com.evil.test')).toBe(false);
    expect(allowsHost('169.254.169.254')).toBe(false);
    expect(allowsAddress('10.0.0.1')).toBe(true);
  });
});

describe('the HTTP sender', () => {
  const receiver = new WebhookReceiver();
  beforeAll(() => receiver.listen());
  afterAll(() => receiver.close());
  const request = (url: string) => ({
    url,
    id: 'msg_1',
    body: '{}',
    secret: `whsec_${Buffer.from('k').toString('base64')}`,
    timeoutMs: 1000,
    signal: new AbortController().signal,
  });

  it('refuses a name that resolves to an internal address, at the connection', async () => {
    const url = receiver.url.replace('127.0.0.1', 'localhost');
    const refused = await httpWebhookSender(hostPolicy([]).allowsAddress).send(request(url));
    expect(refused).toMatchObject({ delivered: false, status: null });
    expect(refused.error).toMatch(
      /^localhost resolves to the internal address (127\.0\.0\.1|::1): list the host in webhooks.allowed_hosts to allow it$/,
    );
    expect(receiver.received).toHaveLength(0);
    const sent = await httpWebhookSender(hostPolicy(['localhost']).allowsAddress).send(
      request(url),
    );
    expect(sent).toMatchObject({ delivered: true, status: 200, error: null });
    expect(receiver.received).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    receiver.answer = () => ({ status: 200, delayMs: 3000 });
    const slow = await httpWebhookSender(() => true).send(request(receiver.url));
    expect(slow).toEqual({
      delivered: false,
      status: null,
      latencyMs: null,
      error: 'no answer within 1 s',
    });
  });
});
