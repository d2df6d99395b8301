// Bench-only extension: the floor of the tree API. A tree view of 20 plain rows in the
// Agent Plan side bar, below the Plan and Sessions views; `show(labels)` replaces the rows
// and fires one refresh of the root, as a minimal extension would. The bench module
// (test/bench/host.ts) calls it in the same tick as Agent Plan saves a plan, and again
// when the chat is idle, and times the new row's arrival in the DOM as it does the Plan
// view's.
'use strict';
const vscode = require('vscode');

function activate(context) {
  let rows = Array.from({ length: 20 }, (_, i) => `Bare row ${i + 1}`);
  const changed = new vscode.EventEmitter();
  const provider = {
    onDidChangeTreeData: changed.event,
    getChildren: (element) => (element ? [] : rows.map((label, index) => ({ label, index }))),
    getTreeItem: ({ label, index }) => {
      const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
      item.id = `${index}/${label}`;
      return item;
    },
  };
  context.subscriptions.push(changed, vscode.window.createTreeView('agentPlanBench.bareTree', { treeDataProvider: provider }));
  return {
    /** Replaces the rows and refreshes the view once. */
    show(labels) {
      rows = labels.slice();
      changed.fire(undefined);
    },
  };
}

module.exports = { activate, deactivate() {} };
