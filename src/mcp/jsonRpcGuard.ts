// Every line a client sends passes here before the SDK sees it: garbage gets a JSON-RPC
// parse error, a message of the wrong shape (a bad id, say) an invalid-request error, and a
// todo_write call whose arguments are not an object the contract's own error text, as a
// tool result (the SDK would answer it with an error the model never reads).
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../core/json';
import { TOOL_NAME, checkInput } from './tool';

export type Guarded =
  | { kind: 'forward'; message: JSONRPCMessage }
  | { kind: 'reply'; message: JSONRPCMessage; problem?: string }
  | { kind: 'ignore'; problem?: string };

/** The answer to a message that cannot be read: no id (MCP's JSON-RPC allows none when it is unknown). */
export function errorReply(code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', error: { code, message } };
}

export function guardLine(line: string): Guarded {
  if (line.trim() === '') return { kind: 'ignore' };
  let value: unknown;
  try {
    value = JSON.parse(line) as unknown;
  } catch {
    return { kind: 'reply', message: errorReply(ErrorCode.ParseError, 'Parse error: the line is not JSON'), problem: 'a line that is not JSON' };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (!parsed.success) {
    // A malformed response gets no answer (answering answers would loop); anything else is an invalid request.
    if (isRecord(value) && !('method' in value) && ('result' in value || 'error' in value)) {
      return { kind: 'ignore', problem: 'a malformed response' };
    }
    return { kind: 'reply', message: errorReply(ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message'), problem: 'an invalid request' };
  }
  return badToolArguments(parsed.data) ?? { kind: 'forward', message: parsed.data };
}

function badToolArguments(message: JSONRPCMessage): Guarded | undefined {
  if (!('method' in message) || !('id' in message) || message.method !== 'tools/call') return undefined;
  const params: unknown = message.params;
  if (!isRecord(params) || params['name'] !== TOOL_NAME || !('arguments' in params)) return undefined;
  const args = params['arguments'];
  if (args === undefined || isRecord(args)) return undefined;
  const check = checkInput(args);
  const text = check.ok ? '' : check.text;
  return { kind: 'reply', message: { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text }], isError: true } } };
}
