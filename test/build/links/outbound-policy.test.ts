/** The outbound policy: which URLs and addresses a link or quote check may reach (STYLE 29). */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refusedAddress, refusedUrl } from '../../../build/links/outbound-policy.ts';

const strict = { allowPrivateAddresses: false };
const relaxed = { allowPrivateAddresses: true };

describe('refusedUrl', () => {
  // Every spelling the WHATWG URL parser turns into a loopback, private or metadata address.
  const refused: Array<[string, string]> = [
    ['http://127.0.0.1/', 'loopback address 127.0.0.1'],
    ['http://127.0.0.1:6379/', 'loopback address 127.0.0.1'],
    ['http://2130706433/', 'loopback address 127.0.0.1'],
    ['http://0x7f.1/', 'loopback address 127.0.0.1'],
    ['http://0177.0.0.1/', 'loopback address 127.0.0.1'],
    ['http://127.1/', 'loopback address 127.0.0.1'],
    ['http://127.255.1.2/', 'loopback address 127.255.1.2'],
    ['http://[::1]/', 'loopback address ::1'],
    ['http://[::ffff:7f00:1]/', 'loopback address ::ffff:7f00:1 (IPv4 127.0.0.1)'],
    ['http://[::ffff:127.0.0.1]/', 'loopback address ::ffff:7f00:1 (IPv4 127.0.0.1)'],
    ['http://[::7f00:1]/', 'loopback address ::7f00:1 (IPv4 127.0.0.1)'],
    ['http://[64:ff9b::a00:1]/', 'private address 64:ff9b::a00:1 (IPv4 10.0.0.1)'],
    ['http://[2002:c0a8:101::1]/', 'private address 2002:c0a8:101::1 (IPv4 192.168.1.1)'],
    ['http://localhost/', 'loopback host localhost'],
    ['http://LocalHost./x', 'loopback host localhost'],
    ['http://api.localhost/', 'loopback host api.localhost'],
    ['http://10.0.0.5/', 'private address 10.0.0.5'],
    ['http://172.16.3.4/', 'private address 172.16.3.4'],
    ['http://192.168.1.1/', 'private address 192.168.1.1'],
    ['http://100.64.0.1/', 'carrier-grade NAT address 100.64.0.1'],
    ['http://169.254.10.10/', 'link-local address 169.254.10.10'],
    ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'cloud metadata address 169.254.169.254'],
    ['http://[fd00:ec2::254]/', 'cloud metadata address fd00:ec2::254'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'cloud metadata host metadata.google.internal'],
    ['http://[fe80::1]/', 'link-local address fe80::1'],
    ['http://[fc00::1]/', 'unique-local address fc00::1'],
    ['http://224.0.0.251/', 'multicast address 224.0.0.251'],
    ['http://[ff02::1]/', 'multicast address ff02::1'],
    ['http://0.0.0.0/', 'unspecified address 0.0.0.0'],
    ['http://0/', 'unspecified address 0.0.0.0'],
    ['http://[::]/', 'unspecified address ::'],
    ['http://255.255.255.255/', 'broadcast address 255.255.255.255'],
    ['http://192.0.2.7/', 'reserved address 192.0.2.7'],
    ['http://[2001:db8::1]/', 'reserved address 2001:db8::1'],
    ['ftp://files.example.org/a.pdf', 'ftp: URL (only http and https are fetched)'],
    ['file:///etc/passwd', 'file: URL (only http and https are fetched)'],
    ['javascript:alert(1)', 'javascript: URL (only http and https are fetched)'],
  ];
  for (const [url, reason] of refused) {
    it(`refuses ${url}`, () => assert.equal(refusedUrl(url, strict), reason));
  }

  const allowed = ['http://pages.test/program', 'https://www.example.org/', 'http://93.184.215.14/', 'http://[2606:4700::1111]/', 'http://[::ffff:8.8.8.8]/', 'http://[2002:808:808::1]/'];
  for (const url of allowed) {
    it(`lets ${url} through`, () => assert.equal(refusedUrl(url, strict), undefined));
  }

  it('lets private addresses through with allowPrivateAddresses, but never a metadata endpoint or another scheme', () => {
    assert.equal(refusedUrl('http://127.0.0.1:8080/', relaxed), undefined);
    assert.equal(refusedUrl('http://localhost/', relaxed), undefined);
    assert.equal(refusedUrl('http://10.0.0.5/', relaxed), undefined);
    assert.equal(refusedUrl('http://169.254.169.254/latest/', relaxed), 'cloud metadata address 169.254.169.254');
    assert.equal(refusedUrl('http://metadata.google.internal/', relaxed), 'cloud metadata host metadata.google.internal');
    assert.equal(refusedUrl('gopher://127.0.0.1:6379/', relaxed), 'gopher: URL (only http and https are fetched)');
  });
});

describe('refusedAddress', () => {
  it('judges resolver answers, IPv4 and IPv6', () => {
    assert.equal(refusedAddress('127.0.0.1', strict), 'loopback address 127.0.0.1');
    assert.equal(refusedAddress('::ffff:169.254.169.254', strict), 'cloud metadata address ::ffff:a9fe:a9fe (IPv4 169.254.169.254)');
    assert.equal(refusedAddress('::ffff:169.254.169.254', relaxed), 'cloud metadata address ::ffff:a9fe:a9fe (IPv4 169.254.169.254)');
    assert.equal(refusedAddress('fe80::1', strict), 'link-local address fe80::1');
    assert.equal(refusedAddress('93.184.215.14', strict), undefined);
    assert.equal(refusedAddress('2606:4700::1111', strict), undefined);
    assert.equal(refusedAddress('not an address', strict), 'unusable address not an address');
  });
});
