// Reads a curl command line (from dev tools, Postman or documentation) into a captured request. Only
// what changes the request is interpreted; options that take a value are listed, so it is not the URL.
import type { CapturedRequest } from './captured-request.js';
import { type CaptureError, quoteExcerpt as quote, unreadable, unsupported } from './capture-error.js';
import { ShellWordsError, splitShellWords } from './shell-words.js';

const utf8 = new TextEncoder();

/** Short options by their long name: those that take a value, and the flags that matter. */
const SHORT_OPTIONS: Record<string, string> = Object.fromEntries(
  `X:request H:header d:data F:form T:upload-file G:get I:head A:user-agent b:cookie c:cookie-jar C:continue-at
  D:dump-header e:referer E:cert K:config m:max-time o:output P:ftp-port Q:quote r:range t:telnet-option u:user
  U:proxy-user w:write-out x:proxy y:speed-time Y:speed-limit z:time-cond`
    .split(/\s+/)
    .map((pair) => pair.split(':') as [string, string]),
);

/** Long options that take a value. An unknown option is taken as a flag, so this list errs long. */
const LONG_WITH_VALUE = new Set(
  `request header data data-ascii data-binary data-raw data-urlencode json url form form-string
  upload-file user-agent cookie cookie-jar continue-at dump-header referer cert cert-type key key-type
  pass cacert capath crlfile ciphers config max-time connect-timeout output output-dir proxy
  proxy-user proxy-header preproxy noproxy ftp-port quote range telnet-option user write-out
  speed-time speed-limit time-cond retry retry-delay retry-max-time limit-rate interface resolve
  connect-to max-redirs max-filesize trace trace-ascii stderr oauth2-bearer aws-sigv4 unix-socket
  abstract-unix-socket request-target url-query variable keepalive-time local-port dns-servers
  dns-interface dns-ipv4-addr dns-ipv6-addr doh-url happy-eyeballs-timeout-ms expect100-timeout
  proto proto-redir proto-default tls-max tlsuser tlspassword pinnedpubkey socks4 socks4a socks5
  socks5-hostname socks5-gssapi-service service-name sasl-authzid mail-from mail-rcpt mail-auth
  create-file-mode etag-save etag-compare hsts alt-svc netrc-file delegation krb login-options
  random-file egd-file engine hostpubmd5 hostpubsha256 pubkey ftp-account ftp-method ftp-ssl-ccc-mode
  ftp-alternative-to-user ip-tos vlan-priority ech trace-config parallel-max rate`.split(/\s+/),
);

const DATA_OPTIONS = new Set(['data', 'data-ascii', 'data-binary', 'data-raw', 'data-urlencode', 'json']);

/** What the options of a curl command say about its request, as they are read. */
interface CurlRequest {
  method?: string;
  urls: string[];
  headers: Array<[string, string]>;
  /** `-H 'Name:'` tells curl not to send a header it would add. */
  removed: Set<string>;
  data?: string;
  json: boolean;
  get: boolean;
  head: boolean;
}

/** Reads a curl command line from which the leading `curl` word has been blanked out. */
export function parseCurlCommand(command: string): CapturedRequest {
  if (/\^\r?\n|\^"/.test(command)) {
    throw unsupported('this curl command is quoted for Windows cmd (^" and ^ line ends); copy it "as cURL (bash)" instead');
  }
  let words: string[];
  try {
    words = splitShellWords(command);
  } catch (error) {
    if (error instanceof ShellWordsError) throw unreadable(`cannot read the curl command: ${error.message}`);
    throw error;
  }
  return captured(readWords(words));
}

function readWords(words: string[]): CurlRequest {
  const request: CurlRequest = { urls: [], headers: [], removed: new Set(), json: false, get: false, head: false };
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    const valueFor = (option: string, attached: string | undefined): string => {
      if (attached !== undefined) return attached;
      i += 1;
      if (i >= words.length) throw unreadable(`curl option ${option} needs a value but the command ends after it`);
      return words[i]!;
    };
    if (word === '--') {
      request.urls.push(...words.slice(i + 1));
      break;
    } else if (word.startsWith('--')) {
      const eq = word.indexOf('=');
      const name = word.slice(2, eq < 0 ? undefined : eq);
      apply(request, name, LONG_WITH_VALUE.has(name) ? valueFor(word, eq < 0 ? undefined : word.slice(eq + 1)) : '');
    } else if (word.startsWith('-') && word.length > 1) {
      // A cluster of short flags (-sSL); a flag that takes a value takes the rest of the word (-XPOST) or the next word.
      for (let k = 1; k < word.length; k += 1) {
        const option = SHORT_OPTIONS[word[k]!];
        if (option === undefined || !LONG_WITH_VALUE.has(option)) {
          if (option !== undefined) apply(request, option, '');
          continue;
        }
        apply(request, option, valueFor(`-${word[k]}`, k + 1 < word.length ? word.slice(k + 1) : undefined));
        break;
      }
    } else {
      request.urls.push(word);
    }
  }
  return request;
}

