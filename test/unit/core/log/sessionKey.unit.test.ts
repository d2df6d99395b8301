import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { SESSION_KEY_PATTERN, copilotSessionKey, foreignSessionKey, hashIdentity, isSessionKey, sessionKeyFromToken, sessionNamedBy } from '../../../../src/core/log/sessionKey';

const KEY = /^[0-9a-f]{32}$/;

function sha(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** Just enough of vscode.Uri: fields plus an encoding toString(). */
class FakeUri {
  constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
    readonly fragment = '',
  ) {}
  toString(): string {
    return `${this.scheme}://${this.authority}${encodeURI(this.path)}`;
  }
}

describe('sessionKey', () => {
  it('keys a sessionResource Uri by its components', () => {
    const uri = new FakeUri('vscode-chat-session', 'local', '/abc 123');
    const key = sessionKeyFromToken({ sessionResource: uri });
    assert.equal(key, sha('resource:vscode-chat-session://local/abc 123?#'));
  });

  it('gives a Uri and its revived plain components the same key', () => {
    const uri = new FakeUri('vscode-chat-session', 'local', '/s1', 'q', 'f');
    const plain = JSON.parse(JSON.stringify({ $mid: 1, scheme: 'vscode-chat-session', authority: 'local', path: '/s1', query: 'q', fragment: 'f' }));
    assert.equal(sessionKeyFromToken({ sessionResource: uri }), sessionKeyFromToken({ sessionResource: plain }));
  });

  it('different sessions get different keys', () => {
    const a = sessionKeyFromToken({ sessionResource: new FakeUri('vscode-chat-session', 'local', '/a') });
    const b = sessionKeyFromToken({ sessionResource: new FakeUri('vscode-chat-session', 'local', '/b') });
    assert.notEqual(a, b);
  });

  it('uses toString() of a Uri-like without fields', () => {
    const uriLike = { toString: () => 'chat-session:xyz' };
    assert.equal(sessionKeyFromToken({ sessionResource: uriLike }), sha('resource:chat-session:xyz'));
  });

  it('ignores Object.prototype.toString on a plain object without fields', () => {
    assert.equal(sessionKeyFromToken({ sessionResource: {} }), undefined);
    assert.equal(sessionKeyFromToken({ sessionResource: { toString: () => '[object Object]' } }), undefined);
  });

  it('keys a sessionId string (older VS Code)', () => {
    assert.equal(sessionKeyFromToken({ sessionId: 'abc-123' }), sha('id:abc-123'));
  });

  it('prefers sessionResource over sessionId', () => {
    const both = { sessionId: 'abc', sessionResource: new FakeUri('s', 'a', '/p') };
    assert.equal(sessionKeyFromToken(both), sha('resource:s://a/p?#'));
  });

  it('a resource and an id with the same text never collide', () => {
    assert.notEqual(sessionKeyFromToken({ sessionResource: 'x' }), sessionKeyFromToken({ sessionId: 'x' }));
  });

  it('no session → undefined', () => {
    for (const token of [
      undefined,
      null,
      '',
      'session',
      42,
      true,
      [],
      {},
      { sessionId: '' },
      { sessionId: 7 },
      { sessionId: null },
      { sessionResource: '' },
      { sessionResource: 12 },
      { sessionResource: null },
      { sessionResource: { scheme: '' } },
      { sessionResource: { toString: () => 5 } },
      { sessionResource: { toString: 'nope' } },
    ]) {
      assert.equal(sessionKeyFromToken(token), undefined, JSON.stringify(token));
    }
  });

  it('never throws: throwing getters, throwing toString, proxies, revoked proxies', () => {
    const throwingGetter = Object.defineProperty({}, 'sessionResource', {
      get() {
        throw new Error('boom');
      },
    });
    const throwingToString = {
      sessionResource: {
        toString() {
          throw new Error('boom');
        },
      },
    };
    const hostileProxy = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
      },
    );
    const { proxy: revoked, revoke } = Proxy.revocable({ sessionId: 'x' }, {});
    revoke();
    for (const token of [throwingGetter, throwingToString, hostileProxy, revoked, { sessionResource: hostileProxy }]) {
      assert.doesNotThrow(() => sessionKeyFromToken(token));
      assert.equal(sessionKeyFromToken(token), undefined);
    }
  });

  it('hostile strings still give 32 hex characters', () => {
    for (const s of ['../..', '../../etc/passwd', 'a/b\\c', '\u0000', 'x\u0000y', 'C:\\con', '\ud800', '🙂', 'x'.repeat(10_240)]) {
      assert.match(sessionKeyFromToken({ sessionId: s }) ?? '', KEY, s.slice(0, 20));
      assert.match(sessionKeyFromToken({ sessionResource: s }) ?? '', KEY, s.slice(0, 20));
      assert.match(sessionKeyFromToken({ sessionResource: new FakeUri('f', s, s) }) ?? '', KEY, s.slice(0, 20));
    }
  });

  it('property: any non-empty string id gives a session key', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'binary' }), (s) => {
        const key = sessionKeyFromToken({ sessionId: s });
        return key !== undefined && SESSION_KEY_PATTERN.test(key) && isSessionKey(key);
      }),
    );
  });

  it('property: never throws on arbitrary values', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const key = sessionKeyFromToken(value);
        return key === undefined || KEY.test(key);
      }),
    );
  });

  it('isSessionKey accepts only 32 lowercase hex characters', () => {
    assert.equal(isSessionKey(hashIdentity('x')), true);
    for (const bad of ['', 'A'.repeat(32), 'a'.repeat(31), 'a'.repeat(33), '../' + 'a'.repeat(29), 42, undefined]) {
      assert.equal(isSessionKey(bad), false, String(bad));
    }
  });
});

