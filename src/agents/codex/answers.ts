// Codex's permission hook (`PermissionRequest`, ~/.codex/hooks.json): it fires when Codex needs
// an approval, and Codex shows its own prompt only after the hook returned.
import { permissionRequestHook } from '../../node/answers/permissionHook';

export const codexAnswers = permissionRequestHook('codex', false);
