import { describe, expect, it } from 'vitest';
import { counted, withArticle } from '../../cli/words.js';
import { testConfig } from '../support/config.js';
import { operatorCli, settingsOf } from './operator-cli.js';

/** The CLI's English: articles and plurals as an operator reads them. */
const cli = (args: string[]) => operatorCli(args, { settings: settingsOf(testConfig()) });

describe('the words of CLI messages', () => {
  it('count with a plural but for one, and take "an" before a vowel', () => {
    expect([0, 1, 2].map((n) => counted(n, 'instance'))).toEqual([
      '0 instances',
      '1 instance',
      '2 instances',
    ]);
    expect(['instance', 'evacuation', 'hypervisor', 'migration', 'storage move'].map(withArticle)).toEqual([
      'an instance',
      'an evacuation',
      'a hypervisor',
      'a migration',
      'a storage move',
    ]);
  });

  it('say "not an evacuation uuid" and "not a migration uuid" (exit 2)', async () => {
    const evacuation = await cli(['cloudsvc:evacuation:status', 'nope']);
    expect(evacuation.code).toBe(2);
    expect(evacuation.stderr).toContain('nope is not an evacuation uuid');
    const migration = await cli(['cloudsvc:migration:status', 'nope']);
    expect(migration.code).toBe(2);
    expect(migration.stderr).toContain('nope is not a migration uuid');
  });
});
