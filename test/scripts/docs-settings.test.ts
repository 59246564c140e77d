/** STYLE 11 (Datasette's test_docs): the Configuration table of docs/operators.md documents every gateway setting. */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { GATEWAY_SETTINGS } from '../../gateway/config/gateway-settings.ts';
import { runHra } from '../support/run-hra.ts';

/** A table cell as plain text: code spans lose their backticks. */
function plain(cell: string): string {
  return cell.replace(/`([^`]*)`/g, '$1');
}

/** The rows of the first table under the `### Configuration` heading, as cells keyed by the header row. */
function configurationTable(markdown: string): Array<Record<string, string>> {
  const section = markdown.split(/^#{2,3} /m).find((part) => part.startsWith('Configuration\n'));
  assert.ok(section, 'docs/operators.md has a "### Configuration" section');
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  const cells = (line: string) => line.slice(1, line.lastIndexOf('|')).split('|').map((cell) => cell.trim());
  const [header, separator, ...body] = rows;
  assert.ok(header && separator && /^\|[-|: ]+\|$/.test(separator), 'the section starts with a Markdown table');
  const names = cells(header);
  return body.map((line) => Object.fromEntries(cells(line).map((cell, index) => [names[index] ?? String(index), cell])));
}

describe('docs/operators.md configuration table', () => {
  const rows = configurationTable(readFileSync('docs/operators.md', 'utf8'));

  it('has the columns setting, flag, environment, default, meaning', () => {
    assert.deepEqual(Object.keys(rows[0] ?? {}), ['setting', 'flag', 'environment', 'default', 'meaning']);
  });

  for (const setting of GATEWAY_SETTINGS) {
    it(`documents ${setting.name}: ${setting.flag}, ${setting.env}, default ${setting.default ?? '(none)'}`, () => {
      const row = rows.find((candidate) => candidate.setting === setting.name);
      assert.ok(row, `a row for ${setting.name}`);
      assert.equal(row.flag, `\`${setting.flag}\``);
      assert.equal(row.environment, `\`${setting.env}\``);
      if (setting.default === undefined) assert.ok(row.default && !row.default.startsWith('`'), `${setting.name} has no default: the cell says what happens instead`);
      else assert.equal(row.default, `\`${setting.default}\``);
      assert.ok((row.meaning ?? '').length > 10, `${setting.name} has a meaning`);
    });
  }

  it('says in each row exactly what `hra serve --help` says, so the two cannot tell different stories', () => {
    for (const setting of GATEWAY_SETTINGS) {
      const row = rows.find((candidate) => candidate.setting === setting.name);
      assert.equal(plain(row?.meaning ?? ''), setting.help, setting.name);
    }
  });

  it('lists every option `hra serve --help` prints, and `--help` prints every row with its words', () => {
    const run = runHra(['serve', '--help']);
    assert.equal(run.status, 0, run.stderr);
    const help = run.stdout.replace(/\s+/g, ' ');
    const flags = [...run.stdout.matchAll(/^ {2}(--[a-z-]+)/gm)].map((match) => match[1]);
    assert.deepEqual(flags.sort(), GATEWAY_SETTINGS.map((setting) => setting.flag.split(' ')[0]).sort());
    for (const setting of GATEWAY_SETTINGS) {
      const env = `[env ${setting.env}${setting.default === undefined ? '' : `, default ${setting.default}`}]`;
      assert.ok(help.includes(`${setting.flag} ${setting.help} ${env}`), `${setting.name}: ${help}`);
    }
  });

  it('documents no setting the gateway does not have', () => {
    const names = new Set<string>(GATEWAY_SETTINGS.map((setting) => setting.name));
    for (const row of rows) assert.ok(names.has(row.setting ?? ''), `row ${row.setting} is a setting`);
  });
});