describe('sessionKey: foreign sessions', () => {
  // VS Code's LocalChatSessionUri: scheme vscode-chat-session, authority local, path '/' + base64(uuid).
  const uuid = '3f2b8c1e-9a4d-4e7b-b1c2-5d6e7f8a9b0c';
  const path = '/' + Buffer.from(uuid, 'utf8').toString('base64');

  it('a Copilot chat uuid maps to exactly the key todo_write derives from that chat’s token', () => {
    const asUri = { sessionResource: new FakeUri('vscode-chat-session', 'local', path) };
    // The token as it crosses to the extension host: Uri components revived as plain data.
    const asComponents = { sessionResource: { $mid: 1, scheme: 'vscode-chat-session', authority: 'local', path } };
    const expected = sessionKeyFromToken(asUri);
    assert.ok(expected !== undefined && KEY.test(expected));
    assert.equal(copilotSessionKey(uuid), expected);
    assert.equal(copilotSessionKey(uuid), sessionKeyFromToken(asComponents));
    assert.notEqual(copilotSessionKey(uuid), copilotSessionKey(uuid.replace('3f', '4f')));
  });

  it('base64 characters that are special in a path (+, /) keep the two keys equal', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        const p = '/' + Buffer.from(id, 'utf8').toString('base64');
        assert.equal(copilotSessionKey(id), sessionKeyFromToken({ sessionResource: new FakeUri('vscode-chat-session', 'local', p) }));
      }),
      { numRuns: 200 },
    );
  });

  it('a terminal agent’s session is hashIdentity(`${agent}:${id}`), one per agent', () => {
    assert.equal(foreignSessionKey('claude-code', 'abc'), sha('claude-code:abc'));
    assert.equal(foreignSessionKey('claude-code', 'abc'), hashIdentity('claude-code:abc'));
    assert.notEqual(foreignSessionKey('codex', 'abc'), foreignSessionKey('gemini-cli', 'abc'));
    assert.ok(isSessionKey(foreignSessionKey('codex', '../../etc/passwd')));
  });
});

describe('sessionNamedBy: the session a command argument names', () => {
  const key = 'ab'.repeat(16);
  it('a key, a Sessions row (event.session) or a Plan row (session); anything else names none', () => {
    assert.equal(sessionNamedBy(key), key);
    assert.equal(sessionNamedBy({ kind: 'session', event: { session: key } }), key);
    assert.equal(sessionNamedBy({ kind: 'signal', session: key }), key);
    for (const other of [undefined, null, 'not a key', key.toUpperCase(), 42, {}, { session: 'x' }, { event: { session: 3 } }]) assert.equal(sessionNamedBy(other), undefined);
  });
});
