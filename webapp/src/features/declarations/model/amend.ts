// The amend dialog's changes: `field = value` lines, one per changed field.
/** `field = value` lines -> `{field: value}`; values read as JSON when they parse. */
export function parseAmendChanges(
  text: string,
): { changes: Record<string, unknown> } | { badLine: number } {
  const changes: Record<string, unknown> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const eq = line.indexOf('=');
    if (eq <= 0) return { badLine: i + 1 };
    const field = line.slice(0, eq).trim();
    const raw = line.slice(eq + 1).trim();
    if (!field) return { badLine: i + 1 };
    let value: unknown = raw;
    if (raw === '') value = null;
    else if (/^-?\d+(\.\d+)?$/.test(raw)) value = Number(raw);
    else if (raw.startsWith('{') || raw.startsWith('[') || raw.startsWith('"')) {
      try {
        value = JSON.parse(raw);
      } catch {
        value = raw;
      }
    }
    changes[field] = value;
  }
  return { changes };
}
