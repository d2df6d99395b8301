// Tables for the benchmark: one description per table, rendered as aligned text for the
// terminal and as Markdown for docs/benchmarks.md.

export function ms(value) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return '–';
  if (value < 1) return value.toFixed(3);
  if (value < 10) return value.toFixed(2);
  if (value < 100) return value.toFixed(1);
  return value.toFixed(0);
}

export function ratio(value) {
  if (!Number.isFinite(value)) return '–';
  if (value >= 100) return `×${value.toFixed(0)}`;
  if (value >= 10) return `×${value.toFixed(1)}`;
  return `×${value.toFixed(2)}`;
}

export function bytes(n) {
  if (n === undefined) return '–';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export function count(n) {
  return n.toLocaleString('en-US');
}

/** `table = { title, headers, align: 'lrr…', rows: string[][], notes?: string[] }` */
export function renderText(table) {
  const widths = table.headers.map((h, i) => Math.max(h.length, ...table.rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((cell, i) => (table.align[i] === 'r' ? String(cell).padStart(widths[i]) : String(cell).padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  const out = [table.title, line(table.headers), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const row of table.rows) out.push(line(row));
  for (const note of table.notes ?? []) out.push(`  ${note}`);
  return out.join('\n');
}

export function renderMarkdown(table) {
  const escape = (cell) => String(cell).replace(/\|/g, '\\|');
  const out = [`#### ${table.title}`, ''];
  out.push(`| ${table.headers.map(escape).join(' | ')} |`);
  out.push(`|${table.align.split('').map((a) => (a === 'r' ? '---:' : ':---')).join('|')}|`);
  for (const row of table.rows) out.push(`| ${row.map(escape).join(' | ')} |`);
  if (table.notes?.length) {
    out.push('');
    for (const note of table.notes) out.push(`- ${note}`);
  }
  return out.join('\n');
}
