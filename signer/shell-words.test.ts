import { describe, expect, it } from 'vitest';
import { ShellWordsError, splitShellWords } from './shell-words.js';

describe('splitShellWords', () => {
  const cases: Array<{ name: string; input: string; words: string[] }> = [
    { name: 'plain words and runs of blanks', input: ' a  b\tc\n d ', words: ['a', 'b', 'c', 'd'] },
    { name: 'single quotes keep everything literal', input: `'{"a": "$x \\n"}'`, words: ['{"a": "$x \\n"}'] },
    { name: 'double quotes with \\" \\\\ \\$ \\` escapes', input: '"{\\"a\\":\\"\\\\\\$\\`\\"}"', words: ['{"a":"\\$`"}'] },
    { name: 'other backslashes inside double quotes stay', input: '"a\\nb"', words: ['a\\nb'] },
    { name: 'no expansion inside double quotes', input: '"$HOME"', words: ['$HOME'] },
    { name: 'ANSI-C escapes', input: "$'a\\nb\\tc\\\\d\\'e\\\"f\\x41\\u00e9\\U0001F600'", words: ['a\nb\tc\\d\'e"fAé😀'] },
    { name: 'ANSI-C octal', input: "$'\\101\\0'", words: ['A\0'] },
    { name: 'line continuation with LF', input: 'curl \\\n  -s', words: ['curl', '-s'] },
    { name: 'line continuation with CRLF', input: 'curl \\\r\n  -s \\\r\n  url', words: ['curl', '-s', 'url'] },
    { name: 'line continuation inside a word', input: 'ab\\\ncd', words: ['abcd'] },
    { name: 'backslash escapes outside quotes', input: 'a\\ b \\"c\\" \\$d', words: ['a b', '"c"', '$d'] },
    { name: 'adjacent quoted parts join into one word', input: `-H'X: '"y"$'\\x7a'`, words: ['-HX: yz'] },
    { name: 'empty quoted words are words', input: `a '' "" b`, words: ['a', '', '', 'b'] },
    { name: 'stops at a pipe', input: `curl url | jq .`, words: ['curl', 'url'] },
    { name: 'stops at && and ;', input: `curl url && echo; ls`, words: ['curl', 'url'] },
    { name: 'quoted operators are text', input: `'a|b' "c;d" e\\&f`, words: ['a|b', 'c;d', 'e&f'] },
    { name: 'empty input', input: '', words: [] },
  ];
  it.each(cases)('$name', ({ input, words }) => {
    expect(splitShellWords(input)).toEqual(words);
  });

  it.each([
    { kind: 'single', input: `curl -d '{"a":1}` },
    { kind: 'double', input: `curl -d "{\\"a\\":1}` },
    { kind: 'ANSI-C', input: `curl -d $'{"a":1}` },
  ])('names an unterminated $kind quote and where it starts', ({ kind, input }) => {
    const error = (() => {
      try {
        splitShellWords(input);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ShellWordsError);
    expect((error as Error).message).toContain(`unterminated ${kind}`);
    expect((error as Error).message).toContain('line 1, column 9');
  });
});
