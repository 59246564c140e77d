import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { Manifest } from '../../../build/corpus/corpus-types.ts';
import { linkUserAgent } from '../../../build/links/link-user-agent.ts';

const manifest = JSON.parse(readFileSync(new URL('../../fixtures/mini-corpus/manifest.json', import.meta.url), 'utf8')) as Manifest;

describe('linkUserAgent', () => {
  it('names the checker, the contact URL and the dataset', () => {
    assert.equal(linkUserAgent(manifest), 'hra-link-check (+https://maintainers.mini-fixture.test/contact; dataset mini-fixture)');
  });

  it('keeps control characters of the dataset name out of the header', () => {
    assert.equal(linkUserAgent({ ...manifest, dataset: 'two\nlines' }), 'hra-link-check (+https://maintainers.mini-fixture.test/contact; dataset two lines)');
  });

  it('has nothing to offer without a contact', () => {
    const { contact: _contact, ...rest } = manifest;
    assert.equal(linkUserAgent(rest as Manifest), undefined);
  });
});
