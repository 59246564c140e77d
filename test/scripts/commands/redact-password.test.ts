import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { redactPassword } from '../../../scripts/commands/redact-password.ts';

describe('redactPassword', () => {
  const rows: Array<[string, string]> = [
    ['http://alice:s3cret@proxy.internal:3128/', 'http://alice:***@proxy.internal:3128/'],
    ['http://alice:p%40ss@127.0.0.1:8080/path?x=1', 'http://alice:***@127.0.0.1:8080/path?x=1'],
    // Not a URL: the userinfo still ends at the authority's last @ (a raw @ in the password).
    ['http://alice:p@ss@proxy host:3128', 'http://alice:***@proxy host:3128'],
    ['http://:s3cret@proxy:3128', 'http://:***@proxy:3128'],
    ['http://alice@proxy:3128/', 'http://alice@proxy:3128/'],
    ['http://proxy.internal:3128/', 'http://proxy.internal:3128/'],
    ['http://proxy:3128/a:b@c', 'http://proxy:3128/a:b@c'],
    ['not a url', 'not a url'],
  ];
  for (const [given, shown] of rows) it(`${given} -> ${shown}`, () => assert.equal(redactPassword(given), shown));
});
