// The MCP server: the SDK's low-level Server (the schema file goes out as it is) with one
// tool, todo_write, and one resource, plan://current. Each accepted call is one line in
// this process's inbox file; the extension takes the inbox in.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { version } from '../../package.json';
import { saveFailedText, type Todo } from '../core/plan/plan';
import { MAX_CLIENT_NAME, MAX_CLIENT_VERSION, boundedText, envSession, metaCallId, metaSession } from './callFacts';
import type { AppendResult } from './inbox';
import { inboxLine } from './inboxLine';
import { PLAN_RESOURCE, PLAN_URI, planResourceText } from './planResource';
import { TOOL, TOOL_NAME, checkInput, savedText } from './tool';
import { workingFolder } from './workingFolder';

export const SERVER_NAME = 'agent-plan';

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

export interface PlanServerHost {
  env: Readonly<Record<string, string | undefined>>;
  pid: number;
  cwd: string;
  now(): Date;
  append(line: string): AppendResult;
  /** The plan last written to the inbox for an agent session, by any process. */
  sessionPlan(session: string): Todo[] | undefined;
}

export function createPlanServer(host: PlanServerHost): Server {
  const server = new Server(
    { name: SERVER_NAME, title: 'Agent Plan', version },
    { capabilities: { tools: {}, resources: {} } },
  );
  const folder = workingFolder(server, host.cwd);
  server.oninitialized = () => void folder();

  let calls = 0;
  let lastSession: string | undefined;
  let lastPlan: Todo[] | undefined;
  const clientName = (): string => boundedText(server.getClientVersion()?.name, MAX_CLIENT_NAME);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [TOOL] }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    if (request.params.name !== TOOL_NAME) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(boundedText(request.params.name, 100))}`);
    }
    const check = checkInput(request.params.arguments);
    if (!check.ok) return textResult(check.text, true);
    const meta = request.params._meta;
    const session = metaSession(meta) ?? envSession(clientName(), host.env);
    const line = inboxLine({
      ts: host.now().toISOString(),
      client: { name: clientName(), version: boundedText(server.getClientVersion()?.version, MAX_CLIENT_VERSION) },
      cwd: await folder(),
      agentSession: session,
      call: metaCallId(meta) ?? `${host.pid}-${++calls}`,
      todos: check.todos,
    });
    const saved = host.append(line);
    if (!saved.ok) return textResult(saveFailedText(saved.reason), true);
    lastSession = session;
    lastPlan = check.todos;
    return textResult(savedText(check.todos), false);
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [PLAN_RESOURCE] }));

  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    if (request.params.uri !== PLAN_URI) throw new McpError(RESOURCE_NOT_FOUND, 'Resource not found', { uri: boundedText(request.params.uri, 200) });
    // The session of this read, of this process's last call, or of the agent's environment; without one, this process's own plan.
    const session = metaSession(request.params._meta) ?? lastSession ?? envSession(clientName(), host.env);
    const todos = session === undefined ? lastPlan : host.sessionPlan(session);
    return { contents: [{ uri: PLAN_URI, mimeType: PLAN_RESOURCE.mimeType, text: planResourceText(todos) }] };
  });

  return server;
}

function textResult(text: string, isError: boolean): CallToolResult {
  return { content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) };
}
