import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver } from '../../test/support/webhook-receiver';
import { hostPolicy, internalAddressReason, isInternalAddress } from './address-policy';
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
    const { refusesHost, refusesAddress } = hostPolicy([]);
    expect(refusesHost('hooks.example.com')).toBeUndefined();
    expect(refusesHost('93.184.216.34')).toBeUndefined();
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
      expect(refusesHost(internal), internal).toMatch(
        /^host ".*" is an? .*: list the host in webhooks.allowed_hosts to allow it$/,
      );
      expect(isInternalAddress(internal), internal).toBe(true);
    }
    expect(refusesAddress('127.0.0.1')).toBe(
      'a loopback address: list the host in webhooks.allowed_hosts to allow it',
    );
    expect(refusesAddress('2606:4700::1111')).toBeUndefined();
  });

  it('judges an IPv4 address carried in an IPv6 one as that IPv4 address', () => {
    const refused: [string, string][] = [
      ['::127.0.0.1', 'an IPv4-compatible address (deprecated) of 127.0.0.1'],
      ['::8.8.8.8', 'an IPv4-compatible address (deprecated) of 8.8.8.8'],
      ['::ffff:10.0.0.1', 'an IPv4-mapped address of 10.0.0.1, a private address'],
      ['::ffff:0:127.0.0.1', 'an IPv4-translated address of 127.0.0.1, a loopback address'],
      [
        '64:ff9b::a9fe:a9fe',
        'a NAT64 address of 169.254.169.254, a link-local address (where cloud metadata answers)',
      ],
      ['64:ff9b:1::808:808', 'a local-use NAT64 address'],
      ['2002:7f00:1::1', 'a 6to4 address of 127.0.0.1, a loopback address'],
      ['2002:a9fe:a9fe::', 'a 6to4 address of 169.254.169.254, a link-local address'],
      // Teredo's client address is stored with every bit flipped: 0x80ffffff is 127.0.0.0.
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'a Teredo address of 127.0.0.1, a loopback address'],
      ['2001:0:a00:1::', 'a Teredo address of 10.0.0.1, a private address'],
      ['fec0::1', 'a site-local address'],
      ['fc00::1', 'a unique-local address'],
      ['fe80::1', 'a link-local address'],
      ['ff02::1', 'a multicast address'],
      ['::', 'the unspecified address'],
      ['2001:db8::1', 'a special-purpose or documentation address'],
      ['192.0.2.1', 'a reserved or documentation address'],
      ['255.255.255.255', 'the broadcast address'],
    ];
    for (const [address, why] of refused) {
      expect(internalAddressReason(address), address).toContain(why);
      expect(internalAddressReason(`[${address}]`), address).toContain(why);
    }
    for (const outside of [
      '::ffff:8.8.8.8',
      '::ffff:0:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
      '2606:4700:4700::1111',
      '8.8.8.8',
    ]) {
      expect(internalAddressReason(outside), outside).toBeUndefined();
    }
  });

  it("is the same rule for a URL's host and for a name's DNS answer", () => {
    const { refusesHost, refusesAddress } = hostPolicy([]);
    for (const url of [
      'http://[::127.0.0.1]/',
      'http://[::ffff:0:127.0.0.1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:7f00:1::1]/',
      'http://[fec0::1]/',
    ]) {
      const { hostname } = new URL(url);
      expect(refusesHost(hostname), url).toBe(
        `host "${hostname}" is ${refusesAddress(hostname.slice(1, -1))}`,
      );
    }
  });

  it('allows only the names and subdomains listed, at any address, when some are', () => {
    const { refusesHost, refusesAddress } = hostPolicy([
      'hooks.example.com',
      '*.corp.example',
      '::1',
    ]);
    const allows = (host: string) => refusesHost(host) === undefined;
    expect(allows('hooks.example.com')).toBe(true);
    expect(allows('HOOKS.example.com.')).toBe(true);
    expect(allows('a.b.corp.example')).toBe(true);
    expect(allows('[::1]')).toBe(true);
    expect(allows('corp.example')).toBe(false);
    expect(allows('evilcorp.example')).toBe(false);
    expect(allows('hooks.example.com.evil.test')).toBe(false);
    expect(refusesHost('169.254.169.254')).toBe(
      'host "169.254.169.254" is not in the service\'s webhooks.allowed_hosts',
    );
    expect(refusesAddress('10.0.0.1')).toBeUndefined();
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
    const refused = await httpWebhookSender(hostPolicy([]).refusesAddress).send(request(url));
    expect(refused).toMatchObject({ delivered: false, status: null });
    expect(refused.error).toMatch(
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback address: list the host in webhooks.allowed_hosts to allow it$/,
    );
    expect(receiver.received).toHaveLength(0);
    const sent = await httpWebhookSender(hostPolicy(['localhost']).refusesAddress).send(
      request(url),
    );
    expect(sent).toMatchObject({ delivered: true, status: 200, error: null });
    expect(receiver.received).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    receiver.answer = () => ({ status: 200, delayMs: 3000 });
    const slow = await httpWebhookSender(() => undefined).send(request(receiver.url));
    expect(slow).toEqual({
      delivered: false,
      status: null,
      latencyMs: null,
      error: 'no answer within 1 s',
    });
  });
});
