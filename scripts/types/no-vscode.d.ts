// tsconfig.core.json maps `vscode` here: this file is no module, so any import of `vscode` from
// src/core fails to compile ("is not a module"). Core knows nothing of VS Code.
