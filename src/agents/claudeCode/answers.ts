// Claude Code's permission hook (`PermissionRequest`, ~/.claude/settings.json): it fires when
// Claude Code shows its own dialog, which stays up meanwhile, so whoever answers first wins.
import { permissionRequestHook } from '../../node/answers/permissionHook';

export const claudeCodeAnswers = permissionRequestHook('claude-code', true);
