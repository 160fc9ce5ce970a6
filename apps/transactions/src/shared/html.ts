const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** One line of text for a header or a cell: control characters (newlines included) become spaces. */
export function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** Label and value rows as a plain-text block (labels padded) and as an HTML table, every value escaped. */
export function labelledRows(rows: Array<[string, string]>): { text: string; html: string } {
  const width = Math.max(...rows.map(([label]) => label.length));
  return {
    text: rows.map(([label, value]) => `${label.padEnd(width)}  ${oneLine(value)}`).join('\n'),
    html: `<table>${rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(oneLine(value))}</td></tr>`).join('')}</table>`,
  };
}
