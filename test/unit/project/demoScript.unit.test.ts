// The demo's dark mode script (demo/extension/scripts.js) as the scripted model plays it
// behind Copilot (demo/agentScript.mjs): its edits apply, in order, to the demo workspace
// as the repository holds it, each between the todo_write calls of the items it belongs to,
// and what the agent says at the end names only files it changed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { useTempDir } from '../../lib/temp';

interface Call {
  tool: string;
  arguments: { filePath?: string; oldString?: string; newString?: string; content?: string; todos?: Array<{ content: string; status: string }> };
}
interface Step {
  say?: string;
  tool?: string;
  arguments?: Call['arguments'];
  calls?: Call[];
}
interface Turn {
  match?: string;
  stopOnToolError?: boolean;
  steps: Step[];
}

const ROOT = path.resolve(__dirname, '..', '..', '..');
const load = (): Promise<{ demoAgentScript(options?: { stepDelayMs?: number }): { turns: Turn[] } }> =>
  import(path.join(ROOT, 'demo', 'agentScript.mjs')) as Promise<{ demoAgentScript(options?: { stepDelayMs?: number }): { turns: Turn[] } }>;

const callsOf = (step: Step): Call[] => step.calls ?? (step.tool ? [{ tool: step.tool, arguments: step.arguments ?? {} }] : []);

describe('the demo\'s dark mode script, with real edits', () => {
  const tmp = useTempDir('demo-edits');
  let dir = '';
  beforeEach(() => {
    dir = tmp.path;
    fs.cpSync(path.join(ROOT, 'demo', 'workspace'), dir, { recursive: true });
  });

  it('each edit applies to the demo workspace in order, while an item is in progress; the last message names the files changed', async () => {
    const { turns } = (await load()).demoAgentScript();
    const turn = turns[0]!;
    assert.equal(turn.match, 'dark mode');
    assert.equal(turn.stopOnToolError, true);
    let inProgress: string[] = [];
    const changed = new Set<string>();
    for (const step of turn.steps) {
      for (const call of callsOf(step)) {
        const file = call.arguments.filePath?.replace('${workspaceFolder}', dir);
        if (call.tool === 'todo_write') {
          inProgress = (call.arguments.todos ?? []).filter((todo) => todo.status === 'in_progress').map((todo) => todo.content);
          continue;
        }
        assert.ok(file !== undefined && call.arguments.filePath!.startsWith('${workspaceFolder}/'), `${call.tool} names a file in the workspace`);
        if (call.tool === 'read_file') continue;
        assert.ok(inProgress.length > 0, `${call.tool} on ${file} while an item is in progress`);
        if (call.tool === 'replace_string_in_file') {
          // Copilot's replace_string_in_file wants the text exactly once.
          const text = fs.readFileSync(file, 'utf8');
          assert.equal(text.split(call.arguments.oldString!).length - 1, 1, `${path.relative(dir, file)} holds the old text once: ${JSON.stringify(call.arguments.oldString)}`);
          fs.writeFileSync(file, text.replace(call.arguments.oldString!, () => call.arguments.newString!));
        } else {
          assert.equal(call.tool, 'create_file');
          assert.ok(!fs.existsSync(file), `create_file makes a new file: ${file}`);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, call.arguments.content!);
        }
        changed.add(path.relative(dir, file));
      }
    }
    assert.deepEqual([...changed].sort(), ['index.html', 'src/app.js', 'src/styles.css', 'test/theme.test.js']);
    const last = turn.steps[turn.steps.length - 1]!;
    assert.deepEqual(callsOf(last), []);
    for (const name of changed) assert.ok(last.say?.includes(`\`${name}\``), `the last message names ${name}`);
    assert.match(fs.readFileSync(path.join(dir, 'src', 'styles.css'), 'utf8'), /\[data-theme="dark"\]/);
  });

  it('the generic script makes no edits and says so', async () => {
    const { turns } = (await load()).demoAgentScript();
    const generic = turns[1]!;
    assert.equal(generic.match, undefined);
    assert.ok(generic.steps.flatMap(callsOf).every((call) => call.tool === 'todo_write'));
    assert.match(generic.steps[generic.steps.length - 1]!.say ?? '', /changed no files/);
  });
});
