/**
 * requestRefusal remembers the last Host value it accepted, to skip the regular expression for the same
 * string: a malformed Host still gets its 400 right after a good one was accepted, and a good one right
 * after a malformed one, in either order and on repeat.
 */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestRefusal } from '../../../gateway/http/request-guards.ts';

const request = (host: string) => ({ method: 'GET', url: '/api/sample', httpVersionMajor: 1, httpVersionMinor: 1, headers: { host }, rawHeaders: ['Host', host] });

describe('the Host check with its last accepted value', () => {
  it('judges every other value afresh, whatever was accepted before', () => {
    for (const [host, refused] of [['a.test', false], ['a.test', false], ['a.test/evil', true], ['a.test', false], ['a.test b.test', true], ['a.test b.test', true], ['[::1]:8080', false], ['a.test:80x', true], ['', false], ['a.test/evil', true]] as const) {
      const refusal = requestRefusal(request(host));
      assert.equal(refusal !== undefined, refused, `Host ${JSON.stringify(host)}`);
      if (refused) assert.equal(refusal?.code, 'MALFORMED_REQUEST');
    }
  });
});
