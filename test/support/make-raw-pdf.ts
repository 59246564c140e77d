/**
 * PDFs written object by object, for what pdf-lib cannot draw: fonts with a hand-written ToUnicode map or a
 * predefined CMap, and text strings given as raw codes. The tests write every object; nothing comes from a file.
 */

/** One indirect object: its dictionary (or other body) and, for a stream, the stream's bytes (latin1). */
export interface RawPdfObject {
  body: string;
  stream?: string;
}

/**
 * Returns the bytes of a PDF whose objects are `objects`, numbered from 1 in order; object 1 must be the
 * catalog. The cross-reference table is computed, so pdf.js reads the file as written rather than repairing it.
 */
export function makeRawPdf(objects: readonly RawPdfObject[]): Uint8Array {
  let out = '%PDF-1.7\n%\xE2\xE3\xCF\xD3\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(out.length);
    const body = object.stream === undefined
      ? object.body
      : `${object.body.replace(/>>\s*$/, '')} /Length ${object.stream.length} >>\nstream\n${object.stream}\nendstream`;
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(out, 'latin1'));
}

/**
 * A one-page PDF: catalog (1), pages (2), a 612 x 792 page (3) whose font resources are `fonts` (such as
 * `/F1 5 0 R`), its content stream `content` (4), then `objects`, numbered from 5 in order.
 */
export function makeOnePagePdf(content: string, fonts: string, objects: readonly RawPdfObject[]): Uint8Array {
  return makeRawPdf([
    { body: '<< /Type /Catalog /Pages 2 0 R >>' },
    { body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    { body: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << ${fonts} >> >> /Contents 4 0 R >>` },
    { body: '<< >>', stream: content },
    ...objects,
  ]);
}

/**
 * Helvetica (object 5) with a ToUnicode map (object 6) of codes 0x20-0x7E to themselves and the `extra`
 * bfchar lines, such as `<AD> <00AD>` (a soft hyphen) or `<86> <001C>` (a ligature mapped to a control).
 */
export function helveticaWithToUnicode(extra: readonly string[]): RawPdfObject[] {
  const map = [
    '/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Test-UCS def /CMapType 2 def',
    '1 begincodespacerange <00> <FF> endcodespacerange',
    '1 beginbfrange <20> <7E> <0020> endbfrange',
    `${extra.length} beginbfchar ${extra.join(' ')} endbfchar`,
    'endcmap CMapName currentdict /CMap defineresource pop end end',
  ].join('\n');
  return [
    { body: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>' },
    { body: '<< >>', stream: map },
  ];
}
