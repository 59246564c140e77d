/** The outcome table of corpus/README.md ("Link-check outcomes"), row by row. */
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyResponse } from '../../../build/links/classify-response.ts';
import type { FinalResponse } from '../../../build/links/link-check-types.ts';

const cited = 'http://agency.test/programs/roof-grant';
const page = (title: string, heading = 'Roof Grant') => `<html><head><title>${title}</title></head><body><h1>${heading}</h1></body></html>`;
const respond = (status: number, fields: Partial<FinalResponse> = {}): FinalResponse => ({
  status, headers: {}, body: status >= 200 && status < 300 ? page('Roof Grant | Agency') : undefined, citedUrl: cited, finalUrl: cited, ...fields,
});

const rows: Array<{ rule: string; response: FinalResponse; outcome: string; pageClass?: string }> = [
  { rule: '1: cf-mitigated challenge on 403', response: respond(403, { headers: { 'cf-mitigated': 'challenge' } }), outcome: 'bot-blocked' },
  { rule: '1: cf-mitigated challenge even on 200', response: respond(200, { headers: { 'cf-mitigated': 'Challenge' } }), outcome: 'bot-blocked' },
  { rule: '1: AWS WAF challenge on 202', response: respond(202, { headers: { 'x-amzn-waf-action': 'challenge' } }), outcome: 'bot-blocked' },
  { rule: '1: AWS WAF captcha on 405', response: respond(405, { headers: { 'x-amzn-waf-action': 'captcha' } }), outcome: 'bot-blocked' },
  { rule: '2: 401', response: respond(401), outcome: 'bot-blocked' },
  { rule: '2: 403', response: respond(403), outcome: 'bot-blocked' },
  { rule: '3: 404', response: respond(404), outcome: 'dead' },
  { rule: '3: 410', response: respond(410), outcome: 'dead' },
  { rule: '4: 200 "Just a moment..."', response: respond(200, { body: page('Just a moment...', 'Checking') }), outcome: 'bot-blocked' },
  { rule: '4: 200 Cloudflare "Attention Required!"', response: respond(200, { body: page('Attention Required! | Cloudflare') }), outcome: 'bot-blocked' },
  { rule: '5: title "Page Not Found | City"', response: respond(200, { body: page('Page Not Found | City of Alpha', 'Sorry') }), outcome: 'dead' },
  { rule: '5: title "404 - File or directory not found."', response: respond(200, { body: page('404 - File or directory not found.') }), outcome: 'dead' },
  { rule: '5: title "Not Found"', response: respond(200, { body: page('Not Found', 'x') }), outcome: 'dead' },
  { rule: '5: h1 "404"', response: respond(200, { body: page('City of Alpha', '404') }), outcome: 'dead' },
  { rule: '5: h1 with inner tags "<span>Error</span> 404"', response: respond(200, { body: page('City', '<span>Error</span> 404') }), outcome: 'dead' },
  { rule: '5: h1 "The page you requested could not be found"', response: respond(200, { body: page('City', 'The page you requested could not be found') }), outcome: 'dead' },
  { rule: '5: h1 "Página no encontrada"', response: respond(200, { body: page('Ciudad', 'P&aacute;gina no encontrada'.replace('&aacute;', 'á')) }), outcome: 'dead' },
  { rule: '5: title with entities "Page&nbsp;Not&#32;Found"', response: respond(200, { body: page('Page&nbsp;Not&#32;Found') }), outcome: 'dead' },
  { rule: '5 does not fire: "Form 404-B"', response: respond(200, { body: page('Form 404-B application', 'Form 404-B') }), outcome: 'live', pageClass: 'program' },
  { rule: '5 does not fire: "Up to $404"', response: respond(200, { body: page('Grants up to $404', 'HB404 repairs') }), outcome: 'live', pageClass: 'program' },
  { rule: '5 does not fire: "not found" in body text only', response: respond(200, { body: `${page('Roof Grant')}<p>page not found</p>` }), outcome: 'live', pageClass: 'program' },
  { rule: '6: redirected to /404.html', response: respond(200, { finalUrl: 'http://agency.test/404.html', body: page('City', 'Oops') }), outcome: 'dead' },
  { rule: '6: redirected to /page-not-found', response: respond(200, { finalUrl: 'http://agency.test/errors/page-not-found?from=x', body: page('City', 'Oops') }), outcome: 'dead' },
  { rule: '7: 200 program page', response: respond(200), outcome: 'live', pageClass: 'program' },
  { rule: '7: 204 without body', response: respond(204, { body: undefined }), outcome: 'live', pageClass: 'program' },
  { rule: '7: 200 deep link redirected to the root', response: respond(200, { finalUrl: 'http://agency.test/' }), outcome: 'live', pageClass: 'agency' },
  { rule: '7: 200 non-HTML (no body read)', response: respond(200, { body: undefined, headers: { 'content-type': 'application/pdf' } }), outcome: 'live', pageClass: 'program' },
  { rule: '8: 429', response: respond(429), outcome: 'inconclusive' },
  { rule: '8: 500', response: respond(500), outcome: 'inconclusive' },
  { rule: '8: 503', response: respond(503), outcome: 'inconclusive' },
  { rule: '8: 302 without Location', response: respond(302), outcome: 'inconclusive' },
  { rule: '8: 418', response: respond(418), outcome: 'inconclusive' },
  { rule: '8: 405 (GET refused too)', response: respond(405), outcome: 'inconclusive' },
];

describe('classifyResponse', () => {
  for (const row of rows) {
    it(`rule ${row.rule} -> ${row.outcome}`, () => {
      const verdict = classifyResponse(row.response);
      assert.equal(verdict.outcome, row.outcome, verdict.reason);
      assert.equal(verdict.httpStatus, row.response.status, 'the final status is recorded');
      assert.equal(verdict.pageClass, row.pageClass);
    });
  }
});
