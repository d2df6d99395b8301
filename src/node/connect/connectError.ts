// Why Connect or Disconnect left a file alone. Each error has a stable code (the VS Code layer
// words it for people in their language) and a stable English message naming the file, so a
// script or a test can match either. Nothing was written when one is thrown.

export type ConnectErrorCode =
  /** Not JSON (or JSONC) at all. */
  | 'not-json'
  /** Valid JSON whose top level is not an object. */
  | 'not-object'
  /** A key on the way to Agent Plan's entry holds something else than the agent's format says (`detail`: the key). */
  | 'wrong-shape'
  /** An entry named `agentplan` that Agent Plan did not write (`detail`: where). */
  | 'foreign-entry'
  /** Not TOML, or TOML that Agent Plan's block would make invalid (`detail`: the parser's words). */
  | 'not-toml'
  /** Not UTF-8 text: it could not be written back byte for byte. */
  | 'not-text'
  /** The path, or a folder on the way, is a symbolic link to somewhere outside HOME (`detail`: where it leads). */
  | 'outside-home'
  /** Something other than a regular file (a folder, a FIFO, a device, a link to nothing). */
  | 'not-regular'
  /** Larger than Agent Plan reads. */
  | 'too-large'
  /** The file changed between the preview and the write. */
  | 'changed-since-preview'
  /** Agent Plan's own TOML block was edited; it cannot be found to remove it. */
  | 'block-changed'
  /** Agent Plan's record of what it wrote (its connect.json) is unreadable. */
  | 'bad-record'
  /** An agent Connect does not support (`detail`: why). */
  | 'unsupported';

const MESSAGES: Record<ConnectErrorCode, (file: string, detail: string) => string> = {
  'not-json': (file) => `${file} is not valid JSON; Agent Plan leaves it as it is`,
  'not-object': (file) => `${file} does not hold a JSON object at its top level; Agent Plan leaves it as it is`,
  'wrong-shape': (file, detail) => `${file}: "${detail}" is not what Agent Plan expects there; Agent Plan leaves the file as it is`,
  'foreign-entry': (file, detail) => `${file} already has an entry "${detail}" that Agent Plan did not write; Agent Plan leaves it as it is`,
  'not-toml': (file, detail) => `${file} is not valid TOML (${detail}); Agent Plan leaves it as it is`,
  'not-text': (file) => `${file} is not UTF-8 text; Agent Plan leaves it as it is`,
  'outside-home': (file, detail) => `${file} leads to ${detail}, outside the home folder; Agent Plan does not write there`,
  'not-regular': (file) => `${file} is not a regular file; Agent Plan does not write there`,
  'too-large': (file) => `${file} is too large for Agent Plan to edit`,
  'changed-since-preview': (file) => `${file} changed since the preview; nothing was written, connect again to see the new change`,
  'block-changed': (file) => `${file}: Agent Plan's block was edited; remove the lines between its two "Agent Plan" comments by hand`,
  'bad-record': (file, detail) => `Agent Plan's record of what it connected (${file}) is unreadable: ${detail}`,
  unsupported: (file, detail) => `${file}: ${detail}`,
};

export class ConnectError extends Error {
  constructor(
    readonly code: ConnectErrorCode,
    /** The file it is about, as the agent's spec names it (or the agent's name for `unsupported`). */
    readonly file: string,
    readonly detail = '',
  ) {
    super(MESSAGES[code](file, detail));
    this.name = 'ConnectError';
  }
}
