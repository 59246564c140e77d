/**
 * Cells a spreadsheet would run as a formula (a leading `=`, `+`, `-`, `@`, tab or carriage return) are
 * written with a leading apostrophe, and read back without it. A cell that itself begins with an
 * apostrophe gets one too, so reading back always removes exactly one and every cell returns as written.
 */

const NEEDS_GUARD = /^[=+\-@\t\r']/;

/** The cell as written to a worksheet. */
export function guardCell(value: string): string {
  return NEEDS_GUARD.test(value) ? `'${value}` : value;
}

/** The cell as read from a worksheet: guardCell undone. */
export function unguardCell(value: string): string {
  return value.startsWith("'") ? value.slice(1) : value;
}
