// The resource plan://current: the plan as a Markdown checklist, through the product's own
// Markdown export (the agent's words escaped, so they show and do nothing more). Pure.
import type { Todo } from '../core/plan/plan';
import { planMarkdown } from '../core/plan/present';

export const PLAN_URI = 'plan://current';
export const PLAN_MIME = 'text/markdown';

export const PLAN_RESOURCE = {
  uri: PLAN_URI,
  name: 'current-plan',
  title: 'Current plan',
  description: 'The plan last written with todo_write in this agent session, as a Markdown checklist.',
  mimeType: PLAN_MIME,
} as const;

export const NO_PLAN_TEXT = '*(no plan written in this session yet)*\n';

export function planResourceText(todos: readonly Todo[] | undefined): string {
  return todos === undefined ? NO_PLAN_TEXT : planMarkdown(todos);
}
