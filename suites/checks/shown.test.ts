// A failure's evidence names what was expected only when a check says it: a key left out, never undefined.
import { describe, expect, it } from 'vitest';
import { answered } from '../check.js';
import { exchangeOf, madeUpConfig } from './made-up-server-test-support.js';
import { shown } from './shown.js';

const exchange = exchangeOf(madeUpConfig(), { label: 'a request', path: '/x', payload: {} }, 404);

describe('shown', () => {
  it('gives the exchange and what came back in it', () => {
    expect(shown(exchange)).toStrictEqual({ actual: answered(exchange), exchange });
    expect('expected' in shown(exchange)).toBe(false);
  });

  it('adds what was expected when said', () => {
    expect(shown(exchange, 'HTTP 200')).toStrictEqual({ expected: 'HTTP 200', actual: answered(exchange), exchange });
  });
});
