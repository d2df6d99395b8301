import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describeFsError, errorCode } from '../../../src/core/log/fileSystem';
import { nodeFileSystem } from '../../../src/node/nodeFileSystem';
import { fsError } from '../helpers';
import { useTempDir } from '../../lib/temp';

describe('nodeFileSystem', () => {
  const tmp = useTempDir();

  it('size: bytes of a file, undefined when missing', async () => {
    const file = path.join(tmp.path, 'f');
    assert.equal(await nodeFileSystem.size(file), undefined);
    fs.writeFileSync(file, 'héllo');
    assert.equal(await nodeFileSystem.size(file), 6);
  });

  it('readRange: the requested bytes, fewer at end of file', async () => {
    const file = path.join(tmp.path, 'f');
    fs.writeFileSync(file, '0123456789');
    assert.equal(Buffer.from(await nodeFileSystem.readRange(file, 2, 3)).toString(), '234');
    assert.equal(Buffer.from(await nodeFileSystem.readRange(file, 8, 100)).toString(), '89');
    assert.equal((await nodeFileSystem.readRange(file, 20, 5)).length, 0);
  });

  it('appendText: appends UTF-8, creating the file; large texts arrive whole', async () => {
    const file = path.join(tmp.path, 'f');
    await nodeFileSystem.appendText(file, 'a\n');
    const big = 'é'.repeat(400_000) + '\n';
    await nodeFileSystem.appendText(file, big);
    assert.equal(fs.readFileSync(file, 'utf8'), 'a\n' + big);
  });

  it('mkdirp, readdir and remove; missing things reject with ENOENT', async () => {
    const dir = path.join(tmp.path, 'a', 'b');
    await assert.rejects(nodeFileSystem.readdir(dir), { code: 'ENOENT' });
    await nodeFileSystem.mkdirp(dir);
    await nodeFileSystem.mkdirp(dir);
    await nodeFileSystem.appendText(path.join(dir, 'x'), '1');
    assert.deepEqual(await nodeFileSystem.readdir(dir), ['x']);
    await nodeFileSystem.remove(path.join(dir, 'x'));
    assert.deepEqual(await nodeFileSystem.readdir(dir), []);
    await assert.rejects(nodeFileSystem.remove(path.join(dir, 'x')), { code: 'ENOENT' });
  });
});

describe('fileSystem: error reasons', () => {
  it('turns error codes into short reasons', () => {
    const cases: [string, string][] = [
      ['ENOSPC', 'no space left on device'],
      ['EDQUOT', 'disk quota exceeded'],
      ['EACCES', 'permission denied'],
      ['EPERM', 'permission denied'],
      ['EROFS', 'read-only file system'],
      ['EISDIR', '/logs/k.jsonl is a directory'],
      ['ENOTDIR', 'a parent of /logs/k.jsonl is not a directory'],
      ['ENOENT', '/logs/k.jsonl does not exist'],
      ['EMFILE', 'too many open files'],
      ['EIO', 'input/output error'],
    ];
    for (const [code, reason] of cases) assert.equal(describeFsError(fsError(code, 'x'), '/logs/k.jsonl'), reason, code);
  });

  it('prefers the path the error names', () => {
    assert.equal(describeFsError(fsError('EISDIR', 'x', '/other'), '/logs/k.jsonl'), '/other is a directory');
  });

  it('falls back to the message, then to "unknown error"', () => {
    assert.equal(describeFsError(new Error('odd failure'), '/f'), 'odd failure');
    assert.equal(describeFsError(new Error(''), '/f'), 'unknown error');
    assert.equal(describeFsError('plain string', '/f'), 'plain string');
  });

  it('errorCode reads only string codes', () => {
    assert.equal(errorCode(fsError('ENOSPC', 'x')), 'ENOSPC');
    assert.equal(errorCode({ code: 28 }), undefined);
    assert.equal(errorCode(null), undefined);
  });
});