function apply(request: CurlRequest, option: string, value: string): void {
  if (option === 'request') request.method = value.toUpperCase();
  else if (option === 'url') request.urls.push(value);
  else if (option === 'header') addCurlHeader(value, request.headers, request.removed);
  else if (option === 'get') request.get = true;
  else if (option === 'head') request.head = true;
  else if (option === 'form' || option === 'form-string') {
    throw unsupported(
      `curl ${option === 'form' ? '-F' : '--form-string'} sends a multipart body whose boundary is random; send the signed JSON with --json or -d instead`,
    );
  } else if (option === 'upload-file') {
    throw unsupported(
      `curl -T ${value} reads the body from a file, which a capture cannot see; paste the file contents inline with -d '...' or pass the body with --file`,
    );
  } else if (DATA_OPTIONS.has(option)) {
    const piece = curlDataPiece(option, value);
    // curl joins -d pieces with '&' but appends --json pieces as they are.
    request.data = request.data === undefined ? piece : request.data + (option === 'json' ? '' : '&') + piece;
    if (option === 'json') request.json = true;
  }
}

/** The request curl would send: one URL, -G's data in the query, the headers curl adds itself. */
function captured({ urls, headers, removed, json, get, head, method, data }: CurlRequest): CapturedRequest {
  if (urls.length === 0) throw unreadable('the curl command has no URL');
  if (urls.length > 1) {
    throw unsupported(
      `the curl command names ${urls.length} URLs (${urls.map((u) => quote(u, 40)).join(', ')}); keep only the URL of the signed request` +
        ' (if one of these is the value of an unusual option, remove that option)',
    );
  }
  let target = urls[0]!;
  if (get && data !== undefined) {
    target += (target.includes('?') ? '&' : '?') + data; // -G moves the data into the query string
    data = undefined;
  }
  const implied: Array<[string, string]> = json
    ? [
        ['Content-Type', 'application/json'],
        ['Accept', 'application/json'],
      ]
    : data !== undefined
      ? [['Content-Type', 'application/x-www-form-urlencoded']]
      : [];
  for (const [name, value] of implied) {
    const lower = name.toLowerCase();
    if (!removed.has(lower) && !headers.some(([n]) => n.toLowerCase() === lower)) headers.push([name, value]);
  }
  return {
    format: 'curl',
    method: method ?? (head ? 'HEAD' : get || data === undefined ? 'GET' : 'POST'),
    target,
    headers,
    body: data ?? '',
  };
}

function addCurlHeader(value: string, headers: Array<[string, string]>, removed: Set<string>): void {
  if (value.startsWith('@')) {
    throw unsupported(`curl -H ${value} reads headers from a file, which a capture cannot see; write each header as -H 'Name: value'`);
  }
  const colon = value.indexOf(':');
  if (colon < 0) {
    // curl's spelling of a header with an empty value is `Name;`.
    if (/^[^\s;]+;\s*$/.test(value)) headers.push([value.slice(0, value.indexOf(';')), '']);
    else throw unreadable(`curl header ${quote(value)} has no ':'; write it as -H 'Name: value'`);
    return;
  }
  const name = value.slice(0, colon).trim();
  const headerText = value.slice(colon + 1).trim();
  if (headerText === '') removed.add(name.toLowerCase());
  else headers.push([name, headerText]);
}

/** The body text one data option contributes. Inline values are kept exactly (curl strips CR/LF only from files). */
function curlDataPiece(option: string, value: string): string {
  if (option === 'data-raw') return value; // --data-raw never reads a file: '@' is literal
  if (option === 'data-urlencode') {
    const sep = /[=@]/.exec(value);
    if (sep?.[0] === '@') throw fileBody(`--data-urlencode ${value}`);
    if (!sep) return curlEscape(value);
    return (sep.index === 0 ? '' : value.slice(0, sep.index + 1)) + curlEscape(value.slice(sep.index + 1));
  }
  if (value.startsWith('@')) throw fileBody(`${option === 'data' ? '-d' : `--${option}`} ${value}`);
  return value;
}

function fileBody(usage: string): CaptureError {
  return unsupported(
    `curl ${usage} reads the body from ${usage.endsWith('@-') ? 'standard input' : 'a file'}, which a capture cannot see; ` +
      "paste the file contents inline (-d '...' or --data-raw '...') or pass the body with --file",
  );
}

/** URL-encodes as curl does: every byte except ASCII letters, digits and -._~ becomes %XX. */
function curlEscape(text: string): string {
  const escape = (byte: number) =>
    String.fromCharCode(byte).replace(/[^A-Za-z0-9\-._~]/, `%${byte.toString(16).toUpperCase().padStart(2, '0')}`);
  return Array.from(utf8.encode(text), escape).join('');
}
