import { describe, expect, it } from 'vitest';
import { runCli } from '../test/cli-harness.js';
import { SCENARIOS, SCENARIO_NAMES } from './scenarios.js';

describe('svc-conformance serve --scenario', () => {
  it('lists every scenario with the client rule it tests', async () => {
    const result = await runCli(['serve', '--list-scenarios']);
    expect(result.code).toBe(0);
    for (const name of SCENARIO_NAMES) expect(result.stdout).toMatch(new RegExp(`^${name} +${SCENARIOS[name].rules[0]}`, 'm'));
  });

  it.each<[string[], RegExp]>([
    [
      ['--scenario', 'nope'],
      /^svc-conformance serve: unknown scenario "nope"; run `svc-conformance serve --list-scenarios` to see them\n$/,
    ],
    [
      ['--scenario', 'create-order-hang-once', '--hang-seconds', '0'],
      /^svc-conformance serve: --hang-seconds takes a number of seconds above 0 and at most 86400 \(a day\), not "0"\n$/,
    ],
    // Past 2^31-1 ms a timer fires at once: this "hang" would not hang at all.
    [
      ['--scenario', 'create-order-hang-once', '--hang-seconds', '3000000'],
      /^svc-conformance serve: --hang-seconds takes a number of seconds above 0 and at most 86400 \(a day\), not "3000000"\n$/,
    ],
    [['--hang-seconds', 'Infinity'], /--hang-seconds takes a number of seconds above 0 and at most 86400/],
  ])('refuses %j with one line and exit 2', async (args, message) => {
    const result = await runCli(['serve', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
