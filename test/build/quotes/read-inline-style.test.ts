import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readInlineStyle, type InlineStyleEffect } from '../../../build/quotes/read-inline-style.ts';

const effect = (removed: boolean, visibility: InlineStyleEffect['visibility'] = undefined, displayed = false): InlineStyleEffect => ({ removed, visibility, displayed });

describe('readInlineStyle', () => {
  const rows: Array<[string, InlineStyleEffect]> = [
    ['', effect(false)],
    ['color: red', effect(false)],
    ['display:none', effect(true)],
    ['DISPLAY: None !IMPORTANT', effect(true)],
    ['display: none; display: flex', effect(false, undefined, true)],
    ['display: none !important; display: flex', effect(true)],
    ['display: block', effect(false, undefined, true)],
    ['visibility: hidden', effect(false, 'hidden')],
    ['visibility: collapse', effect(false, 'hidden')],
    ['visibility: visible', effect(false, 'visible')],
    ['position: absolute; left: -9999px', effect(true)],
    ['position: absolute; left: -999px', effect(true)],
    ['position: absolute; left: -998px', effect(false)],
    ['position: relative; top: -100em', effect(true)],
    ['position: fixed; left: -30in', effect(true)],
    ['position: absolute; left: -100vw', effect(true)],
    ['position: absolute; left: -50vw', effect(false)],
    ['position: absolute; left: -200%', effect(false)],
    ['position: absolute; left: calc(-9999px)', effect(false)],
    ['position: static; left: -9999px', effect(false)],
    ['position: absolute; right: -9999px', effect(false)],
    ['position: absolute; clip: rect(0 0 0 0)', effect(true)],
    ['position: absolute; clip: rect(1px, 1px, 1px, 1px)', effect(true)],
    ['position: absolute; clip: rect(0 200px 40px 0)', effect(false)],
    ['clip: rect(0 0 0 0)', effect(false)],
    ['height: 0; overflow: hidden', effect(true)],
    ['width: 1px; overflow: clip', effect(true)],
    ['height: 0', effect(false)],
    ['height: 0; padding-top: 56%; overflow: hidden', effect(false)],
    ['height: 2px; overflow: hidden', effect(false)],
    ['/* display: none */ color: red', effect(false)],
    ['display', effect(false)],
  ];
  for (const [style, expected] of rows) it(JSON.stringify(style), () => assert.deepEqual(readInlineStyle(style), expected));
});
