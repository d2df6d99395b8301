// Model cost: tokens of what the model reads (the tool definition, the result texts)
// and writes (the arguments of a call), with OpenAI's tokenizers (js-tiktoken) and
// Anthropic's published one (@anthropic-ai/tokenizer: accurate for its older models
// only, an approximation for current Claude models).
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { getEncoding } from 'js-tiktoken';
import { repoRoot } from '../lib/host.mjs';

const require = createRequire(import.meta.url);

export const TOKENIZERS = ['o200k_base', 'cl100k_base', 'claude'];

export function tokenCounts(texts) {
  const o200k = getEncoding('o200k_base');
  const cl100k = getEncoding('cl100k_base');
  const { countTokens } = require('@anthropic-ai/tokenizer');
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  const tool = manifest.contributes.languageModelTools[0];
  const schema = JSON.stringify(tool.inputSchema);
  const items = [
    ['tool: modelDescription', tool.modelDescription, 'once per request that offers the tool'],
    ['tool: inputSchema (JSON)', schema, 'once per request that offers the tool'],
    ['tool: name + description + schema', `${tool.name}\n${tool.modelDescription}\n${schema}`, 'once per request that offers the tool'],
    ['arguments: a 20-item list', texts.arguments20, 'every call (the model sends the whole list)'],
    ['result: success', texts.successText, 'every call'],
    ['result: error (bad status)', texts.invalidStatusText, 'a rejected call'],
    ['result: error (duplicate)', texts.duplicateText, 'a rejected call'],
    ['for comparison: echoing {todos, counts}', texts.canonicalResult20, 'what a result that echoes the list would cost'],
    ['hand-off prompt: 5 items, 3 open', texts.continuePrompt5, 'Continue in New Chat, Copy Hand-off Prompt: once, when the user sends it'],
    ['hand-off prompt: its fixed words (no items, no title)', texts.continuePromptWords, 'the part that does not grow with the plan'],
    ['Ask to Continue: 3 open items', texts.askToContinue3, 'once, when the user sends it'],
    ['Ask to Restore: one item', texts.askToRestore, 'once, when the user sends it'],
  ];
  const rows = items.map(([name, text, when]) => ({
    name,
    when,
    chars: text.length,
    text: text.length <= 120 ? text : undefined,
    o200k_base: o200k.encode(text).length,
    cl100k_base: cl100k.encode(text).length,
    claude: countTokens(text),
  }));
  const version = (name) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(repoRoot, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  return { rows, versions: { 'js-tiktoken': version('js-tiktoken'), '@anthropic-ai/tokenizer': version('@anthropic-ai/tokenizer') } };
}
