/**
 * A one-page PDF of plain text lines in the standard Helvetica font, written object by object (no library:
 * `hra rehearse` is product code, and pdf-lib is a test dependency). Lines must be printable ASCII.
 */

/** The bytes of a PDF showing `lines`, one per line from the top of a US Letter page. */
export function textPdf(lines: readonly string[]): Buffer {
  for (const line of lines) if (!/^[\x20-\x7e]*$/.test(line)) throw new Error(`textPdf: a line holds more than printable ASCII: ${JSON.stringify(line)}`);
  const shown = lines.map((line) => `(${line.replace(/[\\()]/g, (char) => `\\${char}`)}) Tj 0 -16 Td`).join('\n');
  const content = `BT /F1 11 Tf 56 740 Td\n${shown}\nET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
